"""A small, readable byte-level BPE tokenizer (chapter 1).

Byte-pair encoding (Sennrich et al. 2016) starts from the smallest pieces and repeatedly glues
the most frequent neighbouring pair into a new piece. This version is **byte-level**, as in
GPT-2 and most large models: the starting pieces are the 256 possible bytes of UTF-8 text, so
every string can be encoded (there is no "unknown" token) and the same tokenizer serves Chinese
and English. The price is visible at once: a Latin letter is one byte in UTF-8, a Han character
three, so a Chinese character the merges have not seen costs three tokens.

Before counting pairs the text is cut into chunks (:func:`pretokenize`) — an English word with
its leading space, a run of Han characters, a run of digits, punctuation — and merges never
cross a chunk boundary, so ``"e t"`` in ``"the trophy"`` is never glued. A run of Han
characters is one chunk, because written Chinese has no spaces: BPE may learn ``行李`` and
then ``行李箱``.

Ids: ``0 … 255`` are the single bytes; merge number ``k`` (from 0) creates id ``256 + k``.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import _validate as _v

__all__ = ["BPE", "train_bpe", "pretokenize", "show_piece", "parallel_text"]

#: An English word with its leading space, a run of Han characters, a run of digits, other
#: symbols with their leading space, or whitespace (the order of the alternatives matters).
_CHUNK = re.compile(
    r" ?[A-Za-z]+(?:'[A-Za-z]+)?"          # " trophy", " doesn't"
    r"|[\u3400-\u9fff\uf900-\ufaff]+"       # 獎盃放不進行李箱 (CJK ideographs)
    r"| ?[0-9]+"
    r"| ?[^\sA-Za-z0-9\u3400-\u9fff\uf900-\ufaff]+"   # punctuation: "，", "。", " ;"
    r"|\s+"
)


def pretokenize(text: str) -> list[str]:
    """Cut ``text`` into the chunks inside which merges may happen.

    ``"".join(pretokenize(t)) == t`` for every string ``t``.
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    return _CHUNK.findall(text)


def show_piece(piece: bytes) -> str:
    """A readable form of a byte string: the characters it spells, and ``<e7>`` for any byte
    that is only part of a character (a merge may stop in the middle of a Han character)."""
    out, i = [], 0
    while i < len(piece):
        for width in (1, 2, 3, 4):                       # the shortest valid character first
            try:
                out.append(piece[i:i + width].decode("utf-8"))
                i += width
                break
            except UnicodeDecodeError:
                continue
        else:
            out.append(f"<{piece[i]:02x}>")
            i += 1
    return "".join(out)


@dataclass
class BPE:
    """A trained tokenizer: the merges in the order they were learned.

    Attributes
    ----------
    merges : list of (int, int)
        Merge ``k`` glues the pair ``merges[k]`` into the new id ``256 + k``.
    counts : list of int
        How often that pair occurred in the training text when it was chosen.
    vocab : dict int -> bytes
        The byte string each id stands for; ``len(vocab) == 256 + len(merges)``.
    """

    merges: list = field(default_factory=list)
    counts: list = field(default_factory=list)
    vocab: dict = field(default_factory=lambda: {i: bytes([i]) for i in range(256)})

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def encode(self, text: str) -> list[int]:
        """Token ids of ``text``: its bytes, then every merge applied in the order learned."""
        ids = []
        for chunk in pretokenize(text):
            ids.extend(self._encode_chunk(chunk))
        return ids

    def _encode_chunk(self, chunk: str) -> list[int]:
        seq = list(chunk.encode("utf-8"))
        rank = self._ranks()
        while len(seq) > 1:
            # the pair among the neighbours whose merge was learned first
            pairs = [(rank.get(p, len(rank)), j) for j, p in enumerate(zip(seq, seq[1:]))]
            best, _ = min(pairs)
            if best == len(rank):                        # no learned merge applies any more
                break
            seq = _merge(seq, self.merges[best], 256 + best)
        return seq

    def _ranks(self) -> dict:
        if getattr(self, "_rank_cache", (None, -1))[1] != len(self.merges):
            self._rank_cache = ({p: k for k, p in enumerate(self.merges)}, len(self.merges))
        return self._rank_cache[0]

    def decode(self, ids) -> str:
        """The text back from token ids (``decode(encode(t)) == t``)."""
        ids = _v.as_ids(ids, "ids", self.vocab_size)
        return b"".join(self.vocab[int(i)] for i in ids.reshape(-1)).decode("utf-8",
                                                                            errors="replace")

    def pieces(self, text: str) -> list[str]:
        """The readable piece of every token of ``text`` (see :func:`show_piece`)."""
        return [show_piece(self.vocab[i]) for i in self.encode(text)]

    def truncated(self, n_merges: int) -> "BPE":
        """The same tokenizer stopped after its first ``n_merges`` merges (as if trained that
        long: training is deterministic, so the first merges never depend on later ones)."""
        n = min(_v.positive_int(n_merges, "n_merges", minimum=0), len(self.merges))
        return BPE(merges=list(self.merges[:n]), counts=list(self.counts[:n]),
                   vocab={i: self.vocab[i] for i in range(256 + n)})

    def merge_table(self, first: int | None = None) -> list[tuple[str, str, str, int]]:
        """``(left, right, merged, count)`` for the first ``first`` merges (all by default)."""
        rows = []
        for (a, b), c in list(zip(self.merges, self.counts))[:first]:
            rows.append((show_piece(self.vocab[a]), show_piece(self.vocab[b]),
                         show_piece(self.vocab[a] + self.vocab[b]), int(c)))
        return rows


