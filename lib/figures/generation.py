"""Figures for chapter 5: the LM head, cross-entropy, training loss and temperature.

Every function returns a matplotlib ``Figure``; labels come from ``lib.book.tr`` so the same
call draws the Chinese or the English figure. The numbers are computed by ``lib`` (``softmax``
with a temperature, ``generate`` from the tiny decoder); this module only draws them.
"""
from __future__ import annotations

import numpy as np
import matplotlib.pyplot as plt

from lib.book import tr, current_lang

__all__ = [
    "plot_scores_probs", "plot_cross_entropy", "plot_loss", "plot_temperatures",
    "plot_temperature_frame", "temperature_widget", "TAUS", "blank_prefix", "join_tokens",
]

#: the temperatures of the chapter's slider (≤ 60 frames; 0.01 shows τ → 0 stays finite)
TAUS = (0.01, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0)

_BLUE, _ORANGE, _GREY = "#3b6ea5", "#e07b39", "#b0b0b0"


def _softmax(scores, tau):
    # the book's softmax, so the figure shows exactly what the text computes
    import lib

    return np.asarray(lib.softmax(np.asarray(scores, dtype=float), temperature=tau))


def _bar_colors(values):
    best = int(np.argmax(values))
    return [_ORANGE if i == best else _BLUE for i in range(len(values))]


def join_tokens(tokens, lang=None):
    """Word-level tokens as a reader writes them: no spaces between Chinese words, spaces in
    English (and around an English word that a hot sampler drops into a Chinese sentence)."""
    lang = lang or current_lang()
    words = [str(t) for t in tokens]
    if lang != "zh":
        return " ".join(words)
    out = ""
    for w in words:
        if out and (out[-1].isascii() or w[:1].isascii()):
            out += " "
        out += w
    return out


def plot_scores_probs(tokens, scores, probs=None):
    """Two panels: the LM head's scores ``u = h @ E.T`` and their softmax.

    Parameters
    ----------
    tokens : list[str], length |V|
    scores : array-like [|V|], the logits
    probs : array-like [|V|], optional; ``softmax(scores)`` when omitted
    """
    scores = np.asarray(scores, dtype=float)
    probs = _softmax(scores, 1.0) if probs is None else np.asarray(probs, dtype=float)
    fig, axes = plt.subplots(1, 2, figsize=(7.5, 3.0), constrained_layout=True)
    for ax, vals, title, fmt in (
        (axes[0], scores, tr(zh="分數 u = h·Eᵀ", en="scores u = h·Eᵀ"), "{:.2f}"),
        (axes[1], probs, tr(zh="機率 softmax(u)", en="probabilities softmax(u)"), "{:.3f}"),
    ):
        bars = ax.bar(range(len(vals)), vals, color=_bar_colors(vals))
        ax.bar_label(bars, labels=[fmt.format(v) for v in vals], fontsize=9)
        ax.set_xticks(range(len(vals)), tokens)
        ax.set_title(title, fontsize=11)
        ax.set_ylim(0, max(vals) * 1.22)
        ax.spines[["top", "right"]].set_visible(False)
    return fig


def plot_cross_entropy(p_marks=(0.303, 0.9, 0.01)):
    """The loss −ln p of the right token as p goes from 0 to 1, with the chapter's cases marked."""
    p = np.linspace(0.005, 1.0, 400)
    fig, ax = plt.subplots(figsize=(6.0, 3.4), constrained_layout=True)
    ax.plot(p, -np.log(p), color=_BLUE, lw=2)
    for q in p_marks:
        loss = -np.log(q)
        ax.plot([q], [loss], "o", color=_ORANGE, ms=8, zorder=3)
        ax.annotate(f"p = {q:.3g}\n−ln p = {loss:.3g}", (q, loss), textcoords="offset points",
                    xytext=(10, 6), fontsize=9)
    ax.set_xlabel(tr(zh="模型給正確下一個詞元的機率 p", en="probability p given to the right next token"))
    ax.set_ylabel(tr(zh="交叉熵損失 −ln p", en="cross-entropy loss −ln p"))
    ax.set_xlim(0, 1.05)
    ax.set_ylim(0, 5.6)
    ax.spines[["top", "right"]].set_visible(False)
    return fig


