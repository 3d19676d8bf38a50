"""Notebook set-up shared by every chapter: language, CJK font, seeds, and glue.

(v0 by the founding engineer; the book-pipeline work owns and extends this module.)
"""
from __future__ import annotations

import random
import sys
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
    global _SEED
    _SEED = seed
    random.seed(seed)
    np.random.seed(seed)
    seed_torch()


_SEED = 0


def seed_torch() -> None:
    """Seed torch with the book's seed, if torch is loaded: importing it costs a second or two,
    so chapters that never use it don't pay; ``lib.torch_mirror`` and ``lib.tiny_models`` call
    this when they load."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.manual_seed(_SEED)


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
    """Self-check for exercises: prints ✓, or ✗ with what is wrong and a hint; never raises.

    The expected value is never printed, so the check does not give the answer away: a wrong
    answer is told whether its shape or its values are off, and by how much.
    """
    g, e = _as_array(got), _as_array(expected)
    if g is None:
        return _fail(tr(zh=f"答案必須是數字或數字陣列，得到的是 {type(got).__name__}。",
                        en=f"the answer must be a number or an array of numbers, got a {type(got).__name__}."), hint)
    if g.shape != e.shape:
        return _fail(tr(zh=f"形狀不對：得到 {g.shape}，應為 {e.shape}。",
                        en=f"wrong shape: got {g.shape}, expected {e.shape}."), hint)
    if not np.all(np.isfinite(g)):
        return _fail(tr(zh="答案裡有 NaN 或無限大。", en="the answer contains NaN or infinity."), hint)
    if not np.allclose(g, e, rtol=rtol, atol=atol):
        gap = float(np.max(np.abs(g - e)))
        return _fail(tr(zh=f"形狀對了，但數值還不對（最大差距 {gap:.3g}）。",
                        en=f"the shape is right but the values are not yet (largest gap {gap:.3g})."), hint)
    print("✓ " + tr(zh="正確！", en="Correct!"))
    return True


def _as_array(x):
    try:
        return np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return None


def _fail(message: str, hint: str) -> bool:
    print("✗ " + tr(zh="還不對：", en="Not yet: ") + message)
    if hint:
        print("  " + hint)
    return False
