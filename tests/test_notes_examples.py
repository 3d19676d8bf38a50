"""The worked examples (算算看) of the main notes, section by section, through ``lib``.

Each test recomputes a number printed in ``shared/seeds/000_…`` and asserts it at the notes'
precision. The notes' tables were stripped; where a test needs one of their inputs it says
where the input comes from.
"""
from __future__ import annotations

import numpy as np
import pytest

import lib

# Section 1: a vocabulary of 4 tokens (獎盃, 行李箱, 它, 大), d = 3. Only 它's row is printed
# in the text ([0.2, 0.7, 0.5]); the other rows here are stand-ins.
IT = 2
E_NOTES = np.array([[0.9, 0.1, 0.3],
                    [0.4, 0.8, 0.2],
                    [0.2, 0.7, 0.5],
                    [0.6, 0.3, 0.9]])

# Section 3: the projected keys and values of 獎盃, 行李箱, 它 (d_k = 2) and 它's query.
K_NOTES = np.array([[2.0, 1.0], [1.0, 0.0], [0.0, 1.0]])
V_NOTES = np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]])
Q_NOTES = np.array([[1.0, 1.0], [0.0, 2.0], [1.0, 2.0]])   # rows 1–2 arbitrary; row 3 = q_它

# Section 3 (advanced): 狗咬人 with d = 2, identity projections.
DOG, BITE, MAN = [1.0, 0.2], [0.0, 1.0], [0.8, 0.6]
SEATS = np.array([[0.4, 0.0], [0.0, 0.2], [-0.4, 0.0]])

# Section 5: the scores of the LM head, 大 is the 4th token.
U_NOTES = np.array([0.98, 0.76, 0.60, 1.06])
BIG = 3


# --- 1. tokens and embeddings -------------------------------------------------------------

def test_s1_one_hot_of_it_picks_the_third_row():
    x = lib.one_hot(IT, 4)
    np.testing.assert_array_equal(x, [0, 0, 1, 0])
    np.testing.assert_allclose(x @ E_NOTES, [0.2, 0.7, 0.5])
    np.testing.assert_allclose(lib.embed(IT, E_NOTES), [0.2, 0.7, 0.5])


def test_s1_both_sentences_look_up_the_same_row_for_it():
    big, small = [0, 1, IT, 3], [0, 1, IT, 1]     # …它太大了 / …它太小了 (small: any other id)
    np.testing.assert_array_equal(lib.embed(big, E_NOTES)[2], lib.embed(small, E_NOTES)[2])


# --- 2. position embeddings ---------------------------------------------------------------

def test_s2_it_at_seat_11():
    E_pos = np.zeros((16, 3))
    E_pos[11] = [0.1, -0.2, 0.0]
    x = lib.embed(IT, E_NOTES) + lib.embed(11, E_pos)
    np.testing.assert_allclose(x, [0.3, 0.5, 0.5])


# --- 3. self-attention --------------------------------------------------------------------

def test_s3_trophy_suitcase_it_weights_and_output():
    out, w = lib.scaled_dot_product_attention(Q_NOTES, K_NOTES, V_NOTES)
    raw = Q_NOTES[2] @ K_NOTES.T
    np.testing.assert_allclose(raw, [4, 1, 2])                    # step 1
    np.testing.assert_allclose((raw / np.sqrt(2)).round(2), [2.83, 0.71, 1.41])  # step 2
    np.testing.assert_allclose(w[2].round(2), [0.73, 0.09, 0.18])  # step 3
    np.testing.assert_allclose(out[2].round(2), [0.82, 0.18])      # step 4


def test_s3_scaling_scores_8_4_0_at_dk_64():
    scores = np.array([[8.0, 4.0, 0.0]])
    Q = np.zeros((1, 64)); Q[0, :3] = scores[0]                  # q · k_j = 8, 4, 0
    K = np.zeros((3, 64)); K[[0, 1, 2], [0, 1, 2]] = 1.0
    _, raw = lib.scaled_dot_product_attention(Q, K, np.eye(3), scale=False)
    _, scaled = lib.scaled_dot_product_attention(Q, K, np.eye(3))
    np.testing.assert_allclose(raw[0].round(3), [0.982, 0.018, 0.000])
    np.testing.assert_allclose(scaled[0].round(3), [0.506, 0.307, 0.186])
    assert raw[0, 0] > 0.98 and scaled[0, 0] < 0.51


def test_s3_causal_mask_first_row_and_last_row():
    _, w = lib.scaled_dot_product_attention(Q_NOTES, K_NOTES, V_NOTES, causal=True)
    np.testing.assert_array_equal(w[0], [1, 0, 0])
    np.testing.assert_allclose(w[2].round(2), [0.73, 0.09, 0.18])


