"""What the chapters ask of the tiny models: resolve 它/it, attention, rollout, sampling, surprisal.

**Corpus** (:mod:`lib.corpus`): Winograd-style minimal pairs in zh-TW and English with the same
content, three schemas (fit: big/small, catch: slow/fast, hold: weak/heavy), 36 noun pairs per
schema, each pair in both noun orders and with both adjectives. The split holds out noun pairs
(25 train, 4 dev, 7 held out per schema): a held-out pair never occurs together in training.

**Models** (:mod:`lib.tiny_models`, trained by ``python tools/train_tiny.py``): two pre-norm
layers, two heads, d = 32, learned position embeddings, LM head tied to the embedding, no dropout.
The ``encoder`` (bidirectional) predicts the referent noun at the pronoun's position; the
``encoder_nopos`` ablation is the same without position embeddings; the ``decoder`` (causal)
predicts the next word and was stopped early on the dev split's perplexity. Every number here
comes from the NumPy reference running the shipped weights.

Measured on the shipped weights (rewritten by ``tools/train_tiny.py``; a test recomputes every
line from the weights and fails if one disagrees):

.. measured-begin

::

    encoder heldout accuracy zh: 1.000
    encoder train accuracy zh: 1.000
    encoder_nopos heldout accuracy zh: 0.500
    rollout prefers referent zh: 1.000
    head 0.0 prefers referent zh: 0.500
    head 0.0 weight on adjective zh: 0.088
    head 0.0 flips with the adjective zh: 0.000
    head 0.1 prefers referent zh: 0.500
    head 0.1 weight on adjective zh: 0.367
    head 0.1 flips with the adjective zh: 0.000
    head 1.0 prefers referent zh: 0.643
    head 1.0 weight on adjective zh: 0.454
    head 1.0 flips with the adjective zh: 0.429
    head 1.1 prefers referent zh: 0.679
    head 1.1 weight on adjective zh: 0.494
    head 1.1 flips with the adjective zh: 0.405
    head 0.0 from adjective to referent zh: 0.247
    head 0.0 from adjective to other noun zh: 0.065
    head 0.1 from adjective to referent zh: 0.300
    head 0.1 from adjective to other noun zh: 0.046
    head 1.0 from adjective to referent zh: 0.076
    head 1.0 from adjective to other noun zh: 0.076
    head 1.1 from adjective to referent zh: 0.082
    head 1.1 from adjective to other noun zh: 0.074
    canonical big -> zh: 獎盃
    canonical small -> zh: 行李箱
    decoder heldout perplexity zh: 1.624
    encoder heldout accuracy en: 1.000
    encoder train accuracy en: 1.000
    encoder_nopos heldout accuracy en: 0.500
    rollout prefers referent en: 1.000
    head 0.0 prefers referent en: 0.500
    head 0.0 weight on adjective en: 0.265
    head 0.0 flips with the adjective en: 0.000
    head 0.1 prefers referent en: 0.500
    head 0.1 weight on adjective en: 0.037
    head 0.1 flips with the adjective en: 0.000
    head 1.0 prefers referent en: 0.500
    head 1.0 weight on adjective en: 0.625
    head 1.0 flips with the adjective en: 0.095
    head 1.1 prefers referent en: 0.512
    head 1.1 weight on adjective en: 0.631
    head 1.1 flips with the adjective en: 0.119
    head 0.0 from adjective to referent en: 0.373
    head 0.0 from adjective to other noun en: 0.049
    head 0.1 from adjective to referent en: 0.263
    head 0.1 from adjective to other noun en: 0.037
    head 1.0 from adjective to referent en: 0.060
    head 1.0 from adjective to other noun en: 0.060
    head 1.1 from adjective to referent en: 0.067
    head 1.1 from adjective to other noun en: 0.079
    canonical big -> en: trophy
    canonical small -> en: suitcase
    decoder heldout perplexity en: 2.037
    decoder heldout perplexity: 1.845
    decoder train perplexity: 1.750
    bigram k tuned on dev: 1.00e-06
    bigram heldout perplexity: 2.598
    bigram add-one heldout perplexity: 5.514
    weights total bytes: 344952
    parameters encoder: 29120
    parameters encoder_nopos: 28608
    parameters decoder: 29120
    training seconds encoder: 36.820
    training seconds encoder_nopos: 32.190
    training seconds decoder: 7.410
    decoder best step: 175

.. measured-end

Perplexities count every word after the first (not ``<eos>``). The bigram baseline is counted on
the training split; its add-k is tuned on the dev split (:func:`best_bigram_k`) and lands on the
grid's smallest k: no bigram of the dev or held-out sentences is unseen in training, so the tuned
baseline is in effect the unsmoothed bigram, the strongest a bigram can be here. Add-one is shown
for contrast.

The attention a chapter shows is whatever the model learned (no loss on attention). A single
head from 它/it need not point at the noun: a tiny encoder often routes the answer through the
adjective (大/小 looks at the nouns in layer 1, 它 looks at 大/小 in layer 2). Attention rollout
(:func:`lib.attention_rollout`) composes the layers; :func:`head_statistics` and
:func:`rollout_accuracy` measure both views.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from . import corpus, tiny_models
from .corpus import LANGS, canonical_pair, examples  # noqa: F401  (part of the API)

ENCODERS = ("encoder", "encoder_nopos")


@dataclass(frozen=True)
class Resolution:
    """The encoder's reading of one sentence."""
    tokens: list             # the words, N
    lang: str
    pronoun_index: int
    candidates: tuple        # the two nouns, in order of appearance
    candidate_indices: tuple
    referent: str            # the candidate with the higher probability
    probs: dict              # {noun: probability}, softmax over the two candidates' logits
    attention: np.ndarray    # [L, A, N, N], from the NumPy forward
    hidden: np.ndarray       # [L+1, N, d], the residual stream after each layer (0 = input)
    logits: np.ndarray       # [N, |V|]
    model: str = "encoder"

    def rollout(self, residual: float = 0.5) -> np.ndarray:
        """Attention rollout ``[N, N]`` (:func:`lib.attention_rollout`)."""
        from .attention import attention_rollout
        return attention_rollout(self.attention, residual=residual)


