"""Chapter 3's attention figures draw, in both languages, the numbers lib computes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import lib
import lib.widgets
from lib.figures import attention as F

from figure_helpers import has_cjk as _has_cjk
from figure_helpers import texts

_texts = texts



K = np.array([[2.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
V = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
Q_IT = np.array([1.0, 2.0])


def test_worked_example_draws_the_notes_four_steps(lang):
    tokens = ["獎盃", "行李箱", "它"] if lang == "zh" else ["trophy", "suitcase", "it"]
    fig = F.plot_worked_example(Q_IT, K, V, tokens)
    scores_ax, weights_ax, sum_ax = fig.axes
    heights = [p.get_height() for p in scores_ax.patches]
    assert np.allclose(heights[:3], [4, 1, 2]) and np.allclose(heights[3:], np.array([4, 1, 2]) / np.sqrt(2))
    _, w = lib.scaled_dot_product_attention(Q_IT[None], K, V)
    assert np.allclose([p.get_height() for p in weights_ax.patches], w[0])
    assert np.allclose(w[0], [0.73, 0.09, 0.18], atol=0.005)
    assert "[0.82, 0.18]" in _texts(fig)
    assert _has_cjk(" ".join(_texts(fig))) == (lang == "zh")


def test_worked_example_refuses_values_it_cannot_draw():
    with pytest.raises(ValueError, match="2 columns"):
        F.plot_worked_example(Q_IT, K, np.ones((3, 3)), ["a", "b", "c"])


def test_entropy_bits():
    assert F.entropy_bits(np.full(4, 0.25)) == pytest.approx(2.0)
    assert F.entropy_bits([1.0, 0.0, 0.0]) == pytest.approx(0.0)
    w = lib.softmax([[8.0, 4.0, 0.0], [1.0, 0.5, 0.0]])
    expected = -(w * np.log(w)).sum(axis=1) / np.log(2)
    assert np.allclose(F.entropy_bits(w), expected)


@pytest.mark.parametrize("d_k", [4, 64, 256])
def test_scaling_data_has_variance_d_k_and_one_when_scaled(d_k):
    raw = F.scaling_frame_data(d_k, False, n_samples=4000)
    scaled = F.scaling_frame_data(d_k, True, n_samples=4000)
    assert raw["scores"].var() == pytest.approx(d_k, rel=0.15)
    assert scaled["scores"].var() == pytest.approx(1.0, rel=0.15)
    assert raw["weights"].sum() == pytest.approx(1.0)


def test_unscaled_entropy_collapses_scaled_does_not():
    raw = [F.scaling_frame_data(dk, False)["entropy"] for dk in (4, 64, 256)]
    scaled = [F.scaling_frame_data(dk, True)["entropy"] for dk in (4, 64, 256)]
    assert raw[0] > raw[1] > raw[2] and raw[2] < 0.5
    assert max(scaled) - min(scaled) < 0.3 and min(scaled) > 2.0


def test_scaling_frame_draws_weights_and_marks_d_k(lang):
    fig = F.draw_scaling(64, True)
    assert len(fig.axes) == 3
    bars = fig.axes[1].patches
    assert len(bars) == 8 and sum(b.get_height() for b in bars) == pytest.approx(1.0)
    assert any("d_k = 64" in t for t in _texts(fig))
    assert _has_cjk(" ".join(_texts(fig))) == (lang == "zh")


def test_scaling_widget_grid(monkeypatch):
    """The widget hands frames_widget a small grid whose every point draws a figure."""
    calls = {}

    def frames_widget(draw, params, labels=None):
        calls.update(draw=draw, params=params, labels=labels)
        return "widget"

    monkeypatch.setattr(lib.widgets, "frames_widget", frames_widget)
    monkeypatch.setattr(F, "open_at", lambda box, params, **values: box)
    assert F.scaling_widget() == "widget"
    params = calls["params"]
    assert list(params) == ["d_k", "scaling"] and len(params["scaling"]) == 2
    assert np.prod([len(v) for v in params.values()]) <= 60
    for label, title in zip(params["scaling"], ("unscaled", "divided by √d_k")):
        fig = calls["draw"](d_k=params["d_k"][-1], scaling=label)
        assert isinstance(fig, matplotlib.figure.Figure) and title in fig._suptitle.get_text()
        plt.close(fig)


def test_scaling_widget_with_the_real_frames_widget():
    pytest.importorskip("ipywidgets")
    box = F.scaling_widget(d_ks=(4, 64), start=64)
    assert len(box.images) == 4 and all(len(im.value) > 1000 for im in box.images)
    assert box.controls["d_k"].index == 1 and box.controls["scaling"].index == 0
    assert [s.selected_index for s in box.stacks[0]] == [1]


def test_masks_picture_the_causal_mask_and_weights(lang):
    Q = np.array([[1.0, 0.0], [0.0, 1.0], Q_IT])
    _, wb = lib.scaled_dot_product_attention(Q, K, V)
    _, wc = lib.scaled_dot_product_attention(Q, K, V, causal=True)
    fig = F.plot_masks(wb, wc, ["a", "b", "c"])
    mask_img, bi_img, causal_img = (ax.images[0].get_array() for ax in fig.axes)
    assert np.array_equal(np.asarray(mask_img, dtype=bool), lib.causal_mask(3))
    assert np.allclose(causal_img[0], [1, 0, 0]) and np.allclose(causal_img[2], bi_img[2])
    assert _texts(fig).count("−∞") == 3


def test_sentence_masks_hide_the_adjective_only_when_causal(lang):
    tokens = "獎盃 放不進 行李箱 ， 因為 它 太 大 了".split()
    fig = F.plot_sentence_masks(tokens, 5, 7)
    left, right = fig.axes
    assert "✓" in [t.get_text() for t in left.texts] and "✗" in [t.get_text() for t in right.texts]
    assert np.array_equal(np.asarray(right.images[0].get_array(), dtype=bool), lib.causal_mask(9))


def test_word_order_plots_the_outputs_it_is_given(lang):
    cases = {"A": {"x": [0.465, 0.704], "y": [0.465, 0.704]},
             "B": {"x": [0.344, 0.868], "y": [0.427, 0.868]}}
    fig = F.plot_word_order(cases, token="咬")
    points = [c.get_offsets()[0] for ax in fig.axes for c in ax.collections]
    assert np.allclose(points, [[0.465, 0.704], [0.465, 0.704], [0.344, 0.868], [0.427, 0.868]])


def test_pronoun_rows_draw_one_bar_per_token_and_label_the_nouns(lang):
    s1 = "獎盃 放不進 行李箱 ， 因為 它 太 大 了".split()
    s2 = s1[:-2] + ["小", "了"]
    rows = [np.full(9, 1 / 9), np.linspace(0, 1, 9) / np.linspace(0, 1, 9).sum()]
    fig = F.plot_pronoun_rows([s1, s2], rows, ("獎盃", "行李箱"), ("a", "b"))
    for ax, row in zip(fig.axes, rows):
        assert np.allclose([p.get_height() for p in ax.patches], row)
        assert len(ax.texts) == 2                          # the two nouns' weights
    colours = {matplotlib.colors.to_hex(p.get_facecolor()) for p in fig.axes[0].patches}
    assert len(colours) == 3


def test_scaling_frames_on_a_reused_figure_match_fresh_ones(lang):
    """The widget redraws one figure per scaling setting; each frame must equal draw_scaling's,
    pixel for pixel, whatever frame came before it (the histogram's height is rescaled)."""
    from lib.widgets import figure_png

    frames = F._ScalingFrames()
    for d_k, scaled in [(256, False), (4, False), (64, True), (16, False), (4, True)]:
        assert figure_png(frames.draw(d_k, scaled)) == figure_png(F.draw_scaling(d_k, scaled))
    assert len(frames._figs) == 2
