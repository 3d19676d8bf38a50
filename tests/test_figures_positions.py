"""Chapter 2's figures draw, in both languages, what the text computes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import lib
from lib.figures import positions as P

from figure_helpers import has_cjk as _has_cjk
from figure_helpers import texts

_texts = texts



X_IT = np.array([0.2, 0.7, 0.5])          # 它 in the notes' four-token E
P11 = np.array([0.1, -0.2, 0.0])          # row 11 of the notes' E_pos


def test_bag_of_words_says_equal_only_for_equal_bags(lang):
    fig = P.plot_bag_of_words(["狗", "咬", "人"], ["人", "咬", "狗"])
    assert "=" in _texts(fig) and "≠" not in _texts(fig)
    assert len(fig.axes[0].patches) == 12            # 2 sentences × (3 seats + 3 bag tiles)
    fig = P.plot_bag_of_words(["狗", "咬", "人"], ["狗", "咬", "狗"])
    assert "≠" in _texts(fig)
    heads = [t for t in _texts(fig) if "bag" in t or "一袋詞" in t]
    assert heads and _has_cjk(heads[0]) == (lang == "zh")


def test_position_add_shows_the_notes_sum(lang):
    fig = P.plot_position_add(X_IT, P11, "它", 11)
    out = [t.get_text() for t in fig.axes[2].texts if t.get_text()[:1].isdigit()]
    assert out == ["0.3", "0.5", "0.5"]
    assert any("11" in fig.axes[1].get_title() for _ in [0])


def test_seat_frame_adds_the_right_row(lang):
    rng = np.random.default_rng(0)
    E_pos = rng.normal(0, 0.2, size=(12, 3))
    E_pos[11] = P11
    fig = P.plot_seat(E_pos, X_IT, "它", 11)
    bars = [p for p in fig.axes[1].patches]
    heights = np.array([b.get_height() for b in bars])
    assert np.allclose(heights, np.concatenate([X_IT, X_IT + P11]))
    # one seat past the table: only the word vector, and a message instead of a sum
    fig = P.plot_seat(E_pos, X_IT, "它", 12)
    assert len(fig.axes[1].patches) == 3
    assert any("12" in t for t in _texts(fig))


def test_ablation_bars_are_the_accuracies(lang):
    acc = {"with": {"zh": 0.98, "en": 0.96}, "without": {"zh": 0.47, "en": 0.5}}
    fig = P.plot_ablation(acc)
    ax = fig.axes[0]
    assert sorted(p.get_height() for p in ax.patches) == sorted([0.98, 0.96, 0.47, 0.5])
    assert any(abs(l.get_ydata()[0] - 0.5) < 1e-12 for l in ax.lines)
    assert _has_cjk(ax.get_ylabel()) == (lang == "zh")


def test_position_change_colours_unused_seats(lang):
    change = np.array([0.4, 0.3, 0.5, 0.03, 0.03])
    fig = P.plot_position_change(change, n_seen=3)
    ax = fig.axes[0]
    bars = sorted(ax.patches, key=lambda b: b.get_x())
    assert np.allclose([b.get_height() for b in bars], change)
    colours = [b.get_facecolor() for b in bars]
    assert colours[0] == colours[2] != colours[3] == colours[4]
    assert _has_cjk(ax.get_xlabel()) == (lang == "zh")