def _check_lang(lang):
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")


def _check_model(model, allowed=ENCODERS):
    if model not in allowed:
        raise ValueError(f"model must be one of {allowed}, got {model!r}")


def _norm_ablate(ablate) -> tuple:
    try:
        return tuple(sorted({(int(l), int(h)) for l, h in ablate}))
    except (TypeError, ValueError):
        raise ValueError(f"ablate must be a sequence of (layer, head) pairs, got {ablate!r}") \
            from None


@lru_cache(maxsize=8192)
def _forward(model: str, ids: tuple, ablate: tuple = ()) -> dict:
    params, cfg, _ = tiny_models.load(model)
    out = tiny_models.numpy_forward(np.array(ids, dtype=np.int64), params, cfg, ablate=ablate)
    for v in out.values():
        v.setflags(write=False)
    return out


def _ids(tokens) -> tuple:
    return tuple(corpus.token_id(t) for t in tokens)


def resolve(sentence, lang: str, model: str = "encoder", ablate=()) -> Resolution:
    """Which noun 它/it refers to, with the probabilities and the attention of every head.

    ``sentence``: a string of space-separated words (a Chinese string without spaces is
    segmented), or a list of words. It needs the pronoun and two candidate nouns.
    """
    _check_lang(lang)
    _check_model(model)
    tokens = corpus.tokenize(sentence, lang)
    p = corpus.pronoun_index(tokens, lang)
    nouns = corpus.nouns_of(tokens, lang)
    if len(nouns) != 2 or nouns[0] == nouns[1]:
        raise ValueError(f"the sentence needs exactly two different candidate nouns, found "
                         f"{nouns} in {' '.join(tokens)!r}")
    idx = (tokens.index(nouns[0]), tokens.index(nouns[1]))
    out = _forward(model, _ids(tokens), _norm_ablate(ablate))
    z = np.array([out["logits"][p, corpus.token_id(n)] for n in nouns])
    z = np.exp(z - z.max())
    pr = z / z.sum()
    return Resolution(tokens=list(tokens), lang=lang, pronoun_index=p, candidates=tuple(nouns),
                      candidate_indices=idx, referent=nouns[int(np.argmax(pr))],
                      probs={n: float(q) for n, q in zip(nouns, pr)},
                      attention=np.array(out["attention"]), hidden=np.array(out["hidden"]),
                      logits=np.array(out["logits"]), model=model)


