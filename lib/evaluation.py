"""Evaluation (chapter 6): perplexity, the exponential of the mean cross-entropy."""
from __future__ import annotations

import numpy as np

from . import _validate as _v

__all__ = ["perplexity"]


def perplexity(p_true):
    """Perplexity: ``PPL = exp(−(1/N) Σ_t log p_t) = (Π_t p_t)^(−1/N)``.

    The inverse geometric mean of the probabilities given to the correct tokens; read it as
    the number of equally likely tokens the model hesitates between at each step.

    Parameters
    ----------
    p_true : array-like, shape [N]
        The probability the model gave each correct next token, each in (0, 1].

    Returns
    -------
    float, ≥ 1
    """
    p = _v.as_array(p_true, "p_true", ndims=1, meaning="one probability per token")
    if p.size == 0:
        raise ValueError("p_true is empty; perplexity needs at least one probability")
    bad = (p <= 0) | (p > 1)
    if bad.any():
        raise ValueError(f"p_true must hold probabilities in (0, 1], got "
                         f"{float(p[bad][0])!r} at index {int(np.argmax(bad))}")
    return float(np.exp(-np.mean(np.log(p))))
