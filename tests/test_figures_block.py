"""lib/figures/block.py: the post-norm contrast, parameter counts, the depth experiment, plots."""
import types

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import lib  # noqa: E402
import lib.figures.block as B  # noqa: E402


def _toy_pair(lang, d=16, seed=0):
    """Two resolve()-like results from a random 2-layer encoder built from lib (same length,
    one word apart), so the layer-1 property can be tested without the shipped weights."""
    rng = np.random.default_rng(seed)
    blocks = [B.random_block_params(d, 2, rng=rng) for _ in range(2)]
    emb = {}
    words = {"zh": ("獎盃 放不進 行李箱 ， 因為 它 太 大 了", "小", "它", ("獎盃", "行李箱")),
             "en": ("the trophy fits not in the suitcase as it is too big", "small", "it",
                    ("trophy", "suitcase"))}[lang]
    big = words[0].split()
    small = [words[1] if t in ("大", "big") else t for t in big]
    out = []
    for toks in (big, small):
        X = np.stack([emb.setdefault(t, rng.normal(size=d)) for t in toks])
        X = X + lib.sinusoidal_encoding(np.arange(len(toks)), d)
        hs, ws = [X], []
        for p in blocks:
            X, w = lib.transformer_block(X, p, causal=False)
            hs.append(X)
            ws.append(w)
        out.append(types.SimpleNamespace(tokens=toks, pronoun_index=toks.index(words[2]),
                                         probs=dict.fromkeys(words[3], 0.5),
                                         attention=np.stack(ws), hidden=np.stack(hs)))
    return out


# ---------------------------------------------------------------------------- post-norm
def test_post_norm_rows_are_normalised_and_differ_from_pre_norm():
    rng = np.random.default_rng(3)
    params = B.random_block_params(8, 2, rng=rng)
    X = 3 * rng.normal(size=(5, 8))
    h_post, w = B.post_norm_block(X, params, causal=False)
    h_pre, _ = lib.transformer_block(X, params, causal=False)
    assert h_post.shape == h_pre.shape == (5, 8) and w.shape == (2, 5, 5)
    assert np.allclose(h_post.mean(-1), 0, atol=1e-9)
    assert np.allclose(h_post.std(-1), 1, atol=1e-4)
    assert not np.allclose(h_post, h_pre)


def test_post_norm_is_add_then_norm():
    """LN(u + FFN(u)) with u = LN(x + MHA(x)), spelled out with lib; γ, β are honoured."""
    rng = np.random.default_rng(4)
    p = B.random_block_params(8, 4, rng=rng)
    p["gamma1"], p["beta2"] = rng.normal(size=8), rng.normal(size=8)
    X = rng.normal(size=(3, 8))
    a, _ = lib.multi_head_attention(X, p["WQ"], p["WK"], p["WV"], p["WO"], 4, causal=True)
    u = lib.layer_norm(X + a, p["gamma1"], p["beta1"])
    want = lib.layer_norm(u + lib.feed_forward(u, p["W1"], p["b1"], p["W2"], p["b2"]),
                          p["gamma2"], p["beta2"])
    assert np.allclose(B.post_norm_block(X, p, causal=True)[0], want)


def test_post_norm_torch_matches_numpy():
    torch = pytest.importorskip("torch")
    from lib import torch_mirror as tm

    rng = np.random.default_rng(5)
    p = B.random_block_params(12, 3, rng=rng)
    X = rng.normal(size=(4, 12))
    pt = {k: (v if k == "n_heads" else torch.tensor(v)) for k, v in p.items()}
    got, w = B.post_norm_block(torch.tensor(X), pt, causal=True, ops=tm)
    want, w_np = B.post_norm_block(X, p, causal=True)
    assert np.allclose(got.numpy(), want, atol=1e-10)
    assert np.allclose(w.numpy(), w_np, atol=1e-12)


# ---------------------------------------------------------------------------- counts
@pytest.mark.parametrize("d", [4, 8, 32, 768])
def test_block_count_formula(d):
    assert B.param_count(d)["total"] == 12 * d * d + 9 * d
    assert B.param_count(d, attn_bias=True)["total"] == 12 * d * d + 13 * d
    assert B.param_count(d, d_ff=2 * d)["total"] == 8 * d * d + 7 * d


