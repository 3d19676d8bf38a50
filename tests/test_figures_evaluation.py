"""Chapter 6's figures and baselines: they draw what the text computes, in both languages."""
from __future__ import annotations

import math

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest

import lib
from lib.figures import evaluation as ev

from figure_helpers import has_cjk as _has_cjk
from figure_helpers import texts


def _texts(fig):
    return " ".join(texts(fig))



P4 = [0.9, 0.5, 0.05, 0.6]            # the notes' example: perplexity ≈ 2.93


def _bars(ax):
    return [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle) and p.get_fill()]


def test_neg_log_terms_are_the_notes_values():
    assert np.allclose(ev.neg_log_terms([0.5, 0.25, 0.125]).round(3), [0.693, 1.386, 2.079])
    assert math.isclose(math.exp(ev.neg_log_terms([0.5, 0.25, 0.125]).mean()), 4.0)
    with pytest.raises(ValueError, match="p_true"):
        ev.neg_log_terms([0.5, 0.0])


def test_neg_log_terms_figure_has_one_bar_per_token_and_the_perplexity(lang):
    fig = ev.plot_neg_log_terms(P4)
    ax = fig.axes[0]
    heights = [b.get_height() for b in _bars(ax)]
    assert np.allclose(heights, -np.log(P4))
    assert "2.93" in _texts(fig)
    assert _has_cjk(_texts(fig)) == (lang == "zh")


def test_one_small_probability_passes_through_the_notes_point(lang):
    fig = ev.plot_one_small_probability(P4, index=2)
    ax = fig.axes[0]
    solid = ax.lines[0]
    x, y = solid.get_xdata(), solid.get_ydata()
    # the geometric-mean curve falls as the probability grows, and equals lib.perplexity
    assert np.all(np.diff(y) < 0)
    i = int(np.argmin(np.abs(x - 0.05)))
    q = list(P4); q[2] = x[i]
    assert math.isclose(y[i], lib.perplexity(q))
    # the arithmetic-mean alternative is far less sensitive at 0.05
    assert ax.lines[1].get_ydata()[i] < y[i] - 0.9


def test_unigram_perplexity_by_hand():
    train = [["a", "a", "b"], ["a"]]            # counts a:3, b:1, T = 4
    # add-1 over |V| = 3: P(a) = 4/7, P(b) = 2/7, P(c) = 1/7
    got = ev.unigram_perplexity(train, [["a", "c"]], vocab_size=3, k=1.0)
    assert math.isclose(got, lib.perplexity([4 / 7, 1 / 7]))
    # a unigram model on uniform counts with no smoothing mass to spare is |V|-way
    assert math.isclose(ev.unigram_perplexity([["a", "b"]], [["a", "b"]], 2, k=1e-12), 2.0)
    with pytest.raises(ValueError, match="k must be"):
        ev.unigram_perplexity(train, [["a"]], 3, k=0)


def test_bits_per_byte_counts_utf8_bytes():
    assert math.isclose(ev.bits_per_byte(6.0, "the cat sat"), 6 / 11)
    assert math.isclose(ev.bits_per_byte(6.0, "貓坐著"), 6 / 9)        # 3 bytes per character
    with pytest.raises(ValueError):
        ev.bits_per_byte(1.0, "")


def test_predicted_text_writes_each_language_its_way():
    assert ev.predicted_text(["獎盃", "放不進", "行李箱", "<eos>"], "zh") == "放不進行李箱"
    assert ev.predicted_text(["the", "trophy", "is", "<eos>"], "en") == " trophy is"


def test_corpus_unigram_sits_between_uniform_and_perfect():
    """(Counts the same tokens as the decoder: every word after the first, no <eos>.)"""
    V = lib.corpus.vocab_size()
    u = ev.corpus_unigram_perplexity("heldout")
    assert 1 < u < V
    # restricted to one language the unigram model wastes mass on the other language's words,
    # yet still beats the uniform baseline
    assert ev.corpus_unigram_perplexity("heldout", lang="zh") < V


def test_baselines_figure_draws_each_model(lang):
    ppl = {"uniform": 106.0, "unigram": 44.0, "bigram_add1": 5.8, "bigram_addk": 2.6, "decoder": 2.0}
    fig = ev.plot_baselines(ppl, k=0.01)
    ax = fig.axes[0]
    widths = sorted(b.get_width() for b in _bars(ax))
    assert np.allclose(widths, sorted(ppl.values()))
    assert _has_cjk(_texts(fig)) == (lang == "zh")


def test_tokens_vs_bytes_and_gap_figures(lang):
    stats = {l: {"perplexity": 2.0 + i, "bits_per_byte": 0.1 * (i + 1), "bits_after_first_noun": 9.0 + i}
             for i, l in enumerate(("zh", "en"))}
    fig = ev.plot_tokens_vs_bytes(stats)
    assert len(fig.axes) == 3
    assert [b.get_height() for b in _bars(fig.axes[1])] == pytest.approx([0.1, 0.2])
    assert [b.get_height() for b in _bars(fig.axes[2])] == pytest.approx([9.0, 10.0])
    fig = ev.plot_train_vs_heldout({"bigram_addk": (2.0, 2.6), "decoder": (1.7, 2.0)}, k=1e-3)
    assert sorted(b.get_height() for b in _bars(fig.axes[0])) == pytest.approx([1.7, 2.0, 2.0, 2.6])
    assert _has_cjk(_texts(fig)) == (lang == "zh")


@pytest.fixture(scope="module")
def winograd():
    return pytest.importorskip("lib.winograd")


def test_language_stats_agree_with_the_decoder(winograd):
    for lang in ("zh", "en"):
        s = ev.language_stats(lang)
        assert s["perplexity"] == pytest.approx(winograd.decoder_perplexity("heldout", lang=lang))
        assert s["bits_per_byte"] == pytest.approx(s["bits_per_sentence"] / s["bytes_per_sentence"])
        assert 0 < s["bits_after_first_noun"] <= s["bits_per_sentence"]


def test_heldout_perplexities_order_and_gap(winograd):
    k = winograd.best_bigram_k()
    ppl = ev.heldout_perplexities(k)
    assert ppl["uniform"] == lib.corpus.vocab_size()
    assert ppl["decoder"] < ppl["bigram_addk"] < ppl["bigram_add1"] < ppl["unigram"] < ppl["uniform"]
    assert ev.second_noun_bits("train") < ev.second_noun_bits("heldout")
