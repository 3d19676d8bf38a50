"""Sphinx extension of the book's site: two books (zh, en), one site.

- every page gets ``booksite_other``: the link to the same page in the other book (the template
  ``book/_templates/lang-switch.html`` shows it in the article header);
- the zh book's search segments Traditional Chinese with jieba and a Traditional dictionary
  (jieba's own dictionary converted with OpenCC ``s2t``, plus the book's terms from
  ``book/jieba_terms.txt``), so 注意力, 溫度 and 獎盃 are found;
- the site layout: ``_build/site/zh/…`` and ``_build/site/en/…``, each book's pages at the
  same relative paths with ``chapters/zh/`` ↔ ``chapters/en/``.
"""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

LANGS = {
    "zh": {"name": "繁體中文", "tag": "zh-TW", "switch": "English", "switch_title": "Read this page in English"},
    "en": {"name": "English", "tag": "en", "switch": "繁體中文", "switch_title": "以繁體中文閱讀本頁"},
}
HERE = Path(__file__).resolve().parent
BOOK = HERE.parent  # book/


def other_lang(lang: str) -> str:
    return "en" if lang == "zh" else "zh"


def counterpart(pagename: str, lang: str) -> str:
    """The page name of the same page in the other book."""
    other = other_lang(lang)
    return pagename.replace(f"chapters/{lang}/", f"chapters/{other}/")


def counterpart_href(pagename: str, lang: str) -> str:
    """Relative URL from ``<site>/<lang>/<pagename>.html`` to the other book's page."""
    depth = pagename.count("/")
    return "../" * (depth + 1) + f"{other_lang(lang)}/{counterpart(pagename, lang)}.html"


def jieba_dictionary(cache_dir: Path) -> Path:
    """jieba's dictionary in Traditional characters plus the book's terms (cached)."""
    import jieba
    from opencc import OpenCC

    src = Path(jieba.__file__).with_name("dict.txt")
    terms = BOOK / "jieba_terms.txt"
    key = hashlib.sha256(src.read_bytes() + terms.read_bytes()).hexdigest()[:16]
    out = cache_dir / f"jieba-zh-TW-{key}.txt"
    if out.is_file():
        return out
    cache_dir.mkdir(parents=True, exist_ok=True)
    lines = src.read_text(encoding="utf-8").splitlines()
    words = [line.split(" ", 1)[0] for line in lines]
    converted = OpenCC("s2t").convert("\n".join(words)).split("\n")
    seen: set[str] = set()
    rows = []
    for line, word in zip(lines, converted):
        rest = line.split(" ", 1)[1] if " " in line else ""
        if word not in seen:
            seen.add(word)
            rows.append(f"{word} {rest}".strip())
    for line in terms.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            # the book's own terms: a high frequency, so jieba keeps them whole
            rows.append(f"{line} 100000 n")
    tmp = out.with_suffix(".tmp")
    tmp.write_text("\n".join(rows) + "\n", encoding="utf-8")
    os.replace(tmp, out)
    return out


def _config_inited(app: Sphinx, config: Config) -> None:
    lang = config.booksite_lang
    if lang not in LANGS:
        raise ValueError(f"booksite_lang must be one of {sorted(LANGS)}, got {lang!r}")
    opts = config.html_theme_options
    header = list(opts.get("article_header_end") or ["article-header-buttons.html"])
    if "lang-switch.html" not in header:
        header.insert(0, "lang-switch.html")
    opts["article_header_end"] = header
    # an empty default mode makes pydata-sphinx-theme log "Got invalid theme mode" on a
    # reader's first visit; the figures are drawn on white, so start light
    context = dict(config.html_context or {})
    context.setdefault("default_mode", "light")  # pydata-sphinx-theme reads it from html_context
    config.html_context = context
    if lang == "zh":
        cache = Path(app.srcdir) / "_build" / ".jieba"
        search_opts = dict(config.html_search_options or {})
        search_opts["dict"] = str(jieba_dictionary(cache))
        config.html_search_options = search_opts


def _page_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    lang = app.config.booksite_lang
    other = other_lang(lang)
    context["booksite_lang"] = lang
    context["booksite_other"] = {
        "lang": other,
        "tag": LANGS[other]["tag"],
        "label": LANGS[lang]["switch"],
        "title": LANGS[lang]["switch_title"],
        "href": counterpart_href(pagename, lang),
    }
    context["booksite_home"] = "../" * (pagename.count("/") + 1) + "index.html"


def _dedupe_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Keep each script once. sphinx-thebe and sphinx-togglebutton register their inline
    scripts on every ``env-before-read-docs``, which Jupyter Book 1 fires twice; the second
    ``const THEBE_JS_URL`` is a JavaScript error on every page."""
    scripts = context.get("script_files")
    if not isinstance(scripts, list):
        return
    seen, keep = set(), []
    for js in scripts:
        attrs = dict(getattr(js, "attributes", {}) or {})
        key = (str(getattr(js, "filename", js) or ""), tuple(sorted(attrs.items())))  # None == ""
        if key not in seen:
            seen.add(key)
            keep.append(js)
    scripts[:] = keep


def setup(app: Sphinx) -> dict:
    app.add_config_value("booksite_lang", "zh", "html")
    app.connect("config-inited", _config_inited)
    app.connect("html-page-context", _page_context)
    app.connect("html-page-context", _dedupe_scripts, priority=900)  # after everyone adds theirs
    return {"parallel_read_safe": True, "parallel_write_safe": True, "version": "1"}
