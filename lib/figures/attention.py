"""Figures of chapter 3 (self-attention): the worked example, the √d_k scaling widget, the causal
mask, and the dog-bites-man test of permutation equivariance.

Every number drawn comes from ``lib`` (``scaled_dot_product_attention``, ``softmax``,
``causal_mask``); these functions only lay it out. Labels come from ``lib.tr``.
"""
from __future__ import annotations

import functools

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import ListedColormap

from ..attention import causal_mask, scaled_dot_product_attention, softmax
from ..book import tr

BLUE, ORANGE, GREY, GREEN = "#34558b", "#d9822b", "#9a9a9a", "#3a8a5c"

__all__ = ["plot_worked_example", "entropy_bits", "scaling_frame_data", "draw_scaling",
           "scaling_widget", "open_at", "plot_masks", "plot_sentence_masks", "plot_word_order",
           "plot_pronoun_rows"]


def plot_worked_example(q, K, V, tokens):
    """The four steps for one query: raw and scaled scores, the weights, and the weighted sum.

    Parameters
    ----------
    q : array-like, shape [d_k]
        The query of one token.
    K : array-like, shape [N, d_k]
    V : array-like, shape [N, 2]
        Two-dimensional values, so the last panel can draw them as arrows.
    tokens : list of str, length N
    """
    q, K, V = (np.asarray(a, dtype=float) for a in (q, K, V))
    if V.shape[-1] != 2:
        raise ValueError(f"V must have 2 columns to be drawn as arrows, got shape {V.shape}")
    out, w = scaled_dot_product_attention(q[None, :], K, V)            # [1, 2], [1, N]
    out, w = out[0], w[0]
    raw = K @ q                                                        # [N]
    scaled = raw / np.sqrt(K.shape[-1])                                # [N]
    x = np.arange(len(tokens))
    fig, axes = plt.subplots(1, 3, figsize=(8, 2.9), gridspec_kw={"width_ratios": [1.1, 1, 1]})

    ax = axes[0]
    ax.bar(x - 0.2, raw, 0.4, color=GREY, label=tr(zh="① 內積 q·k", en="① dot product q·k"))
    ax.bar(x + 0.2, scaled, 0.4, color=BLUE, label=tr(zh="② 除以 √d_k", en="② divided by √d_k"))
    for xi, r, s in zip(x, raw, scaled):
        ax.text(xi - 0.2, r, f"{r:g}", ha="center", va="bottom", fontsize=8)
        ax.text(xi + 0.2, s, f"{s:.2f}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x, tokens)
    ax.set_ylim(0, raw.max() * 1.3)
    ax.set_title(tr(zh="分數", en="Scores"), fontsize=10)
    ax.legend(fontsize=7, loc="upper right", frameon=False)

    ax = axes[1]
    ax.bar(x, w, color=ORANGE)
    for xi, wi in zip(x, w):
        ax.text(xi, wi, f"{wi:.2f}", ha="center", va="bottom", fontsize=8)
    ax.set_xticks(x, tokens)
    ax.set_ylim(0, 1.1)
    ax.set_title(tr(zh="③ softmax 權重", en="③ softmax weights"), fontsize=10)

    ax = axes[2]
    for tok, v, wi in zip(tokens, V, w):
        ax.annotate("", xy=v, xytext=(0, 0), arrowprops=dict(arrowstyle="-|>", color=GREY, lw=1))
        if v[1] < 0.15:                      # a value along the x axis: label it below the tip
            ax.text(v[0], v[1] - 0.06, f"{tok} ({wi:.2f})", fontsize=8, color="#555555",
                    ha="center", va="top")
        else:
            ax.text(v[0] + 0.03, v[1] + 0.03, f"{tok} ({wi:.2f})", fontsize=8, color="#555555")
    ax.annotate("", xy=out, xytext=(0, 0), arrowprops=dict(arrowstyle="-|>", color=ORANGE, lw=2.2))
    ax.text(out[0], out[1] + 0.07, f"[{out[0]:.2f}, {out[1]:.2f}]", fontsize=8, color=ORANGE,
            ha="center", va="bottom")        # above the tip, clear of the values' labels
    ax.set_xlim(-0.1, 1.35)
    ax.set_ylim(-0.3, 1.2)
    ax.set_aspect("equal")
    ax.set_title(tr(zh="④ 值向量的加權總和", en="④ weighted sum of values"), fontsize=10)
    fig.tight_layout()
    return fig


def entropy_bits(weights, axis=-1):
    """Entropy ``−Σ α log₂ α`` of attention weights, in bits (0 · log 0 counts as 0)."""
    w = np.asarray(weights, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(w > 0, -w * np.log2(w), 0.0)
    return terms.sum(axis=axis)


def scaling_frame_data(d_k, scaled, n_keys=8, n_samples=2000, seed=0):
    """What one frame of the √d_k widget shows, from unit-variance random queries and keys.

    Returns a dict with ``scores`` [n_samples] (sampled q·k, divided by √d_k when ``scaled``),
    ``weights`` [n_keys] (softmax over one query's scores against ``n_keys`` keys) and
    ``entropy`` (their entropy in bits, averaged over ``n_samples // n_keys`` queries).
    """
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n_samples // n_keys, 1, d_k))           # [M, 1, d_k]
    k = rng.standard_normal((n_samples // n_keys, n_keys, d_k))      # [M, n_keys, d_k]
    scores = (q * k).sum(-1)                                          # [M, n_keys]
    if scaled:
        scores = scores / np.sqrt(d_k)
    w = softmax(scores)                                               # [M, n_keys]
    return {"scores": scores.ravel(), "weights": w[0], "entropy": float(entropy_bits(w).mean()),
            "n_keys": n_keys}


def _scaling_background(fig, scaled, d_ks, n_keys):
    """What every frame with the same ``scaled`` shares: the axes, and the entropy curves."""
    axes = fig.subplots(1, 3)
    lim = 4 * np.sqrt(max(d_ks))

    ax = axes[0]
    ax.set_xlim(-lim, lim)
    ax.set_xticks([-40, 0, 40])                 # few ticks: each one costs time in every frame
    ax.set_yticks([])

    ax = axes[1]
    ax.set_ylim(0, 1)
    ax.set_yticks([0, 0.5, 1])
    ax.set_xticks([1, n_keys])
    ax.set_xlabel(tr(zh=f"{n_keys} 個鍵", en=f"{n_keys} keys"), fontsize=8)
    ax.set_title(tr(zh="一個查詢的 softmax 權重", en="one query's softmax weights"), fontsize=9)

    ax = axes[2]
    x = np.arange(len(d_ks))                     # d_k on evenly spaced ticks (cheaper than a log axis)
    for s, c in ((False, ORANGE), (True, BLUE)):
        ax.plot(x, _entropy_curve(tuple(d_ks), s, n_keys), "o-", color=c,
                alpha=1 if s == scaled else 0.35, ms=4,
                label=tr(zh="除以 √d_k", en="÷ √d_k") if s else tr(zh="不縮放", en="unscaled"))
    ax.axhline(np.log2(n_keys), color=GREY, ls=":", lw=1)
    ax.set_xticks(x, [str(v) for v in d_ks], fontsize=8)
    ax.set_ylim(0, np.log2(n_keys) * 1.08)
    ax.set_yticks(range(int(np.log2(n_keys)) + 1))
    ax.set_xlabel("d_k", fontsize=8)
    ax.set_title(tr(zh="平均熵（位元）", en="mean entropy (bits)"), fontsize=9)
    ax.legend(fontsize=7, frameon=False, loc="lower left")
    # fixed margins: tight_layout would cost more than the drawing itself, for every frame
    fig.subplots_adjust(left=0.03, right=0.98, bottom=0.17, top=0.8, wspace=0.25)


def _scaling_foreground(fig, d_k, scaled, d_ks, n_keys):
    """What changes with d_k: the scores' histogram, the weights, the circled entropy, the
    titles. Returns the artists it added."""
    data = scaling_frame_data(d_k, scaled, n_keys=n_keys)
    colour = BLUE if scaled else ORANGE
    label = tr(zh="除以 √d_k", en="divided by √d_k") if scaled else tr(zh="不縮放", en="unscaled")
    hist, bars, entropy = fig.axes
    lim = 4 * np.sqrt(max(d_ks))
    counts, edges = np.histogram(data["scores"], bins=np.linspace(-lim, lim, 61))
    artists = [hist.stairs(counts, edges, fill=True, color=colour)]   # one artist, not 60 bars
    hist.relim()
    hist.autoscale_view(scalex=False)
    hist.set_title(tr(zh=f"分數的分布（標準差 {data['scores'].std():.1f}）",
                      en=f"spread of scores (std {data['scores'].std():.1f})"), fontsize=9)
    artists += list(bars.bar(np.arange(1, n_keys + 1), data["weights"], color=colour))
    if d_k in d_ks:
        artists += entropy.plot([list(d_ks).index(d_k)], [data["entropy"]], "o", ms=11,
                                mfc="none", mec="black")
    artists.append(fig.suptitle(f"d_k = {d_k} · {label}", fontsize=10))
    return artists


def draw_scaling(d_k, scaled, d_ks=(4, 16, 64, 256), n_keys=8):
    """One frame of the √d_k widget: spread of q·k, one query's weights, entropy against d_k."""
    fig = plt.figure(figsize=(8, 2.8))
    _scaling_background(fig, scaled, tuple(d_ks), n_keys)
    _scaling_foreground(fig, d_k, scaled, tuple(d_ks), n_keys)
    return fig


class _ScalingFrames:
    """The √d_k widget's frames on one reused figure per setting of the scaling switch (same
    pixels as :func:`draw_scaling`, less time: see ``rope._RopeFrames``)."""

    def __init__(self, d_ks=(4, 16, 64, 256), n_keys=8):
        self.d_ks, self.n_keys = tuple(d_ks), n_keys
        self._figs, self._changing = {}, {}

    def draw(self, d_k, scaled):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        if scaled not in self._figs:                 # not through pyplot: the widget closes it
            fig = Figure(figsize=(8, 2.8))
            FigureCanvasAgg(fig)
            _scaling_background(fig, scaled, self.d_ks, self.n_keys)
            self._figs[scaled], self._changing[scaled] = fig, []
        for artist in self._changing[scaled]:
            artist.remove()
        self._changing[scaled] = _scaling_foreground(self._figs[scaled], d_k, scaled, self.d_ks,
                                                     self.n_keys)
        return self._figs[scaled]


@functools.lru_cache(maxsize=None)
def _entropy_curve(d_ks, scaled, n_keys):
    """Mean entropy of the weights for every d_k in ``d_ks`` (the same in every frame)."""
    return [scaling_frame_data(dk, scaled, n_keys=n_keys, n_samples=800)["entropy"] for dk in d_ks]


def open_at(box, params, **values):
    """Show the frame of ``values`` first: move each control and the stacks it is jslinked to.

    ``box`` is what ``lib.widgets.frames_widget`` returned for ``params``; names not given keep
    their first value. Returns ``box``.
    """
    for level, (name, options) in enumerate(params.items()):
        if name in values and values[name] in list(options):
            k = list(options).index(values[name])
            box.controls[name].index = k
            for stack in box.stacks[level] if box.stacks else []:
                stack.selected_index = k
    return box


def scaling_widget(d_ks=(4, 16, 64, 256), start=64):
    """The √d_k widget: d_k on a slider, scaling on/off as two buttons; every frame precomputed,
    so it answers its controls on the static website too. Opens at ``d_k = start``, unscaled."""
    from .. import widgets

    d_ks = tuple(d_ks)
    off, on = tr(zh="不縮放", en="unscaled"), tr(zh="除以 √d_k", en="divided by √d_k")
    params = {"d_k": list(d_ks), "scaling": [off, on]}
    frames = _ScalingFrames(d_ks)
    box = widgets.frames_widget(
        lambda d_k, scaling: frames.draw(d_k, scaling == on), params,
        labels={"d_k": "d_k", "scaling": tr(zh="縮放", en="scaling")})
    return open_at(box, params, d_k=start)


def _annotated_heatmap(ax, M, tokens, cmap, fmt, title, vmax=1.0):
    ax.imshow(np.asarray(M, dtype=float), cmap=cmap, vmin=0, vmax=vmax)
    n = len(tokens)
    for i in range(n):
        for j in range(n):
            v = M[i, j]
            txt = fmt(v)
            ax.text(j, i, txt, ha="center", va="center", fontsize=8,
                    color="white" if float(v) > 0.55 * vmax else "black")
    ax.set_xticks(range(n), tokens, fontsize=8)
    ax.set_yticks(range(n), tokens, fontsize=8)
    ax.set_xlabel(tr(zh="鍵（被看的詞）", en="key (looked at)"), fontsize=8)
    ax.set_title(title, fontsize=9)


def plot_masks(weights_bidirectional, weights_causal, tokens):
    """The causal mask as a picture, beside the weights without and with it.

    Parameters
    ----------
    weights_bidirectional, weights_causal : array-like, shape [N, N]
    tokens : list of str, length N
    """
    wb = np.asarray(weights_bidirectional, dtype=float)
    wc = np.asarray(weights_causal, dtype=float)
    n = len(tokens)
    mask = causal_mask(n)
    fig, axes = plt.subplots(1, 3, figsize=(8, 2.9))
    _annotated_heatmap(axes[0], mask.astype(float), tokens, "Greys",
                       lambda v: "✓" if v else "−∞", tr(zh="因果遮罩", en="causal mask"))
    _annotated_heatmap(axes[1], wb, tokens, "Blues", lambda v: f"{v:.2f}",
                       tr(zh="雙向：權重", en="bidirectional: weights"))
    _annotated_heatmap(axes[2], wc, tokens, "Blues", lambda v: f"{v:.2f}",
                       tr(zh="因果：權重", en="causal: weights"))
    axes[0].set_ylabel(tr(zh="查詢（正在讀的詞）", en="query (reading)"), fontsize=8)
    fig.tight_layout()
    return fig


def plot_sentence_masks(tokens, query, key):
    """What one query may see in the whole sentence, bidirectional vs causal.

    Row ``query`` (e.g. 它/it) is outlined; the cell (``query``, ``key``) (e.g. 大/big) is
    marked: visible without the mask, hidden with it when ``key > query``.
    """
    n = len(tokens)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.9))
    cmap = ListedColormap(["#ffffff", "#bcd0ea"])              # hidden, visible
    for ax, causal, title in ((axes[0], False, tr(zh="雙向（編碼器）", en="bidirectional (encoder)")),
                              (axes[1], True, tr(zh="因果（解碼器、GPT）", en="causal (decoder, GPT)"))):
        seen = causal_mask(n) if causal else np.ones((n, n), dtype=bool)
        ax.imshow(seen, cmap=cmap, vmin=0, vmax=1)
        ax.set_xticks(np.arange(-0.5, n), minor=True)
        ax.set_yticks(np.arange(-0.5, n), minor=True)
        ax.grid(which="minor", color="#dddddd", lw=0.5)
        ax.tick_params(which="minor", length=0)
        ax.add_patch(plt.Rectangle((-0.5, query - 0.5), n, 1, fill=False, ec=ORANGE, lw=2))
        visible = bool(seen[query, key])
        ax.text(key, query, "✓" if visible else "✗", ha="center", va="center", fontsize=13,
                color=GREEN if visible else "#b03030", weight="bold")
        ax.set_xticks(range(n), tokens, rotation=60, fontsize=8)
        ax.set_yticks(range(n), tokens, fontsize=8)
        ax.set_xlabel(tr(zh="鍵（被看的詞）", en="key (looked at)"), fontsize=8)
        ax.set_title(title, fontsize=10)
    axes[0].set_ylabel(tr(zh="查詢（正在讀的詞）", en="query (reading)"), fontsize=8)
    fig.tight_layout()
    return fig


def plot_word_order(cases, token="咬"):
    """The dog-bites-man test: the output of one token for two word orders, without and with
    positions.

    Parameters
    ----------
    cases : dict
        ``{panel title: {sentence: output vector [2]}}``, two panels of two sentences each.
    token : str
        The token whose output is drawn (for the legend).
    """
    fig, axes = plt.subplots(1, len(cases), figsize=(8, 3.4), sharex=True, sharey=True)
    for ax, (title, outs) in zip(np.atleast_1d(axes), cases.items()):
        for (sentence, v), c, m, size in zip(outs.items(), (BLUE, ORANGE), ("o", "x"), (140, 90)):
            v = np.asarray(v, dtype=float)
            ax.annotate("", xy=v, xytext=(0, 0), arrowprops=dict(arrowstyle="-|>", color=c,
                                                               lw=1.5, alpha=0.7))
            ax.scatter([v[0]], [v[1]], marker=m, s=size, color=c, zorder=3,
                       label=f"{sentence}: [{v[0]:.3f}, {v[1]:.3f}]",
                       facecolors="none" if m == "o" else c)
        ax.set_title(title, fontsize=10)
        ax.set_xlim(-0.05, 1.0)
        ax.set_ylim(-0.05, 1.0)
        ax.set_aspect("equal")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8, loc="lower right", title=tr(zh=f"「{token}」的輸出", en=f"output of “{token}”"),
                  title_fontsize=8)
    fig.tight_layout()
    return fig


def plot_pronoun_rows(sentences, rows, nouns, titles):
    """Where the pronoun draws from, in each sentence of a Winograd pair (one panel each).

    Parameters
    ----------
    sentences : two lists of str
        The tokens of the "too big" and the "too small" sentence.
    rows : two array-likes, shape [N]
        The pronoun's row of an attention map (e.g. ``lib.attention_rollout``) in each sentence.
    nouns : two str
        The candidate nouns, drawn in blue and orange; every other token grey.
    titles : two str
    """
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.1), sharey=True)
    for ax, tokens, row, title in zip(axes, sentences, rows, titles):
        row = np.asarray(row, dtype=float)
        colours = [BLUE if t == nouns[0] else ORANGE if t == nouns[1] else GREY for t in tokens]
        ax.bar(range(len(tokens)), row, color=colours)
        for i, t in enumerate(tokens):
            if t in nouns:
                ax.text(i, row[i], f"{row[i]:.2f}", ha="center", va="bottom", fontsize=8)
        ax.set_xticks(range(len(tokens)), tokens, rotation=60, fontsize=8)
        ax.set_title(title, fontsize=9)
        ax.set_ylim(0, max(0.45, float(row.max()) * 1.2))
    axes[0].set_ylabel(tr(zh="權重", en="weight"), fontsize=8)
    fig.tight_layout()
    return fig
