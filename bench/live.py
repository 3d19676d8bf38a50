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
    print(f"\n## Live widget update: one redraw + PNG (median of {reps}, ms)")
    for name, ms in rows.items():
        print(f"  {name:70} {ms:7.1f}  {'ok' if ms <= 100 else 'OVER'}")
    overall = statistics.median(rows.values()) if rows else float("nan")
    print(f"  median over widgets {overall:.1f} ms")
    return {"per_widget_ms": rows, "median_ms": overall}
