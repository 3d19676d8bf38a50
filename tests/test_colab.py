"""A notebook run the way Colab runs it: alone in a fresh folder, the repository nowhere on the
path, the bootstrap cell fetching ``lib`` by ``git clone`` (from a local copy of this working
tree via ``BOOK_REPO_URL``), no ``requirements.txt`` installed."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from bootstrap_cell import BOOTSTRAP, REPO_URL  # noqa: E402

# what a Colab clone needs from the repository (the working tree, so uncommitted lib counts)
SHIPPED = (".transformer-book", "lib", "pyproject.toml")


def test_bootstrap_and_launch_buttons_agree_on_the_repository():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    assert config["repository"]["url"] == REPO_URL
    assert REPO_URL in BOOTSTRAP
    assert "requirements.txt" not in BOOTSTRAP, "Colab must not install requirements.txt"
    assert BOOTSTRAP.count("{LANG}") == 1


@pytest.fixture(scope="module")
def local_repo(tmp_path_factory) -> Path:
    """A git repository holding this working tree's lib: what `git clone` fetches on Colab."""
    if shutil.which("git") is None:
        pytest.fail("git is needed (the bootstrap clones the repository)")
    repo = tmp_path_factory.mktemp("origin") / "transformer-book"
    repo.mkdir()
    for name in SHIPPED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, repo / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, repo / name)
    git = ["git", "-c", "user.name=test", "-c", "user.email=test@example.invalid", "-c", "init.defaultBranch=main"]
    subprocess.run(git + ["init", "-q"], cwd=repo, check=True)
    subprocess.run(git + ["add", "-A"], cwd=repo, check=True)
    subprocess.run(git + ["commit", "-q", "-m", "snapshot"], cwd=repo, check=True)
    return repo


def colab_notebook(lang: str) -> nbformat.NotebookNode:
    """The bootstrap cell, then what chapters do: lib's math, a Chinese figure, a widget."""
    nb = nbformat.v4.new_notebook()
    nb.metadata = {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}}
    nb.cells = [
        nbformat.v4.new_code_cell(BOOTSTRAP.replace("{LANG}", lang)),
        nbformat.v4.new_code_cell(
            "import json, numpy as np, matplotlib\n"
            "import matplotlib.pyplot as plt\n"
            "w = lib.softmax(np.array([2.0, 1.0, 0.1]))\n"
            "fig, ax = plt.subplots(figsize=(3, 2))\n"
            "ax.bar([lib.tr(zh='獎盃', en='trophy'), lib.tr(zh='行李箱', en='suitcase'), '它'], w)\n"
            "ax.set_title(lib.tr(zh='注意力權重', en='attention weights'))\n"
            "fig.canvas.draw(); plt.close(fig)\n"
            "from lib.widgets import frames_widget\n"
            "box = frames_widget(lambda t: plt.subplots()[0], {'t': [1, 2]})\n"
            "lib.glue('w0', float(w[0]))\n"
            "print(json.dumps({'root': str(ROOT), 'lib': lib.__file__, 'lang': lib.current_lang(),\n"
            "                  'family': list(matplotlib.rcParams['font.family']),\n"
            "                  'w0': float(w[0]), 'frames': len(box.images)}))"),
    ]
    return nb


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_notebook_runs_alone_like_on_colab(tmp_path, local_repo, monkeypatch, lang):
    from nbclient import NotebookClient

    content = tmp_path / "content"  # Colab's /content: no marker file anywhere above
    home = tmp_path / "home"
    content.mkdir()
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("BOOK_REPO_URL", str(local_repo))
    monkeypatch.delenv("BOOK_HOME", raising=False)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.setenv("MPLCONFIGDIR", str(tmp_path / "mpl"))
    nb = colab_notebook(lang)
    client = NotebookClient(nb, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(content)}})
    client.execute(cwd=str(content))
    outputs = nb.cells[1].outputs
    stderr = [o.get("text", "") for c in nb.cells for o in c.outputs if o.get("name") == "stderr"]
    assert not stderr, f"stderr in the notebook: {stderr}"
    line = [o["text"] for o in outputs if o.get("name") == "stdout"][-1].strip().splitlines()[-1]
    got = json.loads(line)
    clone = home / "transformer-book"
    assert Path(got["root"]) == clone, "the bootstrap did not clone into ~/transformer-book"
    assert Path(got["lib"]).resolve().is_relative_to(clone.resolve()), (
        f"lib came from {got['lib']}, not from the clone: the repository leaked onto the path")
    assert (clone / ".transformer-book").is_file()
    assert got["lang"] == lang
    assert "Transformer Book Sans TC" in got["family"]
    assert abs(got["w0"] - 0.659) < 1e-3  # softmax([2, 1, 0.1])[0]
    assert got["frames"] == 2
