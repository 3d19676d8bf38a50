"""Attention (chapters 3–4): softmax, the causal mask, scaled dot-product attention,
single-head self-attention, multi-head attention, and attention rollout.

Row-vector convention: ``Q = X @ W_Q``. Shapes: ``N`` tokens, ``d`` model width, ``d_k`` key
width, ``A`` heads.
"""
from __future__ import annotations

import numbers

import numpy as np

from . import _validate as _v

__all__ = ["softmax", "causal_mask", "scaled_dot_product_attention", "self_attention",
           "multi_head_attention", "attention_rollout"]


def _softmax(z, axis=-1):
    """Softmax without checks (inputs already validated; −inf allowed as a mask)."""
    z = z - z.max(axis=axis, keepdims=True)                  # the largest becomes 0: no overflow
    e = np.exp(z)
    return e / e.sum(axis=axis, keepdims=True)


def softmax(z, axis=-1, temperature=1.0):
    """Numerically stable softmax of ``z / τ``.

    ``softmax(z)_j = exp(z_j / τ) / Σ_i exp(z_i / τ)``; computed after subtracting the
    maximum, which changes nothing (softmax ignores an added constant) but keeps ``exp``
    finite even for logits of ±1e4 and ``τ = 0.01``.

    Parameters
    ----------
    z : array-like, shape [..., n]
        Scores (logits). ``−inf`` is allowed (a masked entry gets weight 0) as long as every
        slice along ``axis`` keeps at least one finite score.
    axis : int
        The axis that sums to 1.
    temperature : float
        ``τ > 0``. Small τ sharpens the distribution (τ → 0: argmax), large τ flattens it.

    Returns
    -------
    np.ndarray, same shape as ``z``; non-negative, sums to 1 along ``axis``.
    """
    z = _v.as_array(z, "z", ndims="1+", allow_neg_inf=True)
    t = _v.check_temperature(temperature)
    if not isinstance(axis, numbers.Integral) or not -z.ndim <= axis < z.ndim:
        raise ValueError(f"axis must be an integer in {-z.ndim} … {z.ndim - 1} for z of shape "
                         f"{_v.fmt_shape(z.shape)}, got {axis!r}")
    if np.isneginf(z).all(axis=axis).any():
        raise ValueError("z has a slice that is −inf everywhere along axis "
                         f"{axis}; softmax of it is undefined (0/0)")
    return _softmax(z / t, axis=axis)


def causal_mask(n):
    """The causal mask: ``M[i, j] = True`` where query ``i`` may look at key ``j`` (``j ≤ i``).

    Parameters
    ----------
    n : int
        Sequence length ``N``.

    Returns
    -------
    np.ndarray of bool, shape [N, N], lower-triangular.
    """
    n = _v.positive_int(n, "n")
    return np.tril(np.ones((n, n), dtype=bool))              # [N, N]


def _divisor(scale, d_k):
    """What the scores are divided by: √d_k (True), 1 (False), or the number given."""
    if isinstance(scale, (bool, np.bool_)):
        return float(np.sqrt(d_k)) if scale else 1.0
    return _v.positive_number(scale, "scale")


def _check_qkv(Q, K, V):
    """Q [..., N_q, d_k], K [..., N_k, d_k], V [..., N_k, d_v] with equal leading axes."""
    Q = _v.as_array(Q, "Q", ndims="2+", meaning="[N, d_k]")
    K = _v.as_array(K, "K", ndims=Q.ndim, meaning="as many axes as Q")
    V = _v.as_array(V, "V", ndims=Q.ndim, meaning="as many axes as Q")
    if K.shape[:-2] != Q.shape[:-2] or V.shape[:-2] != Q.shape[:-2]:
        raise ValueError(f"Q, K, V must agree on their leading axes, got Q "
                         f"{_v.fmt_shape(Q.shape)}, K {_v.fmt_shape(K.shape)}, "
                         f"V {_v.fmt_shape(V.shape)}")
    _v.check_dim("K", K.shape[-1], Q.shape[-1], f"the key width d_k (Q is "
                 f"{_v.fmt_shape(Q.shape)}, K is {_v.fmt_shape(K.shape)})")
    _v.check_dim("V", V.shape[-2], K.shape[-2], f"the number of values, one per key (K is "
                 f"{_v.fmt_shape(K.shape)}, V is {_v.fmt_shape(V.shape)})")
    return Q, K, V


