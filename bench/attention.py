"""Attention against sequence length: the NumPy reference, the Torch mirror, torch's fused kernel.

Time: the Torch mirror and torch's fused kernel run interleaved in one process, rep after rep,
so that a busy moment of the machine hits both alike (NumPy in a process of its own); the median of each after a warm-up. Peak memory:
each (implementation, N) in a fresh subprocess, so that the peak is its own: the peak resident
set size after the run minus the one before it (on the CPU), or growth of
``torch.cuda.max_memory_allocated`` (on a GPU). ``d_k = 64``, one head, float32, no mask.

    python bench/attention.py                # N = 128 … 4096 on the CPU (and CUDA if present)
    python bench/attention.py --n 1024 --reps 20
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
IMPLS = ("numpy", "torch_mirror", "torch_fused")

_CHILD = r"""
import json, resource, statistics, sys, time
sys.path.insert(0, {root!r})
import numpy as np, torch
import lib, lib.torch_mirror as tm
torch.set_num_threads({threads})
impl, N, d_k, reps, device = {impl!r}, {n}, 64, {reps}, {device!r}
rng = np.random.default_rng(0)
Q, K, V = (rng.standard_normal((N, d_k)).astype(np.float32) for _ in range(3))
if impl == "numpy":
    run = lambda: lib.scaled_dot_product_attention(Q, K, V)
else:
    Qt, Kt, Vt = (torch.from_numpy(a).to(device) for a in (Q, K, V))
    if impl == "torch_mirror":
        run = lambda: tm.scaled_dot_product_attention(Qt, Kt, Vt)
    else:
        run = lambda: torch.nn.functional.scaled_dot_product_attention(Qt[None], Kt[None], Vt[None])
sync = (lambda: torch.cuda.synchronize()) if device == "cuda" else (lambda: None)
with torch.inference_mode():
    # the peak is taken from before the first run (ru_maxrss only ever grows)
    if device == "cuda":
        torch.cuda.reset_peak_memory_stats()
        base = torch.cuda.memory_allocated()
    else:
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    run(); sync()
    times = []
    for _ in range(reps):
        t0 = time.perf_counter(); run(); sync(); times.append(time.perf_counter() - t0)
    if device == "cuda":
        peak = torch.cuda.max_memory_allocated() - base
    else:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 - base
print(json.dumps({{"seconds": statistics.median(times), "peak_bytes": max(peak, 0)}}))
"""


_TIMES = r"""
import json, statistics, sys, time
sys.path.insert(0, {root!r})
import numpy as np, torch
import lib, lib.torch_mirror as tm
torch.set_num_threads({threads})
N, d_k, reps, device = {n}, 64, {reps}, {device!r}
rng = np.random.default_rng(0)
Q, K, V = (rng.standard_normal((N, d_k)).astype(np.float32) for _ in range(3))
Qt, Kt, Vt = (torch.from_numpy(a).to(device) for a in (Q, K, V))
sync = (lambda: torch.cuda.synchronize()) if device == "cuda" else (lambda: None)
runs = {{"torch_mirror": lambda: tm.scaled_dot_product_attention(Qt, Kt, Vt),
        "torch_fused": lambda: torch.nn.functional.scaled_dot_product_attention(Qt[None], Kt[None], Vt[None]),
        "numpy": lambda: lib.scaled_dot_product_attention(Q, K, V)}}
runs = {{k: v for k, v in runs.items() if k in {impls!r}}}
times = {{k: [] for k in runs}}
with torch.inference_mode():
    for run in runs.values():
        run(); sync()
    for _ in range(reps):          # interleaved: a slow moment of the machine hits every impl
        for k, run in runs.items():
            t0 = time.perf_counter(); run(); sync(); times[k].append(time.perf_counter() - t0)
print(json.dumps({{k: statistics.median(v) for k, v in times.items()}}))
"""


def timings(n: int, reps: int, device: str, threads: int, impls=IMPLS) -> dict:
    """Median seconds of each implementation, timed in one process, runs interleaved."""
    code = _TIMES.format(root=str(ROOT), n=n, reps=reps, device=device, threads=threads,
                         impls=tuple(impls))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def measure(impl: str, n: int, reps: int, device: str, threads: int) -> dict:
    code = _CHILD.format(root=str(ROOT), impl=impl, n=n, reps=reps, device=device, threads=threads)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def devices() -> list[str]:
    import torch

    return ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def table(ns, reps, threads) -> list[dict]:
    rows = []
    for device in devices():
        for n in ns:
            # the two torch kernels interleaved, as a fair pair; NumPy on its own (OpenBLAS's
            # spinning threads would otherwise steal the cores from torch's next call)
            seconds = timings(n, reps, device, threads, ("torch_mirror", "torch_fused"))
            if device == "cpu":
                seconds |= timings(n, reps, device, threads, ("numpy",))
            for impl in IMPLS:
                if impl not in seconds:
                    continue
                peak = measure(impl, n, 2, device, threads)["peak_bytes"]   # its own process
                rows.append({"device": device, "N": n, "impl": impl,
                             "seconds": seconds[impl], "peak_bytes": peak})
    return rows


def print_table(rows) -> None:
    print(f"{'device':6} {'N':>5} {'impl':13} {'ms':>9} {'peak MiB':>9} {'× fused':>8}")
    fused = {(r["device"], r["N"]): r["seconds"] for r in rows if r["impl"] == "torch_fused"}
    for r in rows:
        ratio = r["seconds"] / fused[(r["device"], r["N"])]
        print(f"{r['device']:6} {r['N']:5d} {r['impl']:13} {r['seconds'] * 1e3:9.2f} "
              f"{r['peak_bytes'] / 2**20:9.1f} {ratio:8.2f}")


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="*", default=[128, 256, 512, 1024, 2048, 4096])
    parser.add_argument("--reps", type=int, default=7)
    parser.add_argument("--threads", type=int, default=2, help="torch threads (CI has 2 cores)")
    args = parser.parse_args(argv)
    rows = table(args.n, args.reps, args.threads)
    print_table(rows)
    return rows


if __name__ == "__main__":
    main()