def _split_examples(lang, split):
    _check_lang(lang)
    return corpus.examples(lang, split)


def _margins(lang, split, model, ablate):
    """logit(referent) − logit(distractor) at the pronoun, one per sentence."""
    out = []
    for e in _split_examples(lang, split):
        logits = _forward(model, _ids(e.tokens), ablate)["logits"][e.pronoun_index]
        out.append(logits[corpus.token_id(e.referent)] - logits[corpus.token_id(e.distractor)])
    return np.array(out)


def heldout_accuracy(lang: str, model: str = "encoder", ablate=(), split: str = "heldout") -> float:
    """Share of the split's sentences whose referent beats the other noun (NumPy forward).

    ``ablate``: ``((layer, head), …)`` whose outputs are zeroed."""
    _check_model(model)
    return float((_margins(lang, split, model, _norm_ablate(ablate)) > 0).mean())


def rollout_accuracy(lang: str, split: str = "heldout", model: str = "encoder",
                     residual: float = 0.5) -> float:
    """Share of sentences where the rollout from the pronoun is higher on the referent."""
    from .attention import attention_rollout
    _check_model(model)
    right = []
    for e in _split_examples(lang, split):
        R = attention_rollout(_forward(model, _ids(e.tokens))["attention"], residual=residual)
        right.append(R[e.pronoun_index, e.referent_index] > R[e.pronoun_index, e.distractor_index])
    return float(np.mean(right))


def head_statistics(lang: str, split: str = "heldout", model: str = "encoder",
                    query: str = "pronoun") -> dict:
    """Per-head figures ``[L, A]`` from the pronoun's (or the adjective's) attention row.

    ``prefers_referent``: share of sentences where the head weighs the referent above the other
    noun; ``to_referent``, ``to_distractor``, ``to_adjective``, ``to_pronoun``: mean weights;
    ``flips``: share of minimal pairs (same nouns, same order, other adjective) where the head's
    preferred noun changes with the adjective.
    """
    if query not in ("pronoun", "adjective"):
        raise ValueError(f"query must be 'pronoun' or 'adjective', got {query!r}")
    _check_model(model)
    exs = _split_examples(lang, split)
    rows = {k: [] for k in ("referent", "distractor", "adjective", "pronoun")}
    pref, noun_a = [], {}
    for e in exs:
        W = _forward(model, _ids(e.tokens))["attention"]                 # [L, A, N, N]
        q = e.pronoun_index if query == "pronoun" else e.adjective_index
        row = W[:, :, q, :]                                               # [L, A, N]
        rows["referent"].append(row[..., e.referent_index])
        rows["distractor"].append(row[..., e.distractor_index])
        rows["adjective"].append(row[..., e.adjective_index])
        rows["pronoun"].append(row[..., e.pronoun_index])
        pref.append(row[..., e.referent_index] > row[..., e.distractor_index])
        first_wins = row[..., e.noun_indices[0]] > row[..., e.noun_indices[1]]
        noun_a.setdefault((e.schema, e.pair, e.order), []).append(first_wins)
    flips = [a != b for a, b in (v for v in noun_a.values() if len(v) == 2)]
    return {"prefers_referent": np.mean(pref, axis=0),
            "to_referent": np.mean(rows["referent"], axis=0),
            "to_distractor": np.mean(rows["distractor"], axis=0),
            "to_adjective": np.mean(rows["adjective"], axis=0),
            "to_pronoun": np.mean(rows["pronoun"], axis=0),
            "flips": np.mean(flips, axis=0),
            "n_sentences": len(exs)}


