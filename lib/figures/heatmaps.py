"""Attention heatmaps, head ablation and surprisal for chapter 7 (the look back).

Everything here is measured on the book's tiny models through ``lib.winograd``; nothing is
typed in. The drawing functions take arrays, so tests can feed them made-up attention; the
``*_widget`` and ``measure_*`` functions run the models.
"""
from __future__ import annotations

from functools import lru_cache

import matplotlib.pyplot as plt
import numpy as np

from lib.book import current_lang, tr

__all__ = [
    "plot_attention", "map_names", "pair_maps", "attention_widget", "route", "prettiest_head",
    "ablation_accuracies", "ablation_name", "plot_ablation", "surprisal_pair", "plot_surprisal",
    "pronoun_shift",
]

_RED, _BLUE, _GREY = "#d62728", "#1f77b4", "#8c8c8c"
LANG_NAMES = {"zh": "中文", "en": "English"}


def _view_names():
    return {"big": tr(zh="太大", en="too big"), "small": tr(zh="太小", en="too small"),
            "diff": tr(zh="差：大 − 小", en="difference: big − small")}


def map_names(n_layers: int, n_heads: int) -> list:
    """Display names of the maps: every (layer, head), then the rollout."""
    names = [tr(zh=f"第 {l + 1} 層第 {h + 1} 個頭", en=f"layer {l + 1} · head {h + 1}")
             for l in range(n_layers) for h in range(n_heads)]
    return names + [tr(zh="注意力展開（rollout）", en="attention rollout")]


# ------------------------------------------------------------------------------ drawing


def plot_attention(weights, tokens, title: str = "", diff: bool = False, highlight=None,
                   ax=None, colorbar: bool = True, axis_labels: bool = True, vmax: float = 1.0):
    """One attention map: row i = query token i, column j = key token j.

    The colour scale runs from 0 to ``vmax`` (default 1, the largest possible weight), so maps
    drawn with the same ``vmax`` compare by eye. ``diff=True`` draws a signed map (a difference
    of two maps) on a diverging scale centred on 0, from −vmax to vmax. ``highlight`` is a row
    index (the pronoun) to frame, with its weights written in.
    """
    w = np.asarray(weights, dtype=float)  # [N, N]
    n = len(tokens)
    if w.shape != (n, n):
        raise ValueError(f"weights must have shape [{n}, {n}] for {n} tokens, got {list(w.shape)}")
    if not vmax > 0:
        raise ValueError(f"vmax must be > 0, got {vmax}")
    own = ax is None
    if own:
        fig, ax = plt.subplots(figsize=(5.0, 4.5))
        # fixed margins instead of tight_layout: the widget draws 30 of these
        fig.subplots_adjust(left=0.15, right=0.88, bottom=0.2, top=0.93)
    else:
        fig = ax.figure
    if diff:
        im = ax.imshow(w, cmap="RdBu_r", vmin=-vmax, vmax=vmax)
    else:
        im = ax.imshow(w, cmap="Blues", vmin=0, vmax=vmax)
    ax.set_xticks(range(n), tokens, rotation=60, ha="right", fontsize=9)
    ax.set_yticks(range(n), tokens, fontsize=9)
    if axis_labels:
        ax.set_xlabel(tr(zh="被看的詞（鍵）", en="attended token (key)"), fontsize=9)
        ax.set_ylabel(tr(zh="看的詞（查詢）", en="attending token (query)"), fontsize=9)
    if highlight is not None:
        ax.add_patch(plt.Rectangle((-0.5, highlight - 0.5), n, 1, fill=False, ec=_RED, lw=2))
        _write_row(ax, w, highlight, diff, vmax)
    if title:
        ax.set_title(title, fontsize=10)
    if colorbar:
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.03)
    return fig


def _write_row(ax, w, row: int, diff: bool, vmax: float):
    """Write the weights of one row into its cells (those of at least 0.095 in size)."""
    size = 8 if len(w) <= 10 else 7          # "+0.20" must fit its cell on a 12-token row
    for j, v in enumerate(w[row]):
        if abs(v) >= 0.095:
            ax.text(j, row, f"{v:+.2f}" if diff else f"{v:.2f}", ha="center", va="center",
                    fontsize=size, color="white" if abs(v) > 0.55 * vmax else "black")


