"""Shared test set-up: a fast hypothesis profile and seeded random numbers.

The lib suite must stay under about a minute on two CPU cores, so hypothesis runs few examples
and no deadline (the first torch call can be slow).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("book", max_examples=25, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("book")


@pytest.fixture
def rng():
    """A fresh, seeded NumPy generator for each test."""
    return np.random.default_rng(20240601)


@pytest.fixture(params=["zh", "en"])
def lang(request):
    """Run a figure test once per book language; restore English and close figures after."""
    import matplotlib.pyplot as plt

    import lib

    lib.setup(request.param)
    yield request.param
    plt.close("all")
    lib.setup("en")
