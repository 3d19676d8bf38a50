"""Chapter 3's cost measurements: the fitted slope, the measurement, and the plot."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import lib
from lib.figures import cost as F


def test_fit_slope_recovers_the_power():
    ns = np.array([64, 128, 256, 512])
    assert F.fit_slope(ns, 3e-6 * ns ** 2) == pytest.approx(2.0)
    assert F.fit_slope(ns, 5 * ns) == pytest.approx(1.0)
    assert np.isnan(F.fit_slope([1, 2], [0.0, float("nan")]))


def test_measure_finds_quadratic_memory():
    result = F.measure([64, 128, 256], d_k=4, repeats=1)
    assert result["N"] == [64, 128, 256]
    assert "NumPy (lib)" in result["time"] and any("SDPA" in k for k in result["time"])
    for times in result["time"].values():
        assert len(times) == 3 and all(t > 0 for t in times)
    mem = result["memory"]["NumPy (lib)"]
    assert mem[-1] >= 256 ** 2 * 8                      # at least one N×N float64 matrix
    assert 1.8 < F.fit_slope(result["N"], mem) < 2.2


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_plot_cost_draws_one_line_per_implementation(lang):
    lib.setup(lang)
    result = {"N": [64, 128, 256], "time": {"a": [1e-3, 4e-3, 1.6e-2], "b": [1e-3, 2e-3, 4e-3]},
              "memory": {"a": [1e5, 4e5, 1.6e6]}}
    fig = F.plot_cost(result)
    time_ax, mem_ax = fig.axes
    assert len(time_ax.lines) == 2 and len(mem_ax.lines) == 2     # + the N×N reference line
    labels = [t.get_text() for t in time_ax.get_legend().get_texts()]
    assert any("2.00" in s for s in labels) and any("1.00" in s for s in labels)
    plt.close(fig)
    lib.setup("en")


def test_measure_restores_the_thread_count():
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    F.measure([32], d_k=4, repeats=1, threads=1)
    assert torch.get_num_threads() == before
