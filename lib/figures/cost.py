"""Chapter 3's cost of attention: time and memory against the sequence length N, measured.

``measure`` times ``lib.scaled_dot_product_attention`` (NumPy reference), the Torch mirror of it
(when ``lib.torch_mirror`` is there) and torch's fused ``F.scaled_dot_product_attention``, on
the CPU and, when one is present, on the GPU. Memory is measured where it can be: the NumPy
reference's peak allocation with ``tracemalloc``, and torch's peak on a CUDA device.
``plot_cost`` draws both on log-log axes with the fitted slope (2 means quadratic).

CPU timings run on one thread (``threadpoolctl`` for NumPy's BLAS, ``torch.set_num_threads``
for torch) and count the process's CPU time: on a machine shared with other programs, wall time
and threads that wait for each other would measure the scheduler rather than the work.
"""
from __future__ import annotations

import contextlib
import time
import tracemalloc

import matplotlib.pyplot as plt
import numpy as np

from ..attention import scaled_dot_product_attention
from ..book import tr

__all__ = ["measure", "fit_slope", "plot_cost"]

COLOURS = ("#34558b", "#d9822b", "#3a8a5c", "#8b3a62", "#9a9a9a", "#555555")


def fit_slope(ns, ys):
    """Slope of the least-squares line through ``(log N, log y)``: y ∝ N^slope."""
    ns, ys = np.asarray(ns, dtype=float), np.asarray(ys, dtype=float)
    ok = np.isfinite(ys) & (ys > 0)
    if ok.sum() < 2:
        return float("nan")
    return float(np.polyfit(np.log(ns[ok]), np.log(ys[ok]), 1)[0])


def _best_time(fn, repeats, sync=None, warm_up=True, budget=0.05, max_repeats=10):
    """The fastest of at least ``repeats`` runs (more while they take under ``budget`` seconds
    in all).

    On the CPU the clock is the process's CPU time (``time.process_time``): with one thread it is
    the work itself, however many other programs share the machine. On a GPU (``sync`` given) it
    is wall time, the kernels awaited.
    """
    clock = time.perf_counter if sync else time.process_time
    if warm_up:                                            # first call: allocations, kernels
        fn()
        if sync:
            sync()
    best, spent, runs = float("inf"), 0.0, 0
    while runs < repeats or (spent < budget and runs < max_repeats):
        t0 = clock()
        fn()
        if sync:
            sync()
        dt = clock() - t0
        best, spent, runs = min(best, dt), spent + dt, runs + 1
    return best


def _torch_runs(d_k, seed):
    """(name, device, make(N) -> zero-argument callable) for every torch variant available."""
    try:
        import torch
        import torch.nn.functional as F
    except ImportError:
        return []
    try:
        from .. import torch_mirror
        device = torch_mirror.default_device()
    except (ImportError, AttributeError):
        torch_mirror = None
        device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    devices = [torch.device("cpu")] + ([device] if device.type != "cpu" else [])
    runs = []
    for dev in devices:
        def make(N, dev=dev, fused=True):
            g = torch.Generator().manual_seed(seed)
            Q, K, V = (torch.randn(1, N, d_k, generator=g).to(dev) for _ in range(3))
            if fused:
                return lambda: F.scaled_dot_product_attention(Q, K, V)
            return lambda: torch_mirror.scaled_dot_product_attention(Q[0], K[0], V[0])
        runs.append((f"torch SDPA ({dev.type})", dev, make))
        if torch_mirror is not None and hasattr(torch_mirror, "scaled_dot_product_attention"):
            runs.append((f"lib.torch_mirror ({dev.type})", dev,
                         lambda N, make=make: make(N, fused=False)))
    return runs


