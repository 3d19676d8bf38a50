"""Write one chapter's two notebooks (zh, en) from one Python source.

A chapter source in ``chapters/_src/NN-name.py`` builds a :class:`Chapter`:

    from nbgen import Chapter
    ch = Chapter("03-self-attention")
    ch.bootstrap()                                  # the first code cell, LANG differs per book
    ch.md(zh="## 自注意力 …", en="## Self-attention …")
    ch.code("out, w = lib.scaled_dot_product_attention(Q, K, V)")
    ch.check("assert abs(w[2, 0] - 0.73) < 0.01")   # hidden in the book, run by nbval
    ch.write()                                      # chapters/zh/NN-name.ipynb, chapters/en/NN-name.ipynb

Code cells are written once, so both books run the same code; the only line that differs is
``LANG = "zh"`` / ``LANG = "en"`` in the bootstrap cell. Notebooks are written without outputs.
``python tools/nbgen.py`` regenerates every chapter; ``--check`` fails if a committed notebook
differs from its source.
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("zh", "en")
KERNEL = {"display_name": "Python 3", "language": "python", "name": "python3"}


def bootstrap_source(lang: str) -> str:
    """The first code cell of every notebook (owned by the book pipeline)."""
    from bootstrap_cell import BOOTSTRAP  # tools/bootstrap_cell.py

    return BOOTSTRAP.replace("{LANG}", lang)


class Chapter:
    def __init__(self, name: str):
        self.name = name
        self.cells: list[tuple[str, dict[str, str], list[str]]] = []

    def md(self, *, zh: str, en: str) -> None:
        self.cells.append(("markdown", {"zh": join_cjk_lines(_dedent(zh)), "en": _dedent(en)}, []))

    def code(self, source: str, tags: list[str] | None = None) -> None:
        src = _dedent(source)
        self.cells.append(("code", {"zh": src, "en": src}, list(tags or [])))

    def check(self, source: str) -> None:
        """Assertions on the worked examples: nbval runs them, readers never see them."""
        self.code(source, tags=["remove-cell"])

    def hidden(self, source: str) -> None:
        """Code the book runs but does not show (glue, set-up of a figure)."""
        self.code(source, tags=["remove-input"])

    def glue(self, source: str) -> None:
        """A hidden cell of ``lib.glue`` calls; the closing ';' keeps its value off the page."""
        self.hidden(_dedent(source).rstrip().rstrip(";") + ";")

    def bootstrap(self) -> None:
        self.cells.append(("code", {l: bootstrap_source(l) for l in LANGS}, ["bootstrap", "hide-input"]))

    def notebook(self, lang: str) -> nbformat.NotebookNode:
        nb = nbformat.v4.new_notebook()
        nb.metadata = {"kernelspec": KERNEL, "language_info": {"name": "python"}}
        for i, (kind, text, tags) in enumerate(self.cells):
            meta = {"tags": tags} if tags else {}
            cid = f"c{i:03d}"
            if kind == "markdown":
                cell = nbformat.v4.new_markdown_cell(text[lang], metadata=meta, id=cid)
            else:
                cell = nbformat.v4.new_code_cell(text[lang], metadata=meta, id=cid)
            nb.cells.append(cell)
        return nb

    def render(self, lang: str) -> str:
        return json.dumps(self.notebook(lang), ensure_ascii=False, indent=1, sort_keys=True) + "\n"

    def write(self) -> None:
        if _CHECK_ONLY:
            return
        for lang in LANGS:
            path = ROOT / "chapters" / lang / f"{self.name}.ipynb"
            path.write_text(self.render(lang), encoding="utf-8")


_CJK = r"\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_FULLWIDTH = r"\u3000-\u303f\uff00-\uffef"                      # ，。：；、「」（）…
_CJK_END = re.compile(f"[{_CJK}][*_`]*$")          # emphasis or code may close the line
_CJK_START = re.compile(f"^\\s*[*_`]*[{_CJK}]")
_FW_END = re.compile(f"[{_FULLWIDTH}][*_`]*$")
_FW_START = re.compile(f"^\\s*[*_`]*[{_FULLWIDTH}]")
# lines that are structure, not a paragraph: a directive, a heading, a table row, an option,
# a quote, a list item, display math, a label
_STRUCTURE = re.compile(r"^\s*(:::|```|~~~|#|\||:|>|[-*+] |\d+\. |\$\$|\(\S+\)=)")
_LIST_ITEM = re.compile(r"^\s*([-*+] |\d+\. )")   # its continuation lines are joined onto it


def join_cjk_lines(text: str) -> str:
    """Join a wrapped Chinese paragraph into one line.

    Browsers render a line break between two Chinese characters as a space; source files wrap
    for reading. A line is joined onto the one before without a space where both sides of the
    break are Chinese, or either side is full-width punctuation (no space beside ，。「」 either).
    Structure keeps its lines: directives, headings, tables, lists, quotes, display math and
    labels; code fences are left alone.
    """
    out: list[str] = []
    fence = None
    for line in text.split("\n"):
        stripped = line.lstrip()
        if fence is None and stripped.startswith(("```", "~~~")):
            fence = stripped[:3]
        elif fence is not None and stripped.startswith(fence):
            fence = None
            out.append(line)
            continue
        prev = out[-1] if out else ""
        tight = ((_CJK_END.search(prev) and _CJK_START.search(line))
                 or _FW_END.search(prev) or _FW_START.search(line))
        if (fence is None and prev.strip() and stripped and tight
                and not (_STRUCTURE.match(prev) and not _LIST_ITEM.match(prev))
                and not _STRUCTURE.match(line)):
            out[-1] = prev.rstrip() + stripped
        else:
            out.append(line)
    return "\n".join(out)


def _dedent(text: str) -> str:
    import textwrap

    return textwrap.dedent(text).strip("\n")


_CHECK_ONLY = False


def load_chapter(src: Path) -> Chapter:
    """Run one source file and return the Chapter it built (the last one created)."""
    spec = importlib.util.spec_from_file_location(f"_chapter_{src.stem.replace('-', '_')}", src)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    chapters = [v for v in vars(module).values() if isinstance(v, Chapter)]
    if len(chapters) != 1:
        raise ValueError(f"{src} must build exactly one Chapter, built {len(chapters)}")
    return chapters[0]


def main(argv: list[str] | None = None) -> int:
    global _CHECK_ONLY
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if notebooks differ from sources")
    parser.add_argument("sources", nargs="*", type=Path)
    args = parser.parse_args(argv)
    sources = args.sources or sorted((ROOT / "chapters" / "_src").glob("[0-9][0-9]-*.py"))
    _CHECK_ONLY = True
    stale = []
    for src in sources:
        ch = load_chapter(src)
        for lang in LANGS:
            path = ROOT / "chapters" / lang / f"{ch.name}.ipynb"
            fresh = ch.render(lang)
            if not path.exists() or path.read_text(encoding="utf-8") != fresh:
                stale.append(path)
                if not args.check:
                    path.write_text(fresh, encoding="utf-8")
    if args.check and stale:
        print("notebooks out of date with chapters/_src (run python tools/nbgen.py):")
        print("\n".join(f"  {p.relative_to(ROOT)}" for p in stale))
        return 1
    if not args.check:
        print(f"wrote {len(stale)} notebook(s)")
    return 0


sys.path.insert(0, str(Path(__file__).resolve().parent))

if __name__ == "__main__":
    # run as the module `nbgen`, the one chapter sources import, so isinstance(…, Chapter) holds
    import nbgen

    raise SystemExit(nbgen.main())
