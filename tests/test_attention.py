"""lib.attention: softmax, masks, scaled dot-product, self- and multi-head attention, rollout;
properties, and the NumPy reference against torch's own implementations (the gold)."""
from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import lib

FINITE = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
MATRIX = arrays(np.float64, st.tuples(st.integers(1, 5), st.integers(1, 7)), elements=FINITE)
SEED = st.integers(0, 10_000)


def T(a):
    return torch.as_tensor(np.asarray(a, dtype=np.float64))


# --- properties -----------------------------------------------------------------------------

@given(MATRIX, st.floats(-1e3, 1e3), st.floats(0.05, 20))
def test_softmax_rows_sum_to_one_and_ignore_an_added_constant(z, c, tau):
    p = lib.softmax(z, temperature=tau)
    np.testing.assert_allclose(p.sum(axis=-1), 1.0)
    assert (p >= 0).all()
    np.testing.assert_allclose(lib.softmax(z + c, temperature=tau), p, atol=1e-12)


def test_softmax_other_axis_and_extremes():
    z = np.array([[1e4, -1e4], [0.0, 1e4]])
    p = lib.softmax(z, axis=0)
    np.testing.assert_allclose(p.sum(axis=0), 1.0)
    np.testing.assert_allclose(lib.softmax([1e4, -1e4, 0.0], temperature=0.01), [1, 0, 0])
    assert np.isfinite(lib.softmax([-1e4, -1e4 + 1], temperature=0.01)).all()


@given(st.integers(1, 6), st.integers(1, 4), SEED)
def test_attention_without_positions_is_permutation_equivariant(N, d, seed):
    r = np.random.default_rng(seed)
    X, WQ, WK, WV = r.normal(size=(N, d)), *r.normal(size=(3, d, d))
    perm = r.permutation(N)
    out, w = lib.self_attention(X, WQ, WK, WV)
    out_p, w_p = lib.self_attention(X[perm], WQ, WK, WV)
    np.testing.assert_allclose(out_p, out[perm], atol=1e-12)
    np.testing.assert_allclose(w_p, w[perm][:, perm], atol=1e-12)


@given(st.integers(1, 7), st.integers(1, 4), SEED)
def test_causal_weights_are_lower_triangular_rows_summing_to_one(N, d_k, seed):
    Q, K, V = np.random.default_rng(seed).normal(size=(3, N, d_k)) * 3
    _, w = lib.scaled_dot_product_attention(Q, K, V, causal=True)
    np.testing.assert_array_equal(np.triu(w, k=1), 0)
    np.testing.assert_allclose(w.sum(axis=1), 1.0)
    np.testing.assert_array_equal(lib.causal_mask(N), np.tril(np.ones((N, N), bool)))


def test_one_token_with_a_causal_mask_looks_at_itself(rng):
    out, w = lib.scaled_dot_product_attention(*rng.normal(size=(3, 1, 4)), causal=True)
    np.testing.assert_array_equal(w, [[1.0]])
    assert np.isfinite(out).all()


def test_scale_true_false_and_a_number_agree(rng):
    Q, K, V = rng.normal(size=(3, 4, 9))
    a = lib.scaled_dot_product_attention(Q, K, V, scale=True)[1]
    b = lib.scaled_dot_product_attention(Q / 3, K, V, scale=False)[1]
    c = lib.scaled_dot_product_attention(Q, K, V, scale=3.0)[1]
    np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(a, c)


def test_a_mask_hides_padding(rng):
    Q, K, V = rng.normal(size=(3, 4, 2))
    keep = np.array([True, True, True, False])                 # the last token is padding
    out, w = lib.scaled_dot_product_attention(Q, K, V, mask=keep)
    np.testing.assert_array_equal(w[:, 3], 0)
    ref_out, _ = lib.scaled_dot_product_attention(Q, K[:3], V[:3])
    np.testing.assert_allclose(out, ref_out)


