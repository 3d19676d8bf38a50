"""lib.block: layer norm, ReLU, the feed-forward network and the pre-norm block; properties and
agreement with torch (F.layer_norm, nn.TransformerEncoderLayer with norm_first=True)."""
from __future__ import annotations

import numpy as np
import pytest
import torch
import torch.nn.functional as F
from hypothesis import assume, given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import lib

ROWS = arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(2, 12)),
              elements=st.floats(-1e3, 1e3, allow_nan=False))


def T(a):
    return torch.as_tensor(np.asarray(a, dtype=np.float64))


def random_params(r, d, A, d_ff):
    return dict(gamma1=1 + 0.1 * r.normal(size=d), beta1=0.1 * r.normal(size=d),
                WQ=r.normal(size=(d, d)) / np.sqrt(d), WK=r.normal(size=(d, d)) / np.sqrt(d),
                WV=r.normal(size=(d, d)) / np.sqrt(d), WO=r.normal(size=(d, d)) / np.sqrt(d),
                gamma2=1 + 0.1 * r.normal(size=d), beta2=0.1 * r.normal(size=d),
                W1=r.normal(size=(d, d_ff)) / np.sqrt(d), b1=0.1 * r.normal(size=d_ff),
                W2=r.normal(size=(d_ff, d)) / np.sqrt(d_ff), b2=0.1 * r.normal(size=d),
                n_heads=A)


@given(ROWS)
def test_layer_norm_gives_mean_zero_and_std_one(x):
    assume((x.std(axis=-1) > 1e-1).all())
    y = lib.layer_norm(x)
    np.testing.assert_allclose(y.mean(axis=-1), 0, atol=1e-9)
    np.testing.assert_allclose(y.std(axis=-1), 1, atol=1e-4)


def test_layer_norm_of_a_constant_vector_is_finite_zero():
    np.testing.assert_array_equal(lib.layer_norm([3.0, 3.0, 3.0]), 0)


@pytest.mark.parametrize("seed", range(4))
def test_layer_norm_matches_torch(seed):
    r = np.random.default_rng(seed)
    x = r.normal(size=(r.integers(1, 6), r.integers(2, 10))) * 5
    g, b = r.normal(size=x.shape[-1]), r.normal(size=x.shape[-1])
    gold = F.layer_norm(T(x), (x.shape[-1],), T(g), T(b), eps=1e-5)
    np.testing.assert_allclose(lib.layer_norm(x, g, b), gold.numpy(), atol=1e-12)


@given(arrays(np.float64, st.integers(1, 20), elements=st.floats(-1e6, 1e6)))
def test_relu_matches_its_definition(x):
    np.testing.assert_array_equal(lib.relu(x), np.where(x > 0, x, 0))


def test_feed_forward_is_relu_between_two_affine_maps(rng):
    x, W1, b1 = rng.normal(size=(3, 4)), rng.normal(size=(4, 16)), rng.normal(size=16)
    W2, b2 = rng.normal(size=(16, 4)), rng.normal(size=4)
    gold = F.linear(F.relu(F.linear(T(x), T(W1.T), T(b1))), T(W2.T), T(b2))
    np.testing.assert_allclose(lib.feed_forward(x, W1, b1, W2, b2), gold.numpy(), atol=1e-12)


def test_block_follows_the_five_steps(rng):
    p = random_params(rng, 8, 2, 32)
    x = rng.normal(size=(5, 8))
    t1 = lib.layer_norm(x, p["gamma1"], p["beta1"])
    t2, w = lib.multi_head_attention(t1, p["WQ"], p["WK"], p["WV"], p["WO"], 2, causal=True)
    t3 = t2 + x
    t5 = lib.feed_forward(lib.layer_norm(t3, p["gamma2"], p["beta2"]),
                          p["W1"], p["b1"], p["W2"], p["b2"])
    h, weights = lib.transformer_block(x, p)
    np.testing.assert_allclose(h, t5 + t3)
    np.testing.assert_allclose(weights, w)
    np.testing.assert_array_equal(np.triu(weights[0], 1), 0)      # causal by default


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("causal", [False, True])
def test_block_matches_torch_pre_norm_encoder_layer(seed, causal):
    r = np.random.default_rng(seed)
    A = int(r.integers(1, 4))
    d, N, d_ff = 2 * A * int(r.integers(1, 3)), int(r.integers(1, 7)), 16
    p = random_params(r, d, A, d_ff)
    x = r.normal(size=(N, d))
    layer = torch.nn.TransformerEncoderLayer(d, A, d_ff, dropout=0.0, batch_first=True,
                                             norm_first=True, dtype=torch.float64)
    sd = layer.state_dict()
    sd["self_attn.in_proj_weight"] = T(np.concatenate([p["WQ"].T, p["WK"].T, p["WV"].T]))
    sd["self_attn.in_proj_bias"] = torch.zeros(3 * d, dtype=torch.float64)
    sd["self_attn.out_proj.weight"], sd["self_attn.out_proj.bias"] = T(p["WO"].T), 0 * T(p["b2"])
    sd["linear1.weight"], sd["linear1.bias"] = T(p["W1"].T), T(p["b1"])
    sd["linear2.weight"], sd["linear2.bias"] = T(p["W2"].T), T(p["b2"])
    sd["norm1.weight"], sd["norm1.bias"] = T(p["gamma1"]), T(p["beta1"])
    sd["norm2.weight"], sd["norm2.bias"] = T(p["gamma2"]), T(p["beta2"])
    layer.load_state_dict(sd)
    layer.eval()
    mask = torch.nn.Transformer.generate_square_subsequent_mask(N, dtype=torch.float64) \
        if causal else None
    with torch.no_grad():
        gold = layer(T(x)[None], src_mask=mask, is_causal=causal)[0]
    np.testing.assert_allclose(lib.transformer_block(x, p, causal=causal)[0], gold.numpy(),
                               atol=1e-10)
