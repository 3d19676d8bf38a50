"""lib.embeddings: one-hot vectors and the embedding lookup."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import lib


@given(st.integers(1, 12).flatmap(lambda V: st.tuples(
    st.just(V), st.lists(st.integers(0, V - 1), min_size=1, max_size=10))))
def test_lookup_equals_one_hot_times_E(case):
    V, ids = case
    E = np.random.default_rng(V).normal(size=(V, 5))
    np.testing.assert_allclose(lib.embed(ids, E), lib.one_hot(ids, V) @ E)


@given(st.lists(st.integers(0, 6), min_size=1, max_size=10))
def test_one_hot_rows_have_a_single_one_where_the_id_is(ids):
    X = lib.one_hot(ids, 7)
    assert X.shape == (len(ids), 7)
    np.testing.assert_array_equal(X.sum(axis=1), 1)
    np.testing.assert_array_equal(X.argmax(axis=1), ids)


def test_single_id_gives_a_vector_and_empty_ids_give_no_rows(rng):
    E = rng.normal(size=(4, 3))
    assert lib.embed(3, E).shape == (3,)
    assert lib.one_hot(3, 4).shape == (4,)
    assert lib.embed([], E).shape == (0, 3)


def test_numpy_integer_ids_and_float32_table(rng):
    E = rng.normal(size=(5, 2)).astype(np.float32)
    out = lib.embed(np.array([4, 0], dtype=np.int32), E)
    assert out.dtype == np.float32
    np.testing.assert_array_equal(out, E[[4, 0]])