def _merge(seq: list[int], pair: tuple[int, int], new_id: int) -> list[int]:
    """Replace every occurrence of ``pair`` in ``seq`` (left to right) by ``new_id``."""
    out, j = [], 0
    while j < len(seq):
        if j + 1 < len(seq) and (seq[j], seq[j + 1]) == pair:
            out.append(new_id)
            j += 2
        else:
            out.append(seq[j])
            j += 1
    return out


def train_bpe(text, n_merges: int) -> BPE:
    """Learn ``n_merges`` merges on ``text`` (a string, or a list of strings).

    Each step counts every pair of neighbouring ids inside every chunk, weighted by how often
    the chunk occurs, glues the most frequent pair into a new id (ties go to the pair seen
    first in the text, so training is deterministic), and rewrites the chunks. Training stops
    early when no pair occurs twice: gluing a pair seen once learns nothing general.

    Parameters
    ----------
    text : str or list of str
    n_merges : int
        The number of merges to learn (``≥ 0``); the vocabulary grows to ``256 + n_merges``.

    Returns
    -------
    BPE
    """
    if isinstance(text, (list, tuple)):
        if not all(isinstance(t, str) for t in text):
            raise TypeError("text must be a str or a list of str")
        text = "\n".join(text)
    if not isinstance(text, str):
        raise TypeError(f"text must be a str or a list of str, got {type(text).__name__}")
    n_merges = _v.positive_int(n_merges, "n_merges", minimum=0)
    chunk_freq = Counter(pretokenize(text))
    order = {c: i for i, c in enumerate(chunk_freq)}       # first occurrence, for ties
    words = {c: list(c.encode("utf-8")) for c in chunk_freq}
    bpe = BPE()
    for k in range(n_merges):
        pair_freq, first_seen = Counter(), {}
        for c, seq in words.items():
            for j, p in enumerate(zip(seq, seq[1:])):
                pair_freq[p] += chunk_freq[c]
                first_seen.setdefault(p, (order[c], j))
        if not pair_freq:
            break
        pair = max(pair_freq, key=lambda p: (pair_freq[p], tuple(-x for x in first_seen[p])))
        if pair_freq[pair] < 2:
            break
        new_id = 256 + k
        bpe.merges.append(pair)
        bpe.counts.append(pair_freq[pair])
        bpe.vocab[new_id] = bpe.vocab[pair[0]] + bpe.vocab[pair[1]]
        words = {c: _merge(seq, pair, new_id) for c, seq in words.items()}
    return bpe


_DATA = Path(__file__).resolve().parent / "data" / "parallel_zh_en.tsv"
N_HELDOUT = 10


def parallel_text(split: str = "train") -> list[tuple[str, str]]:
    """The book's small parallel text: ``(zh, en)`` pairs with the same content.

    ``split`` is ``"train"`` (the pairs the chapter learns merges on), ``"heldout"`` (the last
    ten pairs, never seen while learning) or ``"all"``.
    """
    lines = [ln for ln in _DATA.read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    pairs = [tuple(ln.split("\t")) for ln in lines]
    if split == "train":
        return pairs[:-N_HELDOUT]
    if split == "heldout":
        return pairs[-N_HELDOUT:]
    if split == "all":
        return pairs
    raise ValueError(f"split must be 'train', 'heldout' or 'all', got {split!r}")
