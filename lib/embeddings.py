"""Tokens and embeddings (chapter 1): one-hot vectors and the embedding lookup.

The embedding matrix ``E`` has one row per token of the vocabulary, shape ``[|V|, d]``.
Looking a token up is the same as multiplying its one-hot row vector by ``E``.
"""
from __future__ import annotations

import numpy as np

from . import _validate as _v

__all__ = ["one_hot", "embed"]


def one_hot(ids, vocab_size):
    """One-hot row vectors of token ids.

    ``one_hot(w)[i, j] = 1`` if ``w_i = j`` else ``0``.

    Parameters
    ----------
    ids : int or array-like of int, shape [N]
        Token ids, each in ``0 … vocab_size − 1``.
    vocab_size : int
        ``|V|``, the size of the vocabulary.

    Returns
    -------
    np.ndarray, shape [N, |V|] (or [|V|] for a single id)
    """
    V = _v.positive_int(vocab_size, "vocab_size")
    ids = _v.as_ids(ids, "ids", V)                          # [N] or []
    return (ids[..., None] == np.arange(V)).astype(float)   # [N, |V|]


def embed(ids, E):
    """Look up the embedding rows of token ids: ``x_i = E[w_i] = one_hot(w_i) @ E``.

    Parameters
    ----------
    ids : int or array-like of int, shape [N]
        Token ids, each in ``0 … |V| − 1``.
    E : array-like, shape [|V|, d]
        The embedding matrix, one row per token.

    Returns
    -------
    np.ndarray, shape [N, d] (or [d] for a single id)
    """
    E = _v.as_array(E, "E", ndims=2, meaning="[|V|, d], one row per token")
    ids = _v.as_ids(ids, "ids", E.shape[0])
    return E[ids]                                           # [N, d]
