"""Figures for chapter 5's first idea: static vs contextual vectors.

The same token (它 / it) starts from the same row of ``E`` in two sentences; layer by layer the
tiny encoder pulls the two vectors apart. The cosines are computed by the chapter (from
``lib.winograd.resolve(...).hidden``); this module draws them.
"""
from __future__ import annotations

import numpy as np
import matplotlib.pyplot as plt

from lib.book import tr

__all__ = ["plot_cosine_by_layer"]


def plot_cosine_by_layer(cosines, pronoun="它", labels=None):
    """Cosine similarity of one token's vectors in two sentences, after each layer.

    Parameters
    ----------
    cosines : array-like [L+1]
        ``cosines[l]`` compares the two residual-stream vectors after layer ``l`` (0 = input).
    pronoun : str
        The token whose vectors are compared, for the title.
    labels : list[str], optional
        Tick labels for the layers; defaults to input, layer 1, …, layer L.
    """
    cos = np.asarray(cosines, dtype=float)
    layers = np.arange(len(cos))
    if labels is None:
        labels = [tr(zh="輸入", en="input")] + [tr(zh=f"第 {l} 層", en=f"layer {l}")
                                              for l in layers[1:]]
    fig, ax = plt.subplots(figsize=(5.6, 3.2), constrained_layout=True)
    ax.plot(layers, cos, "-o", color="#3b6ea5", lw=2, ms=8)
    for l, c in zip(layers, cos):
        ax.annotate(f"{c:.2f}", (l, c), textcoords="offset points", xytext=(0, 9),
                    ha="center", fontsize=10)
    ax.axhline(1.0, color="#b0b0b0", ls="--", lw=1)
    ax.set_xticks(layers, labels)
    ax.set_xlim(-0.3, len(cos) - 0.7)
    ax.set_ylim(min(0.0, cos.min() - 0.1), 1.15)
    ax.set_ylabel(tr(zh="餘弦相似度", en="cosine similarity"))
    ax.set_title(tr(zh=f"「{pronoun}」在「太大」句與「太小」句中的向量",
                    en=f"“{pronoun}” in the big vs the small sentence"), fontsize=11)
    ax.spines[["top", "right"]].set_visible(False)
    return fig
