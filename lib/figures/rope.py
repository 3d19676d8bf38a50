"""Figures of chapter 3's "positions inside the dot product": the sinusoidal encoding as a clock,
its table and its distance-only dot products, and the RoPE widget.

Every value drawn comes from ``lib.sinusoidal_encoding`` and ``lib.rope``; labels from ``lib.tr``.
"""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..book import tr
from ..positions import angular_speeds, rope, sinusoidal_encoding

BLUE, ORANGE, GREY = "#34558b", "#d9822b", "#9a9a9a"
HAND_STYLE = ((0.95, 1.2, "#b03030"), (0.75, 2.2, BLUE), (0.55, 3.4, "#222222"))  # length, width, colour

__all__ = ["plot_clock", "plot_encoding_table", "rope_scores", "draw_rope", "rope_widget",
           "plot_rope_distance"]


def _hand_names():
    return (tr(zh="秒針", en="second hand"), tr(zh="分針", en="minute hand"),
            tr(zh="時針", en="hour hand"))


def plot_clock(positions, d=6, base=10000.0):
    """One clock face per position; pair ``k`` of the encoding is a hand.

    The pair ``(sin pω_k, cos pω_k)`` read as ``(x, y)`` is a hand that starts at 12 o'clock and
    turns clockwise by ``ω_k`` per position: ``k = 0`` is the second hand, the last pair the
    hour hand. ``d`` must be even; ``d = 6`` gives three hands.
    """
    positions = list(positions)
    pe = sinusoidal_encoding(positions, d, base)                       # [N, d]
    n_hands = d // 2
    fig, axes = plt.subplots(1, len(positions), figsize=(min(8, 1.9 * len(positions)), 2.3))
    names = _hand_names()
    for ax, p, row in zip(np.atleast_1d(axes), positions, pe):
        ax.add_patch(plt.Circle((0, 0), 1, fill=False, color=GREY))
        for t in range(12):
            a = 2 * np.pi * t / 12
            ax.plot([0.9 * np.sin(a), np.sin(a)], [0.9 * np.cos(a), np.cos(a)], color=GREY, lw=0.8)
        for k in range(n_hands):
            length, width, colour = HAND_STYLE[min(k, 2)] if n_hands <= 3 else (
                0.95 - 0.4 * k / (n_hands - 1), 1 + 2.4 * k / (n_hands - 1), plt.cm.viridis(k / n_hands))
            x, y = row[2 * k], row[2 * k + 1]                           # sin, cos
            ax.plot([0, length * x], [0, length * y], color=colour, lw=width, solid_capstyle="round",
                    label=names[k] if n_hands <= 3 and k < 3 else None)
        ax.set_xlim(-1.1, 1.1)
        ax.set_ylim(-1.1, 1.1)
        ax.set_aspect("equal")
        ax.axis("off")
        ax.set_title(tr(zh=f"第 {p} 號", en=f"position {p}"), fontsize=9)
    # fixed margins (the clock faces need no tick labels): cheaper than tight_layout
    fig.subplots_adjust(left=0.01, right=0.99, top=0.88, bottom=0.14 if n_hands <= 3 else 0.02,
                        wspace=0.08)
    if n_hands <= 3:
        handles, labels = np.atleast_1d(axes)[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=n_hands, fontsize=8, frameon=False)
    return fig


def plot_encoding_table(n_positions=64, d=32, base=10000.0):
    """Heatmap of the sinusoidal table ``PE`` [n_positions, d], beside ``PE PEᵀ``.

    The second panel's constant diagonals show that ``PE[p] · PE[p']`` depends only on
    ``p − p'``.
    """
    pe = sinusoidal_encoding(np.arange(n_positions), d, base)          # [N, d]
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.6), gridspec_kw={"width_ratios": [1, 1.25]})
    im = axes[0].imshow(pe, aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1)
    axes[0].set_xlabel(tr(zh="維度（左快右慢）", en="dimension (fast → slow)"), fontsize=8)
    axes[0].set_ylabel(tr(zh="位置", en="position"), fontsize=8)
    axes[0].set_title(tr(zh=f"正弦編碼表（d = {d}）", en=f"sinusoidal table (d = {d})"), fontsize=9)
    fig.colorbar(im, ax=axes[0], fraction=0.05)
    im = axes[1].imshow(pe @ pe.T, cmap="viridis")
    axes[1].set_xlabel(tr(zh="位置 p′", en="position p′"), fontsize=8)
    axes[1].set_ylabel(tr(zh="位置 p", en="position p"), fontsize=8)
    axes[1].set_title(tr(zh="內積 PE[p]·PE[p′]：只看距離", en="PE[p]·PE[p′]: only the distance counts"),
                      fontsize=9)
    fig.colorbar(im, ax=axes[1], fraction=0.05)
    fig.tight_layout()
    return fig


