"""The bilingual Winograd corpus and its word-level tokenizer.

Every sentence is a Winograd-style minimal pair member, the same content in Traditional Chinese
(zh, Taiwan usage) and English (en)::

    獎盃 放不進 行李箱 ， 因為 它 太 大 了        the trophy doesn't fit into the suitcase because it is too big
    獎盃 放不進 行李箱 ， 因為 它 太 小 了        the trophy doesn't fit into the suitcase because it is too small

Three schemas (fit: big/small, catch: slow/fast, hold: weak/heavy), each with a pool of 12 nouns
and 36 noun pairs. Every pair is used in **both noun orders** ("the suitcase doesn't fit into the
trophy …" too) and with **both adjectives**, so four sentences per pair and language. In each
schema one adjective points at the first noun (big, slow, weak) and the other at the second
(small, fast, heavy): which noun is the referent depends on the word order, so a model that
cannot see positions can do no better than chance.

The split is over noun pairs and fixed (no randomness): a held-out pair never occurs together in
training, although each of its nouns does occur in other training pairs. ``dev`` is a small
third split used to stop the decoder early and to tune the bigram baseline's add-k.

Tokens are words: a sentence is a string of space-separated words or a list of words. A Chinese
string without spaces is segmented by longest match against the vocabulary. English is lowercased.
Words outside the vocabulary raise ``ValueError`` naming them.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

LANGS = ("zh", "en")
SPLITS = ("train", "dev", "heldout")
PAD, EOS = "<pad>", "<eos>"
SPECIALS = (PAD, EOS)
PRONOUN = {"zh": "它", "en": "it"}


@dataclass(frozen=True)
class Schema:
    name: str
    template: dict          # lang -> format string with {a}, {b}, {adj}
    adjectives: dict        # lang -> (adjective that points at the first noun, at the second)
    nouns: tuple            # ((zh, en), ...)


SCHEMAS = (
    Schema(
        "fit",
        {"zh": "{a} 放不進 {b} ， 因為 它 太 {adj} 了",
         "en": "the {a} doesn't fit into the {b} because it is too {adj}"},
        {"zh": ("大", "小"), "en": ("big", "small")},
        (("獎盃", "trophy"), ("行李箱", "suitcase"), ("箱子", "box"), ("背包", "backpack"),
         ("抽屜", "drawer"), ("櫃子", "cabinet"), ("籃子", "basket"), ("吉他", "guitar"),
         ("枕頭", "pillow"), ("花瓶", "vase"), ("鍋子", "pot"), ("袋子", "bag")),
    ),
    Schema(
        "catch",
        {"zh": "{a} 追不上 {b} ， 因為 它 太 {adj} 了",
         "en": "the {a} couldn't catch the {b} because it was too {adj}"},
        {"zh": ("慢", "快"), "en": ("slow", "fast")},
        (("公車", "bus"), ("火車", "train"), ("卡車", "truck"), ("汽車", "car"),
         ("機車", "motorcycle"), ("腳踏車", "bicycle"), ("船", "boat"), ("飛機", "plane"),
         ("計程車", "taxi"), ("救護車", "ambulance"), ("電車", "tram"), ("貨車", "van")),
    ),
    Schema(
        "hold",
        {"zh": "{a} 撐不住 {b} ， 因為 它 太 {adj} 了",
         "en": "the {a} couldn't hold the {b} because it was too {adj}"},
        {"zh": ("弱", "重"), "en": ("weak", "heavy")},
        (("架子", "shelf"), ("桌子", "table"), ("椅子", "chair"), ("繩子", "rope"),
         ("橋", "bridge"), ("樹枝", "branch"), ("梯子", "ladder"), ("木板", "plank"),
         ("推車", "cart"), ("鉤子", "hook"), ("床", "bed"), ("凳子", "stool")),
    ),
)
SCHEMA_BY_NAME = {s.name: s for s in SCHEMAS}

#: pairs per schema: (i, i+k mod 12) for k = 1, 2, 3 -> 36 distinct unordered pairs,
#: every noun in six of them.
_OFFSETS = (1, 2, 3)


def _split_of(p: int) -> str:
    """The fixed split of the p-th pair of a schema (p = 0 … 35): 25 train, 4 dev, 7 held out."""
    if p % 5 == 2:
        return "heldout"
    if p % 10 == 4:
        return "dev"
    return "train"


@dataclass(frozen=True)
class NounPair:
    schema: str
    index: int              # position in the schema's pair list
    first: tuple            # (zh, en) of the noun that comes first in the "ab" order
    second: tuple
    split: str


@lru_cache(maxsize=None)
def noun_pairs(schema: str | None = None) -> tuple:
    """All noun pairs (optionally of one schema), with their fixed split."""
    out = []
    for s in SCHEMAS:
        if schema is not None and s.name != schema:
            continue
        n = len(s.nouns)
        p = 0
        for k in _OFFSETS:
            for i in range(n):
                out.append(NounPair(s.name, p, s.nouns[i], s.nouns[(i + k) % n], _split_of(p)))
                p += 1
    if not out:
        raise ValueError(f"schema must be one of {[s.name for s in SCHEMAS]}, got {schema!r}")
    return tuple(out)


@dataclass(frozen=True)
class Example:
    """One sentence of the corpus."""
    lang: str
    schema: str
    pair: int               # index of the noun pair inside its schema
    split: str
    order: str              # "ab": pair.first comes first; "ba": reversed
    tokens: tuple           # the words
    pronoun_index: int
    nouns: tuple            # (noun at first position, noun at second position), in lang
    noun_indices: tuple     # their token positions
    adjective: str
    adjective_index: int
    referent: str           # the noun 它/it refers to
    distractor: str         # the other noun

    @property
    def text(self) -> str:
        return " ".join(self.tokens)

    @property
    def referent_index(self) -> int:
        return self.noun_indices[self.nouns.index(self.referent)]

    @property
    def distractor_index(self) -> int:
        return self.noun_indices[self.nouns.index(self.distractor)]


def _make(lang: str, schema: Schema, pair: NounPair, order: str, adj_slot: int) -> Example:
    li = LANGS.index(lang)
    a, b = (pair.first, pair.second) if order == "ab" else (pair.second, pair.first)
    a, b = a[li], b[li]
    adj = schema.adjectives[lang][adj_slot]
    tokens = tuple(schema.template[lang].format(a=a, b=b, adj=adj).split(" "))
    ia, ib = tokens.index(a), len(tokens) - 1 - tokens[::-1].index(b)
    referent, distractor = (a, b) if adj_slot == 0 else (b, a)
    return Example(lang, schema.name, pair.index, pair.split, order, tokens,
                   tokens.index(PRONOUN[lang]), (a, b), (ia, ib), adj,
                   len(tokens) - 1 - tokens[::-1].index(adj), referent, distractor)


@lru_cache(maxsize=None)
def _all_examples() -> tuple:
    out = []
    for lang in LANGS:
        for s in SCHEMAS:
            for pair in noun_pairs(s.name):
                for order in ("ab", "ba"):
                    for slot in (0, 1):
                        out.append(_make(lang, s, pair, order, slot))
    return tuple(out)


def examples(lang: str | None = None, split: str | None = None, schema: str | None = None) -> list:
    """The corpus sentences, filtered by language, split and schema (None = all)."""
    if lang is not None and lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    if split is not None and split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    if schema is not None and schema not in SCHEMA_BY_NAME:
        raise ValueError(f"schema must be one of {tuple(SCHEMA_BY_NAME)}, got {schema!r}")
    return [e for e in _all_examples()
            if (lang is None or e.lang == lang) and (split is None or e.split == split)
            and (schema is None or e.schema == schema)]


def canonical_pair(lang: str) -> tuple:
    """The book's running example as token lists: (… too big, … too small)."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    s = SCHEMAS[0]
    pair = noun_pairs("fit")[0]
    return tuple(list(_make(lang, s, pair, "ab", slot).tokens) for slot in (0, 1))


