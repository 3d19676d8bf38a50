"""lib.book (setup, tr, glue, check, current_lang) and the book's build configuration: two
books from one base config, what the build must enforce, and the site's link arithmetic."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import build_book  # noqa: E402
import booksite  # noqa: E402

import lib  # noqa: E402
from lib import book  # noqa: E402


# --------------------------------------------------------------------------- lib.book
def test_setup_sets_language_and_tr_follows():
    lib.setup("zh")
    assert lib.current_lang() == "zh"
    assert lib.tr(zh="詞元", en="token") == "詞元"
    lib.setup("en")
    assert lib.current_lang() == "en"
    assert lib.tr(zh="詞元", en="token") == "token"


def test_setup_rejects_unknown_language():
    with pytest.raises(ValueError, match="lang"):
        lib.setup("zh-CN")


def test_setup_seeds_everything():
    lib.setup("en", seed=3)
    a = (random.random(), np.random.rand())
    lib.setup("en", seed=3)
    assert (random.random(), np.random.rand()) == a
    torch = pytest.importorskip("torch")
    lib.setup("en", seed=3)
    t = torch.rand(2)
    lib.setup("en", seed=3)
    assert torch.equal(torch.rand(2), t)


def test_glue_without_myst_nb_returns_the_value(monkeypatch):
    monkeypatch.setitem(sys.modules, "myst_nb", None)  # as on Colab: import fails
    assert lib.glue("x", 0.25) == 0.25


def test_check_prints_and_never_raises(capsys):
    lib.setup("zh")
    assert lib.check(0.5, 0.5) is True
    assert "✓" in capsys.readouterr().out
    assert lib.check([1, 2], [1, 3], hint="看第二個元素") is False
    out = capsys.readouterr().out
    assert "✗" in out and "看第二個元素" in out
    assert lib.check("abc", 1.0) is False  # wrong type: a ✗, not an exception
    lib.setup("en")


def test_check_never_prints_the_answer(capsys):
    lib.setup("en")
    secret = [0.7311, 0.0926]
    assert lib.check([0.5, 0.5], secret) is False
    out = capsys.readouterr().out
    assert "0.7311" not in out and "0.0926" not in out
    assert "largest gap 0.407" in out
    assert lib.check([0.5], secret) is False
    out = capsys.readouterr().out
    assert "wrong shape: got (1,), expected (2,)" in out and "0.7311" not in out
    assert lib.check([float("nan"), 1.0], secret) is False
    assert "NaN" in capsys.readouterr().out


# --------------------------------------------------------------------------- configuration
@pytest.fixture(scope="module")
def configs():
    return {lang: build_book.book_config(ROOT, lang) for lang in ("zh", "en")}


def test_the_build_enforces_what_the_book_promises(configs):
    cfg, _ = configs["zh"]
    assert cfg["execute"]["execute_notebooks"] == "force"
    assert cfg["execute"]["stderr_output"] in ("warn", "error", "severe")
    assert cfg["only_build_toc_files"] is True
    for pattern in (".*", "_build", "node_modules", "chapters/_src", ".venv"):
        assert pattern in cfg["exclude_patterns"], f"exclude_patterns lacks {pattern}"
    assert set(cfg["parse"]["myst_enable_extensions"]) >= {
        "dollarmath", "amsmath", "colon_fence", "deflist", "substitution"}
    assert cfg["bibtex_bibfiles"] == ["references.bib"]
    assert (ROOT / "references.bib").is_file()
    # the widget JavaScript comes from the site itself, never from a CDN or _static
    js = cfg["sphinx"]["config"]["nb_ipywidgets_js"]
    assert js and not any("://" in k for k in js)
    assert not any("_static" in k.replace("../_vendor", "") for k in js)
    assert "://" not in cfg["sphinx"]["config"]["mathjax_path"]
    assert not (ROOT / "_static").exists(), "JB1 injects every .js under _static into every page"


def test_build_command_is_strict():
    import inspect

    src = inspect.getsource(build_book.start_build)
    for flag in ('"-W"', '"-n"', '"--keep-going"'):
        assert flag in src


def test_english_book_shares_everything_but_language(configs):
    zh, _ = configs["zh"]
    en, _ = configs["en"]
    assert zh["sphinx"]["config"]["language"] == "zh_TW"
    assert en["sphinx"]["config"]["language"] == "en"
    assert zh["title"] != en["title"]
    for key in ("execute", "parse", "exclude_patterns", "bibtex_bibfiles", "repository", "launch_buttons"):
        assert zh[key] == en[key], f"{key} differs between the books"
    shared = {k: v for k, v in zh["sphinx"]["config"].items()
              if k not in ("language", "html_search_language", "booksite_lang", "nb_code_prompt_show",
                           "nb_code_prompt_hide", "togglebutton_hint", "togglebutton_hint_hide")}
    for k, v in shared.items():
        assert en["sphinx"]["config"][k] == v, f"sphinx.config.{k} differs"
    overlay = yaml.safe_load((ROOT / "book" / "en.yml").read_text(encoding="utf-8"))
    assert "execute" not in overlay and "repository" not in overlay, "shared settings copied into en.yml"


def test_tocs_mirror_each_other(configs):
    zh = build_book.toc_files(configs["zh"][1])
    en = build_book.toc_files(configs["en"][1])
    assert [f.replace("chapters/zh/", "chapters/en/") for f in zh] == en
    names = [Path(f).name for f in zh]
    assert names[0] == "00-introduction"
    for n in ("01-tokens-embeddings", "02-positions", "03-self-attention", "04-multi-head-block",
              "05-contextual-lm-head", "06-evaluation", "07-looking-back",
              "glossary", "notation", "bibliography"):
        assert n in names, f"the toc lacks {n}"


def test_every_toc_entry_exists(configs):
    missing = [f for lang in ("zh", "en") for f in build_book.toc_files(configs[lang][1])
               if not any((ROOT / f"{f}{ext}").is_file() for ext in (".ipynb", ".md"))]
    assert not missing, f"listed in the toc but missing: {missing}"


def test_merge_is_deep_and_leaves_base_alone():
    base = {"a": {"b": 1, "c": [1, 2]}, "d": 1}
    out = build_book.merge(base, {"a": {"c": [3]}, "e": 2})
    assert out == {"a": {"b": 1, "c": [3]}, "d": 1, "e": 2}
    assert base == {"a": {"b": 1, "c": [1, 2]}, "d": 1}


# --------------------------------------------------------------------------- site links
@pytest.mark.parametrize("page, lang, want", [
    ("chapters/zh/03-self-attention", "zh", "../../../en/chapters/en/03-self-attention.html"),
    ("chapters/en/glossary", "en", "../../../zh/chapters/zh/glossary.html"),
    ("search", "zh", "../en/search.html"),
])
def test_counterpart_links(page, lang, want):
    assert booksite.counterpart_href(page, lang) == want


def test_landing_page_names_both_books():
    page = build_book.LANDING.format(title_zh="T", title_en="E", root_zh="chapters/zh/00-introduction",
                                     root_en="chapters/en/00-introduction")
    assert 'href="zh/chapters/zh/00-introduction.html"' in page
    assert 'href="en/chapters/en/00-introduction.html"' in page
    assert "繁體中文" in page and "English" in page


def test_jieba_dictionary_is_traditional_and_has_the_book_terms(tmp_path):
    path = booksite.jieba_dictionary(tmp_path)
    words = {line.split(" ", 1)[0] for line in path.read_text(encoding="utf-8").splitlines()}
    for w in ("注意力", "溫度", "獎盃", "詞元", "殘差流", "困惑度"):
        assert w in words, f"{w} missing from the zh search dictionary"


def test_binder_environment():
    req = (ROOT / "binder" / "requirements.txt").read_text(encoding="utf-8")
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in req
    top = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    torch_pin = next(l for l in top.splitlines() if l.startswith("torch=="))
    assert torch_pin in req or "-r ../requirements.txt" in req
