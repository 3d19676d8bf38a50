"""The bilingual Winograd corpus and its tokenizer (lib.corpus)."""
from collections import Counter

import numpy as np
import pytest

from lib import corpus


def test_schemas_and_pairs():
    assert len(corpus.SCHEMAS) >= 2
    for s in corpus.SCHEMAS:
        pairs = corpus.noun_pairs(s.name)
        assert len(pairs) >= 20
        keys = {frozenset((p.first, p.second)) for p in pairs}
        assert len(keys) == len(pairs)                      # no pair twice, in either order
        assert all(p.first != p.second for p in pairs)


def test_split_holds_out_noun_pairs():
    for s in corpus.SCHEMAS:
        pairs = corpus.noun_pairs(s.name)
        split = Counter(p.split for p in pairs)
        assert split["heldout"] >= 0.15 * len(pairs) and split["dev"] >= 2
        train_pairs = {frozenset((p.first, p.second)) for p in pairs if p.split == "train"}
        train_nouns = Counter(n for p in pairs if p.split == "train" for n in (p.first, p.second))
        for p in pairs:
            if p.split != "train":
                assert frozenset((p.first, p.second)) not in train_pairs
                # each noun of a held-out pair is seen in training, only not with its partner
                assert train_nouns[p.first] >= 2 and train_nouns[p.second] >= 2
    # no training sentence holds a held-out pair together, in either language or order
    held = {frozenset(e.nouns) for e in corpus.examples(split="heldout")}
    assert not any(frozenset(e.nouns) in held for e in corpus.examples(split="train"))


def test_same_content_in_both_languages():
    zh, en = corpus.examples("zh"), corpus.examples("en")
    assert len(zh) == len(en)
    for a, b in zip(zh, en):
        assert (a.schema, a.pair, a.split, a.order) == (b.schema, b.pair, b.split, b.order)
        # the referent is the same noun, and at the same role (first / second) in both languages
        assert a.nouns.index(a.referent) == b.nouns.index(b.referent)


def test_both_orders_and_both_adjectives_balance_the_referent():
    """Every pair appears in both orders with both adjectives, so the referent is the first noun in
    exactly half the sentences of every pair: noun identity alone cannot give the answer."""
    groups = {}
    for e in corpus.examples():
        groups.setdefault((e.lang, e.schema, e.pair), []).append(e)
    for key, exs in groups.items():
        assert len(exs) == 4, key
        assert {e.order for e in exs} == {"ab", "ba"}
        assert sum(e.referent == e.nouns[0] for e in exs) == 2
        # the same bag of words occurs with the referent first and with the referent second
        for adj in {e.adjective for e in exs}:
            same_adj = [e for e in exs if e.adjective == adj]
            assert {e.referent for e in same_adj} == set(same_adj[0].nouns)


def test_example_positions():
    for e in corpus.examples():
        assert e.tokens[e.pronoun_index] == corpus.PRONOUN[e.lang]
        assert [e.tokens[i] for i in e.noun_indices] == list(e.nouns)
        assert e.tokens[e.adjective_index] == e.adjective
        assert e.noun_indices[0] < e.noun_indices[1] < e.pronoun_index < e.adjective_index
        assert {e.referent, e.distractor} == set(e.nouns)


def test_canonical_pair():
    big, small = corpus.canonical_pair("zh")
    assert "".join(big) == "獎盃放不進行李箱，因為它太大了"
    assert "".join(small) == "獎盃放不進行李箱，因為它太小了"
    big, small = corpus.canonical_pair("en")
    assert " ".join(big) == "the trophy doesn't fit into the suitcase because it is too big"
    assert small[-1] == "small" and big[:-1] == small[:-1]
    # the book's example is a training sentence (its pair is in the training split)
    train = {e.tokens for e in corpus.examples(split="train")}
    assert tuple(big) in train and tuple(small) in train


def test_tokenizer_round_trip_and_errors():
    vocab = corpus.vocabulary()
    assert len(vocab) == len(set(vocab)) and vocab[:2] == corpus.SPECIALS
    for e in corpus.examples()[::7]:
        ids = corpus.encode(e.text, e.lang)
        assert ids.dtype == np.int64 and corpus.decode(ids) == list(e.tokens)
        assert corpus.tokenize(list(e.tokens), e.lang) == list(e.tokens)
    # a Chinese string without spaces is segmented by longest match
    assert corpus.tokenize("獎盃放不進行李箱，因為它太大了", "zh") == corpus.canonical_pair("zh")[0]
    # English is lowercased
    assert corpus.tokenize("The Trophy doesn't fit", "en") == ["the", "trophy", "doesn't", "fit"]
    with pytest.raises(ValueError, match="cat"):
        corpus.tokenize("the cat doesn't fit", "en")
    with pytest.raises(ValueError, match="貓"):
        corpus.tokenize("貓 放不進 行李箱", "zh")
    with pytest.raises(ValueError, match="lang"):
        corpus.tokenize("it", "fr")
    with pytest.raises(ValueError, match="outside"):
        corpus.decode([len(vocab)])


def test_batches_group_by_length():
    exs = corpus.examples(split="train")
    groups = corpus.by_length(exs)
    assert sum(len(g) for g in groups.values()) == len(exs)
    for n, g in groups.items():
        b = corpus.batch(g, with_eos=True)
        assert b.shape == (len(g), n + 1) and (b[:, -1] == corpus.token_id(corpus.EOS)).all()
    with pytest.raises(ValueError, match="length"):
        corpus.batch([groups[min(groups)][0], groups[max(groups)][0]])
