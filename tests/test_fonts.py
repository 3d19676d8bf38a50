"""The book's CJK font: shipped in lib, renamed, licensed, and covering every CJK character the
notebooks, the chapter sources and lib's labels use."""
from __future__ import annotations

import sys
import warnings
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
import make_cjk_font  # noqa: E402

from lib import book  # noqa: E402


@pytest.fixture(scope="module")
def cmap():
    from fontTools.ttLib import TTFont

    return set(TTFont(str(book.FONT_FILE))["cmap"].getBestCmap())


def test_font_shipped_small_and_renamed():
    from fontTools.ttLib import TTFont

    path = book.FONT_FILE
    assert path.is_file(), f"{path} missing (python tools/make_cjk_font.py)"
    assert path == make_cjk_font.font_path()
    size = path.stat().st_size
    assert size <= 4.5e6, f"the font is {size / 1e6:.1f} MB; the subset should stay near 3-4 MB"
    names = {n.nameID: n.toUnicode() for n in TTFont(str(path))["name"].names if n.nameID in (1, 4, 6)}
    assert names[1] == book.FONT_FAMILY
    assert "Noto" not in names[1] and "Source" not in names[1], "a Modified Version must be renamed"


def test_licence_travels_with_the_font():
    text = (book.FONT_FILE.parent / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE" in text.upper() and "Version 1.1" in text
    assert "Noto Sans CJK" in text and "Adobe" in text


def test_big5_common_characters_covered(cmap):
    common = make_cjk_font.big5_common()
    assert len(common) > 5000  # Big5 level 1 holds 5401 characters
    missing = [c for c in common if ord(c) not in cmap]
    assert not missing, f"{len(missing)} Big5 common characters missing, e.g. {''.join(missing[:20])}"


def test_every_cjk_character_of_the_book_is_in_the_font(cmap):
    used = make_cjk_font.used_chars()
    assert "注" in used and "意" in used, "scanned no Chinese text: is the scan broken?"
    missing = {c: files for c, files in used.items() if ord(c) not in cmap}
    lines = [f"{c} (U+{ord(c):04X}) in {', '.join(sorted(set(f))[:3])}" for c, f in sorted(missing.items())]
    assert not missing, ("characters the font lacks (run python tools/make_cjk_font.py):\n"
                         + "\n".join(lines[:50]))


def test_setup_registers_the_font_as_default():
    import matplotlib
    from matplotlib import font_manager

    book.setup("zh")
    assert book.FONT_FAMILY in matplotlib.rcParams["font.family"]
    found = font_manager.findfont(font_manager.FontProperties(family=book.FONT_FAMILY),
                                  fallback_to_default=False)
    assert Path(found).resolve() == book.FONT_FILE.resolve()
    # the Latin fallback comes first, so English labels keep matplotlib's look
    assert matplotlib.rcParams["font.family"][0] == book.LATIN_FAMILY
    book.setup("en")


def test_chinese_renders_without_missing_glyphs():
    """Drawing Chinese (also bold) warns of no missing glyph and puts ink on the canvas."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    book.setup("zh")
    fig, ax = plt.subplots(figsize=(3, 1))
    ax.axis("off")
    text = ax.text(0.5, 0.5, "注意力權重：獎盃放不進行李箱", ha="center", va="center", fontsize=14)
    title = ax.set_title("溫度 τ 與困惑度", fontweight="bold")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.canvas.draw()
    img = np.asarray(fig.canvas.buffer_rgba())[..., :3]
    # the glyphs are drawn: many dark pixels, not the few of empty boxes
    dark = (img.mean(axis=-1) < 128).sum()
    plt.close(fig)
    assert dark > 600, f"only {dark} dark pixels: Chinese did not render"
    assert text.get_fontfamily()[:2] == [book.LATIN_FAMILY, book.FONT_FAMILY]
    assert title.get_fontweight() == "bold"
    book.setup("en")


def test_boxes_would_be_caught():
    """The check above can fail: without our font, DejaVu Sans warns of missing glyphs."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 1))
    ax.text(0.5, 0.5, "注意力", family="DejaVu Sans")
    with pytest.warns(UserWarning, match="missing from font"):
        fig.canvas.draw()
    plt.close(fig)