def _check_mask(mask, scores_shape):
    """A boolean mask that broadcasts to the scores and leaves every query a key to look at."""
    m = np.asarray(mask)
    if m.dtype != bool:
        raise TypeError(f"mask must be boolean (True where a query may look), got dtype {m.dtype}")
    try:
        m = np.broadcast_to(m, scores_shape)
    except ValueError:
        raise ValueError(f"mask of shape {_v.fmt_shape(np.shape(mask))} does not fit the scores "
                         f"of shape {_v.fmt_shape(scores_shape)} [..., N, N_k]") from None
    return m


def scaled_dot_product_attention(Q, K, V, causal=False, scale=True, mask=None):
    """Scaled dot-product attention: ``softmax(Q Kᵀ / √d_k) V``.

    ``α_ij = softmax_j(q_i · k_j / √d_k)`` and ``a_i = Σ_j α_ij v_j``. With ``causal=True``
    the scores of future keys (``j > i``) are set to −inf, so their weights are 0.

    Parameters
    ----------
    Q : array-like, shape [N, d_k] (or [..., N, d_k])
    K : array-like, shape [N_k, d_k]
    V : array-like, shape [N_k, d_v]
    causal : bool
        Mask the future (needs ``N == N_k``).
    scale : bool or float
        ``True`` divides by √d_k, ``False`` uses the raw dot products, a number divides by it.
    mask : array-like of bool, broadcastable to [N, N_k], optional
        True where a query may look (e.g. to hide padding); combined with ``causal``.

    Returns
    -------
    out : np.ndarray, shape [N, d_v]
    weights : np.ndarray, shape [N, N_k]; each row sums to 1.
    """
    Q, K, V = _check_qkv(Q, K, V)
    s = _divisor(scale, Q.shape[-1])
    scores = Q @ np.swapaxes(K, -1, -2) / s                  # [N, N_k]
    if causal:
        _v.check_dim("K", K.shape[-2], Q.shape[-2], "the number of keys with causal=True "
                     "(one key per query)")
        scores = np.where(causal_mask(Q.shape[-2]), scores, -np.inf)   # [N, N]
    if mask is not None:
        scores = np.where(_check_mask(mask, scores.shape), scores, -np.inf)  # [N, N_k]
    if np.isneginf(scores).all(axis=-1).any():
        raise ValueError("mask hides every key from some query; each row needs one key")
    weights = _softmax(scores)                               # [N, N_k]
    return weights @ V, weights                              # [N, d_v], [N, N_k]


def _check_projections(X, named):
    """X [..., N, d] and each projection W [d, width]; returns X and the arrays."""
    X = _v.as_array(X, "X", ndims="2+", meaning="[N, d], one row per token")
    out = []
    for name, W in named:
        W = _v.as_array(W, name, ndims=2, meaning="[d, d_k]")
        _v.check_projection(name, W.shape, X.shape)
        out.append(W)
    return X, out


def self_attention(X, WQ, WK, WV, causal=False, mask=None):
    """Single-head self-attention: ``Q, K, V = X W_Q, X W_K, X W_V``, then attention.

    Parameters
    ----------
    X : array-like, shape [N, d]
    WQ, WK : array-like, shape [d, d_k]
    WV : array-like, shape [d, d_v]
    causal : bool
    mask : array-like of bool, broadcastable to [N, N], optional

    Returns
    -------
    out : np.ndarray, shape [N, d_v]
    weights : np.ndarray, shape [N, N]
    """
    X, (WQ, WK, WV) = _check_projections(X, [("WQ", WQ), ("WK", WK), ("WV", WV)])
    _v.check_dim("WK", WK.shape[1], WQ.shape[1], f"the number of columns d_k, as in WQ "
                 f"{_v.fmt_shape(WQ.shape)} (got WK {_v.fmt_shape(WK.shape)})")
    return scaled_dot_product_attention(X @ WQ, X @ WK, X @ WV, causal=causal, mask=mask)