class _MapFrames:
    """The widget's frames, drawn on one reusable figure per token row (sentence and view).

    Building a figure and laying out its tick labels costs more than drawing it; between two
    maps of the same sentence only the colours, the title and the framed row's numbers change.
    Reusing the figure (and its Agg renderer, whose text measurements matplotlib caches) makes
    the 30 frames about twice as fast as drawing each from scratch, pixel for pixel the same.
    """

    def __init__(self):
        self._figs = {}

    def draw(self, key, w, tokens, title: str, diff: bool, highlight: int, vmax: float):
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        if key not in self._figs:
            fig = Figure(figsize=(5.0, 4.5))
            FigureCanvasAgg(fig)
            fig.subplots_adjust(left=0.15, right=0.88, bottom=0.2, top=0.93)
            plot_attention(w, tokens, title=title, diff=diff, highlight=highlight,
                           ax=fig.add_subplot(), colorbar=False, vmax=vmax)
            self._figs[key] = fig
            return fig
        fig = self._figs[key]
        ax = fig.axes[0]
        im = ax.images[0]
        im.set_data(np.asarray(w, dtype=float))
        im.set_clim(-vmax if diff else 0, vmax)
        ax.set_title(title, fontsize=10)
        for t in list(ax.texts):
            t.remove()
        _write_row(ax, np.asarray(w, dtype=float), highlight, diff, vmax)
        return fig


# -------------------------------------------------------------- the model's attention


@lru_cache(maxsize=None)
def _pair(lang: str) -> dict:
    """The encoder on the canonical pair: tokens, attention [L, A, N, N] and rollout [N, N]."""
    import lib
    from lib import winograd

    big, small = winograd.canonical_pair(lang)
    rb, rs = winograd.resolve(big, lang), winograd.resolve(small, lang)
    return {
        "tokens_big": list(rb.tokens), "tokens_small": list(rs.tokens),
        "pronoun": int(rb.pronoun_index),
        "big": np.asarray(rb.attention), "small": np.asarray(rs.attention),
        "rollout_big": lib.attention_rollout(rb.attention),
        "rollout_small": lib.attention_rollout(rs.attention),
        "referent_big": rb.referent, "referent_small": rs.referent,
    }


