"""Measure the book: what readers and CI wait for, how heavy the pages are, and attention speed.

    .venv/bin/python bench/run.py                 # everything (about 15–20 minutes on 2 cores)
    .venv/bin/python bench/run.py notebooks pages # only some parts
    parts: notebooks build pages widgets env attention training

Prints one table per part and the budgets each is held to; writes the same as JSON to
``bench/latest.json``. Not part of the test suite: a timing is a measurement, not a test.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

BUDGETS = {
    "notebook_s": 15.0, "book_s": 120.0, "clean_build_s": 240.0, "rebuild_s": 20.0,
    "median_page_mb": 1.5, "max_page_mb": 4.0, "live_update_ms": 100.0, "mirror_vs_fused": 1.5,
}


def mark(ok: bool) -> str:
    return "ok" if ok else "OVER"


def notebooks(reps: int = 3) -> dict:
    """Execution time of each notebook (median of ``reps`` fresh kernels)."""
    import nbformat
    from nbclient import NotebookClient

    rows = {}
    for path in sorted((ROOT / "chapters").glob("*/[0-9][0-9]-*.ipynb")):
        times = []
        for _ in range(reps):
            nb = nbformat.read(path, as_version=4)
            t0 = time.perf_counter()
            NotebookClient(nb, timeout=600, kernel_name="python3",
                           resources={"metadata": {"path": str(path.parent)}}).execute()
            times.append(time.perf_counter() - t0)
        rows[str(path.relative_to(ROOT))] = statistics.median(times)
    total = sum(rows.values())
    print("\n## Notebook execution (median of %d, seconds)" % reps)
    for name, sec in rows.items():
        print(f"  {name:45} {sec:6.1f}  {mark(sec <= BUDGETS['notebook_s'])}")
    print(f"  {'all notebooks':45} {total:6.1f}  {mark(total <= BUDGETS['book_s'])}")
    return {"per_notebook_s": rows, "total_s": total}


def build() -> dict:
    """A clean build of both books, then a rebuild with nothing changed."""
    out = Path(tempfile.mkdtemp(prefix="bench-site-"))
    cmd = [sys.executable, str(ROOT / "tools" / "build_book.py"), "--out", str(out), "--execute", "cache"]
    # clean: no executed notebooks cached, no Sphinx environment; then a rebuild of nothing changed
    for stale in ("jupyter_cache", "books"):
        shutil.rmtree(ROOT / "_build" / stale, ignore_errors=True)
    timings = {}
    for label in ("clean_build_s", "rebuild_s"):
        t0 = time.perf_counter()
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        timings[label] = time.perf_counter() - t0
    print("\n## Build of both books (seconds)")
    print(f"  clean build  {timings['clean_build_s']:7.1f}  {mark(timings['clean_build_s'] <= BUDGETS['clean_build_s'])}")
    print(f"  rebuild      {timings['rebuild_s']:7.1f}  {mark(timings['rebuild_s'] <= BUDGETS['rebuild_s'])}")
    return {**timings, "site": str(out)}


def pages(site: Path | None = None) -> dict:
    """Weight of every built page: its HTML (widget frames are inlined in it) and its images.

    The JavaScript every page shares (``_vendor/``, ``_static/``) is counted once, apart.
    """
    site = Path(site or ROOT / "_build" / "site")
    if not (site / "index.html").is_file():
        raise SystemExit(f"no built site at {site}: run `make book` first")
    rows = {}
    for page in sorted(site.glob("*/chapters/*/*.html")) or sorted(site.rglob("*.html")):
        if "_static" in page.parts or "_vendor" in page.parts:
            continue
        text = page.read_text(encoding="utf-8", errors="replace")
        size = page.stat().st_size
        for src in set(re.findall(r'<img[^>]+src="([^"]+)"', text)):
            if src.startswith("data:"):
                continue
            f = (page.parent / src).resolve()
            if f.is_file():
                size += f.stat().st_size
        # widget frames: PNG bytes in the embedded widget state, base64 in "buffers"
        frames = sum(len(m) * 3 // 4 for m in re.findall(r'"data":\s*"([A-Za-z0-9+/=]{200,})"', text))
        rows[str(page.relative_to(site))] = {"bytes": size, "widget_frame_bytes": frames}
    shared = sum(f.stat().st_size for d in ("_vendor",) for f in site.rglob(f"{d}/**/*") if f.is_file())
    sizes = sorted(r["bytes"] for r in rows.values())
    median, heaviest = statistics.median(sizes) / 2**20, max(sizes) / 2**20
    print("\n## Page weight (MB; widget frames are inside the HTML)")
    for name, r in sorted(rows.items(), key=lambda kv: -kv[1]["bytes"])[:20]:
        print(f"  {name:55} {r['bytes'] / 2**20:6.2f}  frames {r['widget_frame_bytes'] / 2**20:5.2f}")
    print(f"  median page {median:.2f} MB  {mark(median <= BUDGETS['median_page_mb'])};  "
          f"heaviest {heaviest:.2f} MB  {mark(heaviest <= BUDGETS['max_page_mb'])};  "
          f"shared widget/math JavaScript, once: {shared / 2**20:.2f} MB")
    return {"pages": rows, "median_mb": median, "max_mb": heaviest, "shared_js_mb": shared / 2**20}


def env() -> dict:
    """Size of the installed environment (.venv) and of node_modules."""
    def du(p: Path) -> int:
        return sum(f.stat().st_size for f in p.rglob("*") if f.is_file() and not f.is_symlink()) if p.exists() else 0

    venv, nm = du(ROOT / ".venv"), du(ROOT / "node_modules")
    print("\n## Installed environment")
    print(f"  .venv {venv / 2**20:8.0f} MB   node_modules {nm / 2**20:6.0f} MB")
    return {"venv_mb": venv / 2**20, "node_modules_mb": nm / 2**20}


def attention() -> dict:
    import attention as att

    print("\n## Attention, d_k = 64, float32 (ms; peak MiB above the inputs)")
    rows = att.main(["--n", "128", "256", "512", "1024", "2048", "4096", "--reps", "7"])
    fused = {(r["device"], r["N"]): r["seconds"] for r in rows if r["impl"] == "torch_fused"}
    ratio = [r["seconds"] / fused[("cpu", 1024)] for r in rows
             if r["impl"] == "torch_mirror" and r["device"] == "cpu" and r["N"] == 1024]
    if ratio:
        print(f"  Torch mirror / fused at N = 1024 on the CPU: {ratio[0]:.2f}×  "
              f"{mark(ratio[0] <= BUDGETS['mirror_vs_fused'])}")
    return {"rows": rows}


def widgets(reps: int = 20, site: Path | None = None) -> dict:
    """A widget update as the reader sees it (browser, no kernel), and what a redraw would cost
    if a widget recomputed its figure in a live kernel instead of switching frames."""
    import live

    site = Path(site or ROOT / "_build" / "site")
    return {"browser": live.browser(site, reps), "redraw": live.main(reps)}


def training() -> dict:
    """Wall time of the documented training command, into a scratch folder (weights untouched)."""
    out = Path(tempfile.mkdtemp(prefix="bench-train-"))
    t0 = time.perf_counter()
    subprocess.run([sys.executable, str(ROOT / "tools" / "train_tiny.py"), "--out", str(out)],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    sec = time.perf_counter() - t0
    print("\n## Tiny models' training (all models, one command)")
    print(f"  {sec:.1f} s  {mark(sec <= 180)}")
    return {"training_s": sec}


PARTS = {"notebooks": notebooks, "build": build, "pages": pages, "widgets": widgets,
         "env": env, "attention": attention, "training": training}


def machine() -> str:
    import torch

    cpu = platform.processor() or platform.machine()
    try:
        cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    gpu = torch.cuda.get_device_name(0) if torch.cuda.is_available() else "no GPU"
    return f"{os.cpu_count()} cores ({cpu}), {gpu}, Python {platform.python_version()}, torch {torch.__version__}"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", help=" ".join(PARTS))
    args = parser.parse_args(argv)
    parts = args.parts or list(PARTS)
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        parser.error(f"unknown part(s) {unknown}; choose from {list(PARTS)}")
    print(f"# Measured on {machine()}, {time.strftime('%Y-%m-%d')}")
    results = {"machine": machine()}
    for name in parts:
        if name in ("pages", "widgets") and "build" in results:
            results[name] = PARTS[name](site=Path(results["build"]["site"]))
        else:
            results[name] = PARTS[name]()
    (ROOT / "bench" / "latest.json").write_text(json.dumps(results, indent=1, default=str))


if __name__ == "__main__":
    main()
