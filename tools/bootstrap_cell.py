"""Source of the first code cell of every notebook (owned by the book pipeline).

``{LANG}`` is replaced by ``zh`` or ``en``: that line is the only code that differs between the
two books.
"""

BOOTSTRAP = '''\
LANG = "{LANG}"  # 語言 language: "zh" 或/or "en"
import os, sys, pathlib, subprocess

def _book_root():
    """The repository root, found by its marker file; fetched when the notebook is alone (Colab)."""
    here = pathlib.Path.cwd().resolve()
    for p in (here, *here.parents):
        if (p / ".transformer-book").is_file():
            return p
    url = os.environ.get("BOOK_REPO_URL", "https://github.com/transformer-book/transformer-book")
    dest = pathlib.Path.home() / "transformer-book"
    if not (dest / ".transformer-book").is_file():
        subprocess.run(["git", "clone", "--depth", "1", url, str(dest)], check=True)
    return dest

ROOT = _book_root()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import lib
lib.setup(LANG)'''
