"""The Torch mirror of the NumPy reference: the same names and signatures over torch tensors.

A second, independent rendering of the book's formulas (nothing here calls the NumPy code),
used to train the tiny models, on a GPU where one exists. Every result keeps the device and
dtype of its inputs and supports autograd. Most functions also accept leading batch axes
(``[B, N, d]``). Array-likes that are not tensors are turned into tensors first.

Differences from the NumPy reference, because training needs them: ``cross_entropy`` and
``perplexity`` return 0-d tensors (not floats) so the loss can be backpropagated, and
``sample`` takes a ``torch.Generator`` (or ``None``) as its ``rng``.
"""
from __future__ import annotations

import math
import numbers

import torch
from torch import nn

from . import _validate as _v

__all__ = ["default_device", "softmax", "one_hot", "embed", "sinusoidal_encoding", "rope",
           "causal_mask", "scaled_dot_product_attention", "self_attention",
           "multi_head_attention", "attention_rollout", "layer_norm", "relu", "feed_forward",
           "transformer_block", "lm_head", "tied_lm_head", "cross_entropy", "perplexity",
           "sample"]


# ----------------------------------------------------------------------------- checks

def default_device() -> torch.device:
    """CUDA when a GPU is present, else the CPU."""
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def _tensor(x, name, ndims=None, allow_neg_inf=False, meaning="") -> torch.Tensor:
    """A floating tensor with the right number of axes and no NaN (nor ±inf)."""
    if not isinstance(x, torch.Tensor):
        try:
            x = torch.as_tensor(x)
        except Exception as exc:
            raise TypeError(f"{name} must be a tensor of numbers, got {type(x).__name__}: "
                            f"{exc}") from None
    if x.dtype == torch.bool or not (x.is_floating_point() or x.dtype in _INT_DTYPES):
        raise TypeError(f"{name} must hold real numbers, got dtype {x.dtype}")
    if not x.is_floating_point():
        x = x.to(torch.get_default_dtype())
    if ndims is not None:
        _v.check_ndim(name, x.shape, ndims, meaning)
    xd = x.detach()
    bad = torch.isnan(xd) | (torch.isposinf(xd) if allow_neg_inf else torch.isinf(xd))
    if bad.any():
        where = [int(i) for i in torch.nonzero(bad)[0]]
        raise ValueError(f"{name} contains {float(xd[tuple(where)])!r} at index {where}; "
                         f"every entry must be a finite number")
    return x


_INT_DTYPES = (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8)


def _ids(ids, name, vocab_size, device=None) -> torch.Tensor:
    """Integer token ids (a scalar or 1-D), each in 0 … vocab_size − 1, as int64."""
    if not isinstance(ids, torch.Tensor):
        try:
            ids = torch.as_tensor(ids, device=device)
        except Exception as exc:
            raise TypeError(f"{name} must be integer token ids, got {type(ids).__name__}: "
                            f"{exc}") from None
    if ids.dtype not in _INT_DTYPES:
        if ids.numel() == 0:
            ids = ids.long()
        else:
            raise TypeError(f"{name} must be integer token ids, got dtype {ids.dtype}")
    _v.check_ndim(name, ids.shape, (0, 1), "a single id or a sequence of ids")
    bad = (ids < 0) | (ids >= vocab_size)
    if bad.any():
        raise ValueError(f"{name} must lie in 0 … {vocab_size - 1} (vocabulary of "
                         f"{vocab_size}), got {int(ids[bad][0])}")
    return ids.long()


def _like(values, ref: torch.Tensor, name) -> torch.Tensor:
    """Positions or angles as a floating tensor on ``ref``'s device and dtype."""
    if not isinstance(values, torch.Tensor):              # no float32 detour for Python floats
        try:
            values = torch.as_tensor(values, dtype=ref.dtype, device=ref.device)
        except Exception as exc:
            raise TypeError(f"{name} must be numbers, got {type(values).__name__}: "
                            f"{exc}") from None
    t = _tensor(values, name, ndims=(0, 1))
    return t.to(device=ref.device, dtype=ref.dtype)


# ----------------------------------------------------------------------------- chapter 1

