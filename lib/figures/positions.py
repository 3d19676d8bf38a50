"""Figures of chapter 2: a bag of words, seat numbers, a learned position table added to the
word vector, and the tiny encoder with and without positions."""
from __future__ import annotations

from collections import Counter

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyBboxPatch

from ..book import tr
from .embeddings import _matrix

_BLUE, _ORANGE, _GREY = "#34558b", "#d9822b", "#9aa5b1"
_TILE = ("#cfe0f5", "#fbd9c0", "#d5ecd0", "#eadcf3", "#f7efb6")


def _tile(ax, x, y, text, color, w=0.9, h=0.6, fontsize=12):
    ax.add_patch(FancyBboxPatch((x, y), w, h, boxstyle="round,pad=0.03", facecolor=color,
                                edgecolor="#777777", linewidth=0.7))
    ax.text(x + w / 2, y + h / 2, text, ha="center", va="center", fontsize=fontsize)


def plot_bag_of_words(first, second):
    """Two sentences in their seats (left) and their bags of words (right).

    Parameters
    ----------
    first, second : list of str
        The tokens of two sentences, e.g. ``["狗", "咬", "人"]`` and ``["人", "咬", "狗"]``.
    """
    words = sorted(set(first) | set(second), key=lambda w: (first + second).index(w))
    color = {w: _TILE[i % len(_TILE)] for i, w in enumerate(words)}
    n = max(len(first), len(second))
    fig, ax = plt.subplots(figsize=(7.5, 2.7))
    for r, sent in enumerate((first, second)):
        y = 1.2 - 1.3 * r
        for i, w in enumerate(sent):
            ax.text(i * 1.05 + 0.45, y + 0.72, tr(zh=f"{i + 1} 號", en=f"seat {i + 1}"),
                    ha="center", fontsize=8, color="#555555")
            _tile(ax, i * 1.05, y, w, color[w])
        bag = Counter(sent)
        x0 = n * 1.05 + 1.6
        for j, w in enumerate(words):
            _tile(ax, x0 + j * 1.05, y, f"{w}×{bag[w]}" if bag[w] != 1 else w, color[w])
        ax.text(x0 - 0.8, y + 0.3, "→", fontsize=16, ha="center", va="center")
    same = Counter(first) == Counter(second)
    xb = n * 1.05 + 1.6 + len(words) * 1.05 / 2 - 0.1
    ax.text(xb, 1.3 - 0.4, "=" if same else "≠", fontsize=18, ha="center", va="center",
            color=_ORANGE)
    ax.text(n * 1.05 / 2, 2.35, tr(zh="句子（有座位）", en="sentence (with seats)"),
            ha="center", fontsize=10.5)
    ax.text(xb, 2.35, tr(zh="一袋詞（沒有座位）", en="bag of words (no seats)"),
            ha="center", fontsize=10.5)
    ax.set_xlim(-0.2, n * 1.05 + 1.6 + len(words) * 1.05 + 0.1)
    ax.set_ylim(-0.3, 2.6)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    return fig


def plot_position_add(x, p, token, seat):
    """``E[token] + E_pos[seat] = input``: three rows of numbers, the notes' worked example."""
    x, p = np.asarray(x, dtype=float), np.asarray(p, dtype=float)
    d = x.shape[-1]
    cols = [f"d{j + 1}" for j in range(d)]
    fig, axes = plt.subplots(1, 3, figsize=(7.5, 1.8))
    _matrix(axes[0], x[None, :], [""], cols, highlight_row=None,
            title=tr(zh=f"詞嵌入「{token}」", en=f"word embedding “{token}”"))
    _matrix(axes[1], p[None, :], [""], cols,
            title=tr(zh=f"位置嵌入：第 {seat} 號", en=f"position embedding: seat {seat}"))
    _matrix(axes[2], (x + p)[None, :], [""], cols, highlight_row=0,
            title=tr(zh="模型的輸入", en="input to the model"))
    fig.tight_layout(w_pad=3.0)
    for left, right, sign in ((axes[0], axes[1], "+"), (axes[1], axes[2], "=")):
        xm = (left.get_position().x1 + right.get_position().x0) / 2
        fig.text(xm, 0.38, sign, fontsize=18, ha="center", va="center")
    return fig


