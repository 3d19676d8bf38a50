"""Input checks shared by every public function of ``lib`` (NumPy reference and Torch mirror).

Each check raises the lib's own ``ValueError`` or ``TypeError`` that names the argument and says
what it got (its shape, its value), so a student never meets a NumPy broadcasting message or a
silent NaN. The shape checks work on plain shape tuples, so the Torch mirror shares them without
sharing any formula with the NumPy code.
"""
from __future__ import annotations

import numbers

import numpy as np

__all__ = [
    "as_array", "as_ids", "positive_int", "positive_number", "even", "check_ndim",
    "check_dim", "check_shape", "check_temperature", "check_finite_array", "fmt_shape",
]


def fmt_shape(shape) -> str:
    """``(3, 4)`` → ``[3, 4]``, the way the book writes shapes."""
    return "[" + ", ".join(str(int(s)) for s in tuple(shape)) + "]"


def check_ndim(name: str, shape, ndims, meaning: str = "") -> None:
    """Refuse an array whose number of axes is not in ``ndims`` (an int, a tuple, or ``"2+"``)."""
    nd = len(tuple(shape))
    if isinstance(ndims, str):  # "2+": at least two axes
        ok, want = nd >= int(ndims[:-1]), f"at least {ndims[:-1]} axes"
    else:
        ndims = (ndims,) if isinstance(ndims, int) else tuple(ndims)
        ok, want = nd in ndims, " or ".join(f"{n} axes" for n in ndims)
    if not ok:
        extra = f" ({meaning})" if meaning else ""
        raise ValueError(f"{name} must have {want}{extra}, got shape {fmt_shape(shape)}")


def check_dim(name: str, got: int, expected: int, what: str) -> None:
    """Refuse a length that differs from the one another argument fixes."""
    if int(got) != int(expected):
        raise ValueError(f"{name}: {what} must be {int(expected)}, got {int(got)}")


def check_projection(name: str, W_shape, X_shape) -> None:
    """Refuse a projection matrix whose rows do not match the width ``d`` of ``X``."""
    check_dim(name, W_shape[0], X_shape[-1], f"the number of rows (X is {fmt_shape(X_shape)}, "
              f"so d = {X_shape[-1]}; {name} is {fmt_shape(W_shape)})")


def check_shape(name: str, shape, expected, meaning: str = "") -> None:
    """Refuse an array whose shape is not exactly ``expected``."""
    if tuple(int(s) for s in shape) != tuple(int(s) for s in expected):
        extra = f" ({meaning})" if meaning else ""
        raise ValueError(f"{name} must have shape {fmt_shape(expected)}{extra}, "
                         f"got {fmt_shape(shape)}")


def positive_int(value, name: str, minimum: int = 1) -> int:
    """An integer ≥ ``minimum`` (bools and floats like 2.5 are refused)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        if isinstance(value, numbers.Real) and float(value).is_integer() and not isinstance(
                value, (bool, np.bool_)):
            value = int(value)
        else:
            raise TypeError(f"{name} must be an integer, got {value!r} "
                            f"({type(value).__name__})")
    if int(value) < minimum:
        raise ValueError(f"{name} must be an integer ≥ {minimum}, got {int(value)}")
    return int(value)


def positive_number(value, name: str, allow_zero: bool = False) -> float:
    """A finite real number > 0 (or ≥ 0 with ``allow_zero``)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r} ({type(value).__name__})")
    value = float(value)
    if not np.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        bound = "≥ 0" if allow_zero else "> 0"
        raise ValueError(f"{name} must be a finite number {bound}, got {value!r}")
    return value


def check_temperature(temperature) -> float:
    """Temperature τ > 0; τ → 0 is greedy decoding, which τ = 0 itself cannot express."""
    if isinstance(temperature, (bool, np.bool_)) or not isinstance(temperature, numbers.Real):
        raise TypeError(f"temperature must be a real number > 0, got {temperature!r}")
    t = float(temperature)
    if not np.isfinite(t) or t <= 0:
        raise ValueError(f"temperature must be > 0 (τ → 0 approaches greedy decoding; "
                         f"use e.g. 0.01), got {temperature!r}")
    return t


def even(d: int, name: str) -> int:
    """An even width: sinusoidal encodings and RoPE work on pairs of coordinates."""
    if d % 2:
        raise ValueError(f"{name} must be even (the coordinates go in pairs), got {d}")
    return d


def check_finite_array(a: np.ndarray, name: str, allow_neg_inf: bool = False) -> None:
    """Refuse NaN (and ±inf, unless ``allow_neg_inf`` lets −inf through as a mask)."""
    bad = np.isnan(a) | (np.isposinf(a) if allow_neg_inf else np.isinf(a))
    if bad.any():
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        raise ValueError(f"{name} contains {float(a[where])!r} at index {list(where)}; "
                         f"every entry must be a finite number")


def as_array(x, name: str, ndims=None, allow_neg_inf: bool = False,
             meaning: str = "") -> np.ndarray:
    """Convert an array-like to a float ``np.ndarray`` and check its axes and finiteness.

    Integers and bools become float64; float32 stays float32.
    """
    try:
        a = np.asarray(x)
    except ValueError:  # ragged lists: rows of different lengths
        raise ValueError(f"{name} is ragged: its rows have different lengths") from None
    except Exception:
        raise TypeError(f"{name} must be an array of numbers, got {type(x).__name__}") from None
    if a.dtype.kind in "biu":
        a = a.astype(np.float64)
    elif a.dtype.kind != "f":
        raise TypeError(f"{name} must contain real numbers, got dtype {a.dtype} "
                        f"({type(x).__name__})")
    if ndims is not None:
        check_ndim(name, a.shape, ndims, meaning)
    check_finite_array(a, name, allow_neg_inf)
    return a


def as_ids(ids, name: str, vocab_size: int | None = None) -> np.ndarray:
    """Token ids: integers (a scalar or a 1-D sequence), each in ``0 … vocab_size−1``."""
    try:
        a = np.asarray(ids)
    except Exception:
        raise TypeError(f"{name} must be integer token ids, got {type(ids).__name__} "
                        f"that is not a flat sequence of integers") from None
    if a.dtype.kind == "f" and a.size and np.all(np.isfinite(a)) and np.all(a == np.round(a)):
        a = a.astype(np.int64)
    if a.dtype.kind not in "iu" and not (a.size == 0 and a.dtype.kind == "f"):
        raise TypeError(f"{name} must be integer token ids, got dtype {a.dtype}: {ids!r}")
    a = a.astype(np.int64)
    check_ndim(name, a.shape, (0, 1), "a single id or a sequence of ids")
    if vocab_size is not None and a.size:
        bad = (a < 0) | (a >= vocab_size)
        if bad.any():
            raise ValueError(f"{name} must lie in 0 … {vocab_size - 1} (vocabulary of "
                             f"{vocab_size}), got {int(a.flat[np.argmax(bad.ravel())])}")
    return a