def one_hot(ids, vocab_size, dtype=None):
    """One-hot row vectors: ``one_hot(w)[i, j] = 1`` if ``w_i = j`` else 0.

    Parameters
    ----------
    ids : int, list or integer tensor, shape [N]
        Token ids in ``0 … vocab_size − 1``.
    vocab_size : int
        ``|V|``.
    dtype : torch.dtype, optional
        Of the result (default: torch's default dtype).

    Returns
    -------
    torch.Tensor, shape [N, |V|] (or [|V|]), on ``ids``' device
    """
    V = _v.positive_int(vocab_size, "vocab_size")
    ids = _ids(ids, "ids", V)                                          # [N]
    cols = torch.arange(V, device=ids.device)                          # [|V|]
    return (ids[..., None] == cols).to(dtype or torch.get_default_dtype())  # [N, |V|]


def embed(ids, E):
    """Embedding lookup ``x_i = E[w_i] = one_hot(w_i) E``.

    Parameters
    ----------
    ids : int, list or integer tensor, shape [N]
    E : torch.Tensor, shape [|V|, d]

    Returns
    -------
    torch.Tensor, shape [N, d] (or [d]), E's device and dtype
    """
    E = _tensor(E, "E", ndims=2, meaning="[|V|, d], one row per token")
    ids = _ids(ids, "ids", E.shape[0], device=E.device).to(E.device)  # [N]
    return E[ids]                                                      # [N, d]


# ----------------------------------------------------------------------------- positions