@pytest.mark.parametrize("with_seats, weights, output", [
    (False, [0.21, 0.47, 0.32], [0.465, 0.704]),
    (True, [0.168, 0.559, 0.272], None),
])
def test_s3_dog_bites_man(with_seats, weights, output):
    X = np.array([DOG, BITE, MAN]) + (SEATS if with_seats else 0)
    out, w = lib.scaled_dot_product_attention(X, X, X, scale=False)   # W = I, raw scores
    digits = 3 if with_seats else 2
    np.testing.assert_allclose(w[1].round(digits), weights)
    if output is not None:
        np.testing.assert_allclose(out[1].round(3), output)
    if with_seats:
        np.testing.assert_allclose((X[1] @ X.T).round(2), [0.24, 1.44, 0.72])


def test_s3_man_bites_dog_same_output_without_seats_different_with():
    dog_bites = np.array([DOG, BITE, MAN])
    man_bites = np.array([MAN, BITE, DOG])
    plain = [lib.scaled_dot_product_attention(X, X, X, scale=False)[0][1]
             for X in (dog_bites, man_bites)]
    np.testing.assert_allclose(plain[0], plain[1])                # the same bag of words
    seated = [lib.scaled_dot_product_attention(X + SEATS, X + SEATS, X + SEATS,
                                               scale=False)[0][1]
              for X in (dog_bites, man_bites)]
    assert np.abs(seated[0] - seated[1]).max() > 0.05
    np.testing.assert_allclose((dog_bites + SEATS)[0], [1.4, 0.2])  # 狗 as subject
    np.testing.assert_allclose((man_bites + SEATS)[2], [0.6, 0.2])  # 狗 as object


def test_s3_sinusoidal_values_at_d4():
    np.testing.assert_allclose(lib.sinusoidal_encoding(1, 4).round(3), [0.841, 0.540, 0.010, 1.0])
    pe7 = lib.sinusoidal_encoding(7, 4)
    np.testing.assert_allclose(pe7[:2].round(3), [0.657, 0.754])
    assert round(float(pe7[2]), 3) == 0.070
    assert lib.sinusoidal_encoding(100, 4)[2] == pytest.approx(np.sin(1.0))  # the hour hand: 1 rad


@pytest.mark.parametrize("p, q", [(1, 3), (5, 7), (40, 42)])
def test_s3_sinusoidal_dot_product_at_distance_two(p, q):
    pe = lib.sinusoidal_encoding([p, q], 4)
    assert round(float(pe[0] @ pe[1]), 3) == 0.584


@pytest.mark.parametrize("m, n, score", [(1, 1, 4.0), (2, 1, 1.964), (3, 1, -0.598),
                                         (7, 5, -0.598)])
def test_s3_rope_scores_of_it_and_trophy(m, n, score):
    q, k = np.array([1.0, 2.0]), np.array([2.0, 1.0])
    s = lib.rope(q, m, theta=np.pi / 6) @ lib.rope(k, n, theta=np.pi / 6)
    assert round(float(s), 3) == score


def test_s3_rope_unit_vectors_cos60():
    e = np.array([[1.0, 0.0], [1.0, 0.0]])
    for a, b in [(1, 3), (5, 7)]:
        r = lib.rope(e, [a, b], theta=np.pi / 6)
        assert r[0] @ r[1] == pytest.approx(0.5)
    np.testing.assert_allclose(lib.rope([1.0, 2.0], 3, theta=np.pi / 6), [-2.0, 1.0],
                               atol=1e-12)                       # q turned by 90°


# --- 4. multi-head attention and the block --------------------------------------------------

def test_s4_two_heads_of_width_4_keep_d_8(rng):
    X = rng.normal(size=(5, 8))
    W = [rng.normal(size=(8, 8)) for _ in range(4)]
    out, w = lib.multi_head_attention(X, *W, n_heads=2)
    assert out.shape == (5, 8) and w.shape == (2, 5, 5)


def test_s4_residual_step():
    x11 = lib.embed(IT, E_NOTES) + np.array([0.1, -0.2, 0.0])
    np.testing.assert_allclose(np.array([0.2, -0.1, 0.4]) + x11, [0.5, 0.4, 0.9])


def test_s4_relu():
    np.testing.assert_array_equal(lib.relu([-1.2, 0.5, 3.0, -0.3]), [0, 0.5, 3.0, 0])


def test_s4_gpt2_feed_forward_widths(rng):
    x = rng.normal(size=(2, 768)) * 0.02
    W1, W2 = rng.normal(size=(768, 3072)) * 0.02, rng.normal(size=(3072, 768)) * 0.02
    assert lib.feed_forward(x, W1, np.zeros(3072), W2, np.zeros(768)).shape == (2, 768)


