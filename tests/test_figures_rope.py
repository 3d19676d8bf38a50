"""Chapter 3's sinusoidal and RoPE figures draw, in both languages, what lib computes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import lib
import lib.widgets
from lib.figures import attention as A
from lib.figures import rope as F

from figure_helpers import has_cjk as _has_cjk
from figure_helpers import texts

_texts = texts




def test_clock_hands_point_along_sin_cos(lang):
    positions = [1, 2, 7, 100]
    fig = F.plot_clock(positions, d=6)
    pe = lib.sinusoidal_encoding(positions, 6)
    for ax, row in zip(fig.axes, pe):
        hands = [l for l in ax.lines if len(l.get_xdata()) == 2 and l.get_xdata()[0] == 0
                 and l.get_ydata()[0] == 0]
        assert len(hands) == 3
        for k, hand in enumerate(hands):
            x, y = hand.get_xdata()[1], hand.get_ydata()[1]
            direction = np.array([x, y]) / np.hypot(x, y)
            assert np.allclose(direction, row[2 * k: 2 * k + 2])
    assert _has_cjk(" ".join(_texts(fig))) == (lang == "zh")


def test_encoding_table_and_its_dot_products_depend_only_on_distance(lang):
    fig = F.plot_encoding_table(n_positions=32, d=16)
    table = np.asarray(fig.axes[0].images[0].get_array())
    assert np.allclose(table, lib.sinusoidal_encoding(np.arange(32), 16))
    gram = np.asarray([ax for ax in fig.axes if ax.images][1].images[0].get_array())
    for offset in (0, 2, 7):
        diagonal = np.diagonal(gram, offset)
        assert np.allclose(diagonal, diagonal[0])


def test_rope_scores_match_the_notes_and_the_closed_form():
    q, k = np.array([1.0, 2.0]), np.array([2.0, 1.0])
    theta = np.pi / 6
    s = F.rope_scores(q, k, [0, 1, 2], theta)
    assert np.allclose(s, [4.0, 1.964, -0.598], atol=0.0005)
    phi = np.arctan2(q[1], q[0]) - np.arctan2(k[1], k[0])
    d = np.arange(-5, 6)
    assert np.allclose(F.rope_scores(q, k, d, theta), 5 * np.cos(phi + d * theta))


def test_rope_frame_shows_the_dot_product_and_the_distance(lang):
    fig = F.draw_rope(30, 7, 5)
    assert any("-0.598" in t for t in _texts(fig))
    curve_ax = fig.axes[1]
    circled = [l for l in curve_ax.lines if l.get_marker() == "o" and len(l.get_xdata()) == 1][0]
    assert circled.get_xdata()[0] == 2 and circled.get_ydata()[0] == pytest.approx(-0.598, abs=5e-4)
    assert _has_cjk(" ".join(_texts(fig))) == (lang == "zh")


def test_rope_widget_grid_holds_the_notes_pairs(monkeypatch):
    calls = {}

    def frames_widget(draw, params, labels=None):
        calls.update(draw=draw, params=params)
        return "widget"

    monkeypatch.setattr(lib.widgets, "frames_widget", frames_widget)
    monkeypatch.setattr(A, "open_at", lambda box, params, **values: box)
    assert F.rope_widget() == "widget"
    p = calls["params"]
    assert np.prod([len(v) for v in p.values()]) <= 60
    assert 30 in p["angle"] and list(p) == ["angle", "m", "n"]
    for m, n in [(1, 1), (2, 1), (3, 1), (7, 5)]:                 # every pair of the notes
        assert m in p["m"] and n in p["n"]
    plt.close(calls["draw"](angle=p["angle"][0], m=2, n=5))


def test_rope_distance_toy_repeats_every_12_real_does_not(lang):
    fig = F.plot_rope_distance(d=64, max_distance=100)
    toy, real = (l.get_ydata() for l in fig.axes[0].lines)
    assert np.allclose(toy[:-12], toy[12:])
    assert not np.allclose(real[1:25], real[0])
    assert real[0] == pytest.approx(1.0) and toy[0] == pytest.approx(1.0)


def test_rope_widget_with_the_real_frames_widget():
    pytest.importorskip("ipywidgets")
    box = F.rope_widget(angles=(15, 30), ms=(3, 7), ns=(1,), start=(30, 7, 1))
    assert len(box.images) == 4 and box.images[0].value != box.images[1].value
    assert box.controls["angle"].index == 1 and box.controls["m"].index == 1
    assert [s.selected_index for s in box.stacks[0]] == [1]
    assert all(s.selected_index == 1 for s in box.stacks[1])


def test_widget_frames_on_a_reused_figure_match_fresh_ones(lang):
    """The widget redraws one figure per angle; each frame must equal draw_rope's, pixel for
    pixel, whatever frame came before it."""
    from lib.widgets import figure_png

    frames = F._RopeFrames()
    for angle, m, n in [(30, 3, 1), (30, 7, 5), (15, 1, 5), (30, 1, 1)]:
        assert figure_png(frames.draw(angle, m, n)) == figure_png(F.draw_rope(angle, m, n))
    assert len(frames._figs) == 2                       # one figure per angle
