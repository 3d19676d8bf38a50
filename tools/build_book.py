"""Build both books (繁體中文, English) into one site: ``_build/site/``.

    python tools/build_book.py                 # both books, site in _build/site/
    python tools/build_book.py --lang zh       # one book (the other language's links then 404)
    python tools/build_book.py --out /tmp/site # another site folder

What it does:

1. ``npm ci`` when ``node_modules/`` is missing or older than ``package-lock.json``, then copies
   the JavaScript the site serves itself (RequireJS, ``@jupyter-widgets/html-manager``, MathJax)
   into ``_build/vendor/_vendor/`` (``html_extra_path``): widgets and math work offline.
2. The zh book is ``_config.yml`` + ``_toc.yml``. The en book's config is ``_config.yml`` with
   ``book/en.yml`` laid over it, its toc ``_toc.yml`` with ``chapters/zh/`` → ``chapters/en/``;
   both are written to ``_build/config/en/``.
3. ``jupyter-book build`` of each book with ``-W -n --keep-going`` (every warning fails the
   build), notebooks executed: `--execute force` (every notebook run, clean build: the default
   when CI is set) or `--execute cache` (jupyter-cache keyed by a hash of lib/, incremental
   Sphinx: the default otherwise); the two books build side by side.
4. The site: ``<out>/index.html`` (pick a language), ``<out>/zh/``, ``<out>/en/``.

Exit status 0 only when every book built without a warning.
"""
from __future__ import annotations

import argparse
import copy
import html
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("zh", "en")
LANG_NAMES = {"zh": "繁體中文", "en": "English"}
LANG_TAGS = {"zh": "zh-TW", "en": "en"}
MATHJAX_KEEP = ("tex-mml-chtml.js", "input", "output", "ui", "a11y", "adaptors")


def log(msg: str) -> None:
    print(f"[build_book] {msg}", flush=True)


# ---------------------------------------------------------------------------- JavaScript
def npm_install(src: Path) -> None:
    nm = src / "node_modules"
    lock = src / "package-lock.json"
    if nm.is_dir() and (not lock.exists() or nm.stat().st_mtime >= lock.stat().st_mtime):
        marker = nm / "@jupyter-widgets" / "html-manager" / "dist" / "embed-amd.js"
        if marker.is_file():
            return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("npm is needed to install the widget JavaScript (Debian: apt-get install npm)")
    log("npm ci (widget and math JavaScript the site serves itself)")
    subprocess.run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=src, check=True)
    os.utime(nm)


def vendor(src: Path) -> Path:
    """Copy the JavaScript the site serves into ``_build/vendor/_vendor`` (html_extra_path)."""
    nm = src / "node_modules"
    dest = src / "_build" / "vendor" / "_vendor"
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    shutil.copy2(nm / "requirejs" / "require.js", dest / "require.min.js")
    # the npm layout: the widget bundle finds its icon fonts next to the AMD module's URL,
    # <requirejs baseUrl>/@jupyter-widgets/html-manager/dist/ (baseUrl set by widgets-config.js)
    hm = dest / "@jupyter-widgets" / "html-manager" / "dist"
    hm.mkdir(parents=True)
    (dest / "widgets-config.js").write_text(WIDGETS_CONFIG_JS, encoding="utf-8")
    for f in (nm / "@jupyter-widgets" / "html-manager" / "dist").iterdir():
        if f.is_file() and not f.name.endswith(".map") and f.name not in ("embed.js", "libembed-amd.js"):
            shutil.copy2(f, hm / f.name)
            if f.suffix in (".woff2", ".woff", ".ttf"):
                # the controls module (id "@jupyter-widgets/controls") resolves its icon fonts
                # one folder up: <baseUrl>/@jupyter-widgets/
                shutil.copy2(f, hm.parent.parent / f.name)
    mj_src = nm / "mathjax" / "es5"
    mj = dest / "mathjax"
    mj.mkdir()
    for name in MATHJAX_KEEP:
        p = mj_src / name
        if p.is_dir():
            shutil.copytree(p, mj / name)
        else:
            shutil.copy2(p, mj / name)
    for pkg in ("requirejs", "mathjax", "@jupyter-widgets/html-manager"):
        lic = next((p for p in (nm / pkg).glob("LICENSE*")), None)
        if lic:
            shutil.copy2(lic, dest / f"LICENSE.{pkg.replace('/', '_').lstrip('@')}.txt")
    return dest