def _split_heads(M, n_heads):
    """[..., N, d] → [..., A, N, d/A]: head h takes columns h·d/A … (h+1)·d/A."""
    *lead, N, d = M.shape
    M = M.reshape(*lead, N, n_heads, d // n_heads)           # [..., N, A, d_k]
    return np.swapaxes(M, -2, -3)                            # [..., A, N, d_k]


def multi_head_attention(X, WQ, WK, WV, WO, n_heads, causal=False, mask=None):
    """Multi-head attention: ``MHA(X) = (head_1 ⊕ … ⊕ head_A) W_O``.

    ``head_h = Attention(X W_Q^{(h)}, X W_K^{(h)}, X W_V^{(h)})`` where ``W^{(h)}`` are the
    columns ``h·d/A … (h+1)·d/A`` of ``W``, each head scaled by ``√(d/A)``; ⊕ concatenates.

    Parameters
    ----------
    X : array-like, shape [N, d] (or [..., N, d])
    WQ, WK, WV, WO : array-like, shape [d, d]
    n_heads : int
        ``A``; must divide ``d``.
    causal : bool
    mask : array-like of bool, broadcastable to [A, N, N], optional

    Returns
    -------
    out : np.ndarray, shape [N, d]
    weights : np.ndarray, shape [A, N, N]
    """
    named = [("WQ", WQ), ("WK", WK), ("WV", WV), ("WO", WO)]
    X, Ws = _check_projections(X, named)
    d = X.shape[-1]
    for (name, _), W in zip(named, Ws):
        _v.check_shape(name, W.shape, (d, d), f"[d, d] with d = {d} from X")
    A = _v.positive_int(n_heads, "n_heads")
    if d % A:
        raise ValueError(f"n_heads must divide the width d = {d}, got n_heads = {A}")
    WQ, WK, WV, WO = Ws
    Q, K, V = (_split_heads(X @ W, A) for W in (WQ, WK, WV))  # [..., A, N, d_k]
    heads, weights = scaled_dot_product_attention(Q, K, V, causal=causal,
                                                  mask=mask)  # [..., A, N, d_k]
    concat = np.swapaxes(heads, -2, -3).reshape(X.shape)     # [..., N, d]
    return concat @ WO, weights                              # [..., N, d], [..., A, N, N]


def attention_rollout(weights, residual=0.5):
    """Attention rollout (Abnar & Zuidema 2020): how much each token draws on each input token.

    For every layer ``ℓ``: average the heads, add the residual path and renormalise the rows,
    ``Ā_ℓ = rownorm(mean_h A_ℓ^{(h)} + r·I)``; then multiply the layers, the first on the
    right: ``R = Ā_L ⋯ Ā_2 Ā_1``. Row ``i`` of ``R`` says how much of the input at each
    position reaches token ``i`` at the top. Abnar & Zuidema's ``0.5·A + 0.5·I`` is
    ``residual=1.0``; the book uses ``residual=0.5`` (attention weighs twice the identity).

    Parameters
    ----------
    weights : array-like, shape [L, A, N, N]
        Attention weights of every layer and head (rows sum to 1).
    residual : float
        ``r ≥ 0``, the weight of the identity (the residual connection).

    Returns
    -------
    np.ndarray, shape [N, N]; each row sums to 1.
    """
    W = _v.as_array(weights, "weights", ndims=4, meaning="[L, A, N, N]: layers, heads, "
                    "queries, keys")
    _v.check_dim("weights", W.shape[3], W.shape[2], f"the number of keys, equal to the "
                 f"number of queries (got shape {_v.fmt_shape(W.shape)})")
    if (W < 0).any():
        raise ValueError(f"weights must be non-negative attention weights, got a minimum of "
                         f"{W.min()!r}")
    r = _v.positive_number(residual, "residual", allow_zero=True)
    if r == 0 and (W.mean(axis=1).sum(axis=-1) == 0).any():
        raise ValueError("weights has a row of zeros and residual = 0: nothing to renormalise")
    N = W.shape[-1]
    R = np.eye(N)                                            # [N, N]
    for layer in W:                                          # [A, N, N]
        A_bar = layer.mean(axis=0) + r * np.eye(N)           # [N, N]
        A_bar = A_bar / A_bar.sum(axis=-1, keepdims=True)
        R = A_bar @ R                                        # [N, N]
    return R