def test_gpt2_small_and_gpt3_counts():
    gpt2 = B.param_count(768, 12, 50257, 1024, attn_bias=True, final_norm=True)
    assert gpt2["total"] == 124_439_808  # the released GPT-2 small
    assert gpt2["embeddings"] == 50257 * 768 and gpt2["lm_head"] == 0
    untied = B.param_count(768, 12, 50257, 1024, attn_bias=True, final_norm=True, tied=False)
    assert untied["total"] - gpt2["total"] == 768 * 50257
    gpt3 = B.param_count(12288, 96, 50257, 2048, attn_bias=True, final_norm=True)
    assert 174e9 < gpt3["total"] < 176e9
    assert sum(v for k, v in gpt3.items() if k != "total") == gpt3["total"]


def test_random_params_fit_lib_block_and_shapes():
    p = B.random_block_params(16, 4, rng=0)
    for name, shape in B.param_shapes(16).items():
        assert p[name].shape == shape
    assert np.all(p["gamma1"] == 1) and np.all(p["beta2"] == 0)
    h, w = lib.transformer_block(np.ones((3, 16)) + np.arange(16), p)
    assert h.shape == (3, 16) and w.shape == (4, 3, 3)
    # Xavier-normal: std √(2 / (fan_in + fan_out))
    big = B.random_block_params(256, 4, rng=1)
    assert abs(big["W1"].std() - np.sqrt(2 / (256 + 1024))) < 2e-3


# ---------------------------------------------------------------------------- depth
def test_depth_experiment_stream_and_gradients():
    pytest.importorskip("torch")
    r = B.depth_experiment(n_layers=6, d=32, n_heads=4, n_tokens=6, vocab=20, seeds=(0,))
    assert r["pre"]["stream_norm"].shape == (7,) and r["post"]["grad_W1"].shape == (6,)
    # post-norm rows are renormalised to length √d after every block; pre-norm's stream grows
    assert np.allclose(r["post"]["stream_norm"][1:], np.sqrt(32), atol=1e-3)
    assert r["pre"]["stream_norm"][-1] > 1.5 * r["pre"]["stream_norm"][0]
    for v in ("pre", "post"):
        assert np.all(np.isfinite(r[v]["grad_W1"])) and np.all(r[v]["grad_W1"] > 0)
        assert r[v]["grad_x"] > 0 and r[v]["loss"] > 0


def test_depth_sweep_pre_norm_gradient_shrinks_like_inverse_sqrt_depth():
    """Xiong et al. (2020): at init, pre-norm's top gradient ~ 1/√L; post-norm's does not
    shrink."""
    pytest.importorskip("torch")
    s = B.depth_sweep(depths=(2, 32))
    pre, post = s["pre"]["top_grad"], s["post"]["top_grad"]
    assert 2.5 < pre[0] / pre[1] < 6.5          # √(32/2) = 4
    assert 0.6 < post[1] / post[0] < 1.6
    assert post[1] > 3 * pre[1]
    assert set(s["runs"]) == {2, 32}


# ---------------------------------------------------------------------------- heads
def test_head_summary_layer_one_cannot_flip(lang):
    r_big, r_small = _toy_pair(lang)
    rows = B.head_summary(r_big, r_small)
    assert [(r["layer"], r["head"]) for r in rows] == [(1, 1), (1, 2), (2, 1), (2, 2)]
    for r in rows:
        assert 0 < r["share_big"] < 1 and r["top_big"] in r_big.tokens
        if r["layer"] == 1:
            assert abs(r["share_big"] - r["share_small"]) < 1e-12
    assert max(abs(r["share_big"] - r["share_small"]) for r in rows if r["layer"] == 2) > 1e-6
    table = B.head_table(rows, r_big)
    assert len(table.splitlines()) == 5 and r_big.tokens[r_big.pronoun_index] in table
    assert ("層" in table) == (lang == "zh")


def test_head_summary_on_the_shipped_encoder():
    try:
        big, small = lib.winograd.canonical_pair("en")
        r_big, r_small = lib.winograd.resolve(big, "en"), lib.winograd.resolve(small, "en")
    except (ImportError, AttributeError, FileNotFoundError) as exc:
        pytest.skip(f"lib.winograd not available: {exc}")
    for r in B.head_summary(r_big, r_small):
        if r["layer"] == 1:
            assert abs(r["share_big"] - r["share_small"]) < 1e-9