def plot_loss(losses, baseline=None, device_name=None):
    """A training curve: cross-entropy per step, optionally with the uniform-guess line ln|V|."""
    losses = np.asarray(losses, dtype=float)
    fig, ax = plt.subplots(figsize=(6.0, 3.2), constrained_layout=True)
    ax.plot(np.arange(1, len(losses) + 1), losses, color=_BLUE, lw=1.8,
            label=tr(zh="訓練損失", en="training loss"))
    if baseline is not None:
        ax.axhline(baseline, color=_GREY, ls="--", lw=1.2,
                   label=tr(zh=f"均勻亂猜 ln|V| = {baseline:.2f}",
                            en=f"uniform guess ln|V| = {baseline:.2f}"))
    ax.set_xlabel(tr(zh="訓練步數", en="training step"))
    ax.set_ylabel(tr(zh="交叉熵（nats）", en="cross-entropy (nats)"))
    title = tr(zh="小解碼器的預訓練", en="pretraining the tiny decoder")
    if device_name:
        title += f" ({device_name})"
    ax.set_title(title, fontsize=11)
    ax.set_ylim(0, max(losses.max(), baseline or 0) * 1.08)
    ax.legend(frameon=False, fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)
    return fig


def plot_temperatures(tokens, scores, taus=(0.5, 1.0, 2.0)):
    """The same scores through softmax at a few temperatures, side by side."""
    scores = np.asarray(scores, dtype=float)
    fig, axes = plt.subplots(1, len(taus), figsize=(2.75 * len(taus), 2.9), sharey=True,
                             constrained_layout=True)
    for ax, tau in zip(np.atleast_1d(axes), taus):
        p = _softmax(scores, tau)
        bars = ax.bar(range(len(p)), p, color=_bar_colors(p))
        ax.bar_label(bars, labels=[f"{v:.3f}" for v in p], fontsize=8)
        ax.set_xticks(range(len(p)), tokens, fontsize=9)
        ax.set_title(f"τ = {tau:g}", fontsize=11)
        ax.set_ylim(0, 1.0)
        ax.spines[["top", "right"]].set_visible(False)
    np.atleast_1d(axes)[0].set_ylabel(tr(zh="機率", en="probability"))
    return fig


def plot_temperature_frame(tau, tokens, scores, blank_tokens, blank_scores, samples=(),
                           blank_title=None, top=6):
    """One frame of the temperature widget.

    Left: the four-token distribution ``softmax(u / τ)`` (grey outline: τ = 1). Right: the tiny
    decoder's top tokens for the blank, ``softmax(log p / τ)`` (the same as dividing its logits,
    since ``log p`` differs from the logits by a constant). Below: sentences the decoder samples
    at this τ.
    """
    scores = np.asarray(scores, dtype=float)
    blank_scores = np.asarray(blank_scores, dtype=float)
    fig = plt.figure(figsize=(8.0, 4.4), dpi=72)
    gs = fig.add_gridspec(2, 2, height_ratios=[3.0, 1.25], hspace=0.45, wspace=0.25,
                          left=0.07, right=0.98, top=0.9, bottom=0.02)

    ax = fig.add_subplot(gs[0, 0])
    p, p1 = _softmax(scores, tau), _softmax(scores, 1.0)
    ax.bar(range(len(p)), p, color=_bar_colors(p))
    ax.bar(range(len(p)), p1, fill=False, edgecolor="#555555", ls="--", lw=1.0)
    for x, (v, v1) in enumerate(zip(p, p1)):   # above the bar and the dashed τ = 1 outline
        ax.text(x, max(v, v1) + 0.015, f"{v:.3f}", ha="center", va="bottom", fontsize=9)
    ax.set_xticks(range(len(p)), tokens)
    ax.set_ylim(0, 1.12)
    ax.set_title(tr(zh="四個詞元：softmax(u / τ)", en="four tokens: softmax(u / τ)"), fontsize=11)
    ax.set_ylabel(tr(zh="機率", en="probability"))

    ax2 = fig.add_subplot(gs[0, 1])
    q = _softmax(blank_scores, tau)
    order = np.argsort(-q, kind="stable")[:top]
    bars = ax2.bar(range(len(order)), q[order], color=_bar_colors(q[order]))
    ax2.bar_label(bars, labels=[f"{v:.2f}" for v in q[order]], fontsize=8)
    ax2.set_xticks(range(len(order)), [str(blank_tokens[i]) for i in order], fontsize=9)
    ax2.set_ylim(0, 1.12)
    ax2.set_title(blank_title or tr(zh="小解碼器：「太＿了」", en="tiny decoder: “too ＿”"),
                  fontsize=11)
    for a in (ax, ax2):
        a.spines[["top", "right"]].set_visible(False)

    axt = fig.add_subplot(gs[1, :])
    axt.axis("off")
    lines = [tr(zh="小解碼器在這個 τ 下接著寫（‖ 之後是它寫的）：",
                en="the tiny decoder continues at this τ (it wrote what follows ‖):")]
    lines += [f"  {i + 1}. {s}" for i, s in enumerate(samples)]
    axt.text(0.0, 1.0, "\n".join(lines), va="top", ha="left", fontsize=10, family=None,
             transform=axt.transAxes)
    fig.suptitle(f"τ = {tau:g}", fontsize=13, x=0.5, y=0.99)
    return fig


