"""The Transformer block (chapter 4): layer norm, ReLU, the feed-forward network, and the
pre-norm block that joins them to multi-head attention around a residual stream.
"""
from __future__ import annotations

import numpy as np

from . import _validate as _v
from .attention import multi_head_attention

__all__ = ["layer_norm", "relu", "feed_forward", "transformer_block", "BLOCK_PARAMS"]

#: The keys of the ``params`` dict of :func:`transformer_block`.
BLOCK_PARAMS = ("gamma1", "beta1", "WQ", "WK", "WV", "WO", "gamma2", "beta2",
                "W1", "b1", "W2", "b2", "n_heads")


def _vector(v, name, d, default):
    """gamma or beta: ``None`` → ``default``, else a vector of length d."""
    if v is None:
        return default
    v = _v.as_array(v, name, ndims=(0, 1))
    if v.ndim == 1:
        _v.check_shape(name, v.shape, (d,), f"one entry per coordinate, d = {d}")
    return v


def layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """Layer normalisation over the last axis: a z-score per vector, then a learned rescale.

    ``LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β`` with ``μ = mean(x)`` and the *population*
    variance ``σ² = Σ (x_i − μ)² / d`` (divide by d, not d − 1).

    Parameters
    ----------
    x : array-like, shape [..., d]
    gamma, beta : array-like, shape [d], optional
        Scale (default 1) and shift (default 0).
    eps : float
        Keeps the division finite for a constant vector.

    Returns
    -------
    np.ndarray, same shape as ``x``; mean 0 and standard deviation ≈ 1 along the last axis
    when ``gamma = 1, beta = 0``.
    """
    x = _v.as_array(x, "x", ndims="1+")
    d = x.shape[-1]
    gamma = _vector(gamma, "gamma", d, 1.0)
    beta = _vector(beta, "beta", d, 0.0)
    eps = _v.positive_number(eps, "eps")
    mu = x.mean(axis=-1, keepdims=True)                      # [..., 1]
    var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)       # [..., 1]
    return gamma * (x - mu) / np.sqrt(var + eps) + beta      # [..., d]


def relu(x):
    """``ReLU(x) = max(0, x)``, elementwise: negatives become 0, positives stay.

    Parameters
    ----------
    x : array-like, any shape

    Returns
    -------
    np.ndarray, same shape as ``x``
    """
    x = _v.as_array(x, "x")
    return np.maximum(x, 0)


def feed_forward(x, W1, b1, W2, b2):
    """The position-wise feed-forward network: ``FFN(x) = ReLU(x W_1 + b_1) W_2 + b_2``.

    Parameters
    ----------
    x : array-like, shape [N, d] (or [..., d])
    W1 : array-like, shape [d, d_ff]   (usually d_ff = 4d)
    b1 : array-like, shape [d_ff]
    W2 : array-like, shape [d_ff, d]
    b2 : array-like, shape [d]

    Returns
    -------
    np.ndarray, shape [N, d]
    """
    x = _v.as_array(x, "x", ndims="1+")
    W1 = _v.as_array(W1, "W1", ndims=2, meaning="[d, d_ff]")
    d, d_ff = W1.shape
    _v.check_dim("W1", d, x.shape[-1], f"the number of rows, the width of x "
                 f"{_v.fmt_shape(x.shape)}")
    b1 = _v.as_array(b1, "b1")
    _v.check_shape("b1", b1.shape, (d_ff,), f"one bias per column of W1 {_v.fmt_shape(W1.shape)}")
    W2 = _v.as_array(W2, "W2", ndims=2, meaning="[d_ff, d]")
    _v.check_shape("W2", W2.shape, (d_ff, d), f"[d_ff, d] with d_ff = {d_ff} from W1 and "
                   f"d = {d} from x")
    b2 = _v.as_array(b2, "b2")
    _v.check_shape("b2", b2.shape, (d,), f"one bias per coordinate, d = {d}")
    hidden = relu(x @ W1 + b1)                               # [N, d_ff]
    return hidden @ W2 + b2                                  # [N, d]


def _check_params(params):
    """``params`` must be a dict holding every key of :data:`BLOCK_PARAMS`."""
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict with keys {list(BLOCK_PARAMS)}, "
                        f"got {type(params).__name__}")
    missing = [k for k in BLOCK_PARAMS if k not in params]
    if missing:
        raise ValueError(f"params is missing the keys {missing} (it has {sorted(params)})")


def transformer_block(x, params, causal=True, mask=None):
    """One pre-norm Transformer block, the five steps of the notes.

    ``t1 = LN(x)``; ``t2 = MHA(t1)``; ``t3 = t2 + x``; ``t4 = LN(t3)``; ``t5 = FFN(t4)``;
    ``h = t5 + t3``. Each sublayer reads a normalised copy of the residual stream and adds
    its result back to it.

    Parameters
    ----------
    x : array-like, shape [N, d]
    params : dict
        ``gamma1, beta1, gamma2, beta2`` [d]; ``WQ, WK, WV, WO`` [d, d]; ``W1`` [d, d_ff];
        ``b1`` [d_ff]; ``W2`` [d_ff, d]; ``b2`` [d]; ``n_heads`` int.
    causal : bool
        Mask the future (a decoder) or not (an encoder).
    mask : array-like of bool, broadcastable to [A, N, N], optional
        True where a query may look (e.g. to hide padding).

    Returns
    -------
    h : np.ndarray, shape [N, d]
    weights : np.ndarray, shape [A, N, N]
    """
    _check_params(params)
    p = params
    x = _v.as_array(x, "x", ndims="2+", meaning="[N, d]")
    t1 = layer_norm(x, p["gamma1"], p["beta1"])                                 # [N, d]
    t2, weights = multi_head_attention(t1, p["WQ"], p["WK"], p["WV"], p["WO"],
                                       p["n_heads"], causal=causal, mask=mask)             # [N, d]
    t3 = t2 + x                                                                 # [N, d]
    t4 = layer_norm(t3, p["gamma2"], p["beta2"])                                # [N, d]
    t5 = feed_forward(t4, p["W1"], p["b1"], p["W2"], p["b2"])                   # [N, d]
    return t5 + t3, weights                                  # [N, d], [A, N, N]
