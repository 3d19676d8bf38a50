"""The byte-level BPE of chapter 1 (lib/bpe.py)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from lib import bpe as B

MIXED = st.text(alphabet=st.sampled_from(list("ab cd,.'獎盃放不進行李箱，因為它太大了。\n7")),
                max_size=60)


@pytest.fixture(scope="module")
def bilingual():
    pairs = B.parallel_text("train")
    return B.train_bpe([z for z, _ in pairs] + [e for _, e in pairs], 150)


def _apply_in_order(bpe, text):
    """A peer implementation: every merge, in the order learned, over each chunk's bytes."""
    from lib.bpe import _merge

    ids = []
    for chunk in B.pretokenize(text):
        seq = list(chunk.encode("utf-8"))
        for k, pair in enumerate(bpe.merges):
            seq = _merge(seq, pair, 256 + k)
        ids.extend(seq)
    return ids


@given(MIXED)
@settings(max_examples=80, deadline=None)
def test_pretokenize_loses_nothing(text):
    assert "".join(B.pretokenize(text)) == text


@given(MIXED)
@settings(max_examples=60, deadline=None)
def test_decode_inverts_encode(text):
    bpe = B.train_bpe("獎盃放不進行李箱，因為它太大了。 the cat, the cab, the cad", 20)
    assert bpe.decode(bpe.encode(text)) == text


def test_no_merges_means_utf8_bytes():
    bpe = B.train_bpe("anything", 0)
    assert bpe.encode("它 it") == list("它 it".encode("utf-8"))
    assert len(bpe.encode("它")) == 3 and len(bpe.encode("i")) == 1   # a Han character is 3 bytes
    assert bpe.vocab_size == 256


def test_hand_counted_merges():
    # chunks: "ab" ×1, " ab" ×2, " cd" ×1 → (a,b) occurs 3 times, (" ",ab) twice, the rest once
    bpe = B.train_bpe("ab ab ab cd", 10)
    assert bpe.merge_table() == [("a", "b", "ab", 3), (" ", "ab", " ab", 2)]
    assert bpe.encode("ab ab cd") == [256, 257, 32, 99, 100]
    assert bpe.vocab_size == 258


def test_learns_a_whole_chinese_word():
    bpe = B.train_bpe("行李箱，行李箱。行李箱和行李箱", 8)   # 9 bytes need 8 merges
    assert bpe.pieces("行李箱") == ["行李箱"]
    assert len(bpe.encode("行李箱")) == 1


def test_merges_never_cross_a_chunk(bilingual):
    pairs = B.parallel_text("train")
    chunks = {c.encode("utf-8") for z, e in pairs for c in B.pretokenize(z) + B.pretokenize(e)}
    for i, piece in list(bilingual.vocab.items())[256:]:
        assert any(piece in c for c in chunks), (i, B.show_piece(piece))
    assert "the" not in bilingual.pieces("ab the")[0]   # " the" keeps its space, "b" stays apart


def test_vocab_grows_by_concatenation(bilingual):
    assert bilingual.vocab_size == 256 + len(bilingual.merges)
    for k, (a, b) in enumerate(bilingual.merges):
        assert bilingual.vocab[256 + k] == bilingual.vocab[a] + bilingual.vocab[b]
    # a merge can only lower the count of any pair, so the chosen counts never increase
    assert bilingual.counts == sorted(bilingual.counts, reverse=True)
    assert min(bilingual.counts) >= 2


def test_encode_agrees_with_merging_in_order(bilingual):
    for zh, en in B.parallel_text("all"):
        for s in (zh, en):
            assert bilingual.encode(s) == _apply_in_order(bilingual, s)


def test_merges_shorten_the_training_text():
    pairs = B.parallel_text("train")
    text = [z for z, _ in pairs] + [e for _, e in pairs]
    tokenizers = [B.train_bpe(text, n) for n in (0, 30, 90)]
    lengths = [sum(len(bpe.encode(t)) for t in text) for bpe in tokenizers]
    assert lengths[0] > lengths[1] > lengths[2]


def test_show_piece_marks_partial_characters():
    assert B.show_piece("它".encode("utf-8")) == "它"
    assert B.show_piece("它".encode("utf-8")[:2]) == "<e5><ae>"
    assert B.show_piece(b" it") == " it"


def test_parallel_text_splits():
    train, held, every = (B.parallel_text(s) for s in ("train", "heldout", "all"))
    assert len(train) + len(held) == len(every) and len(held) == B.N_HELDOUT
    assert not set(train) & set(held)
    assert all(len(p) == 2 and p[0] and p[1] for p in every)
    assert train[0][0] == "獎盃放不進行李箱，因為它太大了。"
    with pytest.raises(ValueError, match="split"):
        B.parallel_text("test")


def test_errors_are_the_libs_own():
    bpe = B.train_bpe("ab ab", 1)
    with pytest.raises(ValueError, match="ids must lie in 0 … 256"):
        bpe.decode([300])
    with pytest.raises(TypeError, match="text must be"):
        B.train_bpe(42, 3)
    with pytest.raises(ValueError, match="n_merges"):
        B.train_bpe("ab", -1)


def test_truncated_equals_training_that_long():
    pairs = B.parallel_text("train")
    text = [z for z, _ in pairs[:12]] + [e for _, e in pairs[:12]]
    full = B.train_bpe(text, 60)
    short = B.train_bpe(text, 25)
    cut = full.truncated(25)
    assert cut.merges == short.merges and cut.vocab == short.vocab
    assert cut.encode(pairs[0][0]) == short.encode(pairs[0][0])
    assert full.truncated(0).encode("它") == list("它".encode("utf-8"))
