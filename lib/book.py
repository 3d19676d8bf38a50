"""Notebook set-up shared by every chapter: language, CJK font, seeds, and glue.

(v0 by the founding engineer; the book-pipeline work owns and extends this module.)
"""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np

_LANG = "en"
LANGS = ("zh", "en")

#: The book's CJK font: a subset of Noto Sans CJK TC under a family name of its own
#: (tools/make_cjk_font.py; SIL OFL 1.1, see lib/fonts/OFL.txt).
FONT_FAMILY = "Transformer Book Sans TC"
FONT_FILE = Path(__file__).resolve().parent / "fonts" / "TransformerBookSansTC-Regular.otf"
#: Latin text, digits and symbols come from matplotlib's own font; CJK falls back to ours.
LATIN_FAMILY = "DejaVu Sans"


def use_cjk_font() -> str:
    """Register the book's CJK font with matplotlib and make it the default (with a Latin
    fallback in front: DejaVu Sans draws Latin and symbols, our font the CJK characters).

    Returns the family name. Safe to call again.
    """
    import matplotlib
    from matplotlib import font_manager

    if not FONT_FILE.is_file():
        raise FileNotFoundError(f"the book's CJK font is missing: {FONT_FILE}")
    fm = font_manager.fontManager
    have = {f.weight for f in fm.ttflist if f.name == FONT_FAMILY}
    if not have:
        fm.addfont(str(FONT_FILE))
        regular = next(f for f in fm.ttflist if f.name == FONT_FAMILY)
        # One weight ships (size): the same file answers every weight, so a bold title draws
        # its CJK characters in the regular weight instead of logging "Failed to find font
        # weight bold" (stderr in a cell fails the book's build).
        for weight in range(100, 1000, 100):
            if weight != regular.weight:
                fm.ttflist.append(font_manager.FontEntry(
                    fname=regular.fname, name=FONT_FAMILY, style=regular.style,
                    variant=regular.variant, weight=weight, stretch=regular.stretch,
                    size=regular.size))
        getattr(type(fm)._findfont_cached, "cache_clear", lambda: None)()  # forget old lookups
    # a list of families: matplotlib falls back glyph by glyph along it (generic names like
    # "sans-serif" would resolve to one font only)
    matplotlib.rcParams["font.family"] = [LATIN_FAMILY, FONT_FAMILY]
    sans = [f for f in matplotlib.rcParams["font.sans-serif"] if f not in (LATIN_FAMILY, FONT_FAMILY)]
    matplotlib.rcParams["font.sans-serif"] = [LATIN_FAMILY, FONT_FAMILY, *sans]
    matplotlib.rcParams["axes.unicode_minus"] = True
    return FONT_FAMILY


def setup(lang: str, seed: int = 0) -> None:
    """Set the book language (``"zh"`` or ``"en"``), the CJK font for figures and the seeds."""
    global _LANG
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    _LANG = lang
    use_cjk_font()
    random.seed(seed)
    np.random.seed(seed)
    try:
        import torch
    except ImportError:
        pass
    else:
        torch.manual_seed(seed)


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