def test_s4_layer_norm_of_2_4_6_8():
    y = lib.layer_norm([2.0, 4.0, 6.0, 8.0])
    np.testing.assert_allclose(y.round(3), [-1.342, -0.447, 0.447, 1.342])
    assert y.mean() == pytest.approx(0, abs=1e-12)
    assert y.std() == pytest.approx(1, abs=1e-5)                  # population std, ε = 1e-5


# --- 5. contextual vectors, LM head, pretraining ---------------------------------------------

def test_s5_lm_head_score_of_it_and_probability_of_big():
    h = np.array([0.8, 0.2, 0.6])
    assert lib.lm_head(h, E_NOTES)[IT] == pytest.approx(0.60)     # h · [0.2, 0.7, 0.5]
    p = lib.softmax(U_NOTES)
    assert round(float(p[BIG]), 3) == 0.303
    assert p.argmax() == BIG


@pytest.mark.parametrize("p_big, loss", [(0.303, 1.19), (0.9, 0.105), (0.01, 4.61)])
def test_s5_cross_entropy_three_levels_of_confidence(p_big, loss):
    logits = np.log([p_big, (1 - p_big) / 3, (1 - p_big) / 3, (1 - p_big) / 3])
    assert lib.cross_entropy(logits, 0) == pytest.approx(loss, abs=0.006)


def test_s5_cross_entropy_of_the_notes_scores():
    assert lib.cross_entropy(U_NOTES, BIG) == pytest.approx(-np.log(lib.softmax(U_NOTES)[BIG]))
    assert round(lib.cross_entropy(U_NOTES, BIG), 2) == 1.19       # −ln 0.303


def test_s5_temperature_half_sharpens_big():
    p = lib.softmax(U_NOTES, temperature=0.5)
    assert round(float(p[BIG]), 3) == 0.357
    p1 = lib.softmax(U_NOTES)
    # The notes say "the others all fall"; in fact 0.98 (the runner-up) rises 0.280 → 0.304.
    # What holds: the two lowest scores fall and the distribution gets sharper.
    assert (p[1:3] < p1[1:3]).all()
    assert -(p * np.log(p)).sum() < -(p1 * np.log(p1)).sum()      # lower entropy
    np.testing.assert_allclose(p, lib.softmax(2 * U_NOTES))       # τ = 0.5 doubles the scores


def test_s5_temperature_near_zero_is_greedy(rng):
    draws = {lib.sample(U_NOTES, 0.01, rng) for _ in range(50)}
    assert draws == {BIG}


# --- 6. evaluation ------------------------------------------------------------------------

def test_s6_perplexity_of_half_quarter_eighth():
    p = [0.5, 0.25, 0.125]
    np.testing.assert_allclose(-np.log(p).round(3), [0.693, 1.386, 2.079])
    assert lib.perplexity(p) == pytest.approx(4.0)


def test_s6_perplexity_four_way_dice_and_one_bad_guess():
    assert lib.perplexity([0.25] * 8) == pytest.approx(4.0)
    assert round(lib.perplexity([0.9, 0.5, 0.05, 0.6]), 2) == 2.93


def test_s6_perplexity_is_exp_of_cross_entropy():
    logits = np.log([[0.5, 0.5], [0.25, 0.75], [0.125, 0.875]])
    assert lib.perplexity([0.5, 0.25, 0.125]) == pytest.approx(
        np.exp(lib.cross_entropy(logits, [0, 0, 0])))


# --- 7. a linguistic look back ------------------------------------------------------------

def test_s7_surprisal_is_the_per_token_loss():
    # surprisal −log P(w_t | w_<t) of 大 under the notes' scores, in nats and in bits
    nats = lib.cross_entropy(U_NOTES, BIG)
    assert nats == pytest.approx(-np.log(0.3035), abs=1e-3)
    assert nats / np.log(2) == pytest.approx(1.72, abs=0.01)


def test_s7_causal_it_cannot_see_big_or_small_bidirectional_can(rng):
    # 獎盃 放不進 行李箱 因為 它 太 大/小 了: same prefix, a different word after 它
    d = 6
    E = rng.normal(size=(9, d))
    big, small = [0, 1, 2, 3, 4, 5, 6, 8], [0, 1, 2, 3, 4, 5, 7, 8]
    W = [rng.normal(size=(d, d)) for _ in range(4)]
    it = 4

    def at_it(ids, causal):
        X = lib.embed(ids, E) + lib.sinusoidal_encoding(np.arange(len(ids)), d)
        return lib.multi_head_attention(X, *W, n_heads=2, causal=causal)[0][it]

    np.testing.assert_allclose(at_it(big, True), at_it(small, True))       # the decoder
    assert np.abs(at_it(big, False) - at_it(small, False)).max() > 1e-3    # the encoder