@contextlib.contextmanager
def _threads(n):
    """Run NumPy's BLAS and torch's CPU kernels on ``n`` threads (``None``: leave them be)."""
    if n is None:
        yield
        return
    try:
        from threadpoolctl import threadpool_limits
        blas = threadpool_limits(n)
    except ImportError:                                    # not installed: measure as it is
        blas = contextlib.nullcontext()
    try:
        import torch
        before = torch.get_num_threads()
    except ImportError:
        torch, before = None, None
    with blas:
        if torch is not None:
            torch.set_num_threads(n)
        try:
            yield
        finally:
            if torch is not None:
                torch.set_num_threads(before)


def measure(ns, d_k=64, repeats=2, seed=0, threads=1):
    """Time (seconds, best of ``repeats`` or more) and peak memory (bytes) of attention for each N.

    Parameters
    ----------
    ns : list of int
        Sequence lengths N.
    d_k : int
        Key width; Q, K, V are random [N, d_k].
    threads : int or None
        CPU threads during the timings (1 by default, see the module docstring).

    Returns
    -------
    dict with ``"N"`` (list), ``"time"`` ``{implementation: [seconds per N]}`` and
    ``"memory"`` ``{implementation: [bytes per N]}`` (only where memory can be measured).
    """
    with _threads(threads):
        return _measure([int(n) for n in ns], d_k, repeats, seed)


def _measure(ns, d_k, repeats, seed):
    rng = np.random.default_rng(seed)
    times, memory = {"NumPy (lib)": []}, {"NumPy (lib)": []}
    for N in ns:
        Q, K, V = (rng.standard_normal((N, d_k)) for _ in range(3))   # [N, d_k]
        tracemalloc.start()                                # the first call: memory, and warm-up
        scaled_dot_product_attention(Q, K, V)
        memory["NumPy (lib)"].append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
        times["NumPy (lib)"].append(_best_time(lambda: scaled_dot_product_attention(Q, K, V),
                                               repeats, warm_up=False))
    for name, dev, make in _torch_runs(d_k, seed):
        import torch

        sync = torch.cuda.synchronize if dev.type == "cuda" else None
        times[name] = []
        if dev.type == "cuda":
            memory[name] = []
        for N in ns:
            fn = make(N)
            times[name].append(_best_time(fn, repeats, sync))
            if dev.type == "cuda":
                torch.cuda.synchronize()
                base = torch.cuda.memory_allocated(dev)
                torch.cuda.reset_peak_memory_stats(dev)
                fn()
                torch.cuda.synchronize()
                memory[name].append(torch.cuda.max_memory_allocated(dev) - base)
    return {"N": ns, "d_k": d_k, "time": times, "memory": memory}


def plot_cost(result):
    """Time and memory against N on log-log axes, each line labelled with its fitted slope."""
    ns = np.asarray(result["N"], dtype=float)
    fig, axes = plt.subplots(1, 2, figsize=(8, 3.3))
    for ax, key, unit, scale in ((axes[0], "time", "ms", 1e3), (axes[1], "memory", "MB", 1e-6)):
        for (name, ys), c in zip(result[key].items(), COLOURS):
            ys = np.asarray(ys, dtype=float)
            ax.plot(ns, ys * scale, "o-", color=c, ms=4,
                    label=tr(zh=f"{name}：斜率 {fit_slope(ns, ys):.2f}",
                             en=f"{name}: slope {fit_slope(ns, ys):.2f}"))
        if key == "memory":
            ax.plot(ns, ns ** 2 * 8 * scale, ":", color="#555555",
                    label=tr(zh="一個 N×N 分數矩陣（float64）", en="one N×N score matrix (float64)"))
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xticks(ns, [f"{n:g}" for n in ns])          # the measured lengths, not powers of 2
        ax.xaxis.set_minor_locator(plt.NullLocator())
        ax.set_xlabel(tr(zh="序列長度 N", en="sequence length N"), fontsize=8)
        ax.set_ylabel(unit, fontsize=8)
        ax.grid(alpha=0.3, which="both")
        ax.legend(fontsize=7, frameon=False)
    axes[0].set_title(tr(zh="時間", en="time"), fontsize=10)
    axes[1].set_title(tr(zh="記憶體峰值", en="peak memory"), fontsize=10)
    fig.tight_layout()
    return fig
