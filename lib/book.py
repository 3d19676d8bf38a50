"""Notebook set-up shared by every chapter: language, CJK font, seeds, and glue.

(v0 by the founding engineer; the book-pipeline work owns and extends this module.)
"""
from __future__ import annotations

import random

import numpy as np

_LANG = "en"
LANGS = ("zh", "en")


def setup(lang: str, seed: int = 0) -> None:
    """Set the book language (``"zh"`` or ``"en"``), the CJK font for figures and the seeds."""
    global _LANG
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    _LANG = lang
    random.seed(seed)
    np.random.seed(seed)


def current_lang() -> str:
    return _LANG


def tr(*, zh: str, en: str) -> str:
    """The string for the current book language."""
    return zh if _LANG == "zh" else en


def glue(name: str, value, display: bool = False):
    """myst-nb's ``glue`` where it exists (the built book), a no-op elsewhere (Colab)."""
    try:
        from myst_nb import glue as _glue
    except ImportError:
        return value
    _glue(name, value, display=display)
    return value


def check(got, expected, *, rtol: float = 1e-6, atol: float = 1e-8, hint: str = "") -> bool:
    """Self-check for exercises: prints ✓ or ✗ (with the values and a hint); never raises."""
    try:
        ok = bool(np.allclose(np.asarray(got, dtype=float), np.asarray(expected, dtype=float),
                              rtol=rtol, atol=atol))
    except (TypeError, ValueError):
        ok = False
    if ok:
        print("✓ " + tr(zh="正確！", en="Correct!"))
    else:
        print("✗ " + tr(zh=f"還不對：得到 {got!r}，應為 {expected!r}。",
                        en=f"Not yet: got {got!r}, expected {expected!r}."))
        if hint:
            print("  " + hint)
    return ok
