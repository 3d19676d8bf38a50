"""Every bad input of DESIGN §3 is refused by the lib itself, in both the NumPy reference and
the Torch mirror, with a message that names the argument and what it got."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import lib
from lib import torch_mirror as tm

r = np.random.default_rng(0)
X3, X8 = r.normal(size=(3, 4)), r.normal(size=(5, 8))
W8 = [r.normal(size=(8, 8)) for _ in range(4)]
NAN = np.array([[1.0, np.nan], [0.0, 1.0]])
PARAMS = {"gamma1": np.ones(8), "beta1": np.zeros(8), "WQ": W8[0], "WK": W8[1], "WV": W8[2],
          "WO": W8[3], "gamma2": np.ones(8), "beta2": np.zeros(8), "W1": r.normal(size=(8, 16)),
          "b1": np.zeros(16), "W2": r.normal(size=(16, 8)), "b2": np.zeros(8), "n_heads": 2}


def without(d, key):
    return {k: v for k, v in d.items() if k != key}


# (function, args, kwargs, exception, a regex the message must match)
BAD = [
    # temperature ≤ 0
    ("softmax", ([1.0, 2.0],), {"temperature": 0}, ValueError, r"temperature must be > 0.*got 0"),
    ("softmax", ([1.0, 2.0],), {"temperature": -1.5}, ValueError, r"temperature.*-1\.5"),
    ("sample", ([1.0, 2.0], 0.0, None), {}, ValueError, r"temperature must be > 0"),
    # NaN input
    ("softmax", (NAN,), {}, ValueError, r"z contains nan at index \[0, 1\]"),
    ("scaled_dot_product_attention", (NAN, NAN, NAN), {}, ValueError, r"Q contains nan"),
    ("multi_head_attention", (np.full((5, 8), np.nan), *W8, 2), {}, ValueError,
     r"X contains nan"),
    ("layer_norm", ([1.0, np.inf],), {}, ValueError, r"x contains inf"),
    ("softmax", ([-np.inf, -np.inf],), {}, ValueError, r"−inf everywhere"),
    # ids outside the vocabulary, negative ones, non-integers
    ("one_hot", ([0, 4], 4), {}, ValueError, r"ids must lie in 0 … 3 .*got 4"),
    ("one_hot", ([-1], 4), {}, ValueError, r"ids must lie in 0 … 3 .*got -1"),
    ("embed", ([1, 9], X3), {}, ValueError, r"ids must lie in 0 … 2 \(vocabulary of 3\), got 9"),
    ("embed", ([0.5], X3), {}, TypeError, r"ids must be integer token ids"),
    ("cross_entropy", (X3, [0, 1, 4]), {}, ValueError, r"target must lie in 0 … 3.*got 4"),
    ("cross_entropy", ([1.0, 2.0], -1), {}, ValueError, r"target must lie in 0 … 1.*got -1"),
    # lengths and widths that differ
    ("embed", ([0], [1.0, 2.0]), {}, ValueError, r"E must have 2 axes.*got shape \[2\]"),
    ("cross_entropy", (X3, [0, 1]), {}, ValueError, r"target must have shape \[3\].*got \[2\]"),
    ("scaled_dot_product_attention", (X3, X3[:, :3], X3), {}, ValueError,
     r"K: the key width d_k \(Q is \[3, 4\], K is \[3, 3\]\) must be 4, got 3"),
    ("scaled_dot_product_attention", (X3, X3, X3[:2]), {}, ValueError,
     r"V: the number of values.* must be 3, got 2"),
    ("scaled_dot_product_attention", (X3[:2], X3, X3), {"causal": True}, ValueError,
     r"causal=True"),
    ("self_attention", (X3, W8[0], W8[1], W8[2]), {}, ValueError,
     r"WQ: the number of rows .*d = 4.*must be 4, got 8"),
    ("multi_head_attention", (X8, *W8[:3], W8[3][:, :4], 2), {}, ValueError,
     r"WO must have shape \[8, 8\].*got \[8, 4\]"),
    ("lm_head", (X8, X3), {}, ValueError, r"E: the width d .*must be 8, got 4"),
    ("feed_forward", (X3, *list(PARAMS.values())[8:12]), {}, ValueError,
     r"W1: the number of rows.* must be 4, got 8"),
    ("feed_forward", (X8, PARAMS["W1"], np.zeros(5), PARAMS["W2"], np.zeros(8)), {},
     ValueError, r"b1 must have shape \[16\].*got \[5\]"),
    # heads that do not divide d
    ("multi_head_attention", (X8, *W8, 3), {}, ValueError,
     r"n_heads must divide the width d = 8, got n_heads = 3"),
    ("multi_head_attention", (X8, *W8, 0), {}, ValueError, r"n_heads must be an integer ≥ 1"),
    # odd d for sinusoidal and RoPE; positions that do not match the sequence
    ("sinusoidal_encoding", ([0, 1], 5), {}, ValueError, r"d must be even.*got 5"),
    ("rope", (X3[:, :3], [0, 1, 2]), {}, ValueError, r"x's last axis \(d\) must be even.*got 3"),
    ("rope", (X3, [0, 1]), {}, ValueError,
     r"positions must have shape \[3\] \(one position per row of x\), got \[2\]"),
    ("rope", (X3[0], [0, 1]), {}, ValueError, r"a single vector x .* needs a single position"),
    ("rope", (X3, [0, 1, 2]), {"theta": [0.1, 0.2, 0.3]}, ValueError,
     r"theta must have shape \[2\]"),
    # gamma/beta of the wrong length
    ("layer_norm", (X3, np.ones(3)), {}, ValueError, r"gamma must have shape \[4\].*got \[3\]"),
    ("layer_norm", (X3, None, np.ones(5)), {}, ValueError, r"beta must have shape \[4\].*\[5\]"),
    # probabilities outside (0, 1], or none
    ("perplexity", ([0.5, 0.0],), {}, ValueError, r"p_true must hold probabilities in \(0, 1\]"
     r".*got 0\.0 at index 1"),
    ("perplexity", ([1.5],), {}, ValueError, r"\(0, 1\], got 1\.5"),
    ("perplexity", ([],), {}, ValueError, r"p_true is empty"),
    ("perplexity", ([0.5, np.nan],), {}, ValueError, r"p_true contains nan"),
    # the block's params, the rollout, the mask, misc.
    ("transformer_block", (X8, without(PARAMS, "WO")), {}, ValueError,
     r"params is missing the keys \['WO'\]"),
    ("transformer_block", (X8, [1, 2]), {}, TypeError, r"params must be a dict"),
    ("attention_rollout", (np.ones((2, 3, 3)),), {}, ValueError,
     r"weights must have 4 axes \(\[L, A, N, N\].*got shape \[2, 3, 3\]"),
    ("attention_rollout", (-np.ones((1, 1, 2, 2)),), {}, ValueError, r"non-negative"),
    ("attention_rollout", (np.ones((1, 1, 2, 2)),), {"residual": -1}, ValueError,
     r"residual must be a finite number ≥ 0"),
    ("attention_rollout", (np.zeros((1, 1, 2, 2)),), {"residual": 0}, ValueError,
     r"row of zeros and residual = 0"),
    ("causal_mask", (0,), {}, ValueError, r"n must be an integer ≥ 1, got 0"),
    ("causal_mask", (2.5,), {}, TypeError, r"n must be an integer, got 2\.5"),
    ("scaled_dot_product_attention", (X3, X3, X3), {"scale": 0}, ValueError,
     r"scale must be a finite number > 0, got 0"),
    ("softmax", ([1.0, 2.0],), {"axis": 3}, ValueError, r"axis must be an integer in -1 … 0"),
    ("softmax", ([[1.0, 2.0], [3.0]],), {}, (ValueError, TypeError), r"^z "),
    ("softmax", ("abc",), {}, TypeError, r"^z must"),
]


def to_mirror(a):
    if isinstance(a, dict):
        return {k: to_mirror(v) for k, v in a.items()}
    if isinstance(a, np.ndarray):
        return torch.as_tensor(a)
    return a


@pytest.mark.parametrize("backend", ["numpy", "torch"])
@pytest.mark.parametrize("case", BAD, ids=[f"{c[0]}-{i}" for i, c in enumerate(BAD)])
def test_bad_input_is_refused_with_the_libs_own_message(case, backend):
    name, args, kwargs, exc, pattern = case
    fn = getattr(lib if backend == "numpy" else tm, name)
    if backend == "torch":
        args, kwargs = [to_mirror(a) for a in args], to_mirror(kwargs)
    with pytest.raises(exc, match=pattern) as info:
        fn(*args, **kwargs)
    assert info.traceback[-1].path.parent.name == "lib"          # raised by lib itself
    msg = str(info.value)
    assert "broadcast" not in msg and "operands could not" not in msg


@pytest.mark.parametrize("backend, rng", [("numpy", 42), ("numpy", np.random.RandomState(0)),
                                          ("torch", np.random.default_rng(0))])
def test_sample_refuses_a_wrong_rng(backend, rng):
    fn = lib.sample if backend == "numpy" else tm.sample
    with pytest.raises(TypeError, match=r"rng must be a (numpy\.random|torch)\.Generator"):
        fn(np.array([1.0, 2.0]) if backend == "numpy" else torch.tensor([1.0, 2.0]), 1.0, rng)


def test_tied_lm_head_refuses_a_plain_tensor():
    with pytest.raises(TypeError, match=r"embedding must be a torch\.nn\.Embedding"):
        tm.tied_lm_head(torch.zeros(3, 2))


@pytest.mark.parametrize("backend", ["numpy", "torch"])
def test_legal_extremes_stay_finite(backend):
    B = lib if backend == "numpy" else tm
    arr = (lambda a: np.asarray(a, float)) if backend == "numpy" else \
        (lambda a: torch.tensor(a, dtype=torch.float64))
    p = B.softmax(arr([1e4, -1e4, 0.0]), temperature=0.01)
    assert np.isfinite(np.asarray(p)).all() and float(p[0]) == 1.0
    assert np.isfinite(float(B.cross_entropy(arr([1e4, -1e4]), 1)))
    _, w = B.scaled_dot_product_attention(arr([[1e2] * 4]), arr([[1e2] * 4]), arr([[1.0] * 4]),
                                          causal=True)
    assert float(w[0, 0]) == 1.0
    y = B.layer_norm(arr([[1e4, -1e4, 0.0, 1.0]]))
    assert np.isfinite(np.asarray(y)).all()
