"""The built site in a real browser: Debian's headless Chromium, driven by Playwright, offline.

The site is ``$BOOK_SITE`` if set, else ``_build/site`` (built with ``tools/build_book.py`` when
missing). It is served on 127.0.0.1; every request that would leave the machine is blocked and
fails the test. Screenshots (desktop and phone) go to ``test-output/screenshots/``.

Needs: ``apt-get install -y chromium`` (never a browser downloaded by a tool).
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "test-output" / "screenshots"
CHROMIUM = os.environ.get("BOOK_CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-sync",
         "--disable-dev-shm-usage"]
LANGS = ("zh", "en")
SIMPLIFIED_UI = ("回到顶部", "上一页", "下一页", "跳转至主要内容", "搜索", "目录", "当前页面")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


# --------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="session")
def site() -> Path:
    env = os.environ.get("BOOK_SITE")
    path = Path(env) if env else ROOT / "_build" / "site"
    if not (path / "index.html").is_file():
        if env:
            pytest.fail(f"BOOK_SITE={env} holds no built site (index.html missing)")
        subprocess.run([sys.executable, str(ROOT / "tools" / "build_book.py")], cwd=ROOT, check=True)
    assert (path / "index.html").is_file()
    return path


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest's output clean
        pass


@pytest.fixture(scope="session")
def server(site):
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture(scope="session")
def browser_context(tmp_path_factory):
    if not Path(CHROMIUM).is_file():
        pytest.fail(f"{CHROMIUM} missing: apt-get install -y chromium (the site tests need it)")
    from playwright.sync_api import sync_playwright

    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport=DESKTOP, locale="zh-TW", service_workers="block")
        yield ctx
        ctx.close()


class Watch:
    """A page with its console errors, page errors, failed and outgoing requests recorded."""

    def __init__(self, ctx, base: str):
        self.base = base
        self.page = ctx.new_page()
        self.errors: list[str] = []
        self.outside: list[str] = []
        self.failed: list[str] = []
        page = self.page

        def route(r):
            url = r.request.url
            if url.startswith(base) or url.startswith("data:") or url.startswith("blob:"):
                r.continue_()
            else:
                self.outside.append(url)
                r.abort()

        page.route("**/*", route)
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        page.on("requestfailed", lambda r: self.failed.append(f"{r.url} ({r.failure})")
                if r.url.startswith(base) else None)
        page.on("response", lambda r: self.failed.append(f"{r.url} (HTTP {r.status})")
                if r.status >= 400 else None)

    def goto(self, url: str):
        self.page.goto(url, wait_until="load")
        try:
            self.page.wait_for_load_state("networkidle", timeout=15000)
        except Exception:
            pass
        return self.page

    def problems(self) -> list[str]:
        return ([f"left the machine: {u}" for u in self.outside] + self.errors
                + [f"failed: {f}" for f in self.failed])

    def close(self):
        self.page.close()


@pytest.fixture
def watch(browser_context, server):
    watches = []

    def make():
        w = Watch(browser_context, server)
        watches.append(w)
        return w

    yield make
    for w in watches:
        w.close()


def html_pages(site: Path, lang: str) -> list[str]:
    """Site-relative paths of the book's content pages (chapters and reference pages)."""
    return sorted(p.relative_to(site).as_posix() for p in (site / lang / "chapters" / lang).glob("*.html"))


def chapter_pages(site: Path, lang: str) -> list[str]:
    return [p for p in html_pages(site, lang) if re.search(r"/\d\d-[^/]+\.html$", p)]


def widget_pages(site: Path) -> list[str]:
    return [p for lang in LANGS for p in html_pages(site, lang)
            if "application/vnd.jupyter.widget-view+json" in (site / p).read_text(encoding="utf-8")]


def shot(page, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=full_page)