# ---------------------------------------------------------------- the tokenizer


@lru_cache(maxsize=None)
def vocabulary() -> tuple:
    """The word list shared by both languages: the specials, then words by first appearance."""
    words = list(SPECIALS)
    seen = set(words)
    for e in _all_examples():
        for t in e.tokens:
            if t not in seen:
                seen.add(t)
                words.append(t)
    return tuple(words)


@lru_cache(maxsize=None)
def _index() -> dict:
    return {w: i for i, w in enumerate(vocabulary())}


def vocab_size() -> int:
    return len(vocabulary())


def _segment_zh(text: str) -> list:
    """Longest-match segmentation of a Chinese string without spaces."""
    words = sorted((w for w in vocabulary() if w not in SPECIALS), key=len, reverse=True)
    maxlen = max(len(w) for w in words)
    vocab = set(words)
    out, i, unknown = [], 0, []
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        for n in range(min(maxlen, len(text) - i), 0, -1):
            if text[i:i + n] in vocab:
                out.append(text[i:i + n])
                i += n
                break
        else:
            unknown.append(text[i])
            out.append(text[i])
            i += 1
    return out


def tokenize(sentence, lang: str) -> list:
    """Words of a sentence: a list of words is taken as is, a string is split on spaces.

    English is lowercased; a Chinese string with no spaces is segmented by longest match.
    Raises ``ValueError`` naming every word outside the vocabulary.
    """
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    if isinstance(sentence, str):
        text = sentence.strip()
        if lang == "zh" and " " not in text:
            tokens = _segment_zh(text)
        else:
            tokens = text.split()
    else:
        tokens = [str(t) for t in sentence]
    if lang == "en":
        tokens = [t.lower() for t in tokens]
    if not tokens:
        raise ValueError(f"sentence is empty: got {sentence!r}")
    unknown = [t for t in tokens if t not in _index()]
    if unknown:
        raise ValueError(
            f"words outside the vocabulary ({lang}): {sorted(set(unknown), key=unknown.index)}; "
            f"the tiny models know {vocab_size()} words (see lib.corpus.vocabulary())")
    return tokens