# ---------------------------------------------------------------- the decoder


def _decoder_tokens(tokens, lang, what="prefix"):
    _check_lang(lang)
    tokens = corpus.tokenize(tokens, lang)
    _, cfg, _ = tiny_models.load("decoder")
    if len(tokens) > cfg.max_len:
        raise ValueError(f"{what} has {len(tokens)} words; the decoder reads at most "
                         f"{cfg.max_len}")
    return tokens


def next_token_probs(prefix_tokens, lang: str, temperature: float = 1.0):
    """``(vocabulary, probs [|V|])``: the decoder's distribution of the word after the prefix."""
    from .attention import softmax
    tokens = _decoder_tokens(prefix_tokens, lang)
    logits = _forward("decoder", _ids(tokens))["logits"][-1]
    return list(corpus.vocabulary()), softmax(logits, temperature=temperature)


def generate(prefix_tokens, lang: str, temperature: float = 1.0, rng=None,
             max_tokens: int = 12) -> list:
    """The prefix continued by sampling from the decoder (``lib.sample``) until ``<eos>``,
    ``max_tokens`` new words or the decoder's length limit. Returns prefix + new words."""
    from .lm import sample
    tokens = _decoder_tokens(prefix_tokens, lang)
    _, cfg, _ = tiny_models.load("decoder")
    rng = np.random.default_rng() if rng is None else rng
    eos, pad = corpus.token_id(corpus.EOS), corpus.token_id(corpus.PAD)
    for _ in range(int(max_tokens)):
        if len(tokens) >= cfg.max_len:
            break
        logits = _forward("decoder", _ids(tokens))["logits"][-1].copy()    # [|V|]
        logits[pad] = -1e9          # padding is never a word: at a high τ it could be drawn
        nxt = int(sample(logits, temperature, rng))
        if nxt == eos:
            break
        tokens.append(corpus.vocabulary()[nxt])
    return tokens


def _log_probs(tokens) -> np.ndarray:
    """Natural-log probability of each word after the first, given the words before it."""
    logits = _forward("decoder", _ids(tokens))["logits"]                  # [N, |V|]
    z = logits[:-1] - logits[:-1].max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))                   # [N-1, |V|]
    return logp[np.arange(len(tokens) - 1), [corpus.token_id(t) for t in tokens[1:]]]


def surprisal(sentence, lang: str) -> list:
    """``[(word, bits), …]``: −log₂ p(word | the words before) for every word after the first."""
    tokens = _decoder_tokens(sentence, lang, "sentence")
    if len(tokens) < 2:
        raise ValueError("surprisal needs a sentence of at least two words")
    return [(t, float(-lp / math.log(2))) for t, lp in zip(tokens[1:], _log_probs(tokens))]


def _perplexity_sentences(split, lang):
    if split not in corpus.SPLITS:
        raise ValueError(f"split must be one of {corpus.SPLITS}, got {split!r}")
    if lang is not None:
        _check_lang(lang)
    return corpus.examples(lang, split)


@lru_cache(maxsize=None)
def decoder_perplexity(split: str = "heldout", lang: str | None = None) -> float:
    """exp(mean −log p) over every word after the first of the split's sentences (``<eos>``
    not counted), both languages unless ``lang`` is given."""
    lp = np.concatenate([_log_probs(e.tokens) for e in _perplexity_sentences(split, lang)])
    return float(np.exp(-lp.mean()))


@lru_cache(maxsize=None)
def _bigram_counts():
    V = corpus.vocab_size()
    counts = np.zeros((V, V))
    eos = corpus.token_id(corpus.EOS)
    for e in corpus.examples(split="train"):
        ids = list(_ids(e.tokens)) + [eos]
        for a, b in zip(ids[:-1], ids[1:]):
            counts[a, b] += 1
    counts.setflags(write=False)
    return counts


