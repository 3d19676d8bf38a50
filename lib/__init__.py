"""``lib``: the shared package of the book 《Transformer 入門》 / *Transformers, from Analogy
to Formula*.

The NumPy reference of every formula in the text, re-exported here (``lib.softmax``,
``lib.scaled_dot_product_attention``, …), plus the notebook helpers of :mod:`lib.book`.
Heavier or optional parts load on first use, so ``import lib`` never imports torch:
``lib.torch_mirror``, ``lib.winograd``, ``lib.widgets``, ``lib.figures``, ``lib.bpe``,
``lib.corpus``, ``lib.tiny_models``.

Row-vector convention throughout: ``x @ W``. Shapes: ``N`` tokens, ``d`` width, ``d_k`` key
width, ``A`` heads, ``|V|`` vocabulary, ``L`` layers.
"""
from __future__ import annotations

import importlib

from .attention import (attention_rollout, causal_mask, multi_head_attention,
                        scaled_dot_product_attention, self_attention, softmax)
from .block import feed_forward, layer_norm, relu, transformer_block
from .book import check, current_lang, glue, setup, tr
from .embeddings import embed, one_hot
from .evaluation import perplexity
from .lm import cross_entropy, lm_head, sample
from .positions import rope, sinusoidal_encoding

__all__ = [
    # chapter 1
    "one_hot", "embed",
    # chapters 2-3
    "sinusoidal_encoding", "rope",
    # chapters 3-4
    "softmax", "causal_mask", "scaled_dot_product_attention", "self_attention",
    "multi_head_attention", "attention_rollout",
    "layer_norm", "relu", "feed_forward", "transformer_block",
    # chapter 5
    "lm_head", "cross_entropy", "sample",
    # chapter 6
    "perplexity",
    # notebooks
    "setup", "tr", "glue", "check", "current_lang",
]

_LAZY = ("torch_mirror", "winograd", "widgets", "figures", "bpe", "corpus", "tiny_models")


def __getattr__(name):
    """Import the heavy or optional submodules on first access (PEP 562)."""
    if name in _LAZY:
        module = importlib.import_module(f".{name}", __name__)
        globals()[name] = module
        if name in ("torch_mirror", "tiny_models"):
            from .book import seed_torch

            seed_torch()  # lib.setup left torch unseeded while it was not loaded
        return module
    raise AttributeError(f"module 'lib' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