def rope_scores(q, k, distances, theta):
    """``rope(q, m) · rope(k, n)`` for each distance ``m − n`` (with ``n = 0``)."""
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    k0 = rope(k, 0, theta=theta)                                       # [d]
    return np.array([rope(q, m, theta=theta) @ k0 for m in distances])


def _arrow(ax, v, colour, alpha=1.0, ls="-", label=None):
    """An arrow from the origin to ``v`` (and its label beyond the tip); returns its artists."""
    artists = [ax.annotate("", xy=v, xytext=(0, 0),
                           arrowprops=dict(arrowstyle="-|>", color=colour, lw=2, alpha=alpha,
                                           ls=ls))]
    if label:
        artists.append(ax.text(v[0] * 1.15, v[1] * 1.15, label, color=colour, alpha=alpha,
                               fontsize=9, ha="center", va="center"))
    return artists


def _rope_background(fig, angle, q, k, max_distance):
    """What a frame of the RoPE widget shares with every frame at the same angle: the unrotated
    arrows (faded) and the score-against-distance curve."""
    theta = np.deg2rad(angle)
    axes = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.35]})

    ax = axes[0]
    r = 1.7 * max(np.linalg.norm(q), np.linalg.norm(k))    # room for the labels beyond the tips
    ax.add_patch(plt.Circle((0, 0), np.linalg.norm(q), fill=False, color=GREY, lw=0.5, ls=":"))
    ax.add_patch(plt.Circle((0, 0), np.linalg.norm(k), fill=False, color=GREY, lw=0.5, ls=":"))
    _arrow(ax, q, BLUE, alpha=0.3, ls="--")
    _arrow(ax, k, ORANGE, alpha=0.3, ls="--")
    ax.set_xlim(-r, r)
    ax.set_ylim(-r, r)
    ax.set_aspect("equal")
    ax.axhline(0, color=GREY, lw=0.5)
    ax.axvline(0, color=GREY, lw=0.5)
    ax.set_xticks([])
    ax.set_yticks([])

    ax = axes[1]
    dist = np.arange(-max_distance, max_distance + 1)
    ax.plot(dist, rope_scores(q, k, dist, theta), "o-", color=GREY, ms=3, lw=1)
    ax.axhline(float(q @ k), color=GREY, ls=":", lw=1)
    ax.text(dist[0], float(q @ k), tr(zh=" 不轉時", en=" unrotated"), fontsize=7, va="bottom",
            color="#555555")
    ax.set_xlabel(tr(zh="距離 m − n", en="distance m − n"), fontsize=8)
    ax.set_ylabel("q·k", fontsize=8)
    lim = np.linalg.norm(q) * np.linalg.norm(k)
    ax.set_ylim(-1.1 * lim, 1.1 * lim)
    ax.set_yticks(np.round([-lim, 0, lim], 2))
    ax.set_xticks(np.linspace(-max_distance, max_distance, 5))   # few ticks: cheaper frames
    ax.grid(alpha=0.3)
    ax.set_title(tr(zh="分數只看距離", en="the score depends only on the distance"), fontsize=9)
    # fixed margins: tight_layout would cost more than the drawing itself, for every frame
    fig.subplots_adjust(left=0.02, right=0.98, bottom=0.14, top=0.9, wspace=0.15)


def _rope_foreground(fig, angle, m, n, q, k):
    """What changes with the positions: the rotated arrows, the circled point, the title.
    Returns the artists it added."""
    theta = np.deg2rad(angle)
    q_rot, k_rot = rope(q, m, theta=theta), rope(k, n, theta=theta)   # [2], [2]
    score = float(q_rot @ k_rot)
    left, right = fig.axes
    artists = _arrow(left, q_rot, BLUE, label=f"q (m={m})") + _arrow(left, k_rot, ORANGE,
                                                                      label=f"k (n={n})")
    artists += right.plot([m - n], [score], "o", ms=11, mfc="none", mec=BLUE, mew=2)
    left.set_title(tr(zh=f"每個位置轉 {angle}°：q·k = {score:.3f}",
                      en=f"{angle}° per position: q·k = {score:.3f}"), fontsize=9)
    return artists


