"""lib.torch_mirror against the NumPy reference: every function, in float64 and float32; the
inputs' dtype and device kept; autograd through the block; weight tying shares storage."""
from __future__ import annotations

import ast
import pathlib

import numpy as np
import pytest
import torch

import lib
from lib import torch_mirror as tm

D, N, A, V, D_FF = 8, 5, 2, 11, 16


def block_params(r):
    p = {k: r.normal(size=s) / 2 for k, s in [
        ("gamma1", D), ("beta1", D), ("WQ", (D, D)), ("WK", (D, D)), ("WV", (D, D)),
        ("WO", (D, D)), ("gamma2", D), ("beta2", D), ("W1", (D, D_FF)), ("b1", D_FF),
        ("W2", (D_FF, D)), ("b2", D)]}
    p["n_heads"] = A
    return p


def cases(r):
    """(name, args, kwargs) with NumPy arrays where the mirror takes tensors."""
    X, E = r.normal(size=(N, D)), r.normal(size=(V, D))
    Q, K, Vv = r.normal(size=(3, N, 4))
    W = list(r.normal(size=(4, D, D)) / 2)
    ids = r.integers(0, V, size=N)
    return [
        ("softmax", (r.normal(size=(3, V)) * 5,), {"temperature": 0.7}),
        ("softmax", (r.normal(size=(3, V)),), {"axis": 0}),
        ("one_hot", (ids, V), {}),
        ("embed", (ids, E), {}),
        ("sinusoidal_encoding", (np.arange(N) * 3.0, D), {}),
        ("rope", (X, np.arange(N) + 2.0), {}),
        ("rope", (X, np.arange(N) * 1.0), {"theta": np.pi / 6}),
        ("causal_mask", (N,), {}),
        ("scaled_dot_product_attention", (Q, K, Vv), {"causal": True}),
        ("scaled_dot_product_attention", (Q, K, Vv), {"scale": False}),
        ("self_attention", (X, W[0][:, :4], W[1][:, :4], W[2]), {"causal": False}),
        ("multi_head_attention", (X, *W, A), {"causal": True}),
        ("attention_rollout", (r.dirichlet(np.ones(N), size=(3, A, N)),), {"residual": 0.5}),
        ("layer_norm", (X * 4, r.normal(size=D), r.normal(size=D)), {}),
        ("relu", (X,), {}),
        ("feed_forward", (X, *list(block_params(r).values())[8:12]), {}),
        ("transformer_block", (X, block_params(r)), {"causal": False}),
        ("lm_head", (X, E), {}),
        ("cross_entropy", (r.normal(size=(N, V)) * 3, ids), {}),
        ("cross_entropy", (r.normal(size=V), int(ids[0])), {}),
        ("perplexity", (r.uniform(0.05, 1.0, size=N),), {}),
    ]


def to_torch(a, dtype):
    if isinstance(a, dict):
        return {k: to_torch(v, dtype) for k, v in a.items()}
    if isinstance(a, np.ndarray):
        return torch.as_tensor(a, dtype=torch.long if a.dtype.kind == "i" else dtype)
    return a


def as_list(out):
    return list(out) if isinstance(out, tuple) else [out]


CASES = cases(np.random.default_rng(0))


@pytest.mark.parametrize("dtype, tol", [(torch.float64, 1e-10), (torch.float32, 2e-5)],
                         ids=["float64", "float32"])
@pytest.mark.parametrize("i", range(len(CASES)), ids=[f"{c[0]}-{i}" for i, c in enumerate(CASES)])
def test_mirror_matches_numpy(i, dtype, tol):
    name, args, kwargs = CASES[i]
    np_dtype = np.float64 if dtype == torch.float64 else np.float32
    np_args = [a.astype(np_dtype) if isinstance(a, np.ndarray) and a.dtype.kind == "f" else a
               for a in args]
    ref = as_list(getattr(lib, name)(*np_args, **kwargs))
    got = as_list(getattr(tm, name)(*[to_torch(a, dtype) for a in args], **kwargs))
    for r_, g in zip(ref, got):
        if isinstance(g, torch.Tensor) and g.is_floating_point() and name != "one_hot":
            assert g.dtype == dtype, f"{name} returned {g.dtype}, input was {dtype}"
        g = g.detach().cpu().numpy() if isinstance(g, torch.Tensor) else g
        np.testing.assert_allclose(np.asarray(g, dtype=float), np.asarray(r_, dtype=float),
                                   rtol=tol, atol=tol, err_msg=f"{name} ({dtype})")


def test_sample_mirror_low_temperature_and_frequencies():
    g = torch.Generator().manual_seed(0)
    logits = torch.tensor([0.98, 0.76, 0.60, 1.06], dtype=torch.float64)
    assert {tm.sample(logits, 0.01, g) for _ in range(30)} == {3}
    draws = [tm.sample(logits, 1.0, g) for _ in range(3000)]
    assert isinstance(draws[0], int)
    freq = np.bincount(draws, minlength=4) / 3000
    np.testing.assert_allclose(freq, lib.softmax(logits.numpy()), atol=0.04)


