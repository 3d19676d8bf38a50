"""lib.evaluation: perplexity."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import lib

PROBS = arrays(np.float64, st.integers(1, 20), elements=st.floats(1e-6, 1.0))


@given(st.integers(0, 10_000), st.integers(1, 12), st.integers(2, 20))
def test_perplexity_is_exp_of_mean_cross_entropy(seed, N, V):
    r = np.random.default_rng(seed)
    logits, target = r.normal(size=(N, V)) * 3, r.integers(0, V, size=N)
    p_true = lib.softmax(logits)[np.arange(N), target]
    assert lib.perplexity(p_true) == pytest.approx(np.exp(lib.cross_entropy(logits, target)))


@given(PROBS)
def test_perplexity_is_the_inverse_geometric_mean_and_at_least_one(p):
    ppl = lib.perplexity(p)
    assert ppl >= 1.0 - 1e-12
    assert ppl == pytest.approx(np.prod(p) ** (-1 / len(p)) if np.prod(p) > 0 else ppl)
    assert ppl == pytest.approx(1 / np.exp(np.mean(np.log(p))))


@given(st.integers(1, 1000))
def test_uniform_guessing_among_k_tokens_gives_perplexity_k(k):
    assert lib.perplexity([1 / k] * 5) == pytest.approx(k)


def test_perplexity_of_a_sure_model_is_one_and_a_float():
    assert lib.perplexity([1.0, 1.0]) == 1.0
    assert isinstance(lib.perplexity(np.array([0.5])), float)