def encode(sentence, lang: str) -> np.ndarray:
    """Token ids ``[N]`` of a sentence (see :func:`tokenize`)."""
    idx = _index()
    return np.array([idx[t] for t in tokenize(sentence, lang)], dtype=np.int64)


def decode(ids) -> list:
    """Words of a sequence of ids; ids outside the vocabulary raise ``ValueError``."""
    ids = np.asarray(ids).reshape(-1)
    words = vocabulary()
    bad = [int(i) for i in ids if not 0 <= int(i) < len(words)]
    if bad:
        raise ValueError(f"ids outside the vocabulary of size {len(words)}: {bad}")
    return [words[int(i)] for i in ids]


def token_id(word: str) -> int:
    try:
        return _index()[word]
    except KeyError:
        raise ValueError(f"word outside the vocabulary: {word!r}") from None


def pronoun_index(tokens, lang: str) -> int:
    """Position of 它 / it in a token list (the first one); ValueError if there is none."""
    p = PRONOUN[lang]
    if p not in tokens:
        raise ValueError(f"no pronoun {p!r} in the sentence {' '.join(tokens)!r}")
    return list(tokens).index(p)


def nouns_of(tokens, lang: str) -> list:
    """The candidate nouns of a sentence, in order of appearance (the schema's noun pool)."""
    li = LANGS.index(lang)
    pool = {n[li] for s in SCHEMAS for n in s.nouns}
    return [t for t in tokens if t in pool]


def batch(exs, with_eos: bool = False) -> np.ndarray:
    """Ids ``[B, N]`` of examples that share one length (``with_eos`` appends <eos>)."""
    rows = [[_index()[t] for t in e.tokens] + ([_index()[EOS]] if with_eos else []) for e in exs]
    if len({len(r) for r in rows}) != 1:
        raise ValueError("batch needs examples of one length; group them with by_length()")
    return np.array(rows, dtype=np.int64)


def by_length(exs) -> dict:
    """Examples grouped by token count: {N: [examples]} (batches without padding)."""
    out: dict = {}
    for e in exs:
        out.setdefault(len(e.tokens), []).append(e)
    return dict(sorted(out.items()))
