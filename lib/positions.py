"""Positions (chapters 2–3): the sinusoidal encoding and rotary position embeddings (RoPE).

Both use the same angular speeds ``ω_k = base^(−2k/d)``, ``k = 0 … d/2 − 1``: the first pair
of coordinates turns fastest (the second hand), the last one slowest (the hour hand).
"""
from __future__ import annotations

import numpy as np

from . import _validate as _v

__all__ = ["angular_speeds", "sinusoidal_encoding", "rope"]


def angular_speeds(d, base=10000.0):
    """The angular speed of each pair of coordinates: ``ω_k = base^(−2k/d)``.

    Parameters
    ----------
    d : int
        An even width.
    base : float
        The base of the geometric progression of wavelengths (10000 in Vaswani et al. 2017).

    Returns
    -------
    np.ndarray, shape [d/2]
    """
    d = _v.even(_v.positive_int(d, "d"), "d")
    base = _v.positive_number(base, "base")
    k = np.arange(d // 2)                                    # [d/2]
    return base ** (-2.0 * k / d)                            # [d/2]


def _positions(positions, name="positions"):
    """Positions as a float array of 0 or 1 axes (each a finite number)."""
    p = _v.as_array(positions, name, ndims=(0, 1), meaning="a position or a sequence of them")
    return p


def sinusoidal_encoding(positions, d, base=10000.0):
    """The fixed sinusoidal position encoding of Vaswani et al. (2017).

    ``PE[p, 2k] = sin(p · ω_k)``, ``PE[p, 2k+1] = cos(p · ω_k)``, ``ω_k = base^(−2k/d)``.
    Because ``sin a sin b + cos a cos b = cos(a − b)``, ``PE[p] · PE[p']`` depends only on
    the distance ``p − p'``.

    Parameters
    ----------
    positions : int or array-like, shape [N]
        The positions (seat numbers) to encode.
    d : int
        The width; must be even.
    base : float

    Returns
    -------
    np.ndarray, shape [N, d] (or [d] for a single position)
    """
    omega = angular_speeds(d, base)                          # [d/2]
    p = _positions(positions)                                # [N] or []
    angles = p[..., None] * omega                            # [N, d/2]
    pe = np.empty(angles.shape[:-1] + (2 * omega.size,))     # [N, d]
    pe[..., 0::2] = np.sin(angles)
    pe[..., 1::2] = np.cos(angles)
    return pe


def rope(x, positions, base=10000.0, theta=None):
    """Rotary position embedding (RoPE, Su et al. 2024): rotate each pair by ``position · ω_k``.

    With row vectors, the pair ``(x_{2k}, x_{2k+1})`` at position ``m`` becomes
    ``(x_{2k} cos mω_k − x_{2k+1} sin mω_k,  x_{2k} sin mω_k + x_{2k+1} cos mω_k)``,
    a counter-clockwise turn by ``m ω_k``. A rotated query and key then score
    ``q_m · k_n = Σ_k |q_k||k_k| cos(φ_k + (m − n) ω_k)`` (φ_k: the angle between the
    k-th pairs of q and k before turning): only the distance ``m − n`` counts.

    Parameters
    ----------
    x : array-like, shape [N, d] (or [..., N, d]; or [d] with a single position)
        Queries or keys, one row per position.
    positions : int or array-like, shape [N]
        The position of each row.
    base : float
        Sets ``ω_k = base^(−2k/d)`` as in the sinusoidal encoding.
    theta : float or array-like of shape [d/2], optional
        Overrides ``ω``: e.g. ``np.pi / 6`` turns every pair 30° per position.

    Returns
    -------
    np.ndarray, same shape as ``x``
    """
    x = _v.as_array(x, "x", ndims="1+")
    d = _v.even(x.shape[-1], "x's last axis (d)")
    p = _positions(positions)
    if x.ndim == 1 and p.ndim != 0:
        raise ValueError(f"a single vector x (shape {_v.fmt_shape(x.shape)}) needs a single "
                         f"position, got positions of shape {_v.fmt_shape(p.shape)}")
    if x.ndim > 1:
        _v.check_shape("positions", p.shape, (x.shape[-2],), "one position per row of x")
    omega = _rope_speeds(d, base, theta)                     # [d/2]
    angles = p[..., None] * omega                            # [N, d/2]
    cos, sin = np.cos(angles), np.sin(angles)                # [N, d/2]
    x0, x1 = x[..., 0::2], x[..., 1::2]                      # [..., N, d/2]
    out = np.empty_like(x)                                   # [..., N, d]
    out[..., 0::2] = x0 * cos - x1 * sin
    out[..., 1::2] = x0 * sin + x1 * cos
    return out


def _rope_speeds(d, base, theta):
    """``ω`` for RoPE: the sinusoidal speeds, or ``theta`` (scalar or [d/2]) when given."""
    if theta is None:
        return angular_speeds(d, base)                       # [d/2]
    t = _v.as_array(theta, "theta", ndims=(0, 1))
    if t.ndim == 1:
        _v.check_shape("theta", t.shape, (d // 2,), "one angle per pair of coordinates")
    return np.broadcast_to(t, (d // 2,)).astype(float)      # [d/2]