def draw_rope(angle, m, n, q=(1.0, 2.0), k=(2.0, 1.0), max_distance=12):
    """One frame of the RoPE widget.

    Left: ``q`` (at position ``m``) and ``k`` (at position ``n``) before rotation (faded) and
    after (solid), each turned ``position · angle`` degrees; their dot product. Right: the score
    against the distance ``m − n`` for this angle, the current distance circled.
    """
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    fig = plt.figure(figsize=(8, 3.5))
    _rope_background(fig, angle, q, k, max_distance)
    _rope_foreground(fig, angle, m, n, q, k)
    return fig


class _RopeFrames:
    """The widget's frames, drawn on one reused figure per angle: between two frames at the same
    angle only the rotated arrows, the circled point and the title change. Reusing the figure
    (and the text measurements matplotlib caches with it) draws the same pixels as
    :func:`draw_rope`, in less time."""

    def __init__(self, q=(1.0, 2.0), k=(2.0, 1.0), max_distance=12):
        self.q, self.k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
        self.max_distance = max_distance
        self._figs, self._changing = {}, {}

    def draw(self, angle, m, n):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        if angle not in self._figs:                  # not through pyplot: the widget closes it
            fig = Figure(figsize=(8, 3.5))
            FigureCanvasAgg(fig)
            _rope_background(fig, angle, self.q, self.k, self.max_distance)
            self._figs[angle], self._changing[angle] = fig, []
        for artist in self._changing[angle]:
            artist.remove()
        fig = self._figs[angle]
        self._changing[angle] = _rope_foreground(fig, angle, m, n, self.q, self.k)
        return fig


def rope_widget(angles=(15, 30), ms=(1, 2, 3, 7), ns=(1, 5), start=(30, 3, 1)):
    """The RoPE widget: angle per position, the query's and the key's positions on sliders.

    The default grid (2 × 4 × 2 = 16 frames, each drawn in about 0.17 s) holds every pair of the
    notes at 30°: (1, 1), (2, 1), (3, 1) and (7, 5) (the last two at the same distance), and
    negative distances such as (3, 5); halving the angle doubles the period of the score. It
    opens at ``start`` = (angle, m, n), the notes' 30° with q at 3 and k at 1.
    """
    from .. import widgets
    from .attention import open_at

    params = {"angle": list(angles), "m": list(ms), "n": list(ns)}
    box = widgets.frames_widget(
        _RopeFrames().draw, params,
        labels={"angle": tr(zh="每位置角度（°）", en="degrees per position"),
                "m": tr(zh="q 的位置 m", en="q's position m"),
                "n": tr(zh="k 的位置 n", en="k's position n")})
    return open_at(box, params, **dict(zip(params, start)))


def plot_rope_distance(d=64, max_distance=200, base=10000.0, theta_deg=30):
    """The score of ``q = k = (1, …, 1)`` against distance: 30° per position in 2-D (turns back
    every 12 positions) vs real RoPE's speeds ``ω_k`` in ``d`` dimensions (normalised by ``d``).
    """
    dist = np.arange(max_distance + 1)
    toy = rope_scores(np.ones(2), np.ones(2), dist, np.deg2rad(theta_deg)) / 2
    real = rope_scores(np.ones(d), np.ones(d), dist, angular_speeds(d, base)) / d
    fig, ax = plt.subplots(figsize=(7, 2.8))
    ax.plot(dist, toy, color=GREY, lw=1, label=tr(zh=f"二維、每位置 {theta_deg}°",
                                                  en=f"2-D, {theta_deg}° per position"))
    ax.plot(dist, real, color=BLUE, lw=2, label=tr(zh=f"真正的 RoPE（d = {d}，ω_k）",
                                                   en=f"real RoPE (d = {d}, ω_k)"))
    ax.set_xlabel(tr(zh="距離 m − n", en="distance m − n"), fontsize=8)
    ax.set_ylabel(tr(zh="q·k ÷ d", en="q·k ÷ d"), fontsize=8)
    ax.legend(fontsize=8, frameon=True, loc="lower right", framealpha=0.9)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
