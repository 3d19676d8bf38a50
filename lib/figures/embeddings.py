"""Figures of chapter 1: how a tokenizer cuts text, the lookup ``one_hot @ E``, the coordinate
dictionary, and token counts of the same content in two languages."""
from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.patches import FancyBboxPatch, Rectangle

from ..book import tr

_PALETTE = ("#cfe0f5", "#fbd9c0", "#d5ecd0", "#eadcf3", "#f7efb6", "#f5cfd8")
_BLUE, _ORANGE = "#34558b", "#d9822b"
_HOT_TEXT = "#b3541e"   # numbers of the highlighted row (the CJK font has no bold weight)


def _visible(piece: str) -> str:
    """Spaces drawn as a middle dot, so a leading space in " the" stays visible."""
    return piece.replace(" ", "·").replace("\n", "⏎")


def _token_layout(rows, max_units):
    """Wrap each row's tiles into lines no wider than ``max_units`` character cells."""
    layout, n_lines = [], 0
    for label, pieces in rows:
        lines, line, used = [], [], 0.0
        for p in pieces:
            w = _tile_width(_visible(p))
            if used + w > max_units and line:
                lines.append(line)
                line, used = [], 0.0
            line.append((p, w))
            used += w + 0.35
        lines.append(line)
        layout.append((label, pieces, lines))
        n_lines += len(lines)
    return layout, n_lines


def plot_tokens(rows, width=8.0, min_lines=0, title=None):
    """Each row: a label and the token pieces of one sentence, drawn as coloured tiles.

    Parameters
    ----------
    rows : list of (str, list of str)
        ``(label, pieces)``; the pieces of one sentence in order (e.g. ``BPE.pieces(text)``).
    width : float
        Figure width in inches; long rows wrap onto further lines.
    min_lines : int
        Reserve at least this many lines of tiles (frames of a widget keep one height).
    title : str, optional
        A line above the rows (a widget frame says how many merges it shows).

    Returns
    -------
    matplotlib.figure.Figure
    """
    unit = 0.16                                   # inches per character cell
    max_units = (width - 1.6) / unit
    layout, n_lines = _token_layout(rows, max_units)
    n_lines = max(n_lines, min_lines)
    top = 0.5 if title else 0.0
    fig, ax = plt.subplots(figsize=(width, 0.55 * n_lines + 0.5 * len(rows) + 0.2 + top))
    y = 0.0
    if title:
        ax.text(0, y - 0.05, title, fontsize=11, color="black", va="top")
        y -= top
    for r, (label, pieces, lines) in enumerate(layout):
        n = len(pieces)
        ax.text(0, y - 0.1, tr(zh=f"{label}（共 {n} 個詞元）", en=f"{label} ({n} tokens)"),
                fontsize=10.5, color="#222222", va="top")
        y -= 0.55
        k = 0
        for line in lines:
            x = 0.0
            for p, w in line:
                ax.add_patch(FancyBboxPatch((x, y - 0.42), w, 0.42, boxstyle="round,pad=0.02",
                                            facecolor=_PALETTE[k % len(_PALETTE)],
                                            edgecolor="#777777", linewidth=0.6))
                ax.text(x + w / 2, y - 0.21, _visible(p), ha="center", va="center", fontsize=9)
                x += w + 0.35
                k += 1
            y -= 0.55
        y -= 0.15
    ax.set_xlim(-0.2, max_units + 0.5)
    ax.set_ylim(min(y, -(0.55 * n_lines + 0.7 * len(rows) + top)), 0.2)
    ax.axis("off")
    fig.subplots_adjust(left=0.01, right=0.99, bottom=0.01, top=0.99)   # no ticks: no tight_layout
    return fig


def _tile_width(text: str) -> float:
    """Width of a tile in character cells: a Han character is about twice a Latin letter."""
    cells = sum(2.0 if ord(c) > 0x2e80 else 1.0 for c in text)
    return max(cells, 1.5) * 0.6 + 0.6


def _matrix(ax, M, row_labels, col_labels, highlight_row=None, highlight_col=None, title=""):
    """A small matrix drawn as a table of numbers."""
    M = np.atleast_2d(np.asarray(M, dtype=float))
    n, m = M.shape
    for i in range(n):
        for j in range(m):
            hot = (highlight_row is not None and i == highlight_row) or \
                  (highlight_col is not None and j == highlight_col)
            ax.add_patch(Rectangle((j, n - 1 - i), 1, 1, facecolor="#fde7d8" if hot else "white",
                                   edgecolor="#999999", linewidth=0.8))
            v = M[i, j]
            txt = f"{v:.0f}" if float(v).is_integer() else f"{v:.2f}".rstrip("0")
            ax.text(j + 0.5, n - 0.5 - i, txt, ha="center", va="center", fontsize=10,
                    color=_HOT_TEXT if hot else "black")
    for i, lab in enumerate(row_labels):
        ax.text(-0.15, n - 0.5 - i, lab, ha="right", va="center", fontsize=9)
    for j, lab in enumerate(col_labels):
        ax.text(j + 0.5, n + 0.15, lab, ha="center", va="bottom", fontsize=8.5, color="#555555")
    ax.set_title(title, fontsize=10, pad=16)
    ax.set_xlim(-0.05, m + 0.05)
    ax.set_ylim(-0.05, n + 0.05)
    ax.set_aspect("equal")
    ax.axis("off")