def test_batched_inputs_match_numpy_row_by_row():
    r = np.random.default_rng(1)
    X, p = r.normal(size=(3, N, D)), block_params(r)
    h, w = tm.transformer_block(torch.as_tensor(X), to_torch(p, torch.float64))
    assert h.shape == (3, N, D) and w.shape == (3, A, N, N)
    for b in range(3):
        ref_h, ref_w = lib.transformer_block(X[b], p)
        np.testing.assert_allclose(h[b].numpy(), ref_h, atol=1e-10)
        np.testing.assert_allclose(w[b].numpy(), ref_w, atol=1e-12)


def test_gradients_flow_through_the_block_and_loss():
    r = np.random.default_rng(2)
    p = {k: (torch.tensor(v, requires_grad=True) if k != "n_heads" else v)
         for k, v in block_params(r).items()}
    emb = torch.nn.Embedding(V, D, dtype=torch.float64)
    ids = torch.as_tensor(r.integers(0, V, size=N))
    x = tm.embed(ids, emb.weight) + tm.sinusoidal_encoding(torch.arange(N), D,
                                                          dtype=torch.float64)
    h, _ = tm.transformer_block(x, p)
    loss = tm.cross_entropy(tm.lm_head(tm.layer_norm(h), emb.weight)[:-1], ids[1:])
    loss.backward()
    assert loss.ndim == 0 and torch.isfinite(loss)
    assert all(torch.isfinite(p[k].grad).all() and p[k].grad.abs().sum() > 0
               for k in ("WQ", "WK", "W1", "gamma1"))
    assert emb.weight.grad.abs().sum() > 0


def test_weight_tying_shares_storage_not_a_copy():
    emb = torch.nn.Embedding(V, D)
    head = tm.tied_lm_head(emb)
    assert head.weight is emb.weight
    assert head.weight.data_ptr() == emb.weight.data_ptr()
    assert tm.lm_head(torch.zeros(D), emb.weight).shape == (V,)
    assert emb.weight.T.data_ptr() == emb.weight.data_ptr()     # lm_head's Eᵀ is a view
    with torch.no_grad():
        emb.weight[3, 0] = 42.0                                 # one change, seen by both
    assert head.weight[3, 0] == 42.0
    h = torch.randn(2, D)
    torch.testing.assert_close(head(h), tm.lm_head(h, emb.weight))
    n_params = sum(q.numel() for q in torch.nn.ModuleList([emb, head]).parameters())
    assert n_params == V * D                                    # counted once


def test_default_device_and_device_is_kept():
    dev = tm.default_device()
    assert dev.type == ("cuda" if torch.cuda.is_available() else "cpu")
    X = torch.randn(N, D, device=dev)
    out, w = tm.multi_head_attention(X, *[torch.randn(D, D, device=dev) for _ in range(4)], A,
                                     causal=True)
    assert out.device.type == dev.type and w.device.type == dev.type
    assert tm.rope(X, torch.arange(N, device=dev)).device.type == dev.type
    assert tm.one_hot(torch.arange(3, device=dev), 4).device.type == dev.type


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_results_equal_cpu_results():
    r = np.random.default_rng(3)
    X, p = torch.as_tensor(r.normal(size=(2, N, D))), block_params(r)
    cpu = tm.transformer_block(X, to_torch(p, torch.float64))
    gpu_p = {k: (v.cuda() if isinstance(v, torch.Tensor) else v)
             for k, v in to_torch(p, torch.float64).items()}
    gpu = tm.transformer_block(X.cuda(), gpu_p)
    for c, g in zip(cpu, gpu):
        assert g.is_cuda and g.dtype == torch.float64
        torch.testing.assert_close(g.cpu(), c)


def test_mirror_is_an_independent_rendering():
    """The mirror imports no NumPy formula module of lib (only the shared shape checks)."""
    tree = ast.parse(pathlib.Path(tm.__file__).read_text(encoding="utf-8"))
    imported = {a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.level
                for a in n.names} | {n.module for n in ast.walk(tree)
                                     if isinstance(n, ast.ImportFrom) and n.level and n.module}
    assert imported <= {"_validate"}, imported
    assert not any(isinstance(n, ast.Name) and n.id == "np" for n in ast.walk(tree))


def test_mirror_has_every_public_name_of_the_reference():
    for name in ["softmax", "one_hot", "embed", "sinusoidal_encoding", "rope", "causal_mask",
                 "scaled_dot_product_attention", "self_attention", "multi_head_attention",
                 "attention_rollout", "layer_norm", "relu", "feed_forward",
                 "transformer_block", "lm_head", "cross_entropy", "perplexity", "sample"]:
        assert callable(getattr(tm, name)) and callable(getattr(lib, name))


def test_import_lib_does_not_import_torch_but_lib_torch_mirror_works():
    import subprocess
    import sys
    code = ("import sys, lib; assert 'torch' not in sys.modules, 'import lib imported torch'; "
            "m = lib.torch_mirror; assert 'torch' in sys.modules and callable(m.rope); "
            "assert set(lib.__all__) <= set(dir(lib))")
    root = pathlib.Path(lib.__file__).resolve().parent.parent
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    with pytest.raises(AttributeError, match="no attribute 'not_a_module'"):
        lib.not_a_module