WIDGETS_CONFIG_JS = """\
// Loaded after require.min.js and before the widget bundle (_config.yml nb_ipywidgets_js).
(function () {
  // AMD modules resolve next to this file, so the widget bundle's fonts load from this site.
  var src = document.currentScript && document.currentScript.src;
  if (src && window.require && window.require.config) {
    window.require.config({ baseUrl: src.slice(0, src.lastIndexOf("/") + 1) });
  }
  // The widget bundle typesets labels with MathJax 2's MathJax.Hub.Queue; the book loads
  // MathJax 3, which has no Hub: give whatever window.MathJax becomes a Hub that calls
  // MathJax 3's typesetPromise.
  function shim(mj) {
    if (mj && typeof mj === "object" && !mj.Hub) {
      mj.Hub = {
        Queue: function () {
          for (var i = 0; i < arguments.length; i++) {
            var job = arguments[i];
            if (Array.isArray(job) && job[0] === "Typeset" && window.MathJax &&
                typeof window.MathJax.typesetPromise === "function") {
              window.MathJax.typesetPromise(job[2] ? [job[2]] : undefined).catch(function () {});
            }
          }
        }
      };
    }
    return mj;
  }
  var current = shim(window.MathJax);
  try {
    Object.defineProperty(window, "MathJax", {
      configurable: true, enumerable: true,
      get: function () { return current; },
      set: function (v) { current = shim(v); }
    });
  } catch (e) { /* leave MathJax alone */ }
})();
"""


# ---------------------------------------------------------------------------- configuration
def merge(base: dict, over: dict) -> dict:
    """``over`` laid over ``base``: nested dicts merge, everything else replaces."""
    out = copy.deepcopy(base)
    for key, val in over.items():
        if isinstance(val, dict) and isinstance(out.get(key), dict):
            out[key] = merge(out[key], val)
        else:
            out[key] = copy.deepcopy(val)
    return out


def load_yaml(path: Path) -> dict:
    return yaml.safe_load(path.read_text(encoding="utf-8")) or {}


def book_config(src: Path, lang: str) -> tuple[dict, dict]:
    """(config, toc) of one book, as dicts."""
    config = load_yaml(src / "_config.yml")
    toc = load_yaml(src / "_toc.yml")
    if lang == "zh":
        return config, toc
    overlay = load_yaml(src / "book" / f"{lang}.yml")
    captions = overlay.pop("toc_captions", {}) or {}
    config = merge(config, overlay)

    def convert(node):
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                if k in ("file", "root") and isinstance(v, str):
                    out[k] = v.replace("chapters/zh/", f"chapters/{lang}/")
                elif k == "caption" and isinstance(v, str):
                    out[k] = captions.get(v, v)
                else:
                    out[k] = convert(v)
            return out
        if isinstance(node, list):
            return [convert(v) for v in node]
        return node

    return config, convert(toc)


