"""Cut the book's CJK font: a subset of Noto Sans CJK TC, renamed, into ``lib/fonts/``.

    apt-get install -y fonts-noto-cjk        # the source font (Debian)
    python tools/make_cjk_font.py            # writes lib/fonts/BookSansTC-Regular.otf

The subset holds the Big5 common characters (常用字, level 1), ASCII, the CJK punctuation and
full-width forms, and every CJK character used in the chapters, their sources, ``lib`` and the
extra characters below. It is renamed to a family of its own (``FAMILY``) so that matplotlib
never confuses it with a system font. The licence (SIL OFL 1.1) travels with it in
``lib/fonts/OFL.txt``. ``tests/test_fonts.py`` fails when a chapter uses a character the font
lacks: run this again then.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FONT_DIR = ROOT / "lib" / "fonts"
FAMILY = "Transformer Book Sans TC"
FILENAME = "TransformerBookSansTC-Regular.otf"
SOURCE = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SOURCE_INDEX_NAME = "Noto Sans CJK TC"

# what counts as a CJK character (the test and the subset agree on this)
CJK_RE = re.compile(
    "[\u2e80-\u2fdf\u3000-\u303f\u3100-\u312f\u3190-\u31bf\u31c0-\u31ef\u3200-\u33ff"
    "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef\U00020000-\U0002fa1f]"
)
# extra characters every figure may want even before a chapter uses them
EXTRA = "，。、；：？！「」『』（）《》〈〉…—～·‧％＋－＝×÷√∞≈≠≤≥←→↑↓°"


def big5_common() -> str:
    """The Big5 level-1 (常用字) characters: lead bytes 0xA4–0xC6, in Big5 order."""
    chars = []
    for lead in range(0xA4, 0xC7):
        for trail in list(range(0x40, 0x7F)) + list(range(0xA1, 0xFF)):
            if lead == 0xC6 and trail > 0x7E:
                break
            try:
                ch = bytes([lead, trail]).decode("big5")
            except UnicodeDecodeError:
                continue
            chars.append(ch)
    return "".join(chars)


def book_files(root: Path = ROOT) -> list[Path]:
    """The files whose CJK characters must be in the font."""
    files = []
    files += sorted((root / "chapters").glob("_src/*.py"))
    files += sorted((root / "chapters").glob("*/*.ipynb"))
    files += sorted((root / "chapters").glob("*/*.md"))
    files += sorted(p for p in (root / "lib").rglob("*.py") if "__pycache__" not in p.parts)
    files += sorted(p for p in (root / "lib").rglob("*.json") if "__pycache__" not in p.parts)
    return files


def cjk_chars(text: str) -> set[str]:
    return set(CJK_RE.findall(text))


def used_chars(root: Path = ROOT) -> dict[str, list[str]]:
    """{character: [files that use it]} over :func:`book_files`."""
    out: dict[str, list[str]] = {}
    for path in book_files(root):
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.suffix == ".ipynb":
            nb = json.loads(text)
            text = "\n".join("".join(c.get("source", "")) for c in nb.get("cells", []))
        for ch in cjk_chars(text):
            out.setdefault(ch, []).append(str(path.relative_to(root)))
    return out


def font_path() -> Path:
    return FONT_DIR / FILENAME


def main(argv: list[str] | None = None) -> int:
    from fontTools import subset
    from fontTools.ttLib import TTCollection

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE)
    parser.add_argument("--also", type=Path, nargs="*", default=[],
                        help="more text files whose characters to include (e.g. the notes)")
    args = parser.parse_args(argv)

    coll = TTCollection(str(args.source))
    font = next(f for f in coll.fonts if f["name"].getDebugName(1) == SOURCE_INDEX_NAME)
    text = set(big5_common()) | set(EXTRA) | set(used_chars())
    for p in args.also:
        text |= cjk_chars(p.read_text(encoding="utf-8", errors="replace"))
    # keep whatever is already in the font, so a re-cut never loses a character
    old = font_path()
    if old.exists():
        from fontTools.ttLib import TTFont

        text |= {chr(c) for c in TTFont(str(old))["cmap"].getBestCmap() if CJK_RE.match(chr(c))}
    text |= {chr(c) for c in range(0x20, 0x7F)}
    unicodes = sorted(ord(c) for c in text)

    options = subset.Options()
    options.layout_features = ["*"]
    options.name_IDs = ["*"]
    options.name_languages = ["*"]
    options.hinting = False
    options.notdef_outline = True
    options.drop_tables += ["DSIG"]
    sub = subset.Subsetter(options)
    sub.populate(unicodes=unicodes)
    sub.subset(font)

    # a family name of its own
    name = font["name"]
    name.names = [n for n in name.names if n.nameID not in (1, 3, 4, 6, 16, 17)]
    ps = FAMILY.replace(" ", "") + "-Regular"
    for nid, value in ((1, FAMILY), (2, "Regular"), (3, f"{ps};subset of Noto Sans CJK TC"),
                       (4, f"{FAMILY} Regular"), (6, ps)):
        name.setName(value, nid, 3, 1, 0x409)
    name.setName(
        "Subset of Noto Sans CJK TC (Copyright 2014-2021 Adobe, http://www.adobe.com/), "
        "renamed for the book Transformer 入門; SIL Open Font License 1.1.", 5, 3, 1, 0x409)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps]
        top = cff.topDictIndex[0]
        top.FamilyName = FAMILY
        top.FullName = f"{FAMILY} Regular"
    FONT_DIR.mkdir(parents=True, exist_ok=True)
    font.save(str(font_path()))
    size = font_path().stat().st_size
    print(f"wrote {font_path().relative_to(ROOT)}: {len(unicodes)} characters, {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
