"""What chapters ask of the shipped tiny models (lib.winograd), measured with the NumPy forward."""
import math
import re

import numpy as np
import pytest

import lib
from lib import corpus, winograd

LANGS = ("zh", "en")


@pytest.mark.parametrize("lang", LANGS)
def test_heldout_accuracy(lang):
    assert winograd.heldout_accuracy(lang) >= 0.95
    assert winograd.heldout_accuracy(lang, split="train") >= 0.95


@pytest.mark.parametrize("lang,big,small", [("zh", "獎盃", "行李箱"), ("en", "trophy", "suitcase")])
def test_canonical_pair(lang, big, small):
    s_big, s_small = winograd.canonical_pair(lang)
    r_big, r_small = winograd.resolve(s_big, lang), winograd.resolve(s_small, lang)
    assert r_big.referent == big and r_small.referent == small
    assert r_big.probs[big] > 0.5 and r_small.probs[small] > 0.5
    assert math.isclose(sum(r_big.probs.values()), 1.0)
    n = len(s_big)
    assert r_big.tokens == s_big and r_big.tokens[r_big.pronoun_index] == corpus.PRONOUN[lang]
    assert r_big.attention.shape == (2, 2, n, n)
    assert np.allclose(r_big.attention.sum(-1), 1.0)
    assert r_big.hidden.shape == (3, n, 32)
    # a string (spaces, or Chinese without spaces) gives the same reading as the token list
    assert winograd.resolve(" ".join(s_big), lang).probs == r_big.probs
    if lang == "zh":
        assert winograd.resolve("".join(s_small), lang).probs == r_small.probs


def test_out_of_vocabulary_words_are_named():
    with pytest.raises(ValueError, match="cat"):
        winograd.resolve("the cat doesn't fit into the suitcase because it is too big", "en")
    with pytest.raises(ValueError, match="two"):
        winograd.resolve("the trophy doesn't fit because it is too big", "en")
    with pytest.raises(ValueError, match="model"):
        winograd.heldout_accuracy("zh", model="decoder")


@pytest.mark.parametrize("lang", LANGS)
def test_rollout_from_the_pronoun_prefers_the_referent(lang):
    assert winograd.rollout_accuracy(lang) >= 0.95
    # and it flips within the canonical pair
    big, small = (winograd.resolve(s, lang) for s in winograd.canonical_pair(lang))
    i, j = big.candidate_indices
    p = big.pronoun_index
    Rb, Rs = lib.attention_rollout(big.attention), lib.attention_rollout(small.attention)
    assert Rb[p, i] > Rb[p, j] and Rs[p, j] > Rs[p, i]
    np.testing.assert_allclose(big.rollout(), Rb)


@pytest.mark.parametrize("lang", LANGS)
def test_without_positions_the_encoder_cannot_tell_the_order(lang):
    """Same words in the other order give the same pronoun logits, so exactly one sentence of each
    (ab, ba) couple is right: chance."""
    for e in corpus.examples(lang, "heldout", schema="fit")[:8]:
        swapped = list(e.tokens)
        i, j = e.noun_indices
        swapped[i], swapped[j] = swapped[j], swapped[i]
        a = winograd.resolve(list(e.tokens), lang, model="encoder_nopos")
        b = winograd.resolve(swapped, lang, model="encoder_nopos")
        np.testing.assert_allclose(a.logits[e.pronoun_index], b.logits[e.pronoun_index],
                                   atol=1e-9)
    assert abs(winograd.heldout_accuracy(lang, model="encoder_nopos") - 0.5) < 0.05