def slug(path: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", path.removesuffix(".html"))


# --------------------------------------------------------------------------- tests
def test_site_layout(site):
    """A landing page, both books, every content page in both languages."""
    assert (site / "index.html").is_file()
    for lang in LANGS:
        assert (site / lang / "index.html").is_file(), f"book {lang} missing"
        assert chapter_pages(site, lang), f"no chapter pages in {lang}"
    zh = {Path(p).name for p in html_pages(site, "zh")}
    en = {Path(p).name for p in html_pages(site, "en")}
    assert zh == en, f"pages only in one book: {sorted(zh ^ en)}"


def test_html_lang_and_traditional_ui(site):
    """<html lang> is zh-TW / en; zh pages carry none of the theme's Simplified UI strings."""
    for lang, tag in (("zh", "zh-TW"), ("en", "en")):
        for p in html_pages(site, lang) + [f"{lang}/search.html"]:
            text = (site / p).read_text(encoding="utf-8")
            m = re.search(r"<html[^>]*\blang=\"([^\"]+)\"", text)
            assert m and m.group(1) == tag, f"{p}: <html lang={m.group(1) if m else None!r}>, want {tag}"
            if lang == "zh":
                found = [s for s in SIMPLIFIED_UI if s in text]
                assert not found, f"{p}: Simplified UI strings {found}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_loads_clean_and_offline(site, watch, lang):
    """Every page: no console error, no failed request, nothing fetched from outside."""
    w = watch()
    pages = (["index.html"] if lang == "zh" else []) + html_pages(site, lang) + [f"{lang}/search.html", f"{lang}/genindex.html"]
    bad = {}
    for p in pages:
        w.errors.clear(); w.outside.clear(); w.failed.clear()
        page = w.goto(f"{w.base}/{p}")
        page.wait_for_timeout(300)
        if w.problems():
            bad[p] = w.problems()
        if re.search(r"/\d\d-[^/]+\.html$", p) or p == "index.html":
            shot(page, f"{lang}-{slug(p)}-desktop")
    assert not bad, json.dumps(bad, ensure_ascii=False, indent=1)


@pytest.mark.parametrize("lang", LANGS)
def test_phone_layout(site, browser_context, server, lang):
    """On a phone-sized viewport the article fits the screen (no sideways scrolling)."""
    page = browser_context.new_page()
    page.set_viewport_size(PHONE)
    page.route("**/*", lambda r: r.continue_() if r.request.url.startswith(server) or
               r.request.url.startswith(("data:", "blob:")) else r.abort())
    try:
        overflow = {}
        for p in chapter_pages(site, lang)[:3] + ["index.html"]:
            page.goto(f"{server}/{p}", wait_until="load")
            page.wait_for_timeout(800)
            shot(page, f"{lang}-{slug(p)}-phone")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > PHONE["width"] + 2:
                overflow[p] = width
        assert not overflow, f"pages wider than the phone ({PHONE['width']} px): {overflow}"
    finally:
        page.close()


def test_language_links_land_on_counterpart(site, watch):
    """The language switch of every content page leads to the same page in the other book."""
    w = watch()
    for lang, other, tag in (("zh", "en", "en"), ("en", "zh", "zh-TW")):
        for p in html_pages(site, lang):
            page = w.goto(f"{w.base}/{p}")
            link = page.locator("a.booksite-lang-switch").first
            assert link.count() == 1, f"{p}: no language switch"
            link.click()
            page.wait_for_load_state("load")
            want = p.replace(f"{lang}/chapters/{lang}/", f"{other}/chapters/{other}/")
            assert urlparse(page.url).path == f"/{want}", f"{p} -> {page.url}, want /{want}"
            assert page.evaluate("document.documentElement.lang") == tag
    # the landing page offers both books
    page = w.goto(f"{w.base}/index.html")
    for lang in LANGS:
        href = page.locator(f"#lang-{lang}").get_attribute("href")
        assert (site / href).is_file(), f"landing page links to missing {href}"


def test_launch_buttons_point_at_the_notebook(site):
    """Binder, Colab and Thebe buttons and the .ipynb download on every chapter page."""
    for lang in LANGS:
        for p in chapter_pages(site, lang):
            text = (site / p).read_text(encoding="utf-8")
            nb = f"chapters/{lang}/{Path(p).stem}.ipynb"
            colab = re.findall(r'href="(https://colab\.research\.google\.com/[^"]+)"', text)
            binder = re.findall(r'href="(https://mybinder\.org/[^"]+)"', text)
            assert colab and all(u.endswith("/" + nb) for u in colab), f"{p}: colab {colab}"
            assert binder and all(u.endswith(nb) for u in binder), f"{p}: binder {binder}"
            assert "initThebeSBT()" in text, f"{p}: no live-code (Thebe) button"
            dl = re.findall(r'href="([^"]+\.ipynb)"', text)
            dl = [d for d in dl if not d.startswith("http")]
            assert dl, f"{p}: no .ipynb download"
            target = (site / p).parent / dl[0]
            assert target.is_file(), f"{p}: download {dl[0]} missing"
            assert json.loads(target.read_text(encoding="utf-8"))["cells"], "empty notebook"


def _visible_frame(widget):
    imgs = widget.locator("img")
    visible = [imgs.nth(i) for i in range(imgs.count()) if imgs.nth(i).is_visible()]
    assert len(visible) == 1, f"{len(visible)} frames visible, want 1"
    return visible[0].screenshot()


def _controls(widget) -> list[tuple[str, object]]:
    """Every control of a frames widget: slider handles, toggle-button rows, drop-downs."""
    found = []
    handles = widget.locator(".noUi-handle, .slider-handle")
    found += [("slider", handles.nth(i)) for i in range(handles.count())]
    rows = widget.locator(".widget-toggle-buttons")
    found += [("buttons", rows.nth(i)) for i in range(rows.count())]
    selects = widget.locator("select")
    found += [("select", selects.nth(i)) for i in range(selects.count())]
    return found


def _move(page, kind: str, control) -> None:
    """Move one control to another value, the way a reader would."""
    if kind == "slider":
        control.focus()
        page.keyboard.press("End" if control.get_attribute("aria-valuenow") !=
                            control.get_attribute("aria-valuemax") else "Home")
    elif kind == "buttons":
        buttons = control.locator("button")
        idle = [buttons.nth(i) for i in range(buttons.count())
                if "mod-active" not in (buttons.nth(i).get_attribute("class") or "")]
        idle[-1].click()
    else:
        options = control.locator("option")
        current = control.input_value()
        values = [options.nth(i).get_attribute("value") for i in range(options.count())]
        control.select_option(next(v for v in reversed(values) if v != current))
    page.wait_for_timeout(300)


def test_every_widget_control_answers_without_kernel(site, watch):
    """On every widget page of both books, moving any control of any frames widget changes the
    frame shown: the figures answer their sliders on the static site, with no kernel."""
    pages = widget_pages(site)
    assert {p.split("/")[-1] for p in pages} >= {
        "03-self-attention.html", "05-contextual-lm-head.html", "07-looking-back.html"}, pages
    w = watch()
    moved = 0
    for p in pages:
        page = w.goto(f"{w.base}/{p}")
        widgets = page.locator(".frames-widget")
        assert widgets.count(), f"{p}: widget state in the page but no .frames-widget drawn"
        for i in range(widgets.count()):
            widget = widgets.nth(i)
            widget.wait_for(state="visible", timeout=20000)
            widget.scroll_into_view_if_needed()
            controls = _controls(widget)
            assert controls, f"{p}: widget {i + 1} has no control"
            for kind, control in controls:
                before = _visible_frame(widget)
                _move(page, kind, control)
                assert _visible_frame(widget) != before, (
                    f"{p}: widget {i + 1}: moving its {kind} did not change the frame")
                moved += 1
            if i == 0:
                shot(page, f"widget-{slug(p)}")
        assert not w.problems(), w.problems()
    assert moved >= len(pages)


@pytest.mark.parametrize("word", ["注意力", "溫度", "獎盃"])
def test_zh_search(site, watch, word):
    """Sphinx search on the zh book (jieba, Traditional dictionary) finds the pages using a word."""
    using = [p for p in html_pages(site, "zh") if word in _article_text(site / p)]
    if word != "注意力" and not using:
        pytest.skip(f"no zh page uses {word} yet")
    assert using, f"no zh page uses {word}"
    w = watch()
    page = w.goto(f"{w.base}/zh/search.html?q={quote(word)}")
    results = page.locator("#search-results li")
    results.first.wait_for(timeout=20000)
    found = {unquote(urlparse(results.nth(i).locator("a").first.get_attribute("href")).path)
             for i in range(results.count())}
    found = {Path(f).name for f in found}
    assert found & {Path(p).name for p in using}, f"search {word}: {found}, pages using it: {using}"
    shot(page, f"zh-search-{word}")


def _article_text(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    m = re.search(r"<article.*?</article>", text, re.S)
    return re.sub(r"<[^>]+>", "", m.group(0) if m else text)