def plot_seat(E_pos, x, token, seat):
    """One frame of the seat widget: the position table (left) and the input vector of
    ``token`` sitting in ``seat`` (right). A seat beyond the table has no row to add.

    Parameters
    ----------
    E_pos : array-like, shape [max_len, d]
    x : array-like, shape [d]
        The word embedding of ``token``.
    seat : int
        ``0 … max_len``; ``max_len`` itself shows the missing row.
    """
    E_pos, x = np.asarray(E_pos, dtype=float), np.asarray(x, dtype=float)
    n, d = E_pos.shape
    fig, (ax_t, ax_b) = plt.subplots(1, 2, figsize=(7.5, 3.4),
                                     gridspec_kw={"width_ratios": [1, 1.5]})
    seen = 0 <= seat < n
    shown = np.vstack([E_pos, np.full((1, d), np.nan)])      # one row past the table
    cmap = plt.get_cmap("RdBu_r").with_extremes(bad="#eeeeee")  # the missing row: grey
    ax_t.imshow(shown, cmap=cmap, vmin=-0.5, vmax=0.5, aspect="auto")
    ax_t.set_yticks(range(n + 1), [str(i) for i in range(n)] + [f"{n} ?"], fontsize=8)
    ax_t.set_xticks(range(d), [f"d{j + 1}" for j in range(d)], fontsize=8)
    ax_t.add_patch(plt.Rectangle((-0.5, seat - 0.5), d, 1, fill=False, edgecolor=_ORANGE,
                                 linewidth=2.5))
    ax_t.set_title(tr(zh="位置嵌入表 E_pos", en="position table E_pos"), fontsize=10)
    ax_t.set_ylabel(tr(zh="座位號碼", en="seat number"), fontsize=9)
    idx = np.arange(d)
    ax_b.bar(idx - 0.2, x, 0.4, color=_GREY, label=tr(zh=f"「{token}」的詞嵌入",
                                                        en=f"embedding of “{token}”"))
    if seen:
        ax_b.bar(idx + 0.2, x + E_pos[seat], 0.4, color=_ORANGE,
                 label=tr(zh=f"坐在第 {seat} 號的輸入", en=f"input in seat {seat}"))
        title = tr(zh=f"「{token}」坐在第 {seat} 號", en=f"“{token}” in seat {seat}")
    else:
        ax_b.text(d / 2 - 0.5, 0.95, tr(zh="這個座位訓練時沒出現過：\n表裡沒有這一列可查",
                                       en="This seat never occurred in training:\nthe table has no row for it"),
                  ha="center", va="center", fontsize=10, color="#aa3333")
        title = tr(zh=f"第 {seat} 號：查不到", en=f"seat {seat}: nothing to look up")
    ax_b.set_xticks(idx, [f"d{j + 1}" for j in range(d)])
    ax_b.set_ylim(-0.3, 1.2)
    ax_b.axhline(0, color="black", linewidth=0.6)
    ax_b.legend(frameon=False, fontsize=8.5, loc="upper left")
    ax_b.set_title(title, fontsize=10)
    ax_b.spines[["top", "right"]].set_visible(False)
    # fixed margins: the same layout in every frame, and no tight_layout pass per frame
    fig.subplots_adjust(left=0.09, right=0.98, bottom=0.09, top=0.91, wspace=0.2)
    return fig


def plot_ablation(accuracy, chance=0.5):
    """Held-out accuracy of the tiny encoder, with and without position embeddings.

    Parameters
    ----------
    accuracy : dict str -> dict str -> float
        ``{model label: {language label: accuracy in [0, 1]}}``.
    chance : float
        Drawn as a dashed line: what guessing scores.
    """
    models = list(accuracy)
    langs = list(next(iter(accuracy.values())))
    x = np.arange(len(langs))
    w = 0.8 / len(models)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for m, (model, color) in enumerate(zip(models, (_ORANGE, _GREY, _BLUE))):
        vals = [accuracy[model][lang] for lang in langs]
        bars = ax.bar(x - 0.4 + w * (m + 0.5), vals, w, color=color, label=model)
        ax.bar_label(bars, labels=[f"{v:.0%}" for v in vals], fontsize=9, padding=2)
    ax.axhline(chance, color="black", linestyle="--", linewidth=1)
    ax.text(1.01, chance, tr(zh="亂猜", en="chance"), fontsize=9, ha="left", va="center",
            transform=ax.get_yaxis_transform())          # right of the axes, clear of the bars
    ax.set_xticks(x, langs)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel(tr(zh="沒看過的句子答對的比例", en="accuracy on held-out sentences"))
    ax.legend(frameon=False, fontsize=9, loc="upper center", ncol=len(models),
              bbox_to_anchor=(0.5, 1.18))
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def plot_position_change(change, n_seen):
    """How far each row of a trained position table moved from its random start.

    Parameters
    ----------
    change : array-like, shape [max_len]
        ``‖P_trained[i] − P_start[i]‖ / ‖P_start[i]‖`` for every seat ``i``.
    n_seen : int
        Seats ``0 … n_seen − 1`` occurred in training; the others never did.
    """
    change = np.asarray(change, dtype=float)
    seats = np.arange(change.size)
    seen = seats < n_seen
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.bar(seats[seen], change[seen], color=_ORANGE,
           label=tr(zh="訓練時坐過的座位", en="seats used in training"))
    ax.bar(seats[~seen], change[~seen], color=_GREY,
           label=tr(zh="從沒坐過的座位", en="seats never used"))
    ax.set_xticks(seats)
    ax.set_xlabel(tr(zh="座位號碼", en="seat number"))
    ax.set_ylabel(tr(zh="訓練前後的相對變化", en="relative change in training"))
    ax.set_title(tr(zh="小編碼器的位置表：每一列被訓練改了多少",
                    en="The tiny encoder's position table: how much training moved each row"),
                 fontsize=10)
    ax.legend(frameon=False, fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig
