"""Figures and small measurements for chapter 6 (evaluation: perplexity, bits per byte).

The perplexity itself is ``lib.perplexity``; this module only draws it and adds the
baselines a chapter compares the tiny decoder with (uniform and unigram), computed from the
corpus the decoder was trained on, counting the same tokens the decoder is scored on.
"""
from __future__ import annotations

from collections import Counter

import matplotlib.pyplot as plt
import numpy as np

from lib.book import tr

__all__ = [
    "neg_log_terms", "plot_neg_log_terms", "plot_one_small_probability",
    "unigram_perplexity", "corpus_unigram_perplexity", "bits_per_byte", "predicted_text", "heldout_perplexities",
    "train_heldout_perplexities", "language_stats", "second_noun_bits", "plot_baselines", "plot_tokens_vs_bytes",
    "plot_train_vs_heldout", "k_text",
]

_BLUE, _ORANGE, _GREY, _GREEN, _RED = "#1f77b4", "#ff7f0e", "#8c8c8c", "#2ca02c", "#d62728"


# ----------------------------------------------------------------------------- the formula


def neg_log_terms(p_true) -> np.ndarray:
    """−ln p for each correct-token probability: the terms whose mean is the cross-entropy."""
    p = np.asarray(p_true, dtype=float)  # [N]
    if p.ndim != 1 or p.size == 0 or np.any(~np.isfinite(p)) or np.any((p <= 0) | (p > 1)):
        raise ValueError(f"p_true must be a non-empty list of probabilities in (0, 1], got {p_true!r}")
    return -np.log(p)  # [N]


def plot_neg_log_terms(p_true):
    """One bar per token: −ln p, the dashed mean (cross-entropy) and the perplexity exp(mean)."""
    terms = neg_log_terms(p_true)
    mean = float(terms.mean())
    fig, ax = plt.subplots(figsize=(6.0, 3.2))
    x = np.arange(len(terms))
    bars = ax.bar(x, terms, color=_BLUE)
    for b, p, t in zip(bars, np.asarray(p_true, float), terms):
        # a white box keeps the label legible where the dashed mean line crosses it
        ax.annotate(f"p={p:g}\n−ln p={t:.3f}", (b.get_x() + b.get_width() / 2, t),
                    ha="center", va="bottom", fontsize=8, xytext=(0, 2), textcoords="offset points",
                    bbox=dict(boxstyle="square,pad=0.15", fc="white", ec="none"), zorder=3)
    e_mean = f"exp({mean:.3f})"      # no mathtext: it would draw the Chinese in a font without it
    ax.axhline(mean, color=_ORANGE, ls="--", zorder=2,
               label=tr(zh=f"平均 = 交叉熵 = {mean:.3f}，困惑度 = {e_mean} = {np.exp(mean):.2f}",
                        en=f"mean = cross-entropy = {mean:.3f}, perplexity = {e_mean} = {np.exp(mean):.2f}"))
    ax.set_xticks(x, [tr(zh=f"第 {i + 1} 個", en=f"token {i + 1}") for i in x])
    ax.set_ylabel(tr(zh="−ln p（奈特）", en="−ln p (nats)"))
    ax.set_ylim(0, terms.max() * 1.35)
    ax.set_title(tr(zh="每個詞元的負對數機率", en="Negative log-probability of each token"))
    ax.legend(loc="upper left", fontsize=8, frameon=False)
    fig.tight_layout()
    return fig


