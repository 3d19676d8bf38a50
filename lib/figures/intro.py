"""Figures of the introduction: the five stations of a Transformer, and the book's running pair."""
from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from ..book import tr


def stations():
    """The five stations, as (label, what happens there) in the current language."""
    return [
        (tr(zh="① 詞元與詞嵌入", en="① Tokens &\nembeddings"),
         tr(zh="字 → 編號 → 向量", en="text → ids\n→ vectors")),
        (tr(zh="② 位置嵌入", en="② Positions"),
         tr(zh="加上座位號碼", en="add a\nseat number")),
        (tr(zh="③ 自注意力", en="③ Self-attention"),
         tr(zh="聽取鄰座的意見", en="listen to\nthe neighbours")),
        (tr(zh="④ L 個區塊", en="④ L blocks"),
         tr(zh="逐層改寫向量", en="rewrite\nlayer by layer")),
        (tr(zh="⑤ 語言模型頭", en="⑤ LM head"),
         tr(zh="向量 →\n下一個詞的機率", en="vector → odds\nof the next token")),
    ]


HIGHLIGHT = 3  # station ④, the blocks: where the "understanding" happens (the text says so)


def plot_pipeline():
    """The flow of the whole book as five boxes joined by arrows, one chapter group per box.

    Station ④ (the stack of blocks) is shaded: the introduction says the real work happens there.
    """
    items = stations()
    fig, ax = plt.subplots(figsize=(8, 2.4))
    width, gap = 1.5, 0.35
    for i, (title, note) in enumerate(items):
        x = i * (width + gap)
        ax.add_patch(FancyBboxPatch((x, 0), width, 1, boxstyle="round,pad=0.04",
                                    facecolor="#fde7d8" if i == HIGHLIGHT else "#e8f0fb",
                                    edgecolor="#34558b"))
        ax.text(x + width / 2, 0.7, title, ha="center", va="center", fontsize=9.5, weight="bold")
        ax.text(x + width / 2, 0.28, note, ha="center", va="center", fontsize=8.5)
        if i < len(items) - 1:
            ax.add_patch(FancyArrowPatch((x + width + 0.03, 0.5), (x + width + gap - 0.03, 0.5),
                                         arrowstyle="-|>", mutation_scale=12, color="#34558b"))
    ax.set_xlim(-0.1, len(items) * (width + gap) - gap + 0.1)
    ax.set_ylim(-0.45, 1.15)
    ax.text(0, -0.3, tr(zh="例句：「獎盃放不進行李箱，因為它太大了。」",
                        en="Running example: “The trophy doesn't fit into the suitcase because it is too big.”"),
            fontsize=9, color="#555555")
    ax.axis("off")
    fig.tight_layout()
    return fig


def plot_referent(probs: dict[str, float], which: str):
    """Bar chart of the tiny encoder's belief about what the pronoun refers to.

    ``probs`` maps the two candidate nouns to probabilities; ``which`` is ``"big"`` or ``"small"``.
    """
    if which not in ("big", "small"):
        raise ValueError(f"which must be 'big' or 'small', got {which!r}")
    adjective = {"big": tr(zh="大", en="big"), "small": tr(zh="小", en="small")}[which]
    nouns = list(probs)
    fig, ax = plt.subplots(figsize=(4.2, 2.6))
    bars = ax.bar(nouns, [probs[n] for n in nouns], color=["#34558b", "#d9822b"])
    for bar, noun in zip(bars, nouns):
        ax.text(bar.get_x() + bar.get_width() / 2, probs[noun] + 0.02, f"{probs[noun]:.2f}",
                ha="center", fontsize=10)
    ax.set_ylim(0, 1.12)
    ax.set_ylabel(tr(zh="機率", en="probability"))
    ax.set_title(tr(zh=f"「它」指的是？（太{adjective}了）", en=f"What does “it” refer to? (too {adjective})"),
                 fontsize=11)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    return fig


def referent_widget(lang: str):
    """The tiny encoder on the book's pair, as a kernel-free widget: big ↔ small on a toggle."""
    from .. import widgets, winograd

    big, small = winograd.canonical_pair(lang)
    choices = {tr(zh="太大了", en="too big"): ("big", big), tr(zh="太小了", en="too small"): ("small", small)}

    def draw(sentence):
        which, tokens = choices[sentence]
        return plot_referent(winograd.resolve(tokens, lang).probs, which)

    return widgets.frames_widget(draw, {"sentence": list(choices)},
                                 labels={"sentence": tr(zh="句子", en="sentence")})
