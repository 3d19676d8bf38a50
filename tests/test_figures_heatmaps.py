"""Chapter 7's heatmaps, ablation and surprisal figures, in both languages.

The drawing functions get made-up arrays; the measuring functions run the shipped tiny models.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import lib
from lib.figures import heatmaps as hm

from figure_helpers import has_cjk as _has_cjk
from figure_helpers import texts


def _texts(fig):
    return " ".join(texts(fig))



TOKENS = ["獎盃", "放不進", "行李箱", "，", "因為", "它", "太", "大", "了"]


def _bars(ax):
    return [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle) and p.get_fill()]


def _random_attention(rng, n):
    w = rng.random((n, n))
    return w / w.sum(axis=1, keepdims=True)


def test_plot_attention_draws_the_matrix_and_frames_the_pronoun(lang, rng):
    w = _random_attention(rng, len(TOKENS))
    fig = hm.plot_attention(w, TOKENS, title="t", highlight=5)
    ax = fig.axes[0]
    assert np.allclose(ax.images[0].get_array(), w)
    assert ax.images[0].get_clim() == (0, 1)
    frames = [p for p in ax.patches if not p.get_fill()]
    assert len(frames) == 1 and frames[0].get_y() == pytest.approx(4.5)
    assert [t.get_text() for t in ax.get_yticklabels()] == TOKENS
    assert ("看的詞" in _texts(fig)) == (lang == "zh")


def test_plot_attention_difference_is_centred_on_zero(lang, rng):
    d = _random_attention(rng, 4) - _random_attention(rng, 4)
    fig = hm.plot_attention(d, list("abcd"), diff=True, highlight=2)
    # a diverging scale centred on 0, fixed at ±1 (the widest a difference of weights can be),
    # so a small difference looks small
    assert fig.axes[0].images[0].get_clim() == (-1, 1)
    assert fig.axes[0].images[0].get_cmap().name == "RdBu_r"
    fig = hm.plot_attention(d, list("abcd"), diff=True, vmax=0.5)
    assert fig.axes[0].images[0].get_clim() == (-0.5, 0.5)
    with pytest.raises(ValueError, match="shape"):
        hm.plot_attention(d, list("abc"))
    with pytest.raises(ValueError, match="vmax"):
        hm.plot_attention(d, list("abcd"), vmax=0)


def test_widget_frames_redraw_what_a_fresh_figure_draws(lang, rng):
    """The widget reuses one figure per sentence; a reused frame must equal a fresh one."""
    from lib.widgets import figure_png

    w1, w2 = _random_attention(rng, len(TOKENS)), _random_attention(rng, len(TOKENS))
    frames = hm._MapFrames()
    figure_png(frames.draw("k", w1, TOKENS, title="first", diff=False, highlight=5, vmax=1.0))
    reused = frames.draw("k", w2, TOKENS, title="second", diff=False, highlight=5, vmax=0.8)
    ax = reused.axes[0]
    assert np.allclose(ax.images[0].get_array(), w2) and ax.images[0].get_clim() == (0, 0.8)
    assert ax.get_title() == "second"
    assert sorted(t.get_text() for t in ax.texts) == sorted(f"{v:.2f}" for v in w2[5] if v >= 0.095)
    fresh = hm._MapFrames().draw("k", w2, TOKENS, title="second", diff=False, highlight=5, vmax=0.8)
    assert figure_png(reused) == figure_png(fresh)


def test_map_names_list_every_head_then_the_rollout(lang):
    names = hm.map_names(2, 2)
    assert len(names) == 5 and len(set(names)) == 5
    assert _has_cjk(names[-1]) == (lang == "zh")


def test_plot_ablation_one_bar_per_head_and_language(lang):
    acc = {l: {None: 0.98, (0, 0): 0.9, (0, 1): 0.6, (1, 0): 0.97, (1, 1): 0.5, ("layer", 0): 0.4}
           for l in ("zh", "en")}
    fig = hm.plot_ablation(acc, highlight=(1, 1))
    bars = _bars(fig.axes[0])
    assert len(bars) == 10
    assert sorted(b.get_height() for b in bars) == pytest.approx(sorted([0.9, 0.6, 0.97, 0.5, 0.4] * 2))
    outlined = [b for b in bars if b.get_linewidth() == 2]
    assert len(outlined) == 2 and all(b.get_height() == pytest.approx(0.5) for b in outlined)


def test_plot_surprisal_pairs_the_two_sentences(lang):
    big = [("放不進", 3.0), ("行李箱", 2.0), ("大", 1.1)]
    small = [("放不進", 3.0), ("行李箱", 2.0), ("小", 0.9)]
    fig = hm.plot_surprisal({"big": big, "small": small})
    ax = fig.axes[0]
    assert sorted(b.get_height() for b in _bars(ax)) == pytest.approx(sorted([3.0, 2.0, 1.1, 3.0, 2.0, 0.9]))
    assert [t.get_text() for t in ax.get_xticklabels()][-1] == "大/小"
    with pytest.raises(ValueError, match="same number"):
        hm.plot_surprisal({"big": big, "small": small[:2]})


# ------------------------------------------------------------------ on the shipped models

@pytest.fixture(scope="module")
def winograd():
    return pytest.importorskip("lib.winograd")


@pytest.mark.parametrize("which", ["zh", "en"])
def test_pair_maps_come_from_the_encoder(winograd, which):
    maps = hm.pair_maps(which)
    big, small = winograd.canonical_pair(which)
    r = winograd.resolve(big, which)
    L, A = r.attention.shape[:2]
    assert len(maps) == 3 * (L * A + 1)
    assert np.allclose(maps[("big", 0)][0], r.attention[0, 0])
    assert np.allclose(maps[("big", L * A)][0], lib.attention_rollout(r.attention))
    w_small = winograd.resolve(small, which).attention
    assert np.allclose(maps[("diff", 1)][0], r.attention[0, 1] - w_small[0, 1])
    # layer 1 cannot tell the nouns apart differently in the two sentences: the ratio of the
    # pronoun's weights on the two nouns is the same (only the adjective's key differs)
    p = r.pronoun_index
    i, j = [big.index(n) for n in lib.corpus.nouns_of(big, which)]
    for h in range(A):
        assert r.attention[0, h, p, i] / r.attention[0, h, p, j] == pytest.approx(
            w_small[0, h, p, i] / w_small[0, h, p, j], rel=1e-9)


def test_route_and_shift_are_consistent(winograd):
    rt = hm.route("zh")
    shift = hm.pronoun_shift("zh")
    assert rt["rollout"]["nouns"] == ["獎盃", "行李箱"]
    # the rollout flips: more on 獎盃 in the big sentence, more on 行李箱 in the small one
    assert rt["rollout"]["big"][0] > rt["rollout"]["big"][1]
    assert rt["rollout"]["small"][1] > rt["rollout"]["small"][0]
    assert all(0 <= v <= 1 for v in shift.values())


def test_ablation_accuracies_match_lib_winograd(winograd):
    acc = hm.ablation_accuracies("en")
    assert acc[None] == pytest.approx(winograd.heldout_accuracy("en"))
    assert len(acc) == 1 + 4 + 2 and all(0 <= v <= 1 for v in acc.values())
    assert acc[(1, 0)] == pytest.approx(winograd.heldout_accuracy("en", ablate=((1, 0),)))
    assert acc[("layer", 1)] == pytest.approx(winograd.heldout_accuracy("en", ablate=((1, 0), (1, 1))))
    assert min(v for k, v in acc.items() if k is not None) < acc[None]


def test_prettiest_head_has_the_largest_shift(winograd):
    shift = hm.pronoun_shift("zh")
    best = hm.prettiest_head("zh")
    assert all(shift[best] >= v for k, v in shift.items() if k != "rollout")


def test_surprisal_pair_agrees_with_the_next_token_distribution(winograd):
    pair = hm.surprisal_pair("en")
    big, _ = winograd.canonical_pair("en")
    bits = np.array([b for _, b in pair["big"]])
    assert np.all(bits >= 0) and [t for t, _ in pair["big"]][:len(big) - 1] == big[1:]
    k = len(big) - 1                                  # the adjective, predicted from the rest
    vocab, probs = winograd.next_token_probs(big[:k], "en")
    assert pair["big"][k - 1][1] == pytest.approx(-np.log2(probs[list(vocab).index(big[k])]), rel=1e-6)


def test_attention_widget_has_every_frame_and_control(winograd):
    L, A = winograd.resolve(winograd.canonical_pair("zh")[0], "zh").attention.shape[:2]
    lib.setup("zh")
    try:
        box = hm.attention_widget()
        both = hm.attention_widget(langs=("zh", "en"))
    finally:
        lib.setup("en")
    # the book's own language: big / small / difference × every head and the rollout
    assert len(box.images) == 3 * (L * A + 1)
    assert list(box.controls) == ["sentence", "attention"]
    assert all(len(im.value) > 1000 for im in box.images)
    assert len({im.value for im in box.images}) == len(box.images)      # no two frames alike
    # both languages on request, the first one shown first
    assert len(both.images) == 2 * 3 * (L * A + 1)
    assert list(both.controls) == ["language", "sentence", "attention"]
    options = both.controls["language"].options
    assert [o[0] if isinstance(o, tuple) else o for o in options] == ["中文", "English"]
    assert [im.value for im in both.images[:len(box.images)]] == [im.value for im in box.images]