def blank_prefix(sentence_tokens):
    """The tokens of a sentence up to and including 太 / "too": the prefix of the 「太＿了」 blank."""
    for marker in ("太", "too"):
        if marker in sentence_tokens:
            return list(sentence_tokens[: list(sentence_tokens).index(marker) + 1])
    raise ValueError(f"sentence_tokens has no 太 / too: {sentence_tokens!r}")


def _sample_texts(lang, prefix, tau, n_samples, seed, max_tokens):
    import lib.winograd as wg

    rng = np.random.default_rng(seed)
    texts = []
    for _ in range(n_samples):
        out = list(wg.generate(list(prefix), lang, tau, rng, max_tokens=max_tokens))
        if out[: len(prefix)] == list(prefix):   # generate may return the prefix with the rest
            out = out[len(prefix):]
        texts.append(join_tokens(prefix, lang) + " ‖ " + join_tokens(out, lang))
    return texts


def temperature_widget(tokens, scores, lang=None, taus=TAUS, n_samples=3, seed=0,
                       sample_prefix_len=2, max_tokens=12, start=1.0):
    """The chapter's temperature slider, precomputed so it also works on the static website.

    The blank is the decoder's next-token distribution after the canonical "big" sentence up to
    太 / "too" (``lib.winograd.next_token_probs``); the samples continue the sentence's first
    ``sample_prefix_len`` tokens with ``lib.winograd.generate`` and a fixed seed per frame.
    """
    import lib.widgets
    import lib.winograd as wg

    lang = lang or current_lang()
    big, _ = wg.canonical_pair(lang)
    prefix = blank_prefix(big)
    vocab, probs = wg.next_token_probs(prefix, lang)
    # log p = logits − a constant, so softmax(log p / τ) is softmax(logits / τ)
    blank_scores = np.log(np.clip(np.asarray(probs, dtype=float), 1e-30, None))
    title = tr(zh="小解碼器：「" + join_tokens(prefix[-3:], lang) + "＿」",
               en="tiny decoder: “…" + join_tokens(prefix[-3:], lang) + " ＿”")
    sample_prefix = list(big[:sample_prefix_len])

    def draw(tau):
        samples = _sample_texts(lang, sample_prefix, tau, n_samples, seed, max_tokens)
        return plot_temperature_frame(tau, tokens, scores, vocab, blank_scores, samples,
                                      blank_title=title)

    box = lib.widgets.frames_widget(draw, {"tau": list(taus)},
                                    labels={"tau": tr(zh="溫度 τ", en="temperature τ")})
    if start in taus:  # open at τ = 1: move the slider and its (jslinked) stack together
        k = list(taus).index(start)
        box.controls["tau"].index = k
        for stack in box.stacks[0]:
            stack.selected_index = k
    return box