def test_multi_head_equals_per_head_self_attention_concatenated(rng):
    N, d, A = 5, 6, 3
    X, WQ, WK, WV, WO = rng.normal(size=(N, d)), *rng.normal(size=(4, d, d))
    out, w = lib.multi_head_attention(X, WQ, WK, WV, WO, A, causal=True)
    cols = [slice(h * 2, (h + 1) * 2) for h in range(A)]
    heads = [lib.self_attention(X, WQ[:, c], WK[:, c], WV[:, c], causal=True) for c in cols]
    np.testing.assert_allclose(np.concatenate([o for o, _ in heads], axis=1) @ WO, out)
    np.testing.assert_allclose(np.stack([a for _, a in heads]), w)


def test_rollout_follows_its_definition(rng):
    W = rng.dirichlet(np.ones(4), size=(3, 2, 4))             # [L, A, N, N]
    R = lib.attention_rollout(W, residual=0.5)
    bars = [(l.mean(0) + 0.5 * np.eye(4)) / (l.mean(0) + 0.5 * np.eye(4)).sum(1, keepdims=True)
            for l in W]
    np.testing.assert_allclose(R, bars[2] @ bars[1] @ bars[0])
    np.testing.assert_allclose(R.sum(axis=1), 1.0)
    np.testing.assert_allclose(lib.attention_rollout(W[:1], residual=0.0), W[0].mean(0))


# --- against torch (gold) -----------------------------------------------------------------

@pytest.mark.parametrize("seed", range(4))
def test_softmax_matches_torch(seed):
    r = np.random.default_rng(seed)
    z = r.normal(size=(r.integers(1, 5), r.integers(2, 9))) * 10
    for axis in (-1, 0):
        np.testing.assert_allclose(lib.softmax(z, axis=axis), torch.softmax(T(z), dim=axis))
    np.testing.assert_allclose(lib.softmax(z, temperature=0.3), torch.softmax(T(z) / 0.3, -1))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("causal", [False, True])
def test_sdpa_matches_torch(seed, causal):
    r = np.random.default_rng(seed)
    N, d_k, d_v = r.integers(1, 8), r.integers(1, 9), r.integers(1, 6)
    Q, K, V = r.normal(size=(N, d_k)), r.normal(size=(N, d_k)), r.normal(size=(N, d_v))
    out, _ = lib.scaled_dot_product_attention(Q, K, V, causal=causal)
    gold = F.scaled_dot_product_attention(T(Q), T(K), T(V), is_causal=bool(causal))
    np.testing.assert_allclose(out, gold.numpy(), atol=1e-12)
    out2, _ = lib.scaled_dot_product_attention(Q, K, V, causal=causal, scale=2.5)
    gold2 = F.scaled_dot_product_attention(T(Q), T(K), T(V), is_causal=bool(causal),
                                           scale=1 / 2.5)
    np.testing.assert_allclose(out2, gold2.numpy(), atol=1e-12)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("causal", [False, True])
def test_multi_head_matches_nn_multihead_attention(seed, causal):
    r = np.random.default_rng(seed)
    A = int(r.integers(1, 4))
    N, d = int(r.integers(1, 7)), A * int(r.integers(1, 4))
    X, WQ, WK, WV, WO = r.normal(size=(N, d)), *r.normal(size=(4, d, d))
    out, w = lib.multi_head_attention(X, WQ, WK, WV, WO, A, causal=causal)
    mha = torch.nn.MultiheadAttention(d, A, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():                                      # torch computes x Wᵀ: transpose
        mha.in_proj_weight.copy_(T(np.concatenate([WQ.T, WK.T, WV.T])))
        mha.out_proj.weight.copy_(T(WO.T))
    x = T(X)[None]
    mask = ~torch.ones(N, N, dtype=torch.bool).tril() if causal else None
    gold, gold_w = mha(x, x, x, attn_mask=mask, need_weights=True, average_attn_weights=False)
    np.testing.assert_allclose(out, gold[0].detach().numpy(), atol=1e-10)
    np.testing.assert_allclose(w, gold_w[0].detach().numpy(), atol=1e-12)
