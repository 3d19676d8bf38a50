"""The language model's top (chapter 5): the LM head with weight tying, the cross-entropy loss
of next-token prediction, and sampling with a temperature.
"""
from __future__ import annotations

import numpy as np

from . import _validate as _v
from .attention import softmax

__all__ = ["lm_head", "cross_entropy", "sample"]


def lm_head(h, E):
    """The LM head with weight tying: logits ``u = h Eᵀ``, one score per vocabulary token.

    ``u_j = h · E_j``: the dot product of the contextual vector with token ``j``'s embedding.

    Parameters
    ----------
    h : array-like, shape [N, d] (or [d], or [..., d])
        Final (normalised) hidden vectors.
    E : array-like, shape [|V|, d]
        The embedding matrix, reused as the output layer.

    Returns
    -------
    np.ndarray, shape [N, |V|] (or [|V|])
    """
    h = _v.as_array(h, "h", ndims="1+")
    E = _v.as_array(E, "E", ndims=2, meaning="[|V|, d], one row per token")
    _v.check_dim("E", E.shape[1], h.shape[-1], f"the width d of each row, the width of h "
                 f"{_v.fmt_shape(h.shape)} (E is {_v.fmt_shape(E.shape)})")
    return h @ E.T                                           # [N, |V|]


def _log_softmax(z):
    """``log softmax(z)`` along the last axis, stably: ``z − max − log Σ exp(z − max)``."""
    z = z - z.max(axis=-1, keepdims=True)                    # [..., |V|]
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))  # [..., |V|]


def cross_entropy(logits, target):
    """Cross-entropy of the correct next token: ``ℓ = −log softmax(u)[w]``.

    With a one-hot target distribution, cross-entropy is the negative log-probability the
    model gives the right token. For a batch, the mean over rows (as ``torch``'s
    ``F.cross_entropy``).

    Parameters
    ----------
    logits : array-like, shape [|V|] or [N, |V|]
    target : int, or array-like of int with shape [N]
        The correct token id(s), each in ``0 … |V| − 1``.

    Returns
    -------
    float
    """
    u = _v.as_array(logits, "logits", ndims=(1, 2), meaning="[|V|] or [N, |V|]")
    w = _v.as_ids(target, "target", u.shape[-1])
    if u.ndim == 1 and w.ndim != 0:
        raise ValueError(f"logits of shape {_v.fmt_shape(u.shape)} (one position) need a "
                         f"single target id, got target of shape {_v.fmt_shape(w.shape)}")
    if u.ndim == 2:
        _v.check_shape("target", w.shape, (u.shape[0],), f"one id per row of logits "
                       f"{_v.fmt_shape(u.shape)}")
    logp = _log_softmax(u)                                   # [N, |V|]
    picked = np.take_along_axis(logp, w[..., None], axis=-1)  # [N, 1]
    return float(-picked.mean())


def sample(logits, temperature, rng):
    """Draw one token id from ``softmax(u / τ)``.

    ``τ < 1`` sharpens the distribution (τ → 0 is greedy decoding), ``τ > 1`` flattens it.

    Parameters
    ----------
    logits : array-like, shape [|V|]
    temperature : float
        ``τ > 0``.
    rng : np.random.Generator
        e.g. ``np.random.default_rng(0)``; passing it makes the draw reproducible.

    Returns
    -------
    int, a token id in ``0 … |V| − 1``
    """
    u = _v.as_array(logits, "logits", ndims=1, meaning="[|V|], one score per token")
    temperature = _v.check_temperature(temperature)
    if not isinstance(rng, np.random.Generator):
        raise TypeError(f"rng must be a numpy.random.Generator (np.random.default_rng(seed)), "
                        f"got {type(rng).__name__}")
    p = softmax(u, temperature=temperature)                  # [|V|]
    return int(rng.choice(u.shape[0], p=p))