# ---------------------------------------------------------------------------- plots
def test_plot_heads_draws_every_head(lang):
    r_big, _ = _toy_pair(lang)
    fig = B.plot_heads(r_big.attention, r_big.tokens, query=r_big.pronoun_index)
    images = [ax.images[0] for ax in fig.axes if ax.images]
    assert len(images) == 4
    assert np.allclose(images[3].get_array(), r_big.attention[1, 1])
    titles = " ".join(ax.get_title() for ax in fig.axes)
    assert ("層" in titles) == (lang == "zh")
    with pytest.raises(ValueError, match="len\\(tokens\\)"):
        B.plot_heads(r_big.attention, r_big.tokens[:-1])


def test_plot_heads_turns_wide_labels(lang):
    """Three Chinese characters are as wide as six letters: such key labels must be turned on
    their side, or neighbours like 放不進 and 行李箱 run together; short ones stay upright."""
    r_big, _ = _toy_pair(lang)
    fig = B.plot_heads(r_big.attention, r_big.tokens)
    angles = {t.get_rotation() for t in fig.axes[0].get_xticklabels()}
    assert angles == {90.0}
    short = ["a", "b", "it"]
    fig = B.plot_heads(np.full((1, 3, 3), 1 / 3), short)
    assert {t.get_rotation() for t in fig.axes[0].get_xticklabels()} == {0.0}
    assert B._width("放不進") == 6 and B._width("big") == 3


def test_plot_concat_panels(lang):
    rng = np.random.default_rng(0)
    heads = [rng.normal(size=(4, 4)), rng.normal(size=(4, 4))]
    concat = np.concatenate(heads, axis=-1)
    fig = B.plot_concat(heads, concat, concat @ rng.normal(size=(8, 8)))
    images = [ax.images[0] for ax in fig.axes if ax.images]
    assert [im.get_array().shape for im in images] == [(4, 4), (4, 4), (4, 8), (4, 8)]
    assert np.allclose(images[2].get_array(), concat)


def test_plot_residual_update_bars(lang):
    fig = B.plot_residual_update([0.3, 0.5, 0.5], [0.2, -0.1, 0.4])
    heights = [round(p.get_height(), 6) for p in fig.axes[0].patches]
    assert heights == [0.3, 0.5, 0.5, 0.2, -0.1, 0.4, 0.5, 0.4, 0.9]


def test_plot_layer_norm_and_relu(lang):
    x = np.array([2.0, 4.0, 6.0, 8.0])
    fig = B.plot_layer_norm(x, lib.layer_norm(x))
    left, right = fig.axes[:2]
    assert [p.get_height() for p in left.patches[:4]] == [2, 4, 6, 8]
    assert np.allclose([p.get_height() for p in right.patches[:4]],
                       [-1.342, -0.447, 0.447, 1.342], atol=1e-3)
    z = np.array([-1.2, 0.5, 3.0, -0.3])
    fig = B.plot_relu(z, lib.relu(z))
    assert [p.get_height() for p in fig.axes[0].patches] == [-1.2, 0.5, 3.0, -0.3, 0, 0.5, 3.0, 0]


def test_plot_depth_and_params(lang):
    runs = {v: {"stream_norm": np.linspace(8, 20, 5) if v == "pre" else np.full(5, 8.0)}
            for v in ("pre", "post")}
    sweep = {"depths": [2, 8, 32], "pre": {"top_grad": [1.6, 0.8, 0.4]},
             "post": {"top_grad": [2.0, 1.9, 2.2]}}
    fig = B.plot_depth_experiment(runs, sweep)
    assert len(fig.axes[0].lines) == 2 and len(fig.axes[1].lines) == 3
    assert np.allclose(fig.axes[1].lines[0].get_ydata(), [1.6, 0.8, 0.4])
    models = {"GPT-2 small": B.param_count(768, 12, 50257, 1024, attn_bias=True, final_norm=True)}
    fig = B.plot_param_breakdown(models)
    widths = [p.get_width() for p in fig.axes[0].patches]
    assert abs(sum(widths) - 1) < 1e-9


def test_adjective_index_and_row(lang):
    r_big, r_small = _toy_pair(lang)
    j = B.adjective_index(r_big, r_small)
    assert r_big.tokens[j] in ("大", "big") and r_small.tokens[j] in ("小", "small")
    row = B.head_summary(r_big, r_small)[0]
    assert row["adj_top_w_big"] == pytest.approx(r_big.attention[0, 0, j].max())
    with pytest.raises(ValueError, match="differ in one token"):
        B.adjective_index(r_big, r_big)