def plot_one_small_probability(p_true, index: int, grid=None):
    """Perplexity as one token's probability varies, the others fixed.

    Beside the geometric-mean perplexity it draws ``1 / (arithmetic mean of p)``, which a
    single bad guess hardly moves: the reason perplexity uses the geometric mean.
    """
    from lib.evaluation import perplexity

    p = np.asarray(p_true, dtype=float)
    grid = np.geomspace(0.01, 1.0, 120) if grid is None else np.asarray(grid, float)
    pp, inv_arith = [], []
    for g in grid:
        q = p.copy()
        q[index] = g
        pp.append(perplexity(q))
        inv_arith.append(1.0 / q.mean())
    fig, ax = plt.subplots(figsize=(6.0, 3.4))
    ax.plot(grid, pp, color=_BLUE, lw=2, label=tr(zh="困惑度（幾何平均）", en="perplexity (geometric mean)"))
    ax.plot(grid, inv_arith, color=_GREY, ls=":", lw=2,
            label=tr(zh="1 ÷ 算術平均（不採用）", en="1 / arithmetic mean (not used)"))
    ax.plot([p[index]], [perplexity(p)], "o", color=_RED)
    ax.annotate(f"p = {p[index]:g} → {perplexity(p):.2f}", (p[index], perplexity(p)),
                xytext=(8, 4), textcoords="offset points", color=_RED)
    ax.set_xscale("log")
    ax.set_xlabel(tr(zh=f"第 {index + 1} 個詞元的機率", en=f"probability of token {index + 1}"))
    ax.set_ylabel(tr(zh="困惑度", en="perplexity"))
    ax.set_title(tr(zh="一個很小的機率就能把困惑度拉高", en="One small probability pulls perplexity up"))
    ax.legend(frameon=False, fontsize=9)
    fig.tight_layout()
    return fig


# ------------------------------------------------------------------------------ baselines


def unigram_perplexity(train_targets, eval_targets, vocab_size: int, k: float = 1.0) -> float:
    """Perplexity of an add-k unigram model: P(w) = (count(w) + k) / (T + k·|V|).

    ``train_targets`` and ``eval_targets`` are iterables of token lists, each holding the tokens
    a language model is scored on (the same ones the decoder predicts). A unigram model ignores
    the context: it is the baseline that knows word frequencies and nothing else.
    """
    if k <= 0:
        raise ValueError(f"k must be > 0 (add-k smoothing), got {k}")
    counts = Counter(t for seq in train_targets for t in seq)
    total = sum(counts.values())
    targets = [t for seq in eval_targets for t in seq]
    if not targets:
        raise ValueError("eval_targets holds no tokens")
    if len(counts) > vocab_size:
        raise ValueError(f"vocab_size is {vocab_size} but the training text has {len(counts)} types")
    logp = [np.log((counts[t] + k) / (total + k * vocab_size)) for t in targets]
    return float(np.exp(-np.mean(logp)))


def bits_per_byte(total_bits: float, text: str | list[str]) -> float:
    """Bits the model spends per UTF-8 byte of the text it predicted: Σ −log₂ p / bytes."""
    texts = [text] if isinstance(text, str) else list(text)
    n_bytes = sum(len(t.encode("utf-8")) for t in texts)
    if n_bytes == 0:
        raise ValueError("text is empty: bits per byte needs at least one byte")
    return float(total_bits) / n_bytes


# ------------------------------------------------------ the tiny decoder and its baselines

#: the models of the comparison, in the order the figures draw them
MODELS = ("uniform", "unigram", "bigram_add1", "bigram_addk", "decoder")