def toc_files(toc: dict) -> list[str]:
    files = [toc["root"]]

    def walk(node):
        if isinstance(node, dict):
            if "file" in node:
                files.append(node["file"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(toc.get("parts", toc.get("chapters", [])))
    return files


def code_hash(src: Path) -> str:
    """A fingerprint of everything a notebook's outputs depend on besides the notebook itself:
    ``lib/`` (code, weights, font) and the bootstrap cell. jupyter-cache only looks at the
    notebook, so the cache folder is named after this hash: an edit to ``lib`` starts a new one."""
    import hashlib

    h = hashlib.sha256()
    files = sorted(p for p in (src / "lib").rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for f in files + [src / "tools" / "bootstrap_cell.py", src / "requirements.txt"]:
        h.update(str(f.relative_to(src)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:12]


def write_config(src: Path, lang: str, execute: str = "force") -> tuple[Path, Path, dict]:
    config, toc = book_config(src, lang)
    if lang == "zh" and execute == "force":
        return src / "_config.yml", src / "_toc.yml", toc
    config.setdefault("execute", {})["execute_notebooks"] = execute
    if execute == "cache":
        cache = src / "_build" / "jupyter_cache" / f"{lang}-{code_hash(src)}"
        config["execute"]["cache"] = str(cache)
    d = src / "_build" / "config" / lang
    d.mkdir(parents=True, exist_ok=True)
    # local extensions are found relative to the config file: make them absolute
    ext = config.get("sphinx", {}).get("local_extensions") or {}
    for name, path in list(ext.items()):
        ext[name] = str((src / path).resolve())
    cfg, tc = d / "_config.yml", d / "_toc.yml"
    header = f"# generated by tools/build_book.py from _config.yml + book/{lang}.yml: do not edit\n"
    cfg.write_text(header + yaml.safe_dump(config, allow_unicode=True, sort_keys=False), encoding="utf-8")
    tc.write_text(header.replace("_config.yml + book", "_toc.yml + book")
                  + yaml.safe_dump(toc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return cfg, tc, toc


# ---------------------------------------------------------------------------- build
def jupyter_book_cmd() -> list[str]:
    exe = Path(sys.executable).with_name("jupyter-book")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("jupyter-book")
    if found:
        return [found]
    raise SystemExit("jupyter-book not found: pip install -r requirements.txt")


def start_build(src: Path, lang: str, cfg: Path, toc: Path, work: Path,
                fresh: bool = True) -> tuple[subprocess.Popen, Path]:
    out = work / lang
    if fresh and out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    logfile = work / f"{lang}.log"
    cmd = jupyter_book_cmd() + [
        "build", str(src), "--config", str(cfg), "--toc", str(toc), "--path-output", str(out),
        "--builder", "html", "-W", "-n", "--keep-going",
    ] + (["--all"] if fresh else [])
    log(f"{lang}: {' '.join(cmd)}  (log: {logfile})")
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    env.pop("MPLBACKEND", None)  # the kernel must use the inline backend
    fh = open(logfile, "w", encoding="utf-8")
    proc = subprocess.Popen(cmd, cwd=src, stdout=fh, stderr=subprocess.STDOUT, env=env)
    return proc, logfile


# ---------------------------------------------------------------------------- site
LANDING = """<!DOCTYPE html>
<html lang="zh-TW">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title_zh} · {title_en}</title>
<style>
  :root {{ color-scheme: light dark; }}
  body {{ margin: 0; min-height: 100vh; display: flex; align-items: center; justify-content: center;
         font-family: system-ui, -apple-system, "Segoe UI", "Noto Sans CJK TC", "Noto Sans TC",
         "PingFang TC", "Microsoft JhengHei", sans-serif; background: #f7f7f9; color: #222; }}
  main {{ max-width: 44rem; padding: 2rem 1.25rem; text-align: center; }}
  h1 {{ font-size: clamp(1.5rem, 5vw, 2.3rem); margin: 0 0 .3rem; }}
  h1 + p {{ font-size: clamp(1.05rem, 3.5vw, 1.35rem); margin: 0 0 2rem; color: #555; }}
  .langs {{ display: flex; flex-wrap: wrap; gap: 1rem; justify-content: center; }}
  .langs a {{ display: block; min-width: 12rem; padding: 1.1rem 1.5rem; border-radius: .6rem;
             background: #fff; border: 1px solid #ccd; text-decoration: none; color: #1a4f8b;
             font-size: 1.25rem; box-shadow: 0 1px 3px rgba(0,0,0,.08); }}
  .langs a:hover, .langs a:focus {{ border-color: #1a4f8b; }}
  .langs small {{ display: block; margin-top: .35rem; color: #666; font-size: .85rem; }}
  @media (prefers-color-scheme: dark) {{
    body {{ background: #15171a; color: #e6e6e6; }} h1 + p, .langs small {{ color: #aaa; }}
    .langs a {{ background: #1f2226; border-color: #3a3f46; color: #8cc4ff; }} }}
</style>
</head>
<body>
<main>
  <h1>{title_zh}</h1>
  <p lang="en">{title_en}</p>
  <nav class="langs" aria-label="語言 / Language">
    <a href="zh/{root_zh}.html" hreflang="zh-TW" lang="zh-TW" id="lang-zh">繁體中文<small>以繁體中文閱讀</small></a>
    <a href="en/{root_en}.html" hreflang="en" lang="en" id="lang-en">English<small>Read in English</small></a>
  </nav>
</main>
</body>
</html>
"""


def assemble(src: Path, work: Path, out: Path, built: dict[str, dict], configs: dict[str, dict]) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for lang in built:
        shutil.copytree(work / lang / "_build" / "html", out / lang)
    titles = {lang: configs[lang]["title"] for lang in configs}
    page = LANDING.format(
        title_zh=html.escape(titles.get("zh", "")), title_en=html.escape(titles.get("en", "")),
        root_zh=built.get("zh", {}).get("root", "chapters/zh/00-introduction"),
        root_en=built.get("en", {}).get("root", "chapters/en/00-introduction"),
    )
    (out / "index.html").write_text(page, encoding="utf-8")
    (out / ".nojekyll").write_text("", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build both books into one site.")
    parser.add_argument("--src", type=Path, default=ROOT, help="the repository (default: this one)")
    parser.add_argument("--out", type=Path, default=None, help="site folder (default: <src>/_build/site)")
    parser.add_argument("--lang", nargs="+", choices=LANGS, default=list(LANGS))
    parser.add_argument("--serial", action="store_true", help="build the books one after the other")
    parser.add_argument("--allow-warnings", action="store_true",
                        help="assemble the site even when a book had warnings (exit status stays 1)")
    parser.add_argument("--execute", choices=["force", "cache"], default=None,
                        help="force: run every notebook, from a clean build (the default with CI set); "
                             "cache: reuse outputs while neither the notebook nor lib/ changed, and "
                             "rebuild only what changed (the default otherwise)")
    args = parser.parse_args(argv)
    execute = args.execute or ("force" if os.environ.get("CI") else "cache")
    src = args.src.resolve()
    out = (args.out or src / "_build" / "site").resolve()
    work = src / "_build" / "books"
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()

    npm_install(src)
    vendor(src)

    configs, plans = {}, {}
    for lang in args.lang:
        cfg, toc, toc_dict = write_config(src, lang, execute)
        configs[lang] = book_config(src, lang)[0]
        missing = [f for f in toc_files(toc_dict)
                   if not any((src / f"{f}{ext}").is_file() for ext in (".ipynb", ".md"))]
        if missing:
            log(f"{lang}: the toc lists files that do not exist: {', '.join(missing)}")
            return 2
        plans[lang] = (cfg, toc, toc_dict)

    procs = {}
    for lang in args.lang:
        cfg, toc, _ = plans[lang]
        procs[lang] = start_build(src, lang, cfg, toc, work, fresh=execute == "force")
        if args.serial:
            procs[lang][0].wait()
    failed = []
    for lang, (proc, logfile) in procs.items():
        rc = proc.wait()
        text = logfile.read_text(encoding="utf-8", errors="replace")
        if rc != 0:
            failed.append(lang)
            log(f"{lang}: FAILED (exit {rc}); the end of {logfile}:")
            print("\n".join(text.splitlines()[-60:]), flush=True)
        else:
            log(f"{lang}: built")
    if failed and not args.allow_warnings:
        log(f"failed: {', '.join(failed)} ({time.time() - t0:.0f} s)")
        return 1
    assemble(src, work, out, {lang: {"root": plans[lang][2]["root"]} for lang in args.lang}, configs)
    if failed:
        log(f"site assembled DESPITE warnings in {', '.join(failed)} ({time.time() - t0:.0f} s): {out}")
        return 1
    log(f"site ready in {time.time() - t0:.0f} s: {out / 'index.html'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