def pair_maps(lang: str) -> dict:
    """``{(view, map_index): (weights [N, N], tokens)}`` for the widget; map L·A is the rollout."""
    d = _pair(lang)
    L, A = d["big"].shape[:2]
    out = {}
    for m in range(L * A + 1):
        get = (lambda s: d[f"rollout_{s}"]) if m == L * A else (lambda s: d[s][m // A, m % A])
        out[("big", m)] = (get("big"), d["tokens_big"])
        out[("small", m)] = (get("small"), d["tokens_small"])
        tokens = [b if b == s else f"{b}/{s}" for b, s in zip(d["tokens_big"], d["tokens_small"])]
        out[("diff", m)] = (get("big") - get("small"), tokens)
    return out


def attention_widget(langs=None):
    """The signature widget: big/small/difference × (every head, rollout) on the Winograd pair.

    3 views × (L·A + 1) maps: 15 precomputed frames for the book's 2 × 2 encoder, in the book's
    own language. ``langs=("zh", "en")`` adds a language control (30 frames; the first language
    is shown first).
    """
    from lib import widgets

    if langs is None:
        langs = (current_lang(),)
    langs = tuple(langs)

    maps = {lang: pair_maps(lang) for lang in langs}
    L, A = _pair(langs[0])["big"].shape[:2]
    names = map_names(L, A)
    views = _view_names()
    lang_by_name = {LANG_NAMES[l]: l for l in langs}
    view_by_name = {v: k for k, v in views.items()}
    map_by_name = {n: i for i, n in enumerate(names)}

    frames = _MapFrames()

    def draw(language, sentence, attention):
        lang, view, m = lang_by_name[language], view_by_name[sentence], map_by_name[attention]
        w, tokens = maps[lang][(view, m)]
        # One colour scale for every head, from 0 to 1 (differences from −1 to 1), so that heads
        # compare by eye. The rollout's weights are spread thin: its three views share a scale
        # that ends at the largest rollout weight of the two sentences.
        d = _pair(lang)
        vmax = max(float(d["rollout_big"].max()), float(d["rollout_small"].max())) \
            if m == len(names) - 1 else 1.0
        # no colour bar (the framed row carries the numbers): the frames stay light and fast
        return frames.draw((lang, view), w, tokens, title=f"{views[view]} · {attention}",
                           diff=view == "diff", highlight=d["pronoun"], vmax=vmax)

    params = {"language": list(lang_by_name), "sentence": list(view_by_name), "attention": names}
    labels = {"language": tr(zh="語言", en="language"), "sentence": tr(zh="句子", en="sentence"),
              "attention": tr(zh="注意力圖", en="map")}
    if len(langs) == 1:
        del params["language"], labels["language"]
        one = next(iter(lang_by_name))
        return widgets.frames_widget(lambda **v: draw(one, **v), params, labels=labels)
    return widgets.frames_widget(draw, params, labels=labels)


# ------------------------------------------------------------------ measuring the route


def _top(row, tokens, skip=()):
    order = [j for j in np.argsort(row)[::-1] if j not in skip]
    j = int(order[0])
    return tokens[j], float(row[j]), j


def route(lang: str) -> dict:
    """Where each head sends the pronoun and the adjective on the canonical pair.

    Returns ``{(layer, head): {"pronoun_big": (token, weight), "pronoun_small": …,
    "adjective_big": …, "adjective_small": …}}`` (the key each row weights most, self
    excluded), plus ``"rollout"`` with the rollout's pronoun rows.
    """
    from lib import corpus

    d = _pair(lang)
    tb, ts, p = d["tokens_big"], d["tokens_small"], d["pronoun"]
    adj = next(i for i, (b, s) in enumerate(zip(tb, ts)) if b != s)
    L, A = d["big"].shape[:2]
    out = {}
    for l in range(L):
        for h in range(A):
            out[(l, h)] = {
                "pronoun_big": _top(d["big"][l, h, p], tb, skip=(p,))[:2],
                "pronoun_small": _top(d["small"][l, h, p], ts, skip=(p,))[:2],
                "adjective_big": _top(d["big"][l, h, adj], tb, skip=(adj,))[:2],
                "adjective_small": _top(d["small"][l, h, adj], ts, skip=(adj,))[:2],
            }
    nouns = corpus.nouns_of(tb, lang)
    idx = [tb.index(n) for n in nouns]
    out["rollout"] = {
        "nouns": nouns,
        "big": [float(d["rollout_big"][p, j]) for j in idx],
        "small": [float(d["rollout_small"][p, j]) for j in idx],
    }
    out["pronoun_index"], out["adjective_index"] = p, adj
    return out


def prettiest_head(lang: str):
    """The (layer, head) whose pronoun row changes most between the two sentences: the
    brightest map in the widget's difference view."""
    shift = pronoun_shift(lang)
    return max((k for k in shift if k != "rollout"), key=shift.get)


def pronoun_shift(lang: str) -> dict:
    """How far each head's pronoun row moves between the two sentences of the pair:
    total-variation distance ½ Σ_j |w_big − w_small| (0 = identical, 1 = disjoint)."""
    d = _pair(lang)
    p = d["pronoun"]
    L, A = d["big"].shape[:2]
    out = {(l, h): float(0.5 * np.abs(d["big"][l, h, p] - d["small"][l, h, p]).sum())
           for l in range(L) for h in range(A)}
    out["rollout"] = float(0.5 * np.abs(d["rollout_big"][p] - d["rollout_small"][p]).sum())
    return out


# --------------------------------------------------------------------------- ablation


def ablation_accuracies(lang: str) -> dict:
    """Held-out accuracy of the encoder (``lib.winograd.heldout_accuracy(lang, ablate=…)``):
    key ``None`` with nothing switched off, ``(layer, head)`` with that head off, and
    ``("layer", layer)`` with every head of that layer off at once."""
    from lib import winograd

    out = {None: float(winograd.heldout_accuracy(lang))}
    L, A = _pair(lang)["big"].shape[:2]
    for l in range(L):
        for h in range(A):
            out[(l, h)] = float(winograd.heldout_accuracy(lang, ablate=((l, h),)))
    for l in range(L):
        out[("layer", l)] = float(winograd.heldout_accuracy(lang, ablate=tuple((l, h) for h in range(A))))
    return out


def ablation_name(key) -> str:
    """``None`` → all on; ``(layer, head)`` → "L1 H2"; ``("layer", l)`` → "L2 H*" (one line)."""
    if key is None:
        return tr(zh="全部開著", en="all on")
    if key[0] == "layer":
        return tr(zh=f"關掉第 {key[1] + 1} 層兩個頭", en=f"off: both heads of layer {key[1] + 1}")
    return tr(zh=f"關掉第 {key[0] + 1} 層第 {key[1] + 1} 個頭", en=f"off: layer {key[0] + 1} head {key[1] + 1}")


def _ablation_label(key) -> str:
    if key[0] == "layer":
        return tr(zh=f"第{key[1] + 1}層\n兩頭都關", en=f"all of\nlayer {key[1] + 1}")
    l, h = key
    return tr(zh=f"第{l + 1}層\n頭{h + 1}", en=f"layer {l + 1}\nhead {h + 1}")


def plot_ablation(acc: dict, highlight=None, highlight_label: str | None = None):
    """Held-out accuracy with heads switched off, one bar per language for each choice.

    ``acc = {lang: ablation_accuracies(lang)}``; ``highlight`` is a (layer, head) to outline
    (the head with the prettiest picture, say), named in the legend by ``highlight_label``.
    """
    from matplotlib.patches import Patch

    langs = list(acc)
    keys = [k for k in acc[langs[0]] if k is not None]
    x = np.arange(len(keys))
    w = 0.8 / len(langs)
    fig, ax = plt.subplots(figsize=(7.2, 3.6))
    colors = {"zh": "#ff7f0e", "en": _BLUE}
    for i, lang in enumerate(langs):
        vals = [acc[lang][k] for k in keys]
        bars = ax.bar(x + (i - (len(langs) - 1) / 2) * w, vals, w, color=colors.get(lang, _GREY),
                      label=LANG_NAMES.get(lang, lang))
        for b, v in zip(bars, vals):
            ax.annotate(f"{v:.0%}", (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom",
                        fontsize=8)
        if highlight is not None and highlight in keys:
            j = keys.index(highlight)
            bars[j].set_edgecolor(_RED)
            bars[j].set_linewidth(2)
    ax.axhline(acc[langs[0]][None], color=_GREY, ls="--", lw=1)
    ax.axhline(0.5, color=_GREY, ls=":", lw=1)
    ax.text(1.005, 0.5, tr(zh="亂猜", en="chance"), color=_GREY, ha="left", va="center",
            fontsize=8, transform=ax.get_yaxis_transform())      # in the right margin
    ax.set_xticks(x, [_ablation_label(k) for k in keys], fontsize=8)
    ax.set_ylim(0, 1.3)
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1.0])
    ax.set_ylabel(tr(zh="保留集答對率", en="held-out accuracy"))
    ax.set_title(tr(zh="關掉注意力頭之後（虛線：全部開著）", en="With heads switched off (dashed: all on)"))
    handles, _ = ax.get_legend_handles_labels()
    if highlight is not None and highlight in keys:
        if highlight_label is None:
            highlight_label = tr(zh="紅框：圖最「漂亮」的頭", en='red outline: the "prettiest" map')
        handles.append(Patch(fill=False, edgecolor=_RED, linewidth=2, label=highlight_label))
    ax.legend(handles=handles, frameon=False, fontsize=9, loc="upper left", ncol=len(handles))
    fig.tight_layout(rect=(0, 0, 0.95, 1))
    return fig


# --------------------------------------------------------------------------- surprisal


def surprisal_pair(lang: str) -> dict:
    """The decoder's surprisal (bits) of every token of both sentences of the canonical pair."""
    from lib import winograd

    big, small = winograd.canonical_pair(lang)
    return {"big": [(t, float(b)) for t, b in winograd.surprisal(big, lang)],
            "small": [(t, float(b)) for t, b in winograd.surprisal(small, lang)]}


def plot_surprisal(pair: dict):
    """Bars of surprisal per token, the big sentence beside the small one.

    ``pair = {"big": [(token, bits), …], "small": [(token, bits), …]}`` (same length).
    """
    big, small = pair["big"], pair["small"]
    if len(big) != len(small):
        raise ValueError(f"the two sentences must have the same number of tokens, got "
                         f"{len(big)} and {len(small)}")
    x = np.arange(len(big))
    w = 0.4
    fig, ax = plt.subplots(figsize=(7.2, 3.4))
    vb, vs = [b for _, b in big], [b for _, b in small]
    ax.bar(x - w / 2, vb, w, color=_RED, label=tr(zh="太大", en="too big"))
    ax.bar(x + w / 2, vs, w, color=_BLUE, label=tr(zh="太小", en="too small"))
    labels = [tb if tb == ts else f"{tb}/{ts}" for (tb, _), (ts, _) in zip(big, small)]
    ax.set_xticks(x, labels, rotation=45, ha="right", fontsize=9)
    ax.set_ylabel(tr(zh="驚奇度（位元）", en="surprisal (bits)"))
    ax.set_ylim(0, max(max(vb), max(vs)) * 1.2 + 0.1)
    for xi, v in zip(x, vb):
        if v >= 0.5:
            ax.annotate(f"{v:.1f}", (xi - w / 2, v), ha="center", va="bottom", fontsize=8)
    for xi, v in zip(x, vs):
        if v >= 0.5:
            ax.annotate(f"{v:.1f}", (xi + w / 2, v), ha="center", va="bottom", fontsize=8)
    ax.set_title(tr(zh="小解碼器在哪裡感到意外？", en="Where is the tiny decoder surprised?"))
    ax.legend(frameon=False, fontsize=9)
    fig.tight_layout()
    return fig
