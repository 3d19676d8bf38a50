"""lib.positions: the sinusoidal encoding and RoPE."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lib

EVEN_D = st.integers(1, 16).map(lambda k: 2 * k)
POS = st.integers(0, 500)


@given(POS, POS, st.integers(-50, 50), EVEN_D)
def test_sinusoidal_dot_product_depends_only_on_distance(p, q, shift, d):
    shift = max(shift, -min(p, q))
    pe = lib.sinusoidal_encoding([p, q, p + shift, q + shift], d)
    assert pe[0] @ pe[1] == pytest.approx(pe[2] @ pe[3], abs=1e-9)


@given(POS, EVEN_D)
def test_sinusoidal_pairs_lie_on_the_unit_circle(p, d):
    pe = lib.sinusoidal_encoding(p, d)
    np.testing.assert_allclose(pe[0::2] ** 2 + pe[1::2] ** 2, 1.0)


def test_sinusoidal_columns_follow_the_formula():
    d, positions = 6, np.arange(10)
    pe = lib.sinusoidal_encoding(positions, d)
    for k in range(d // 2):
        omega = 10000.0 ** (-2 * k / d)
        np.testing.assert_allclose(pe[:, 2 * k], np.sin(positions * omega))
        np.testing.assert_allclose(pe[:, 2 * k + 1], np.cos(positions * omega))


@given(POS, POS, st.integers(0, 100), EVEN_D, st.integers(0, 10_000))
def test_rope_score_depends_only_on_distance(m, n, shift, d, seed):
    q, k = np.random.default_rng(seed).normal(size=(2, d))
    s1 = lib.rope(q, m) @ lib.rope(k, n)
    s2 = lib.rope(q, m + shift) @ lib.rope(k, n + shift)
    assert s1 == pytest.approx(s2, rel=1e-7, abs=1e-7)


@given(EVEN_D, st.integers(0, 10_000))
def test_rope_keeps_lengths_and_position_zero_is_identity(d, seed):
    x = np.random.default_rng(seed).normal(size=(6, d))
    r = lib.rope(x, np.arange(6))
    np.testing.assert_allclose(np.linalg.norm(r, axis=1), np.linalg.norm(x, axis=1))
    np.testing.assert_allclose(r[0], x[0])


def test_rope_uses_the_sinusoidal_speeds(rng):
    d = 8
    x = rng.normal(size=(3, d))
    omega = 10000.0 ** (-np.arange(d // 2) * 2 / d)
    np.testing.assert_allclose(lib.rope(x, [0, 4, 9]), lib.rope(x, [0, 4, 9], theta=omega))


def test_rope_on_batched_heads_matches_row_by_row(rng):
    x = rng.normal(size=(2, 3, 5, 4))                       # [B, A, N, d_k]
    pos = np.arange(5)
    out = lib.rope(x, pos)
    np.testing.assert_allclose(out[1, 2], lib.rope(x[1, 2], pos))