def bigram_perplexity(k: float, split: str = "heldout", lang: str | None = None) -> float:
    """Perplexity of an add-k bigram model counted on the training split (with ``<eos>``),
    scored like :func:`decoder_perplexity`. Every word but ``<pad>`` gets the k."""
    k = float(k)
    if not k > 0:
        raise ValueError(f"k must be > 0, got {k}")
    counts = _bigram_counts()
    V = corpus.vocab_size() - 1                                           # every word but <pad>
    lp = []
    for e in _perplexity_sentences(split, lang):
        ids = _ids(e.tokens)
        for a, b in zip(ids[:-1], ids[1:]):
            lp.append(math.log((counts[a, b] + k) / (counts[a].sum() + k * V)))
    return float(math.exp(-np.mean(lp)))


BIGRAM_KS = tuple(float(k) for k in np.logspace(-6, 1, 71))


@lru_cache(maxsize=None)
def best_bigram_k(split: str = "dev") -> float:
    """The add-k (on a log grid 1e-6 … 10) with the lowest perplexity on ``split`` (both
    languages): the baseline is tuned on the dev split, never on the held-out one."""
    return min(BIGRAM_KS, key=lambda k: bigram_perplexity(k, split=split))


# ---------------------------------------------------------------- the measured figures


def summary() -> dict:
    """Every figure the docstring reports, measured now from the shipped weights."""
    out = {}
    for lang in LANGS:
        out[f"encoder heldout accuracy {lang}"] = heldout_accuracy(lang)
        out[f"encoder train accuracy {lang}"] = heldout_accuracy(lang, split="train")
        out[f"encoder_nopos heldout accuracy {lang}"] = heldout_accuracy(lang, "encoder_nopos")
        out[f"rollout prefers referent {lang}"] = rollout_accuracy(lang)
        stats = head_statistics(lang)
        L, A = stats["prefers_referent"].shape
        for l in range(L):
            for h in range(A):
                out[f"head {l}.{h} prefers referent {lang}"] = float(stats["prefers_referent"][l, h])
                out[f"head {l}.{h} weight on adjective {lang}"] = float(stats["to_adjective"][l, h])
                out[f"head {l}.{h} flips with the adjective {lang}"] = float(stats["flips"][l, h])
        adj = head_statistics(lang, query="adjective")
        for l in range(L):
            for h in range(A):
                out[f"head {l}.{h} from adjective to referent {lang}"] = float(adj["to_referent"][l, h])
                out[f"head {l}.{h} from adjective to other noun {lang}"] = float(
                    adj["to_distractor"][l, h])
        big, small = canonical_pair(lang)
        out[f"canonical big -> {lang}"] = resolve(big, lang).referent
        out[f"canonical small -> {lang}"] = resolve(small, lang).referent
        out[f"decoder heldout perplexity {lang}"] = decoder_perplexity("heldout", lang)
    k = best_bigram_k("dev")
    out["decoder heldout perplexity"] = decoder_perplexity("heldout")
    out["decoder train perplexity"] = decoder_perplexity("train")
    out["bigram k tuned on dev"] = k
    out["bigram heldout perplexity"] = bigram_perplexity(k, "heldout")
    out["bigram add-one heldout perplexity"] = bigram_perplexity(1.0, "heldout")
    info = tiny_models.weights_info()
    out["weights total bytes"] = info["total_bytes"]
    for name, n in info["parameters"].items():
        out[f"parameters {name}"] = n
    for name in tiny_models.MODEL_NAMES:
        out[f"training seconds {name}"] = tiny_models.load(name)[2]["seconds"]
    out["decoder best step"] = tiny_models.load("decoder")[2]["best_step"]
    return out


def clear_caches() -> None:
    """Forget every cached forward pass and figure (after retraining in the same process)."""
    for f in (_forward, decoder_perplexity, _bigram_counts, best_bigram_k):
        f.cache_clear()


def format_value(v) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, (int, np.integer)):
        return str(int(v))
    if 0 < abs(v) < 0.01:
        return f"{v:.2e}"
    return f"{v:.3f}"


def summary_lines() -> list:
    return [f"    {k}: {format_value(v)}" for k, v in summary().items()]
