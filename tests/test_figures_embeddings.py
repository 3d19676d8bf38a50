"""Chapter 1's figures draw, in both languages, what the text computes."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import lib
from lib import bpe as B
from lib.figures import embeddings as F

from figure_helpers import has_cjk as _has_cjk
from figure_helpers import texts

_texts = texts



E = np.array([[0.9, 0.1, 0.4], [0.3, 0.8, 0.6], [0.2, 0.7, 0.5], [0.7, 0.4, 0.7]])
TOKENS = ["獎盃", "行李箱", "它", "大"]


def test_tokens_draws_one_tile_per_token(lang):
    bpe = B.train_bpe("獎盃放不進行李箱。the trophy, the suitcase", 12)
    zh, en = bpe.pieces("獎盃放不進行李箱。"), bpe.pieces("the trophy")
    fig = F.plot_tokens([("A", zh), ("B", en)])
    ax = fig.axes[0]
    tiles = [p for p in ax.patches]
    assert len(tiles) == len(zh) + len(en)
    texts = _texts(fig)
    assert all(F._visible(p) in texts for p in zh + en)
    assert any(str(len(zh)) in t for t in texts) and any(str(len(en)) in t for t in texts)
    assert _has_cjk(next(t for t in texts if t.startswith("A"))) == (lang == "zh")   # 共 … 個詞元


def test_lookup_highlights_the_third_row_for_id_2(lang):
    fig = F.plot_lookup(E, TOKENS, 2)
    one_hot_ax, e_ax, out_ax = fig.axes
    # the one-hot row shows a single 1 in column 2 (the third cell)
    cells = [t.get_text() for t in one_hot_ax.texts if t.get_fontsize() == 10]
    assert cells == ["0", "0", "1", "0"]
    hot = [t.get_text() for t in e_ax.texts if t.get_color() == F._HOT_TEXT]
    assert hot == ["0.2", "0.7", "0.5"]                  # E[2], not E[1] (行李箱)
    assert [t.get_text() for t in out_ax.texts if t.get_fontsize() == 10] == ["0.2", "0.7", "0.5"]
    assert _has_cjk(e_ax.get_title()) == (lang == "zh")
    with pytest.raises(ValueError):
        F.plot_lookup(E, TOKENS[:3], 2)
    with pytest.raises(ValueError, match="ids must lie"):
        F.plot_lookup(E, TOKENS, 4)


def test_coordinate_dictionary_places_each_row(lang):
    fig = F.plot_coordinate_dictionary(E, TOKENS, highlight=2)
    ax = fig.axes[0]
    points = np.array([np.asarray(c._offsets3d).ravel() for c in ax.collections
                       if hasattr(c, "_offsets3d")])
    assert np.allclose(points, E)
    assert any("[0.2, 0.7, 0.5]" in t for t in _texts(fig))
    with pytest.raises(ValueError):
        F.plot_coordinate_dictionary(np.ones((4, 2)), TOKENS)


def test_token_counts_bars_are_the_counts(lang):
    counts = {"x": (411, 237), "y": (235, 266)}
    fig = F.plot_token_counts(counts, chars=(137, 512))
    ax = fig.axes[0]
    heights = sorted(p.get_height() for p in ax.patches)
    assert heights == sorted([411, 237, 235, 266, 137, 512])
    title = ax.get_title()
    assert _has_cjk(title) == (lang == "zh")


def test_merges_frame_shows_fewer_tiles_after_more_merges(lang):
    pairs = B.parallel_text("train")
    bpe = B.train_bpe([z for z, _ in pairs] + [e for _, e in pairs], 120)
    rows = [("zh", pairs[0][0]), ("en", pairs[0][1])]
    frames = [F.plot_merges_frame(bpe, rows, n) for n in (0, 40, 120)]
    tiles = [len(f.axes[0].patches) for f in frames]
    assert tiles[0] == len(pairs[0][0].encode()) + len(pairs[0][1].encode())
    assert tiles[0] > tiles[1] > tiles[2]
    title = [t for t in _texts(frames[1]) if "40" in t and ("合併" in t or "merges" in t)]
    assert len(title) == 1 and _has_cjk(title[0]) == (lang == "zh")
    sizes = {tuple(f.get_size_inches()) for f in frames}
    assert len(sizes) == 1                                        # a widget's frames keep one size