@pytest.mark.parametrize("lang", LANGS)
def test_head_statistics_and_ablation(lang):
    stats = winograd.head_statistics(lang)
    for k in ("prefers_referent", "to_referent", "to_distractor", "to_adjective", "flips"):
        assert stats[k].shape == (2, 2) and ((0 <= stats[k]) & (stats[k] <= 1)).all()
    # layer 0 can never flip: its queries and keys come from word + position alone, so the
    # adjective only changes the softmax denominator, never which noun the pronoun weighs more
    assert (stats["flips"][0] == 0).all()
    assert stats["n_sentences"] == len(corpus.examples(lang, "heldout"))
    assert winograd.heldout_accuracy(lang, ablate=()) == winograd.heldout_accuracy(lang)
    every_head = [(l, h) for l in range(2) for h in range(2)]
    # with every head cut the pronoun sees only itself: the same answer for every sentence
    assert abs(winograd.heldout_accuracy(lang, ablate=every_head) - 0.5) < 0.05


def test_decoder_beats_a_tuned_bigram():
    k = winograd.best_bigram_k("dev")
    bigram = winograd.bigram_perplexity(k, "heldout")
    add_one = winograd.bigram_perplexity(1.0, "heldout")
    ours = winograd.decoder_perplexity("heldout")
    assert k < 1 and bigram < add_one
    assert ours < 0.8 * bigram
    # even a bigram tuned on the held-out split itself stays well above
    assert ours < 0.8 * min(winograd.bigram_perplexity(k, "heldout") for k in winograd.BIGRAM_KS)
    for lang in LANGS:
        assert winograd.decoder_perplexity("heldout", lang) < winograd.bigram_perplexity(
            k, "heldout", lang)


def test_surprisal_and_perplexity_agree():
    bits = []
    for e in corpus.examples(split="heldout"):
        s = winograd.surprisal(list(e.tokens), e.lang)
        assert [t for t, _ in s] == list(e.tokens[1:])
        bits += [b for _, b in s]
    assert min(bits) >= 0
    assert math.isclose(2 ** np.mean(bits), winograd.decoder_perplexity("heldout"), rel_tol=1e-9)
    # the adjective is a coin toss between the schema's two words; the comma after the nouns is
    # certain
    s = dict(winograd.surprisal(winograd.canonical_pair("zh")[0], "zh"))
    assert 0.5 < s["大"] < 2.0 and s["，"] < 0.1


def test_next_token_and_generation():
    words, p = winograd.next_token_probs("獎盃 放不進 行李箱 ， 因為 它 太", "zh")
    assert len(words) == len(p) == corpus.vocab_size() and math.isclose(p.sum(), 1.0)
    top2 = {words[i] for i in np.argsort(p)[-2:]}
    assert top2 == {"大", "小"}
    _, cold = winograd.next_token_probs("獎盃 放不進 行李箱 ， 因為 它 太", "zh", temperature=0.1)
    assert cold.max() > p.max()
    out = winograd.generate(["the"], "en", 1.0, np.random.default_rng(0))
    again = winograd.generate(["the"], "en", 1.0, np.random.default_rng(0))
    assert out == again and out[0] == "the" and len(out) <= 13
    assert all(w in corpus.vocabulary() and w not in corpus.SPECIALS for w in out)
    greedy = winograd.generate(["獎盃", "放不進"], "zh", 0.01, np.random.default_rng(1))
    assert greedy[:2] == ["獎盃", "放不進"] and greedy[-1] == "了"
    with pytest.raises(ValueError, match="dog"):
        winograd.generate(["the", "dog"], "en", 1.0, np.random.default_rng(0))


def test_the_docstring_reports_what_the_weights_measure():
    block = re.search(r"\.\. measured-begin(.*?)\.\. measured-end", winograd.__doc__, re.S)
    claimed = dict(re.findall(r"^\s+(.+?): (\S+)$", block.group(1), re.M))
    measured = {k: winograd.format_value(v) for k, v in winograd.summary().items()}
    assert claimed and claimed == measured


def test_generate_never_writes_padding_even_when_hot():
    rng = np.random.default_rng(5)
    for lang in ("zh", "en"):
        for _ in range(20):
            out = winograd.generate(winograd.canonical_pair(lang)[0][:3], lang, temperature=50.0,
                                    rng=rng, max_tokens=8)
            assert "<pad>" not in out
