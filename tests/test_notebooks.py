"""The committed notebooks: clean, generated from their sources, the same code in both books,
Traditional characters only in the zh book.

(Executing them is nbval's job: ``pytest --nbval-lax chapters/zh chapters/en``.)
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from bootstrap_cell import BOOTSTRAP  # noqa: E402

ZH = sorted((ROOT / "chapters" / "zh").glob("*.ipynb"))
EN = sorted((ROOT / "chapters" / "en").glob("*.ipynb"))
NOTEBOOKS = ZH + EN
LANG_LINE = re.compile(r'^LANG = "(zh|en)"', re.M)


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def source(cell: dict) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else src


def ids(paths):
    return [f"{p.parent.name}/{p.name}" for p in paths]


def test_there_are_notebooks():
    assert ZH and EN, "no chapter notebooks in chapters/zh and chapters/en"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_committed_without_outputs(path):
    nb = load(path)
    dirty = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"
             and (c.get("outputs") or c.get("execution_count") is not None)]
    assert not dirty, f"{path.name}: cells {dirty} carry outputs or execution counts"
    assert "widgets" not in nb.get("metadata", {}), f"{path.name}: saved widget state in metadata"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=ids(NOTEBOOKS))
def test_first_code_cell_is_the_bootstrap(path):
    lang = path.parent.name
    code = [c for c in load(path)["cells"] if c["cell_type"] == "code"]
    assert code, f"{path.name} has no code"
    assert source(code[0]) == BOOTSTRAP.replace("{LANG}", lang), (
        f"{path.name}: the first code cell is not tools/bootstrap_cell.py's (run tools/nbgen.py)")
    others = [i for i, c in enumerate(code[1:], 1) if LANG_LINE.search(source(c))]
    assert not others, f"{path.name}: LANG set again in code cells {others}"


def test_same_chapters_in_both_books():
    assert {p.name for p in ZH} == {p.name for p in EN}


@pytest.mark.parametrize("name", sorted({p.name for p in ZH} & {p.name for p in EN}))
def test_code_identical_except_lang(name):
    """The two books run the same code: only the LANG line of the bootstrap differs."""
    zh = [c for c in load(ROOT / "chapters" / "zh" / name)["cells"] if c["cell_type"] == "code"]
    en = [c for c in load(ROOT / "chapters" / "en" / name)["cells"] if c["cell_type"] == "code"]
    assert len(zh) == len(en), f"{name}: {len(zh)} code cells in zh, {len(en)} in en"
    for i, (a, b) in enumerate(zip(zh, en)):
        sa = LANG_LINE.sub('LANG = "?"', source(a))
        sb = LANG_LINE.sub('LANG = "?"', source(b))
        assert sa == sb, f"{name}: code cell {i} differs between zh and en"
        assert a.get("metadata", {}).get("tags", []) == b.get("metadata", {}).get("tags", []), (
            f"{name}: code cell {i} has different tags in zh and en")


def _zh_texts():
    for p in ZH:
        for i, c in enumerate(load(p)["cells"]):
            yield f"{p.name} cell {i}", source(c)
    for p in sorted((ROOT / "chapters" / "zh").glob("*.md")):
        yield p.name, p.read_text(encoding="utf-8")


# s2t also rewrites a few Traditional characters into the variant of its own dictionary. In
# each pair below the left one is the standard form in Taiwan (教育部 常用國字標準字體表), which
# the book must use (CONTRIBUTING: Taiwan usage), so these rewrites are not Simplified text.
# Everything else s2t changes is a Simplified character or phrase (这, 后面, 发现, 里面 …).
TAIWAN_VARIANTS = {("布", "佈"), ("占", "佔"), ("峰", "峯"), ("才", "纔"), ("台", "臺"),
                   ("了", "瞭"), ("裡", "裏"), ("群", "羣"), ("衛", "衞"), ("污", "汙"),
                   ("線", "綫"), ("麵", "麪"), ("床", "牀"), ("嘆", "歎"), ("週", "周")}


def simplified_in(line: str, cc) -> list[str]:
    """The changes OpenCC s2t makes to a line, less the Taiwan-standard variants."""
    conv = cc.convert(line)
    if conv == line:
        return []
    if len(conv) != len(line):  # s2t maps character to character; be strict otherwise
        return [f"{line!r}->{conv!r}"]
    return [f"{a}->{b}" for a, b in zip(line, conv) if a != b and (a, b) not in TAIWAN_VARIANTS]


def test_zh_is_traditional():
    """OpenCC s2t (Simplified -> Traditional) changes nothing in the zh book, apart from
    rewriting Taiwan-standard characters into its own variants (TAIWAN_VARIANTS)."""
    from opencc import OpenCC

    cc = OpenCC("s2t")
    bad = []
    for where, text in _zh_texts():
        for lineno, line in enumerate(text.splitlines(), 1):
            diff = simplified_in(line, cc)
            if diff:
                bad.append(f"{where} line {lineno}: {' '.join(diff[:6])} in {line.strip()[:60]!r}")
    assert not bad, "Simplified characters (or forms s2t rewrites) in the zh book:\n" + "\n".join(bad[:40])


def test_the_traditional_check_can_fail():
    from opencc import OpenCC

    cc = OpenCC("s2t")
    assert simplified_in("这个注意力的权重", cc) == ["这->這", "个->個", "权->權"]
    assert simplified_in("注意力的分布與峰值，在台灣", cc) == []


def test_notebooks_match_their_sources():
    """`python tools/nbgen.py --check`: every committed notebook is what its source writes."""
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "nbgen.py"), "--check"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def test_every_source_has_its_notebooks():
    for src in sorted((ROOT / "chapters" / "_src").glob("[0-9][0-9]-*.py")):
        for lang in ("zh", "en"):
            assert (ROOT / "chapters" / lang / f"{src.stem}.ipynb").is_file(), (
                f"{src.name}: chapters/{lang}/{src.stem}.ipynb missing (run tools/nbgen.py)")
