"""Source of the first code cell of every notebook (owned by the book pipeline).

``{LANG}`` is replaced by ``zh`` or ``en``: that line is the only code that differs between the
two books.

The cell finds the repository root by its marker file ``.transformer-book`` (walking up from
the notebook's folder; a plain walk looking for ``lib/`` could stop at the system's ``/lib``).
A notebook opened alone (Colab, a downloaded ``.ipynb``) finds no marker: it clones the
repository (``BOOK_REPO_URL`` overrides the address, e.g. a local copy in a test; ``BOOK_HOME``
where it goes) and puts it on ``sys.path``. It never installs ``requirements.txt``: Colab
already has NumPy, matplotlib, ipywidgets and torch, and pinning them there would break it.
``lib.setup(LANG)`` then sets the language, the CJK font of the figures and the seeds.
"""

#: where the repository lives; _config.yml's repository.url must agree (tests/test_colab.py)
REPO_URL = "https://github.com/transformer-book/transformer-book"

BOOTSTRAP = '''\
LANG = "{LANG}"  # 語言 language: "zh" 或/or "en"
import os, sys, pathlib, subprocess

def _book_root():
    """The repository root, found by its marker file; fetched when the notebook is alone (Colab)."""
    here = pathlib.Path.cwd().resolve()
    for p in (here, *here.parents):
        if (p / ".transformer-book").is_file():
            return p
    dest = pathlib.Path(os.environ.get("BOOK_HOME", pathlib.Path.home() / "transformer-book"))
    if not (dest / ".transformer-book").is_file():
        url = os.environ.get("BOOK_REPO_URL", "{REPO_URL}")
        subprocess.run(["git", "clone", "--quiet", "--depth", "1", url, str(dest)], check=True)
    return dest

ROOT = _book_root()
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
import lib
lib.setup(LANG)'''.replace("{REPO_URL}", REPO_URL)
