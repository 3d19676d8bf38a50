"""lib.lm: the LM head, cross-entropy (against F.cross_entropy) and temperature sampling."""
from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F

import lib


def test_lm_head_is_dot_product_with_every_embedding_row(rng):
    E, h = rng.normal(size=(7, 4)), rng.normal(size=(3, 4))
    u = lib.lm_head(h, E)
    assert u.shape == (3, 7)
    assert u[1, 5] == pytest.approx(h[1] @ E[5])
    np.testing.assert_allclose(lib.lm_head(h[0], E), u[0])


@pytest.mark.parametrize("seed", range(4))
def test_cross_entropy_matches_torch(seed):
    r = np.random.default_rng(seed)
    N, V = int(r.integers(1, 9)), int(r.integers(2, 30))
    logits, target = r.normal(size=(N, V)) * 4, r.integers(0, V, size=N)
    gold = F.cross_entropy(torch.as_tensor(logits), torch.as_tensor(target))
    assert lib.cross_entropy(logits, target) == pytest.approx(float(gold), rel=1e-12)
    gold1 = F.cross_entropy(torch.as_tensor(logits[0]), torch.as_tensor(target[0]))
    assert lib.cross_entropy(logits[0], int(target[0])) == pytest.approx(float(gold1))


def test_cross_entropy_stays_finite_at_extreme_logits():
    assert lib.cross_entropy([1e4, -1e4], 0) == pytest.approx(0.0)
    assert lib.cross_entropy([1e4, -1e4], 1) == pytest.approx(2e4)
    assert isinstance(lib.cross_entropy([0.0, 0.0], 1), float)


@pytest.mark.parametrize("seed, tau", [(0, 0.3), (1, 1.0), (2, 2.0), (3, 0.7)])
def test_sample_frequencies_follow_softmax_over_temperature(seed, tau):
    r = np.random.default_rng(seed)
    logits = r.normal(size=4)
    draws = [lib.sample(logits, tau, r) for _ in range(2000)]
    assert all(isinstance(t, int) for t in draws[:3])
    freq = np.bincount(draws, minlength=4) / 2000
    np.testing.assert_allclose(freq, lib.softmax(logits, temperature=tau), atol=0.05)


def test_sample_is_reproducible_with_the_same_seed():
    logits = np.arange(6.0)
    a = [lib.sample(logits, 1.0, np.random.default_rng(7)) for _ in range(3)]
    b = [lib.sample(logits, 1.0, np.random.default_rng(7)) for _ in range(3)]
    assert a == b


def test_sample_with_extreme_logits_and_low_temperature_is_argmax(rng):
    logits = np.array([-1e4, 1e4, 0.0, 9999.0])
    assert {lib.sample(logits, 0.01, rng) for _ in range(20)} == {1}