def plot_lookup(E, tokens, token_id):
    """``one_hot(token_id) @ E``: the 1 in the one-hot row picks one row of ``E``.

    Parameters
    ----------
    E : array-like, shape [|V|, d]
    tokens : list of str, length |V|
        The token of each row, in id order.
    token_id : int
        The id to look up.
    """
    from ..embeddings import embed, one_hot

    E = np.asarray(E, dtype=float)
    V, d = E.shape
    if len(tokens) != V:
        raise ValueError(f"tokens must name the {V} rows of E, got {len(tokens)} names")
    oh = one_hot(token_id, V)                              # [|V|]
    row = embed(token_id, E)                               # [d]
    fig, axes = plt.subplots(1, 3, figsize=(8, 2.6),
                             gridspec_kw={"width_ratios": [V + 1.5, d + 2.5, d + 0.5]})
    ids = [f"{i}" for i in range(V)]
    _matrix(axes[0], oh[None, :], [""], ids,
            highlight_col=token_id, title=tr(zh="one-hot 列向量  [1 × |V|]",
                                             en="one-hot row  [1 × |V|]"))
    _matrix(axes[1], E, [f"{i} {t}" for i, t in enumerate(tokens)],
            [f"d{j + 1}" for j in range(d)], highlight_row=token_id,
            title=tr(zh="詞嵌入矩陣 E  [|V| × d]", en="embedding matrix E  [|V| × d]"))
    _matrix(axes[2], row[None, :], [""], [f"d{j + 1}" for j in range(d)], highlight_row=0,
            title=tr(zh=f"「{tokens[token_id]}」的向量", en=f"vector of “{tokens[token_id]}”"))
    fig.tight_layout(w_pad=3.0)
    for left, right, sign in ((axes[0], axes[1], "×"), (axes[1], axes[2], "=")):
        x = (left.get_position().x1 + right.get_position().x0) / 2
        fig.text(x, 0.42, sign, fontsize=18, ha="center", va="center")
    return fig


def plot_coordinate_dictionary(E, tokens, highlight=None):
    """The rows of ``E`` (d = 3) as points in space: the "coordinate dictionary".

    ``highlight``: an id drawn in orange, with its coordinates written beside it.
    """
    E = np.asarray(E, dtype=float)
    if E.ndim != 2 or E.shape[1] != 3:
        raise ValueError(f"E must have shape [|V|, 3] to be drawn in 3-D, got {list(E.shape)}")
    fig = plt.figure(figsize=(4.8, 4.2))
    ax = fig.add_subplot(projection="3d")
    for i, (p, t) in enumerate(zip(E, tokens)):
        hot = highlight is not None and i == highlight
        c = _ORANGE if hot else _BLUE
        ax.scatter(*p, s=60 if hot else 40, color=c, depthshade=False)
        ax.plot([p[0], p[0]], [p[1], p[1]], [0, p[2]], color=c, linewidth=0.7, linestyle=":")
        ax.text(p[0], p[1], p[2] + 0.05, f"{i} {t}", fontsize=9, color=c)
        if hot:
            ax.text(p[0] - 0.04, p[1], p[2] - 0.12, f"[{', '.join(f'{v:g}' for v in p)}]",
                    fontsize=8.5, color=c, ha="right")   # leftwards: clear of the other labels
    ax.set_xlim(0, 1), ax.set_ylim(0, 1), ax.set_zlim(0, 1)
    ax.set_xlabel("d1"), ax.set_ylabel("d2"), ax.set_zlabel("d3")
    ax.set_title(tr(zh="座標辭典：每個詞元是一個點", en="A coordinate dictionary: each token a point"),
                 fontsize=10)
    fig.tight_layout()
    return fig


def plot_token_counts(counts, chars=None):
    """Token counts of the same content in Chinese and English, one group per tokenizer.

    Parameters
    ----------
    counts : dict str -> (int, int)
        ``{tokenizer label: (tokens of the Chinese text, tokens of the English text)}``.
    chars : (int, int), optional
        Characters of the two texts, drawn as a reference group.
    """
    groups = dict(counts)
    if chars is not None:
        groups = {tr(zh="（字元數）", en="(characters)"): tuple(chars), **groups}
    labels = list(groups)
    zh = np.array([groups[k][0] for k in labels], dtype=float)
    en = np.array([groups[k][1] for k in labels], dtype=float)
    x = np.arange(len(labels))
    fig, ax = plt.subplots(figsize=(7, 3.4))
    b1 = ax.bar(x - 0.2, zh, 0.4, color=_ORANGE, label=tr(zh="中文", en="Chinese"))
    b2 = ax.bar(x + 0.2, en, 0.4, color=_BLUE, label=tr(zh="英文", en="English"))
    for bars in (b1, b2):
        ax.bar_label(bars, fmt="%d", fontsize=8.5, padding=2)
    ax.set_xticks(x, labels, fontsize=9)
    ax.set_ylabel(tr(zh="詞元數", en="tokens"))
    ax.set_ylim(0, max(zh.max(), en.max()) * 1.18)
    ax.set_title(tr(zh="同樣的內容，切成幾個詞元？", en="The same content: how many tokens?"),
                 fontsize=11)
    ax.legend(frameon=False, fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def plot_merges_frame(tokenizer, sentences, n_merges, width=8.0):
    """One frame of the merge widget: ``sentences`` cut by the first ``n_merges`` merges.

    Parameters
    ----------
    tokenizer : lib.bpe.BPE
        A trained tokenizer; only its first ``n_merges`` merges are used.
    sentences : list of (str, str)
        ``(label, text)`` pairs.
    n_merges : int
    """
    tok = tokenizer.truncated(n_merges)
    most = tokenizer.truncated(0)                 # bare bytes: the most lines any frame needs
    _, n_lines = _token_layout([(lab, most.pieces(t)) for lab, t in sentences],
                               (width - 1.6) / 0.16)
    return plot_tokens([(label, tok.pieces(text)) for label, text in sentences], width=width,
                       min_lines=n_lines,
                       title=tr(zh=f"合併 {n_merges} 次之後", en=f"after {n_merges} merges"))
