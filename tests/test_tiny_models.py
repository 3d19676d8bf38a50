"""The tiny models: built from lib.torch_mirror, run by the NumPy reference (lib.tiny_models)."""
import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from lib import corpus, tiny_models, torch_mirror  # noqa: E402


@pytest.fixture
def one_thread():
    """Train on one CPU thread (fast and deterministic on two cores), then restore the setting."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def _sentences():
    out = [corpus.canonical_pair(lang)[i] for lang in corpus.LANGS for i in (0, 1)]
    out += [list(e.tokens) for e in corpus.examples(split="heldout")[::23]]
    return out


@pytest.mark.parametrize("name", tiny_models.MODEL_NAMES)
def test_numpy_forward_reproduces_torch_in_float64(name):
    params, cfg, _ = tiny_models.load(name)
    model = tiny_models.torch_model(cfg, params, dtype=torch.float64)
    worst = 0.0
    for tokens in _sentences():
        ids = np.array([corpus.token_id(t) for t in tokens])
        ref = tiny_models.numpy_forward(ids, params, cfg)
        with torch.no_grad():
            h, att = model.final(torch.as_tensor(ids)[None], return_attention=True)
            logits = torch_mirror.lm_head(h, model.p("E"))[0].numpy()
        assert logits.dtype == np.float64 and ref["logits"].shape == (len(ids), cfg.vocab_size)
        worst = max(worst, np.abs(logits - ref["logits"]).max())
        np.testing.assert_allclose(att[0].numpy(), ref["attention"], atol=1e-10)
        np.testing.assert_allclose(h[0].numpy(), ref["final"], atol=1e-10)
    assert worst <= 1e-5


def test_padding_mask_leaves_the_encoder_unchanged():
    """Training pads a batch of sentences of different lengths and hides the padding keys: each
    sentence must come out exactly as it does alone (the NumPy forward, unpadded)."""
    params, cfg, _ = tiny_models.load("encoder")
    model = tiny_models.torch_model(cfg, params, dtype=torch.float64)
    exs = [corpus.examples("zh", "heldout")[0], corpus.examples("en", "heldout")[0],
           corpus.examples("en", "heldout", schema="catch")[0]]
    batch = tiny_models.encoder_batch(exs, "cpu")
    assert len({len(e.tokens) for e in exs}) == 3
    with torch.no_grad():
        logits = tiny_models.encoder_logits_at_pronoun(model, batch).numpy()
    for e, row in zip(exs, logits):
        ref = tiny_models.numpy_forward(corpus.encode(e.text, e.lang), params, cfg)["logits"]
        np.testing.assert_allclose(row, ref[e.pronoun_index], atol=1e-10)


def test_model_is_made_of_the_torch_mirror(monkeypatch):
    calls = {"transformer_block": 0, "lm_head": 0, "embed": 0}
    for name in calls:
        orig = getattr(torch_mirror, name)

        def wrapped(*a, _orig=orig, _name=name, **k):
            calls[_name] += 1
            return _orig(*a, **k)
        monkeypatch.setattr(torch_mirror, name, wrapped)
    params, cfg, _ = tiny_models.load("decoder")
    model = tiny_models.torch_model(cfg, params)
    model(torch.as_tensor(corpus.encode(corpus.canonical_pair("en")[0], "en"))[None])
    assert calls == {"transformer_block": cfg.n_layers, "lm_head": 1, "embed": 1}


def test_retraining_a_few_dozen_steps_lowers_the_loss(one_thread):
    exs = corpus.examples(split="train")[::3]
    enc = tiny_models.train_encoder(seed=1, steps=40, batch_size=32, exs=exs, device="cpu")
    assert np.mean(enc.losses[-5:]) < 0.7 * np.mean(enc.losses[:5])
    dec = tiny_models.train_decoder(seed=1, max_steps=40, eval_every=20, batch_size=32, exs=exs,
                                    device="cpu")
    assert np.mean(dec.losses[-5:]) < 0.7 * np.mean(dec.losses[:5])
    assert dec.info["best_step"] in (20, 40)


def test_training_is_deterministic_under_a_seed(one_thread):
    exs = corpus.examples(split="train")[::5]
    a = tiny_models.train_encoder(seed=3, steps=5, batch_size=16, exs=exs, device="cpu")
    b = tiny_models.train_encoder(seed=3, steps=5, batch_size=16, exs=exs, device="cpu")
    c = tiny_models.train_encoder(seed=4, steps=5, batch_size=16, exs=exs, device="cpu")
    pa, pb, pc = (r.model.numpy_params() for r in (a, b, c))
    assert all(np.array_equal(pa[k], pb[k]) for k in pa)
    assert not np.array_equal(pa["E"], pc["E"])


def test_shipped_files():
    info = tiny_models.weights_info()
    assert info["total_bytes"] <= 2 * 1024 * 1024
    vocab = json.loads((tiny_models.WEIGHTS_DIR / tiny_models.VOCAB_FILE).read_text("utf-8"))
    assert tuple(vocab) == corpus.vocabulary()
    for name in tiny_models.MODEL_NAMES:
        params, cfg, training = tiny_models.load(name)
        assert cfg == tiny_models.default_config(name)
        assert cfg.n_layers >= 2 and cfg.n_heads >= 2
        assert ("P" in params) == cfg.positions
        assert set(params) == set(tiny_models.param_names(cfg))
        assert training["seconds"] > 0
    assert tiny_models.load("decoder")[1].causal and not tiny_models.load("encoder")[1].causal
    assert not tiny_models.load("encoder_nopos")[1].positions


def test_head_ablation_zeroes_the_head_output_only():
    params, cfg, _ = tiny_models.load("encoder")
    ids = corpus.encode(corpus.canonical_pair("zh")[0], "zh")
    full = tiny_models.numpy_forward(ids, params, cfg)
    cut = tiny_models.numpy_forward(ids, params, cfg, ablate=[(1, 0)])
    # layer 0 untouched; layer 1 attends exactly as before but writes something else
    np.testing.assert_array_equal(full["hidden"][:2], cut["hidden"][:2])
    np.testing.assert_array_equal(full["attention"], cut["attention"])
    assert not np.allclose(full["hidden"][2], cut["hidden"][2])
    # zeroing head 0 of layer 1 = removing its share of the concatenation before W_O
    import lib
    p = {k: params[f"layer1.{k}"] for k in tiny_models.BLOCK_KEYS}
    t1 = lib.layer_norm(full["hidden"][1], p["gamma1"], p["beta1"])
    w = full["attention"][1, 0]
    dk = cfg.d_k
    head0 = w @ (t1 @ p["WV"][:, :dk]) @ p["WO"][:dk]
    x_attn_full = full["hidden"][1] + lib.multi_head_attention(
        t1, p["WQ"], p["WK"], p["WV"], p["WO"], cfg.n_heads)[0]
    x_attn_cut = x_attn_full - head0
    ff = lambda x: x + lib.feed_forward(lib.layer_norm(x, p["gamma2"], p["beta2"]),
                                        p["W1"], p["b1"], p["W2"], p["b2"])
    np.testing.assert_allclose(cut["hidden"][2], ff(x_attn_cut), atol=1e-12)


def test_numpy_forward_errors():
    params, cfg, _ = tiny_models.load("encoder")
    with pytest.raises(ValueError, match="ablate"):
        tiny_models.numpy_forward([2, 3], params, cfg, ablate=[(5, 0)])
    with pytest.raises(ValueError, match="max_len"):
        tiny_models.numpy_forward([2] * (cfg.max_len + 1), params, cfg)
    with pytest.raises(ValueError, match="vocabulary"):
        tiny_models.numpy_forward([cfg.vocab_size], params, cfg)
    with pytest.raises(ValueError, match="model"):
        tiny_models.load("gpt")