def _speeds(d, base, ref):
    """``ω_k = base^(−2k/d)`` on ``ref``'s device and dtype: [d/2]."""
    base = _v.positive_number(base, "base")
    k = torch.arange(d // 2, device=ref.device, dtype=ref.dtype)       # [d/2]
    return torch.exp(-2.0 * k / d * math.log(base))                    # [d/2]


def sinusoidal_encoding(positions, d, base=10000.0, *, dtype=None, device=None):
    """Sinusoidal encoding: ``PE[p, 2k] = sin(p ω_k)``, ``PE[p, 2k+1] = cos(p ω_k)``,
    ``ω_k = base^(−2k/d)``.

    Parameters
    ----------
    positions : int, list or tensor, shape [N]
    d : int
        Even width.
    base : float
    dtype, device : optional
        Of the result. A tensor of positions sets the device (and, if floating, the dtype);
        otherwise the defaults are torch's default dtype and the CPU.

    Returns
    -------
    torch.Tensor, shape [N, d] (or [d])
    """
    d = _v.even(_v.positive_int(d, "d"), "d")
    dtype = dtype or (positions.dtype if isinstance(positions, torch.Tensor)
                      and positions.is_floating_point() else torch.get_default_dtype())
    if not isinstance(positions, torch.Tensor):
        positions = _like(positions, torch.empty(0, dtype=dtype, device=device), "positions")
    p = _tensor(positions, "positions", ndims=(0, 1))                  # [N]
    p = p.to(device=device or p.device, dtype=dtype)
    angles = p[..., None] * _speeds(d, base, p)                        # [N, d/2]
    pe = torch.stack((torch.sin(angles), torch.cos(angles)), dim=-1)   # [N, d/2, 2]
    return pe.flatten(-2)                                              # [N, d]


def rope(x, positions, base=10000.0, theta=None):
    """RoPE: rotate each pair ``(x_{2k}, x_{2k+1})`` by ``m ω_k`` (row-vector convention):
    ``(x_{2k} cos mω_k − x_{2k+1} sin mω_k, x_{2k} sin mω_k + x_{2k+1} cos mω_k)``.

    Parameters
    ----------
    x : torch.Tensor, shape [..., N, d] (or [d] with a single position)
    positions : int, list or tensor, shape [N]
    base : float
        ``ω_k = base^(−2k/d)``.
    theta : float, list or tensor of shape [d/2], optional
        Overrides ``ω`` (``math.pi / 6``: 30° per position).

    Returns
    -------
    torch.Tensor, same shape, device and dtype as ``x``
    """
    x = _tensor(x, "x", ndims="1+")
    d = _v.even(x.shape[-1], "x's last axis (d)")
    p = _like(positions, x, "positions")                               # [N]
    if x.ndim == 1 and p.ndim != 0:
        raise ValueError(f"a single vector x (shape {_v.fmt_shape(x.shape)}) needs a single "
                         f"position, got positions of shape {_v.fmt_shape(p.shape)}")
    if x.ndim > 1:
        _v.check_shape("positions", p.shape, (x.shape[-2],), "one position per row of x")
    angles = p[..., None] * _rope_speeds(d, base, theta, x)            # [N, d/2]
    cos, sin = torch.cos(angles), torch.sin(angles)                    # [N, d/2]
    pairs = x.unflatten(-1, (d // 2, 2))                               # [..., N, d/2, 2]
    x0, x1 = pairs[..., 0], pairs[..., 1]                              # [..., N, d/2]
    turned = torch.stack((x0 * cos - x1 * sin, x0 * sin + x1 * cos), dim=-1)  # [..., N, d/2, 2]
    return turned.flatten(-2)                                          # [..., N, d]


def _rope_speeds(d, base, theta, ref):
    if theta is None:
        return _speeds(d, base, ref)                                   # [d/2]
    t = _like(theta, ref, "theta")
    if t.ndim == 1:
        _v.check_shape("theta", t.shape, (d // 2,), "one angle per pair of coordinates")
    return t.expand(d // 2)                                            # [d/2]


# ----------------------------------------------------------------------------- attention

def softmax(z, axis=-1, temperature=1.0):
    """Stable softmax of ``z / τ``: ``exp(z_j/τ) / Σ_i exp(z_i/τ)``, computed after
    subtracting the maximum.

    Parameters
    ----------
    z : torch.Tensor, shape [..., n]
        Scores; −inf allowed as a mask if each slice keeps one finite score.
    axis : int
    temperature : float
        ``τ > 0``.

    Returns
    -------
    torch.Tensor, same shape as ``z``; sums to 1 along ``axis``
    """
    z = _tensor(z, "z", ndims="1+", allow_neg_inf=True)
    t = _v.check_temperature(temperature)
    if not isinstance(axis, numbers.Integral) or not -z.ndim <= axis < z.ndim:
        raise ValueError(f"axis must be an integer in {-z.ndim} … {z.ndim - 1} for z of shape "
                         f"{_v.fmt_shape(z.shape)}, got {axis!r}")
    if torch.isneginf(z.detach()).all(dim=axis).any():
        raise ValueError(f"z has a slice that is −inf everywhere along axis {axis}; "
                         f"softmax of it is undefined (0/0)")
    return _softmax(z / t, axis)


def _softmax(z, axis=-1):
    # torch's own kernel: exp(z - max z) / Σ exp(z - max z) in one pass over z (the NumPy
    # reference spells the three steps out; here speed matters, for training and long inputs)
    return torch.softmax(z, dim=axis)


def causal_mask(n, device=None):
    """The causal mask ``M[i, j] = (j ≤ i)``: True where query ``i`` may look.

    Parameters
    ----------
    n : int
    device : torch.device, optional

    Returns
    -------
    torch.Tensor of bool, shape [N, N]
    """
    n = _v.positive_int(n, "n")
    return torch.ones(n, n, dtype=torch.bool, device=device).tril()   # [N, N]


def _check_qkv(Q, K, V):
    Q = _tensor(Q, "Q", ndims="2+", meaning="[N, d_k]")
    K = _tensor(K, "K", ndims=Q.ndim, meaning="as many axes as Q")
    V = _tensor(V, "V", ndims=Q.ndim, meaning="as many axes as Q")
    if K.shape[:-2] != Q.shape[:-2] or V.shape[:-2] != Q.shape[:-2]:
        raise ValueError(f"Q, K, V must agree on their leading axes, got Q "
                         f"{_v.fmt_shape(Q.shape)}, K {_v.fmt_shape(K.shape)}, "
                         f"V {_v.fmt_shape(V.shape)}")
    _v.check_dim("K", K.shape[-1], Q.shape[-1], f"the key width d_k (Q is "
                 f"{_v.fmt_shape(Q.shape)}, K is {_v.fmt_shape(K.shape)})")
    _v.check_dim("V", V.shape[-2], K.shape[-2], f"the number of values, one per key (K is "
                 f"{_v.fmt_shape(K.shape)}, V is {_v.fmt_shape(V.shape)})")
    return Q, K, V


def _allowed(mask, causal, shape, device):
    """The combined boolean mask (True = may look), or None when nothing is hidden."""
    allowed = None
    if causal:
        _v.check_dim("K", shape[-1], shape[-2], "the number of keys with causal=True "
                     "(one key per query)")
        allowed = causal_mask(shape[-1], device=device)                # [N, N]
    if mask is not None:
        if not isinstance(mask, torch.Tensor) or mask.dtype != torch.bool:
            raise TypeError("mask must be a boolean tensor (True where a query may look), "
                            f"got {getattr(mask, 'dtype', type(mask).__name__)}")
        try:
            torch.broadcast_shapes(mask.shape, shape)
        except RuntimeError:
            raise ValueError(f"mask of shape {_v.fmt_shape(mask.shape)} does not fit the "
                             f"scores of shape {_v.fmt_shape(shape)} [..., N, N_k]") from None
        mask = mask.to(device)
        allowed = mask if allowed is None else allowed & mask
    return allowed


def scaled_dot_product_attention(Q, K, V, causal=False, scale=True, mask=None):
    """``softmax(Q Kᵀ / √d_k) V``; with ``causal`` the future gets −inf before softmax.

    Parameters
    ----------
    Q : torch.Tensor, shape [..., N, d_k]
    K : torch.Tensor, shape [..., N_k, d_k]
    V : torch.Tensor, shape [..., N_k, d_v]
    causal : bool
    scale : bool or float
        True: divide by √d_k; False: raw dot products; a number: divide by it.
    mask : bool tensor broadcastable to [..., N, N_k], optional
        True where a query may look (e.g. to hide padding).

    Returns
    -------
    out : torch.Tensor, shape [..., N, d_v]
    weights : torch.Tensor, shape [..., N, N_k]
    """
    Q, K, V = _check_qkv(Q, K, V)
    if isinstance(scale, bool):
        s = math.sqrt(Q.shape[-1]) if scale else 1.0
    else:
        s = _v.positive_number(scale, "scale")
    scores = (Q / s) @ K.transpose(-2, -1)     # [..., N, N_k]; scaling Q is N·d_k work, not N·N_k
    allowed = _allowed(mask, causal, scores.shape, scores.device)
    if allowed is not None:
        scores = scores.masked_fill(~allowed, float("-inf"))          # [..., N, N_k]
        if mask is not None and torch.isneginf(scores.detach()).all(dim=-1).any():
            raise ValueError("mask hides every key from some query; each row needs one key")
    weights = _softmax(scores)                                         # [..., N, N_k]
    return weights @ V, weights                                        # [..., N, d_v]


def _check_projections(X, named):
    X = _tensor(X, "X", ndims="2+", meaning="[N, d], one row per token")
    out = []
    for name, W in named:
        W = _tensor(W, name, ndims=2, meaning="[d, d_k]")
        _v.check_projection(name, W.shape, X.shape)
        out.append(W)
    return X, out


def self_attention(X, WQ, WK, WV, causal=False, mask=None):
    """Single-head self-attention: ``Q, K, V = X W_Q, X W_K, X W_V``, then attention.

    Parameters
    ----------
    X : torch.Tensor, shape [..., N, d]
    WQ, WK : torch.Tensor, shape [d, d_k]
    WV : torch.Tensor, shape [d, d_v]
    causal : bool
    mask : bool tensor, optional

    Returns
    -------
    out : torch.Tensor, shape [..., N, d_v]
    weights : torch.Tensor, shape [..., N, N]
    """
    X, (WQ, WK, WV) = _check_projections(X, [("WQ", WQ), ("WK", WK), ("WV", WV)])
    _v.check_dim("WK", WK.shape[1], WQ.shape[1], f"the number of columns d_k, as in WQ "
                 f"{_v.fmt_shape(WQ.shape)} (got WK {_v.fmt_shape(WK.shape)})")
    return scaled_dot_product_attention(X @ WQ, X @ WK, X @ WV, causal=causal, mask=mask)


def multi_head_attention(X, WQ, WK, WV, WO, n_heads, causal=False, mask=None):
    """``MHA(X) = (head_1 ⊕ … ⊕ head_A) W_O``; head h uses columns ``h·d/A … (h+1)·d/A``
    of ``W_Q, W_K, W_V`` and is scaled by ``√(d/A)``.

    Parameters
    ----------
    X : torch.Tensor, shape [..., N, d]
    WQ, WK, WV, WO : torch.Tensor, shape [d, d]
    n_heads : int
        ``A``, divides ``d``.
    causal : bool
    mask : bool tensor, optional

    Returns
    -------
    out : torch.Tensor, shape [..., N, d]
    weights : torch.Tensor, shape [..., A, N, N]
    """
    named = [("WQ", WQ), ("WK", WK), ("WV", WV), ("WO", WO)]
    X, Ws = _check_projections(X, named)
    *lead, N, d = X.shape
    for (name, _), W in zip(named, Ws):
        _v.check_shape(name, W.shape, (d, d), f"[d, d] with d = {d} from X")
    A = _v.positive_int(n_heads, "n_heads")
    if d % A:
        raise ValueError(f"n_heads must divide the width d = {d}, got n_heads = {A}")
    Q, K, V = ((X @ W).unflatten(-1, (A, d // A)).transpose(-2, -3)   # [..., A, N, d_k]
               for W in Ws[:3])
    heads, weights = scaled_dot_product_attention(Q, K, V, causal=causal, mask=mask)
    concat = heads.transpose(-2, -3).reshape(*lead, N, d)             # [..., N, d]
    return concat @ Ws[3], weights                                     # [..., N, d]


def attention_rollout(weights, residual=0.5):
    """Attention rollout (Abnar & Zuidema 2020): ``R = Ā_L ⋯ Ā_1`` with
    ``Ā_ℓ = rownorm(mean_h A_ℓ^{(h)} + r I)``.

    Parameters
    ----------
    weights : torch.Tensor, shape [L, A, N, N]
    residual : float
        ``r ≥ 0`` (Abnar & Zuidema's ``0.5 A + 0.5 I`` is ``r = 1``).

    Returns
    -------
    torch.Tensor, shape [N, N]; rows sum to 1
    """
    W = _tensor(weights, "weights", ndims=4, meaning="[L, A, N, N]: layers, heads, queries, "
                "keys")
    _v.check_dim("weights", W.shape[3], W.shape[2], f"the number of keys, equal to the "
                 f"number of queries (got shape {_v.fmt_shape(W.shape)})")
    if (W < 0).any():
        raise ValueError(f"weights must be non-negative attention weights, got a minimum of "
                         f"{float(W.min())!r}")
    r = _v.positive_number(residual, "residual", allow_zero=True)
    if r == 0 and (W.mean(dim=1).sum(dim=-1) == 0).any():
        raise ValueError("weights has a row of zeros and residual = 0: nothing to renormalise")
    eye = torch.eye(W.shape[-1], device=W.device, dtype=W.dtype)       # [N, N]
    R = eye
    for layer in W:                                                    # [A, N, N]
        A_bar = layer.mean(dim=0) + r * eye                            # [N, N]
        R = (A_bar / A_bar.sum(dim=-1, keepdim=True)) @ R              # [N, N]
    return R


# ----------------------------------------------------------------------------- the block

def _vector(v, name, d, ref):
    if v is None:
        return None
    v = _tensor(v, name, ndims=(0, 1))
    if v.ndim == 1:
        _v.check_shape(name, v.shape, (d,), f"one entry per coordinate, d = {d}")
    return v


def layer_norm(x, gamma=None, beta=None, eps=1e-5):
    """``LN(x) = γ ⊙ (x − μ) / √(σ² + ε) + β`` over the last axis, ``σ²`` the
    population variance (divide by d).

    Parameters
    ----------
    x : torch.Tensor, shape [..., d]
    gamma, beta : torch.Tensor, shape [d], optional
    eps : float

    Returns
    -------
    torch.Tensor, same shape as ``x``
    """
    x = _tensor(x, "x", ndims="1+")
    d = x.shape[-1]
    gamma, beta = _vector(gamma, "gamma", d, x), _vector(beta, "beta", d, x)
    eps = _v.positive_number(eps, "eps")
    mu = x.mean(dim=-1, keepdim=True)                                  # [..., 1]
    var = ((x - mu) ** 2).mean(dim=-1, keepdim=True)                   # [..., 1]
    z = (x - mu) * torch.rsqrt(var + eps)                              # [..., d]
    if gamma is not None:
        z = z * gamma
    return z if beta is None else z + beta


def relu(x):
    """``ReLU(x) = max(0, x)``, elementwise.

    Parameters
    ----------
    x : torch.Tensor, any shape

    Returns
    -------
    torch.Tensor, same shape as ``x``
    """
    x = _tensor(x, "x")
    return torch.clamp(x, min=0)


def feed_forward(x, W1, b1, W2, b2):
    """``FFN(x) = ReLU(x W_1 + b_1) W_2 + b_2``, position by position.

    Parameters
    ----------
    x : torch.Tensor, shape [..., d]
    W1 : torch.Tensor, shape [d, d_ff]
    b1 : torch.Tensor, shape [d_ff]
    W2 : torch.Tensor, shape [d_ff, d]
    b2 : torch.Tensor, shape [d]

    Returns
    -------
    torch.Tensor, shape [..., d]
    """
    x = _tensor(x, "x", ndims="1+")
    W1 = _tensor(W1, "W1", ndims=2, meaning="[d, d_ff]")
    d, d_ff = W1.shape
    _v.check_dim("W1", d, x.shape[-1], f"the number of rows, the width of x "
                 f"{_v.fmt_shape(x.shape)}")
    b1 = _tensor(b1, "b1")
    _v.check_shape("b1", b1.shape, (d_ff,), f"one bias per column of W1 {_v.fmt_shape(W1.shape)}")
    W2 = _tensor(W2, "W2", ndims=2, meaning="[d_ff, d]")
    _v.check_shape("W2", W2.shape, (d_ff, d), f"[d_ff, d] with d_ff = {d_ff} from W1 and "
                   f"d = {d} from x")
    b2 = _tensor(b2, "b2")
    _v.check_shape("b2", b2.shape, (d,), f"one bias per coordinate, d = {d}")
    hidden = torch.clamp(x @ W1 + b1, min=0)                           # [..., d_ff]
    return hidden @ W2 + b2                                            # [..., d]


BLOCK_PARAMS = ("gamma1", "beta1", "WQ", "WK", "WV", "WO", "gamma2", "beta2",
                "W1", "b1", "W2", "b2", "n_heads")


def transformer_block(x, params, causal=True, mask=None):
    """One pre-norm block: ``t1 = LN(x)``; ``t2 = MHA(t1)``; ``t3 = t2 + x``; ``t4 = LN(t3)``;
    ``t5 = FFN(t4)``; ``h = t5 + t3``.

    Parameters
    ----------
    x : torch.Tensor, shape [..., N, d]
    params : dict
        ``gamma1, beta1, gamma2, beta2`` [d]; ``WQ, WK, WV, WO`` [d, d]; ``W1`` [d, d_ff];
        ``b1`` [d_ff]; ``W2`` [d_ff, d]; ``b2`` [d]; ``n_heads`` int.
    causal : bool
    mask : bool tensor, optional

    Returns
    -------
    h : torch.Tensor, shape [..., N, d]
    weights : torch.Tensor, shape [..., A, N, N]
    """
    if not isinstance(params, dict):
        raise TypeError(f"params must be a dict with keys {list(BLOCK_PARAMS)}, "
                        f"got {type(params).__name__}")
    missing = [k for k in BLOCK_PARAMS if k not in params]
    if missing:
        raise ValueError(f"params is missing the keys {missing} (it has {sorted(params)})")
    p = params
    x = _tensor(x, "x", ndims="2+", meaning="[N, d]")
    t1 = layer_norm(x, p["gamma1"], p["beta1"])                        # [..., N, d]
    t2, weights = multi_head_attention(t1, p["WQ"], p["WK"], p["WV"], p["WO"],
                                       p["n_heads"], causal=causal, mask=mask)
    t3 = t2 + x                                                        # [..., N, d]
    t5 = feed_forward(layer_norm(t3, p["gamma2"], p["beta2"]),
                      p["W1"], p["b1"], p["W2"], p["b2"])              # [..., N, d]
    return t5 + t3, weights                                            # [..., A, N, N]


# ----------------------------------------------------------------------------- the LM

def lm_head(h, E):
    """Logits with weight tying: ``u = h Eᵀ`` (``E.T`` is a view of E, not a copy).

    Parameters
    ----------
    h : torch.Tensor, shape [..., d]
    E : torch.Tensor, shape [|V|, d]

    Returns
    -------
    torch.Tensor, shape [..., |V|]
    """
    h = _tensor(h, "h", ndims="1+")
    E = _tensor(E, "E", ndims=2, meaning="[|V|, d], one row per token")
    _v.check_dim("E", E.shape[1], h.shape[-1], f"the width d of each row, the width of h "
                 f"{_v.fmt_shape(h.shape)} (E is {_v.fmt_shape(E.shape)})")
    return h @ E.T                                                     # [..., |V|]


def tied_lm_head(embedding: nn.Embedding) -> nn.Linear:
    """An output layer ``[d → |V|]`` whose weight *is* the embedding's Parameter (Press & Wolf
    2017): one matrix, trained by both ends; ``head.weight.data_ptr()`` equals
    ``embedding.weight.data_ptr()``.
    """
    if not isinstance(embedding, nn.Embedding):
        raise TypeError(f"embedding must be a torch.nn.Embedding, got {type(embedding).__name__}")
    V, d = embedding.weight.shape
    head = nn.Linear(d, V, bias=False, device=embedding.weight.device,
                     dtype=embedding.weight.dtype)
    head.weight = embedding.weight                                     # shared, not copied
    return head


def cross_entropy(logits, target):
    """``ℓ = −log softmax(u)[w]``, the mean over rows (as ``F.cross_entropy``).

    Parameters
    ----------
    logits : torch.Tensor, shape [|V|] or [N, |V|]
    target : int, list or integer tensor, shape [] or [N]

    Returns
    -------
    torch.Tensor, 0-d (backpropagates)
    """
    u = _tensor(logits, "logits", ndims=(1, 2), meaning="[|V|] or [N, |V|]")
    w = _ids(target, "target", u.shape[-1], device=u.device).to(u.device)
    if u.ndim == 1 and w.ndim != 0:
        raise ValueError(f"logits of shape {_v.fmt_shape(u.shape)} (one position) need a "
                         f"single target id, got target of shape {_v.fmt_shape(w.shape)}")
    if u.ndim == 2:
        _v.check_shape("target", w.shape, (u.shape[0],), f"one id per row of logits "
                       f"{_v.fmt_shape(u.shape)}")
    z = u - u.amax(dim=-1, keepdim=True).detach()                      # [..., |V|]
    logp = z - torch.log(torch.exp(z).sum(dim=-1, keepdim=True))       # [..., |V|]
    return -logp.gather(-1, w[..., None]).mean()                       # []


def perplexity(p_true):
    """``PPL = exp(−(1/N) Σ_t log p_t)``.

    Parameters
    ----------
    p_true : torch.Tensor, shape [N]
        Probabilities of the correct tokens, each in (0, 1].

    Returns
    -------
    torch.Tensor, 0-d
    """
    p = _tensor(p_true, "p_true", ndims=1, meaning="one probability per token")
    if p.numel() == 0:
        raise ValueError("p_true is empty; perplexity needs at least one probability")
    bad = (p <= 0) | (p > 1)
    if bad.any():
        raise ValueError(f"p_true must hold probabilities in (0, 1], got "
                         f"{float(p[bad][0])!r} at index {int(torch.nonzero(bad)[0, 0])}")
    return torch.exp(-torch.log(p).mean())


def sample(logits, temperature, rng):
    """One token id drawn from ``softmax(u / τ)``.

    Parameters
    ----------
    logits : torch.Tensor, shape [|V|]
    temperature : float
        ``τ > 0``.
    rng : torch.Generator or None
        On the logits' device.

    Returns
    -------
    int
    """
    u = _tensor(logits, "logits", ndims=1, meaning="[|V|], one score per token")
    if rng is not None and not isinstance(rng, torch.Generator):
        raise TypeError(f"rng must be a torch.Generator (or None), got {type(rng).__name__}")
    p = softmax(u, temperature=temperature)                            # [|V|]
    return int(torch.multinomial(p.detach(), 1, generator=rng))