def k_text(k: float) -> str:
    """An add-k constant as a reader writes it: a power of ten as 10⁻⁶, anything else as 0.01."""
    e = round(float(np.log10(k)))
    if abs(k - 10.0 ** e) <= 1e-9 * k and e < -2:
        return "10" + str(e).translate(str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹"))
    return f"{k:g}"


def _model_label(name: str, k: float) -> str:
    return {
        "uniform": tr(zh="均勻（|V| 選一）", en="uniform (one of |V|)"),
        "unigram": tr(zh="一元（只看詞頻）", en="unigram (frequencies only)"),
        "bigram_add1": tr(zh="二元，加一平滑", en="bigram, add-one"),
        "bigram_addk": tr(zh=f"二元，加 {k_text(k)} 平滑", en=f"bigram, add-{k_text(k)}"),
        "decoder": tr(zh="小解碼器（2 層）", en="tiny decoder (2 layers)"),
    }[name]


def _targets(split: str, lang=None) -> list:
    """The tokens the decoder is scored on, sentence by sentence: every token after the first
    (``<eos>`` not counted), as in ``lib.winograd.decoder_perplexity``."""
    from lib import corpus

    return [list(e.tokens[1:]) for e in corpus.examples(lang=lang, split=split)]


def corpus_unigram_perplexity(split: str = "heldout", lang=None, k: float = 1.0) -> float:
    """Add-k unigram baseline on the book's corpus, counted on the training split. The k goes
    to every word but ``<pad>`` and ``<eos>``, which are never scored."""
    from lib import corpus

    return unigram_perplexity(_targets("train"), _targets(split, lang), corpus.vocab_size() - 2, k=k)


def _perplexities(split: str, k: float, lang=None, models=MODELS) -> dict:
    from lib import corpus, winograd

    compute = {
        "uniform": lambda: float(corpus.vocab_size()),
        "unigram": lambda: corpus_unigram_perplexity(split, lang),
        "bigram_add1": lambda: float(winograd.bigram_perplexity(1.0, split=split, lang=lang)),
        "bigram_addk": lambda: float(winograd.bigram_perplexity(k, split=split, lang=lang)),
        "decoder": lambda: float(winograd.decoder_perplexity(split, lang=lang)),
    }
    return {m: compute[m]() for m in models}


def heldout_perplexities(k: float, lang=None) -> dict:
    """Held-out perplexity of the tiny decoder and of the four baselines (keys: MODELS);
    ``k`` is the bigram's tuned add-k (``lib.winograd.best_bigram_k()``)."""
    return _perplexities("heldout", k, lang)


def train_heldout_perplexities(k: float, models=("bigram_addk", "decoder")) -> dict:
    """``{model: (train perplexity, held-out perplexity)}`` for the models that learn pairs."""
    train, held = _perplexities("train", k, models=models), _perplexities("heldout", k, models=models)
    return {m: (train[m], held[m]) for m in models}


def predicted_text(tokens, lang: str) -> str:
    """The text of the tokens the decoder predicts (all but the first), written as the
    language writes it: Chinese without spaces, English with a space before each word."""
    rest = [t for t in list(tokens)[1:] if not t.startswith("<")]
    return "".join(rest) if lang == "zh" else "".join(" " + t for t in rest)


def language_stats(lang: str, split: str = "heldout") -> dict:
    """Per-token perplexity, bits per byte and their ingredients on one language half.

    Bits come from ``lib.winograd.surprisal`` (−log₂ p of every token after the first); bytes
    are the UTF-8 bytes of that predicted text (:func:`predicted_text`). The decoder never
    scores a sentence's first token: in Chinese that is the first noun, in English only "the".
    ``bits_after_first_noun`` counts the bits of what follows the first noun, the same content
    in both languages.
    """
    from lib import corpus, winograd

    exs = corpus.examples(lang=lang, split=split)
    bits, after, n_tokens, n_bytes = 0.0, 0.0, 0, 0
    for e in exs:
        s = winograd.surprisal(list(e.tokens), lang)        # token j + 1 of the sentence
        bits += sum(b for _, b in s)
        after += sum(b for j, (_, b) in enumerate(s) if j + 1 > e.noun_indices[0])
        n_tokens += len(s)
        n_bytes += len(predicted_text(e.tokens, lang).encode("utf-8"))
    n = len(exs)
    return {
        "perplexity": float(2 ** (bits / n_tokens)),
        "bits_per_byte": bits_per_byte(bits, "x" * n_bytes),
        "tokens_per_sentence": n_tokens / n,
        "bytes_per_sentence": n_bytes / n,
        "bits_per_sentence": bits / n,
        "bits_after_first_noun": after / n,
        "bytes_per_token": n_bytes / n_tokens,
    }


def second_noun_bits(split: str) -> float:
    """Mean surprisal (bits) of the second noun given the first, over a split, both languages:
    the one place where a decoder can memorise which nouns go together."""
    from lib import corpus, winograd

    bits = []
    for e in corpus.examples(split=split):
        s = winograd.surprisal(list(e.tokens), e.lang)      # entry j is token j + 1
        bits.append(s[e.noun_indices[1] - 1][1])
    return float(np.mean(bits))


# ------------------------------------------------------------------------------- figures


def plot_baselines(ppl: dict, k: float):
    """Held-out perplexity of each model (keys of :data:`MODELS`), on a log axis."""
    names = [m for m in MODELS if m in ppl]
    labels = [_model_label(m, k) for m in names]
    values = np.array([float(ppl[m]) for m in names])
    fig, ax = plt.subplots(figsize=(6.4, 0.55 * len(names) + 1.3))
    y = np.arange(len(names))[::-1]
    colors = [_GREEN if m == "decoder" else _GREY for m in names]
    ax.barh(y, values, color=colors)
    for yi, v in zip(y, values):
        label = f"{v:.0f}" if float(v).is_integer() else f"{v:.2f}"     # |V| is a count
        ax.annotate(label, (v, yi), xytext=(4, 0), textcoords="offset points", va="center")
    ax.set_yticks(y, labels)
    ax.set_xscale("log")
    ax.set_xlim(1, values.max() * 3)
    ax.set_xlabel(tr(zh="保留集困惑度（對數刻度，越低越好）",
                     en="held-out perplexity (log scale, lower is better)"))
    ax.set_title(tr(zh="小解碼器與基準模型", en="The tiny decoder against baselines"))
    fig.tight_layout()
    return fig


def plot_tokens_vs_bytes(stats: dict):
    """Per-token perplexity, bits per sentence and bits per byte for each language half.

    ``stats`` maps a language code to the dict of :func:`language_stats`.
    """
    langs = list(stats)
    names = {"zh": tr(zh="中文", en="Chinese"), "en": tr(zh="英文", en="English")}
    panels = (("perplexity", tr(zh="每個詞元的困惑度", en="perplexity per token"), "{:.2f}"),
              ("bits_per_byte", tr(zh="每個位元組的位元數", en="bits per byte"), "{:.3f}"),
              ("bits_after_first_noun", tr(zh="每句位元數\n（第一個名詞之後）", en="bits per sentence\n(after the first noun)"), "{:.2f}"))
    fig, axes = plt.subplots(1, len(panels), figsize=(7.6, 3.0))
    for ax, (key, title, fmt) in zip(axes, panels):
        vals = [float(stats[l][key]) for l in langs]
        bars = ax.bar([names.get(l, l) for l in langs], vals, color=[_ORANGE, _BLUE, _GREY][:len(langs)])
        for b, v in zip(bars, vals):
            ax.annotate(fmt.format(v), (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom")
        ax.set_title(title, fontsize=10)
        ax.set_ylim(0, max(vals) * 1.25)
    fig.suptitle(tr(zh="同一個模型，三種量尺", en="One model, three yardsticks"))
    fig.tight_layout()
    return fig


def plot_train_vs_heldout(gap: dict, k: float):
    """Train and held-out perplexity side by side: ``gap = {model: (train, heldout)}``."""
    names = [m for m in MODELS if m in gap]
    train = np.array([float(gap[m][0]) for m in names])
    held = np.array([float(gap[m][1]) for m in names])
    x = np.arange(len(names))
    fig, ax = plt.subplots(figsize=(6.0, 3.3))
    w = 0.38
    b1 = ax.bar(x - w / 2, train, w, color=_GREY, label=tr(zh="訓練句（看過）", en="training sentences (seen)"))
    b2 = ax.bar(x + w / 2, held, w, color=_BLUE, label=tr(zh="保留句（沒看過）", en="held-out sentences (unseen)"))
    for bars in (b1, b2):
        for b in bars:
            v = b.get_height()
            ax.annotate(f"{v:.2f}", (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom", fontsize=9)
    ax.set_xticks(x, [_model_label(m, k) for m in names])
    ax.set_ylabel(tr(zh="困惑度", en="perplexity"))
    ax.set_ylim(0, max(train.max(), held.max()) * 1.3)
    ax.set_title(tr(zh="看過的句子比較不意外", en="Seen sentences surprise the model less"))
    ax.legend(frameon=False, fontsize=9, loc="upper left")
    fig.tight_layout()
    return fig
