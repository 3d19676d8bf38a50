"""Latency of a live widget update: one redraw of a figure at new slider values, as PNG.

On the static site a frames widget only switches between precomputed images; in a live kernel
each slider move redraws. This runs every chapter notebook in a kernel with
``lib.widgets.frames_widget`` wrapped so that it remembers each figure function and its grid,
then times ``reps`` redraws (figure + PNG encoding) at values taken round the grid.
"""
from __future__ import annotations

import json
import statistics
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent

SPY = """
import lib, lib.widgets as _w
_captured = []
_frames_widget = _w.frames_widget
def _spy(draw, params, *a, **k):
    _captured.append((draw, params))
    return _frames_widget(draw, params, *a, **k)
_w.frames_widget = _spy
"""

TIME = """
import io, itertools, json, statistics, time
import matplotlib.pyplot as plt
_out = []
for _draw, _params in _captured:
    _grid = list(itertools.product(*_params.values()))
    _t = []
    for _i in range({reps}):
        _vals = dict(zip(_params, _grid[_i % len(_grid)]))
        _t0 = time.perf_counter()
        _fig = _draw(**_vals)
        _buf = io.BytesIO(); _fig.savefig(_buf, format="png"); plt.close(_fig)
        _t.append(time.perf_counter() - _t0)
    _out.append({{"params": list(_params), "frames": len(_grid), "median_ms": 1e3 * statistics.median(_t)}})
print("BENCH" + json.dumps(_out))
"""


def measure(path: Path, reps: int) -> list[dict]:
    nb = nbformat.read(path, as_version=4)
    boot = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code")
    nb.cells.insert(boot + 1, nbformat.v4.new_code_cell(SPY))
    nb.cells.append(nbformat.v4.new_code_cell(TIME.format(reps=reps)))
    NotebookClient(nb, timeout=600, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    text = "".join(o.get("text", "") for o in nb.cells[-1].outputs)
    return json.loads(text.split("BENCH", 1)[1])


def main(reps: int = 20) -> dict:
    rows = {}
    for path in sorted((ROOT / "chapters" / "en").glob("[0-9][0-9]-*.ipynb")):
        for i, r in enumerate(measure(path, reps)):
            rows[f"{path.stem} widget {i + 1} ({', '.join(r['params'])}; {r['frames']} frames)"] = r["median_ms"]
    print(f"\n## If a widget redrew its figure in the kernel instead: one redraw + PNG (median of {reps}, ms)")
    for name, ms in rows.items():
        print(f"  {name:70} {ms:7.1f}  {'ok' if ms <= 100 else 'OVER'}")
    overall = statistics.median(rows.values()) if rows else float("nan")
    print(f"  median over widgets {overall:.1f} ms")
    return {"per_widget_ms": rows, "median_ms": overall}


# the shown frame: a Stack draws only its selected child, so tell frames apart by their image
_VISIBLE = """w => { const i = Array.from(w.querySelectorAll('img')).find(i => i.checkVisibility());
                     return i ? i.src.length + ':' + i.src.slice(-48) : null; }"""


_UPDATE = """async (w, [kind, i]) => {
  const shown = () => { const im = Array.from(w.querySelectorAll('img')).find(x => x.checkVisibility());
                        return im ? im.src : null; };
  const before = shown();
  const t0 = performance.now();
  if (kind === 'slider') {
    const key = i % 2 ? 'ArrowLeft' : 'ArrowRight', code = i % 2 ? 37 : 39;
    w.querySelector('.noUi-handle, .slider-handle').dispatchEvent(
      new KeyboardEvent('keydown', {key: key, code: key, keyCode: code, which: code, bubbles: true}));
  } else {
    const bs = w.querySelectorAll('.widget-toggle-buttons button');
    bs[i % bs.length].click();
  }
  while (shown() === before && performance.now() - t0 < 2000)
    await new Promise(r => requestAnimationFrame(r));
  await new Promise(r => requestAnimationFrame(r));
  return performance.now() - t0;
}"""


def browser(site: Path, reps: int = 20) -> dict:
    """What a reader waits for: on the built site (no kernel), the time from a key press on a
    widget's first control until another frame shows, in headless Chromium. The frames widget
    answers the same way in a live kernel (the link is in the browser), so this is also its
    live update. Polling adds a few milliseconds: the numbers are upper bounds."""
    import functools
    import http.server
    import threading
    import time

    from playwright.sync_api import sync_playwright

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{httpd.server_address[1]}"
    rows = {}
    flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--no-first-run", "--disable-sync"]
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path="/usr/bin/chromium", args=flags)
        page = b.new_page()
        for html in sorted((site / "en" / "chapters" / "en").glob("[0-9][0-9]-*.html")):
            if "widget-view+json" not in html.read_text(encoding="utf-8"):
                continue
            page.goto(f"{base}/{html.relative_to(site).as_posix()}", wait_until="networkidle")
            widget = page.locator(".frames-widget").first
            widget.wait_for(state="visible", timeout=20000)
            widget.scroll_into_view_if_needed()
            handle = widget.locator(".noUi-handle, .slider-handle")
            buttons = widget.locator(".widget-toggle-buttons button")
            kind = "slider" if handle.count() else "buttons"
            # timed inside the page: the event, the widget's own update, until the next frame is
            # painted with the new image (no automation round trips in the number)
            times = [widget.evaluate(_UPDATE, [kind, i]) / 1e3 for i in range(reps)]
            rows[html.stem] = 1e3 * statistics.median(times)
        b.close()
    httpd.shutdown()
    print(f"\n## Widget update in the browser, no kernel: key press → new frame (median of {reps}, ms)")
    for name, ms in rows.items():
        print(f"  {name:40} {ms:7.1f}  {'ok' if ms <= 100 else 'OVER'}")
    overall = statistics.median(rows.values()) if rows else float("nan")
    print(f"  median over widgets {overall:.1f} ms")
    return {"per_widget_ms": rows, "median_ms": overall}
