"""Chapter 3: self-attention, with the advanced part "positions inside the dot product"
(sinusoidal encodings, RoPE). Both books; the notes' §3 (seed 000)."""
from nbgen import Chapter

ch = Chapter("03-self-attention")

ch.md(
    zh="""
# 3. 自注意力

每個詞環顧整句，挑出對自己最要緊的幾個詞，把它們的意思混進自己的向量。這一章是全書的核心：
前兩章把字變成數字、標上座位，從這一章開始，向量才真正隨語境改變。
""",
    en="""
# 3. Self-attention

Each word looks around the sentence, picks out the few words that matter most to it, and mixes
their meaning into its own vector. This chapter is the heart of the book: the first two chapters
turned words into numbers and gave them seats; from here on, vectors start to change with their
context.
""",
)

ch.bootstrap()

ch.md(
    zh="""
**這一章你會學到：**

- 用「在圖書館找書」理解查詢（query）、鍵（key）、值（value），以及注意力的式子；
- 親手（再用 `lib`）算完「獎盃、行李箱、它」三個詞元的例子；
- 為什麼分數要除以 $\\sqrt{d_k}$——先看變異數，再用互動圖看 softmax 怎麼被壓扁；
- 矩陣形式與因果遮罩，以及雙向與因果注意力對「它」的差別；
- 注意力的代價：$N \\times N$ 個分數，實際量一量時間和記憶體；
- 進階：把位置寫進內積——置換等變、正弦編碼、旋轉位置編碼 RoPE（第二個互動圖）。
""",
    en="""
**In this chapter you will learn:**

- queries, keys and values through a library analogy, and the formula of attention;
- the notes' three-token example (trophy, suitcase, it), by hand and with `lib`;
- why the scores are divided by $\\sqrt{d_k}$: the variance first, then an interactive figure of
  how softmax gets squashed;
- the matrix form and the causal mask, and what bidirectional vs causal attention means for "it";
- the cost of attention: $N \\times N$ scores, with time and memory measured;
- advanced: positions inside the dot product — permutation equivariance, sinusoidal encodings and
  rotary position embeddings, RoPE (the second interactive figure).
""",
)

ch.code("""
import inspect
import numpy as np
import lib.figures.attention, lib.figures.rope, lib.figures.cost
""")

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
(def-self-attention)=
## 在圖書館找書

想像你帶著一個問題走進圖書館。每本書的書背都貼著標籤；問題和標籤越吻合，你就越仔細讀那本書的內容。
讀完之後，你依照每本書投入的心力，把各本的內容加權寫成一份筆記。

{term}`自注意力 <自注意力（self-attention）>`就是這樣運作的，而且句子裡**每個詞同時扮演三個角色**：

- **查詢**（query，$\mathbf{q}$）：我想找什麼？
- **鍵**（key，$\mathbf{k}$）：我的書背上貼著什麼標籤？
- **值**（value，$\mathbf{v}$）：被選中時，我提供什麼內容？

那份筆記，就是這個詞的新表示。Jurafsky 與 Martin 的定義更短 {cite}`jurafsky2025slp`：**注意力是向量的加權總和，權重取決於相似度。**
""",
    en=r"""
(def-self-attention)=
## Looking for books in a library

Picture yourself walking into a library with a question. Every book has a label on its spine; the
better a label matches your question, the more closely you read that book. Afterwards you write
one page of notes, mixing the books' contents in proportion to the attention you gave each.

{term}`Self-attention <self-attention（自注意力）>` works the same way, and **every word in the sentence
plays all three roles at once**:

- the **query** ($\mathbf{q}$): what am I looking for?
- the **key** ($\mathbf{k}$): what label is on my spine?
- the **value** ($\mathbf{v}$): what do I hand over when I am chosen?

The page of notes is the word's new representation. Jurafsky and Martin put it in one line
{cite}`jurafsky2025slp`: **attention is a weighted sum of vectors, with weights that come from
similarity.**
""",
)

ch.md(
    zh=r"""
(def-query-key-value)=
## 式子：單一注意力頭

三個可學習的矩陣把詞 $i$ 的輸入 $\mathbf{x}_i$（一個列向量）投影成三種角色：

$$
\mathbf{q}_i = \mathbf{x}_i \mathbf{W}^Q, \qquad \mathbf{k}_i = \mathbf{x}_i \mathbf{W}^K, \qquad \mathbf{v}_i = \mathbf{x}_i \mathbf{W}^V .
$$

$\mathbf{W}^Q$ 與 $\mathbf{W}^K$ 的形狀是 $[d \times d_k]$，$\mathbf{W}^V$ 是 $[d \times d_v]$。接著用內積衡量吻合度、
用 softmax 換成權重、再把值向量加權相加：

$$
\alpha_{ij} = \operatorname{softmax}_j\!\left(\frac{\mathbf{q}_i \cdot \mathbf{k}_j}{\sqrt{d_k}}\right),
\qquad
\mathbf{a}_i = \sum_j \alpha_{ij}\, \mathbf{v}_j .
$$

$j$ 走遍詞 $i$ 看得到的位置：在生成式模型裡只有 $j \le i$（只看左邊），稍後的因果遮罩會處理這件事。
多頭注意力最後用來彙整的 $\mathbf{W}^O$ 留到下一章；這一章的 $\mathbf{a}_i$ 就是值向量的加權總和。

(def-softmax)=
### softmax

softmax 把任意一串分數變成一組非負、總和為 1 的權重：

$$
\operatorname{softmax}(\mathbf{z})_j = \frac{e^{z_j}}{\sum_{j'} e^{z_{j'}}} .
$$

分數越高，分到的權重越多；分數全部加上同一個常數，結果不變。`lib.softmax` 就利用這一點，先減去最大值，
讓 $e^{z}$ 不會溢位。
""",
    en=r"""
(def-query-key-value)=
## The formula: one attention head

Three learned matrices project the input $\mathbf{x}_i$ of word $i$ (a row vector) into the three
roles:

$$
\mathbf{q}_i = \mathbf{x}_i \mathbf{W}^Q, \qquad \mathbf{k}_i = \mathbf{x}_i \mathbf{W}^K, \qquad \mathbf{v}_i = \mathbf{x}_i \mathbf{W}^V .
$$

$\mathbf{W}^Q$ and $\mathbf{W}^K$ have shape $[d \times d_k]$, $\mathbf{W}^V$ has shape
$[d \times d_v]$. Then a dot product measures the match, softmax turns the matches into weights,
and the values are summed with those weights:

$$
\alpha_{ij} = \operatorname{softmax}_j\!\left(\frac{\mathbf{q}_i \cdot \mathbf{k}_j}{\sqrt{d_k}}\right),
\qquad
\mathbf{a}_i = \sum_j \alpha_{ij}\, \mathbf{v}_j .
$$

$j$ runs over the positions word $i$ may see: in a generative model only $j \le i$ (the left side),
which the causal mask below takes care of. The matrix $\mathbf{W}^O$ that multi-head attention uses
to combine its heads waits for the next chapter; here $\mathbf{a}_i$ is simply the weighted sum of
the values.

(def-softmax)=
### Softmax

Softmax turns any list of scores into non-negative weights that sum to 1:

$$
\operatorname{softmax}(\mathbf{z})_j = \frac{e^{z_j}}{\sum_{j'} e^{z_{j'}}} .
$$

A higher score gets a larger weight, and adding the same constant to every score changes nothing.
`lib.softmax` uses exactly that: it subtracts the largest score first, so $e^{z}$ never overflows.
""",
)

ch.code("""
lib.softmax([4.0, 1.0, 2.0]).round(3), lib.softmax([1004.0, 1001.0, 1002.0]).round(3)
""")

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
## 算算看：獎盃、行李箱、它

只取三個詞元（獎盃、行李箱、它），$d_k = 2$。假設投影之後得到下面的鍵與值（數字是為了好算而挑的，
不是訓練出來的）；「它」是第 3 個詞元，查詢向量 $\mathbf{q}_3 = [1, 2]$。
""",
    en=r"""
## Worked example: trophy, suitcase, it

Take only three tokens (trophy, suitcase, it) and $d_k = 2$. Suppose the projections gave the keys
and values below (numbers picked to be easy to compute by hand, not trained ones); "it" is the third
token, with query $\mathbf{q}_3 = [1, 2]$.
""",
)

ch.code("""
tokens = lib.tr(zh=["獎盃", "行李箱", "它"], en=["trophy", "suitcase", "it"])
K = np.array([[2.0, 1.0],     # 獎盃 trophy
              [1.0, 0.0],     # 行李箱 suitcase
              [0.0, 1.0]])    # 它 it                  [N, d_k] = [3, 2]
V = np.array([[1.0, 0.0],
              [0.0, 1.0],
              [0.5, 0.5]])    #                        [N, d_v] = [3, 2]
q_it = np.array([1.0, 2.0])   # the query of 它 / it   [d_k]
d_k = K.shape[1]

scores = K @ q_it                 # ① dot products q·k_j        [N]
scaled = scores / np.sqrt(d_k)    # ② divided by √d_k           [N]
weights = lib.softmax(scaled)     # ③ weights that sum to 1     [N]
out = weights @ V                 # ④ weighted sum of values    [d_v]
for name, value in [("① q·k", scores), ("② /√d_k", scaled), ("③ softmax", weights), ("④ a", out)]:
    print(f"{name:10s}", value.round(2))
""")

ch.hidden("""
for tok, s, sc, e, w in zip(["trophy", "suitcase", "it"], scores, scaled, np.exp(scaled), weights):
    lib.glue(f"score_{tok}", int(s)); lib.glue(f"scaled_{tok}", float(sc))
    lib.glue(f"exp_{tok}", float(e)); lib.glue(f"w_{tok}", float(w))
lib.glue("sqrt_dk", float(np.sqrt(d_k)))
lib.glue("exp_sum", float(np.exp(scaled).sum()))
lib.glue("out_0", float(out[0])); lib.glue("out_1", float(out[1]))
lib.glue("out_share_pct", float(100 * weights[0] * V[0, 0] / out[0]));
""")

ch.check("""
assert scores.tolist() == [4.0, 1.0, 2.0]
assert np.allclose(scaled, [2.83, 0.71, 1.41], atol=0.005)
assert np.allclose(np.exp(scaled), [16.9, 2.0, 4.1], atol=0.05) and abs(np.exp(scaled).sum() - 23.1) < 0.05
assert np.allclose(weights, [0.73, 0.09, 0.18], atol=0.005)
assert np.allclose(out, [0.82, 0.18], atol=0.005)
""")

ch.md(
    zh=r"""
四個步驟：

1. **內積** $\mathbf{q}_3 \cdot \mathbf{k}_j$：獎盃 $1\times2 + 2\times1 =$ {glue:text}`score_trophy`，行李箱 $1\times1 + 2\times0 =$ {glue:text}`score_suitcase`，它 $1\times0 + 2\times1 =$ {glue:text}`score_it`。
2. **除以** $\sqrt{d_k} \approx$ {glue:text}`sqrt_dk:.3f`：得 {glue:text}`scaled_trophy:.2f`、{glue:text}`scaled_suitcase:.2f`、{glue:text}`scaled_it:.2f`。
3. **softmax**：$e^{2.83} \approx$ {glue:text}`exp_trophy:.1f`、$e^{0.71} \approx$ {glue:text}`exp_suitcase:.1f`、$e^{1.41} \approx$ {glue:text}`exp_it:.1f`，總和約 {glue:text}`exp_sum:.1f`，所以 $\alpha_{3j} \approx$ {glue:text}`w_trophy:.2f`、{glue:text}`w_suitcase:.2f`、{glue:text}`w_it:.2f`。
4. **加權總和**：$\mathbf{a}_3 = 0.73\,[1, 0] + 0.09\,[0, 1] + 0.18\,[0.5, 0.5] \approx$ [{glue:text}`out_0:.2f`, {glue:text}`out_1:.2f`]。

`lib.scaled_dot_product_attention` 一次做完這四步，給出同樣的輸出與權重：
""",
    en=r"""
The four steps:

1. **Dot products** $\mathbf{q}_3 \cdot \mathbf{k}_j$: trophy $1\times2 + 2\times1 =$ {glue:text}`score_trophy`, suitcase $1\times1 + 2\times0 =$ {glue:text}`score_suitcase`, it $1\times0 + 2\times1 =$ {glue:text}`score_it`.
2. **Divide** by $\sqrt{d_k} \approx$ {glue:text}`sqrt_dk:.3f`: {glue:text}`scaled_trophy:.2f`, {glue:text}`scaled_suitcase:.2f`, {glue:text}`scaled_it:.2f`.
3. **Softmax**: $e^{2.83} \approx$ {glue:text}`exp_trophy:.1f`, $e^{0.71} \approx$ {glue:text}`exp_suitcase:.1f`, $e^{1.41} \approx$ {glue:text}`exp_it:.1f`, about {glue:text}`exp_sum:.1f` in all, so $\alpha_{3j} \approx$ {glue:text}`w_trophy:.2f`, {glue:text}`w_suitcase:.2f`, {glue:text}`w_it:.2f`.
4. **Weighted sum**: $\mathbf{a}_3 = 0.73\,[1, 0] + 0.09\,[0, 1] + 0.18\,[0.5, 0.5] \approx$ [{glue:text}`out_0:.2f`, {glue:text}`out_1:.2f`].

`lib.scaled_dot_product_attention` does the four steps at once and gives the same output and
weights:
""",
)

ch.code("""
out_lib, weights_lib = lib.scaled_dot_product_attention(q_it[None, :], K, V)   # [1, d_v], [1, N]
print(out_lib.round(2), weights_lib.round(2))
print(np.allclose(out_lib[0], out), np.allclose(weights_lib[0], weights))
""")

ch.check("""
assert np.allclose(out_lib[0], out) and np.allclose(weights_lib[0], weights)
""")

ch.md(
    zh=r"""
下圖把四步畫在一起：左邊是內積和縮放後的分數，中間是權重，右邊是三個值向量（灰）與它們的加權總和（橘）。
""",
    en=r"""
The figure puts the four steps side by side: the raw and scaled scores on the left, the weights in
the middle, and on the right the three values (grey) with their weighted sum (orange).
""",
)

ch.code("lib.figures.attention.plot_worked_example(q_it, K, V, tokens);")

ch.md(
    zh=r"""
輸出的第一個分量 {glue:text}`out_0:.2f` 裡，約 {glue:text}`out_share_pct:.0f`% 來自「獎盃」的值向量 $[1, 0]$。「它」被拉向獎盃，在數學上就是這麼一回事：
它的新向量，大半是獎盃的內容。

**這個 {glue:text}`w_trophy:.2f` 不是會翻轉的那個數字。** 這裡的三個詞裡**沒有**「大」，也沒有「小」；{glue:text}`w_trophy:.2f` 只是「它」在這組（為了好算而挑的）向量下分給前面「獎盃」的權重，
在「太大了」和「太小了」兩句裡都一樣。會翻轉的數字，要在整句裡找：模型讀「它」時已經看得到後面的「大」或「小」，權重才可能轉向獎盃或行李箱。

下面是本書訓練的小模型（雙向的編碼器，兩層、每層兩個頭）讀兩個完整句子時，「它」從每個詞元吸收了多少。
兩層的注意力要合起來看，這裡用第 7 章介紹的{term}`注意力展開 <注意力展開（attention rollout）>`（attention rollout）把兩層相乘：
""",
    en=r"""
Of the output's first component, {glue:text}`out_0:.2f`, about {glue:text}`out_share_pct:.0f`% comes from the
trophy's value $[1, 0]$. That is what "it is pulled towards the trophy" means in mathematics: its
new vector is mostly the trophy's content.

**This {glue:text}`w_trophy:.2f` is not the number that flips.** The three tokens here contain **neither** "big" nor
"small"; {glue:text}`w_trophy:.2f` is just the weight "it" gives the earlier "trophy" with these (hand-picked)
vectors, and it is the same in the "too big" and the "too small" sentence. The number that flips has
to be found in the whole sentence: when the model reads "it", the later "big" or "small" is already
visible, so the weights can turn to the trophy or to the suitcase.

Below, the book's own tiny model (a bidirectional encoder, two layers of two heads) reads the two
complete sentences; the bars show how much "it" draws from each token. Two layers have to be read
together, so we multiply them with {term}`attention rollout <attention rollout（注意力展開）>`, which chapter 7 introduces:
""",
)

ch.code("""
pair = lib.winograd.canonical_pair(LANG)                       # the "too big" and "too small" sentences
readings = [lib.winograd.resolve(sentence, LANG) for sentence in pair]
rows = [lib.attention_rollout(r.attention)[r.pronoun_index] for r in readings]   # [N] each
nouns = list(readings[0].probs)                                # the two candidate nouns
adjective = -2 if LANG == "zh" else -1                         # 大/小 before 了; big/small last
titles = [f"{r.tokens[adjective]} → {r.referent}" for r in readings]
lib.figures.attention.plot_pronoun_rows([r.tokens for r in readings], rows, nouns, titles);
""")

ch.hidden("""
for tag, r, row in zip(("big", "small"), readings, rows):
    for k, noun in enumerate(nouns):
        lib.glue(f"roll_{tag}_{k}", float(row[r.tokens.index(noun)]))
    lib.glue(f"ref_{tag}", r.referent)
lib.glue("noun_0", nouns[0]); lib.glue("noun_1", nouns[1])
adj = len(readings[0].tokens) + (-2 if LANG == "zh" else -1)           # 大 / big
lib.glue("adj_big", readings[0].tokens[adj])
lib.glue("l2_adj_big", float(readings[0].attention[-1, :, readings[0].pronoun_index, adj].mean()))
lib.glue("l1_adj_noun", float(readings[0].attention[0, :, adj, readings[0].tokens.index(nouns[0])].mean()));
""")

ch.check("""
big_r, small_r = readings
assert (big_r.referent, small_r.referent) == (nouns[0], nouns[1])
i0, i1 = big_r.tokens.index(nouns[0]), big_r.tokens.index(nouns[1])
assert rows[0][i0] > rows[0][i1] and rows[1][i1] > rows[1][i0]   # the rollout row flips with the adjective
adj = len(big_r.tokens) + (-2 if LANG == "zh" else -1)
assert big_r.attention[-1, :, big_r.pronoun_index, adj].mean() > 0.5       # layer 2: it → big
layer1 = big_r.attention[0, :, adj].mean(axis=0)
assert layer1[i0] > 0.3 and layer1[i0] > 5 * layer1[i1]                    # layer 1: big → trophy
""")

ch.md(
    zh=r"""
「太大了」那句，「它」從{glue:text}`noun_0`吸收 {glue:text}`roll_big_0:.2f`、從{glue:text}`noun_1`只有 {glue:text}`roll_big_1:.2f`；
「太小了」那句反過來，{glue:text}`noun_0` {glue:text}`roll_small_0:.2f`、{glue:text}`noun_1` {glue:text}`roll_small_1:.2f`。**這才是會翻轉的數字**，
而且它來自整句、來自兩層：在「太大了」那句，第二層裡「它」的注意力平均有 {glue:text}`l2_adj_big:.2f` 落在「{glue:text}`adj_big`」上，
而「{glue:text}`adj_big`」在第一層已經把 {glue:text}`l1_adj_noun:.2f` 的注意力放在「{glue:text}`noun_0`」上（第 4 章與第 7 章會一個頭一個頭拆開來看）。三個詞元的手算例子，只是其中一層、一個頭、一列的算法。

`lib` 的實作很短，和式子一行對一行：
""",
    en=r"""
In the "too big" sentence, "it" draws {glue:text}`roll_big_0:.2f` from "{glue:text}`noun_0`" and only {glue:text}`roll_big_1:.2f` from
"{glue:text}`noun_1`"; in the "too small" sentence it is the other way round, {glue:text}`roll_small_0:.2f` against
{glue:text}`roll_small_1:.2f`. **This is the number that flips**, and it comes from the whole sentence and from both
layers: in the "too big" sentence, "it" puts on average {glue:text}`l2_adj_big:.2f` of its layer-2 attention on
"{glue:text}`adj_big`", and "{glue:text}`adj_big`" had put {glue:text}`l1_adj_noun:.2f` of its layer-1 attention on "{glue:text}`noun_0`" (chapters 4
and 7 take the heads apart one by one). The
three-token calculation is how one row of one head in one layer is computed.

`lib`'s implementation is short and follows the formula line by line:
""",
)

ch.code("print(inspect.getsource(lib.scaled_dot_product_attention))")

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
(def-scaling)=
## 為什麼要除以 $\sqrt{d_k}$

若 $\mathbf{q}$ 與 $\mathbf{k}$ 的各分量彼此獨立、平均為 0、變異數為 1，那麼每一項 $q_i k_i$ 的變異數是 $\mathbb{E}[q_i^2]\,\mathbb{E}[k_i^2] = 1$，$d_k$ 項加起來：

$$
\operatorname{Var}(\mathbf{q}\cdot\mathbf{k}) = \sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i) = d_k,
\qquad
\operatorname{Var}\!\left(\frac{\mathbf{q}\cdot\mathbf{k}}{\sqrt{d_k}}\right) = 1 .
$$

維度越高，分數散得越開，softmax 就把幾乎全部權重壓在一個詞元上，其餘的梯度也幾乎消失。除以 $\sqrt{d_k}$ 把變異數拉回 1。不必相信推導，抽樣量一量：
""",
    en=r"""
(def-scaling)=
## Why divide by $\sqrt{d_k}$

If the components of $\mathbf{q}$ and $\mathbf{k}$ are independent with mean 0 and variance 1, each
term $q_i k_i$ has variance $\mathbb{E}[q_i^2]\,\mathbb{E}[k_i^2] = 1$, and $d_k$ of them add up:

$$
\operatorname{Var}(\mathbf{q}\cdot\mathbf{k}) = \sum_{i=1}^{d_k} \operatorname{Var}(q_i k_i) = d_k,
\qquad
\operatorname{Var}\!\left(\frac{\mathbf{q}\cdot\mathbf{k}}{\sqrt{d_k}}\right) = 1 .
$$

The wider the vectors, the more spread out the scores, and softmax then piles almost all the weight
on one token while the gradients of the others vanish. Dividing by $\sqrt{d_k}$ brings the variance
back to 1. No need to trust the derivation; sample and measure:
""",
)

ch.code("""
rng = np.random.default_rng(0)
variances = {}
for dk in (4, 16, 64, 256):
    q = rng.standard_normal((10_000, dk))     # 10 000 random queries   [M, d_k]
    k = rng.standard_normal((10_000, dk))     # and keys                [M, d_k]
    dots = (q * k).sum(axis=1)                # q·k                     [M]
    variances[dk] = (dots.var(), (dots / np.sqrt(dk)).var())
    print(f"d_k = {dk:3d}   Var(q·k) = {variances[dk][0]:6.1f}   Var(q·k / √d_k) = {variances[dk][1]:.2f}")
""")

ch.hidden("""
lib.glue("var_64", float(variances[64][0])); lib.glue("var_64_scaled", float(variances[64][1]))
lib.glue("var_256", float(variances[256][0])); lib.glue("var_256_scaled", float(variances[256][1]));
""")

ch.check("""
for dk, (v_raw, v_scaled) in variances.items():
    assert abs(v_raw / dk - 1) < 0.1 and abs(v_scaled - 1) < 0.1, (dk, v_raw, v_scaled)
""")

ch.md(
    zh=r"""
$d_k = 64$ 時量到的變異數是 {glue:text}`var_64:.1f`，除以 $\sqrt{64}$ 之後是 {glue:text}`var_64_scaled:.2f`；$d_k = 256$ 時是 {glue:text}`var_256:.1f` 對 {glue:text}`var_256_scaled:.2f`。

**算算看。** 設 $d_k = 64$，三個分數原本是 $[8, 4, 0]$。不縮放，和除以 $\sqrt{64} = 8$：
""",
    en=r"""
At $d_k = 64$ the measured variance is {glue:text}`var_64:.1f`, and {glue:text}`var_64_scaled:.2f` after dividing
by $\sqrt{64}$; at $d_k = 256$ it is {glue:text}`var_256:.1f` against {glue:text}`var_256_scaled:.2f`.

**Worked example.** Let $d_k = 64$ and three scores $[8, 4, 0]$. Unscaled, and divided by
$\sqrt{64} = 8$:
""",
)

ch.code("""
raw = np.array([8.0, 4.0, 0.0])
w_raw = lib.softmax(raw)                  # unscaled
w_scaled = lib.softmax(raw / np.sqrt(64)) # divided by √d_k = 8
print(w_raw.round(3), w_scaled.round(3))
""")

ch.hidden("""
for i in range(3):
    lib.glue(f"w840_raw_{i}", float(w_raw[i])); lib.glue(f"w840_scaled_{i}", float(w_scaled[i]))
lib.glue("w840_raw_pct", float(100 * w_raw[0]))
lib.glue("grad_raw", float(w_raw[0] * (1 - w_raw[0]))); lib.glue("grad_scaled", float(w_scaled[0] * (1 - w_scaled[0])))
lib.glue("grad_ratio", float(w_scaled[0] * (1 - w_scaled[0]) / (w_raw[0] * (1 - w_raw[0]))));
""")

ch.check("""
assert np.allclose(w_raw, [0.982, 0.018, 0.0003], atol=0.0005)
assert np.allclose(w_scaled, [0.506, 0.307, 0.186], atol=0.0005)
""")

ch.md(
    zh=r"""
不縮放時權重是 {glue:text}`w840_raw_0:.3f`、{glue:text}`w840_raw_1:.3f`、{glue:text}`w840_raw_2:.4f`：{glue:text}`w840_raw_pct:.1f`% 全押在第一個詞上。縮放之後是 {glue:text}`w840_scaled_0:.3f`、{glue:text}`w840_scaled_1:.3f`、{glue:text}`w840_scaled_2:.3f`，
其他詞也分得到注意力。梯度也跟著變：softmax 對自己分數的導數是 $\alpha(1-\alpha)$，第一個詞不縮放時只有 {glue:text}`grad_raw:.4f`，縮放後是 {glue:text}`grad_scaled:.3f`，大了約 {glue:text}`grad_ratio:.0f` 倍。

**互動圖。** 拉動 $d_k$，切換是否除以 $\sqrt{d_k}$。左圖是隨機 $\mathbf{q}\cdot\mathbf{k}$ 的分布，
中圖是一個查詢對 8 個鍵的 softmax 權重，右圖是權重的平均熵（8 個鍵平均分配時是 3 位元；全押一個時是 0）。
不縮放時，$d_k$ 一大，分布就散開、權重集中到一兩個鍵、熵往下掉；縮放之後，三張圖幾乎不隨 $d_k$ 改變。
（這些畫面事先算好，所以在靜態網頁上也能拉。）
""",
    en=r"""
Unscaled, the weights are {glue:text}`w840_raw_0:.3f`, {glue:text}`w840_raw_1:.3f`, {glue:text}`w840_raw_2:.4f`:
{glue:text}`w840_raw_pct:.1f`% on the first word. Scaled, they are {glue:text}`w840_scaled_0:.3f`, {glue:text}`w840_scaled_1:.3f`, {glue:text}`w840_scaled_2:.3f`,
and the other words get attention too. The gradients follow: the derivative of a softmax weight with
respect to its own score is $\alpha(1-\alpha)$, which for the first word is only {glue:text}`grad_raw:.4f` unscaled
and {glue:text}`grad_scaled:.3f` scaled, about {glue:text}`grad_ratio:.0f` times larger.

**Interactive figure.** Move $d_k$ and switch the division by $\sqrt{d_k}$ on and off. Left: the
spread of random $\mathbf{q}\cdot\mathbf{k}$; middle: one query's softmax weights over 8 keys; right:
the mean entropy of the weights (3 bits when 8 keys share equally, 0 when one takes all). Unscaled,
a larger $d_k$ spreads the scores, concentrates the weights on one or two keys and drives the
entropy down; scaled, the three panels hardly change with $d_k$. (The frames are computed in
advance, so the sliders work on the static website too.)
""",
)

ch.code("lib.figures.attention.scaling_widget()")

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
(def-causal-mask)=
## 矩陣形式與因果遮罩

實作時不會一個詞一個詞算，而是把 $N$ 個詞元的查詢、鍵、值疊成矩陣 $\mathbf{Q}, \mathbf{K}$（$[N \times d_k]$）與 $\mathbf{V}$（$[N \times d_v]$），一次算完：

$$
\operatorname{Attention}(\mathbf{Q}, \mathbf{K}, \mathbf{V}) = \operatorname{softmax}\!\left(\frac{\mathbf{Q}\mathbf{K}^\top}{\sqrt{d_k}} + \mathbf{M}\right)\mathbf{V},
\qquad
M_{ij} = \begin{cases} 0 & j \le i \\ -\infty & j > i \end{cases}
$$

生成式模型在練習「猜下一個詞」時不能偷看答案，所以把 $\mathbf{Q}\mathbf{K}^\top$ 上三角（未來的位置）設成 $-\infty$；$e^{-\infty} = 0$，softmax 之後那些位置的權重就是 0。這就是{term}`因果遮罩 <因果遮罩（causal mask）>`；不加遮罩、看得到整句的叫**雙向**注意力。

**算算看。** 沿用上例的順序（獎盃、行李箱、它）。講義只給了「它」的查詢；矩陣形式每個詞都要一個，
我們替獎盃和行李箱挑 $[1, 0]$ 與 $[0, 1]$（挑別的也行，下面兩個結論都不會變）。
""",
    en=r"""
(def-causal-mask)=
## Matrix form and the causal mask

In practice the words are not processed one at a time: the queries, keys and values of all $N$ tokens
are stacked into matrices $\mathbf{Q}, \mathbf{K}$ ($[N \times d_k]$) and $\mathbf{V}$
($[N \times d_v]$) and computed at once:

$$
\operatorname{Attention}(\mathbf{Q}, \mathbf{K}, \mathbf{V}) = \operatorname{softmax}\!\left(\frac{\mathbf{Q}\mathbf{K}^\top}{\sqrt{d_k}} + \mathbf{M}\right)\mathbf{V},
\qquad
M_{ij} = \begin{cases} 0 & j \le i \\ -\infty & j > i \end{cases}
$$

A generative model practising "guess the next word" must not peek at the answer, so the upper
triangle of $\mathbf{Q}\mathbf{K}^\top$ (the future positions) is set to $-\infty$; $e^{-\infty} = 0$,
so after softmax those positions weigh nothing. That is the {term}`causal mask <causal mask（因果遮罩）>`; attention without it,
which sees the whole sentence, is **bidirectional**.

**Worked example.** Keep the order of the example (trophy, suitcase, it). The notes gave only the
query of "it"; the matrix form needs one per word, so we pick $[1, 0]$ for the trophy and $[0, 1]$
for the suitcase (other choices work too: neither conclusion below depends on them).
""",
)

ch.code("""
Q = np.array([[1.0, 0.0],     # 獎盃 trophy (our choice)
              [0.0, 1.0],     # 行李箱 suitcase (our choice)
              q_it])          # 它 it                   [N, d_k]
print(lib.causal_mask(3))     # True where a query may look
out_bi, w_bi = lib.scaled_dot_product_attention(Q, K, V)                  # bidirectional
out_causal, w_causal = lib.scaled_dot_product_attention(Q, K, V, causal=True)
print(w_causal.round(2))
""")

ch.hidden("""
lib.glue("wc_first", str(w_causal[0].round(2).tolist()))
lib.glue("wc_it", str(w_causal[2].round(2).tolist()))
lib.glue("wb_first_0", float(w_bi[0, 0]));
""")

ch.check("""
assert np.array_equal(w_causal[0], [1.0, 0.0, 0.0])
assert np.allclose(w_causal[2], [0.73, 0.09, 0.18], atol=0.005) and np.allclose(w_causal[2], w_bi[2])
assert np.array_equal(lib.causal_mask(3), np.tril(np.ones((3, 3), dtype=bool)))
""")

ch.md(
    zh=r"""
加上遮罩之後，「獎盃」那一列只剩自己，softmax 的結果必然是 {glue:text}`wc_first`（不加遮罩時它分給自己的只有 {glue:text}`wb_first_0:.2f`）；
「它」排在最後，本來就看得到全部，權重仍是 {glue:text}`wc_it`。左圖是遮罩本身，中、右兩張是不加與加遮罩的權重：
""",
    en=r"""
With the mask, the trophy's row sees only itself, so its softmax is necessarily {glue:text}`wc_first` (without the
mask it keeps only {glue:text}`wb_first_0:.2f` for itself); "it" comes last and sees everything anyway, so its
weights stay {glue:text}`wc_it`. Left, the mask itself; middle and right, the weights without and with it:
""",
)

ch.code("lib.figures.attention.plot_masks(w_bi, w_causal, tokens);")

ch.md(
    zh=r"""
**回到例句。** 把整句放進來看。「它」後面還有「太」「大」「了」。雙向注意力（像 BERT 這類編碼器）讀「它」時，
「大」就在視野裡，權重可以整片轉向獎盃或行李箱。加上因果遮罩（像 GPT 這類解碼器），處理「它」的時候「大」還沒出現：
照應得等到後面的位置（「大」或「了」）才解得開，再由那些位置把訊息往後傳。所以「它」的權重整片轉過去的那種圖，不是 GPT 在「它」這個位置上的注意力。
""",
    en=r"""
**Back to the sentence.** Now take the whole sentence. After "it" come "is", "too" and "big".
Bidirectional attention (an encoder such as BERT) sees "big" while reading "it", so the weights can
swing to the trophy or the suitcase. With the causal mask (a decoder such as GPT), "big" has not
appeared yet when "it" is processed: the reference has to be resolved at a later position ("big",
or the end of the sentence), which carries the information forward. So a picture in which the weights
of "it" swing as a whole is not what GPT's attention at "it" looks like.
""",
)

ch.code("""
sentence = lib.tr(zh="獎盃 放不進 行李箱 ， 因為 它 太 大 了",
                  en="the trophy doesn't fit into the suitcase because it is too big").split()
it, big = sentence.index(lib.tr(zh="它", en="it")), sentence.index(lib.tr(zh="大", en="big"))
lib.figures.attention.plot_sentence_masks(sentence, it, big);
""")

ch.md(
    zh=r"""
單頭、含遮罩的自注意力，從輸入 $\mathbf{X}$ 開始就是 `lib.self_attention`：它先算 $\mathbf{X}\mathbf{W}^Q$、$\mathbf{X}\mathbf{W}^K$、$\mathbf{X}\mathbf{W}^V$，
再呼叫上面那個函式。隨機的 5 個詞元、$d = 8$、$d_k = 4$：權重是下三角矩陣，每一列的和都是 1。
""",
    en=r"""
Single-head self-attention with the mask, starting from the input $\mathbf{X}$, is
`lib.self_attention`: it computes $\mathbf{X}\mathbf{W}^Q$, $\mathbf{X}\mathbf{W}^K$, $\mathbf{X}\mathbf{W}^V$
and calls the function above. Five random tokens, $d = 8$, $d_k = 4$: the weights form a
lower-triangular matrix whose rows each sum to 1.
""",
)

ch.code("""
rng = np.random.default_rng(0)
N, d, dk = 5, 8, 4
X = rng.normal(size=(N, d))                             # [N, d]
WQ, WK, WV = (rng.normal(size=(d, dk)) / np.sqrt(d) for _ in range(3))  # [d, d_k] each
a, alpha = lib.self_attention(X, WQ, WK, WV, causal=True)  # [N, d_k], [N, N]
print(alpha.round(2))
print(a.shape, alpha.sum(axis=1))
""")

ch.check("""
assert np.allclose(np.triu(alpha, k=1), 0) and np.allclose(alpha.sum(axis=1), 1) and a.shape == (5, 4)
""")

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
## 代價：$N \times N$ 個分數

$\mathbf{Q}\mathbf{K}^\top$ 有 $N \times N$ 個分數：長度加倍，分數變成四倍，計算量與（直接存下分數時的）記憶體都隨長度平方成長。
長上下文這麼貴，原因就在這裡。實際量一量：下面對 `lib` 的 NumPy 參考實作、它的 Torch 版本 `lib.torch_mirror`，
以及 PyTorch 融合好的 `F.scaled_dot_product_attention`，在不同長度 $N$（$d_k = 64$）下、以單一執行緒計時；NumPy 版的記憶體峰值用 `tracemalloc` 量。有 GPU 的機器（`lib.torch_mirror.default_device()`）也會量 GPU。
先確認 Torch 版和 NumPy 參考實作算出同一個東西：用上面三個詞元的 $\mathbf{Q}, \mathbf{K}, \mathbf{V}$ 加上因果遮罩，兩者的權重一致。
""",
    en=r"""
## The cost: $N \times N$ scores

$\mathbf{Q}\mathbf{K}^\top$ holds $N \times N$ scores: double the length and there are four times as
many, so the computation and (when the scores are stored) the memory grow with the square of the
length. That is why long contexts are expensive. Let us measure it: below we time `lib`'s NumPy
reference, its Torch version `lib.torch_mirror`, and PyTorch's fused `F.scaled_dot_product_attention`
at several lengths $N$ ($d_k = 64$) on a single thread; the NumPy version's peak memory is measured
with `tracemalloc`.
On a machine with a GPU (`lib.torch_mirror.default_device()`) the GPU is measured too. First, a check
that the Torch version computes the same thing as the NumPy reference: on the three tokens' $\mathbf{Q}$,
$\mathbf{K}$, $\mathbf{V}$ with the causal mask, their weights agree.
""",
)

ch.code("""
import torch
device = lib.torch_mirror.default_device()                 # a GPU when there is one
Qt, Kt, Vt = (torch.tensor(M, device=device) for M in (Q, K, V))
out_t, w_t = lib.torch_mirror.scaled_dot_product_attention(Qt, Kt, Vt, causal=True)
print(device, np.allclose(w_t.cpu().numpy(), w_causal))   # the mirror agrees with the NumPy reference
""")

ch.check("""
assert np.allclose(w_t.cpu().numpy(), w_causal) and np.allclose(out_t.cpu().numpy(), out_causal)
""")

ch.code("""
cost = lib.figures.cost.measure([192, 384, 768, 1536], d_k=64)
lib.figures.cost.plot_cost(cost);
""")

ch.hidden("""
from lib.figures.cost import fit_slope
lib.glue("slope_mem", fit_slope(cost["N"], cost["memory"]["NumPy (lib)"]))
lib.glue("slope_time_np", fit_slope(cost["N"], cost["time"]["NumPy (lib)"]))
lib.glue("slope_time_sdpa", fit_slope(cost["N"], cost["time"]["torch SDPA (cpu)"]))
n_last, n_prev = cost["N"][-1], cost["N"][-2]
lib.glue("n_last", n_last); lib.glue("n_prev", n_prev)
lib.glue("mem_last_mb", cost["memory"]["NumPy (lib)"][-1] / 1e6)
lib.glue("scores_last_mb", n_last ** 2 * 8 / 1e6)
lib.glue("time_ratio_np", cost["time"]["NumPy (lib)"][-1] / cost["time"]["NumPy (lib)"][-2]);
""")

ch.check("""
assert 1.8 < fit_slope(cost["N"], cost["memory"]["NumPy (lib)"]) < 2.2
assert cost["time"]["NumPy (lib)"][-1] > 2 * cost["time"]["NumPy (lib)"][-2]   # superlinear in N
""")

ch.md(
    zh=r"""
在對數座標上，$y \propto N^p$ 是一條斜率為 $p$ 的直線。記憶體的斜率是 {glue:text}`slope_mem:.2f`，幾乎正好是 2：$N =$ {glue:text}`n_last` 時峰值約 {glue:text}`mem_last_mb:.0f` MB，而一個 $N \times N$ 的 float64 分數矩陣在這個長度就佔 {glue:text}`scores_last_mb:.1f` MB（softmax 的過程還要再存幾份）。

時間算的是單一執行緒上花掉的 CPU 時間，所以同一台機器上別的程式不會把它灌水。這次執行量到 NumPy 的時間斜率是 {glue:text}`slope_time_np:.2f`，$N$ 從 {glue:text}`n_prev` 加倍到 {glue:text}`n_last` 時，時間變成 {glue:text}`time_ratio_np:.1f` 倍（剛好平方成長是 4 倍）。短序列時，呼叫函式、配置記憶體這些固定開銷占了一部分，
會把斜率往下拉；長序列時，$N \times N$ 矩陣大到放不進處理器的快取，搬資料的時間又可能把斜率推得比 2 略高。

融合的 `F.scaled_dot_product_attention`（這次的時間斜率 {glue:text}`slope_time_sdpa:.2f`）分塊計算，不必把整個 $N \times N$ 矩陣存下來，
記憶體因此省很多（FlashAttention 就是這個想法）；但 $N^2$ 個內積一個也少不了，時間還是平方成長。
""",
    en=r"""
On log-log axes, $y \propto N^p$ is a straight line of slope $p$. The memory slope is
{glue:text}`slope_mem:.2f`, almost exactly 2: at $N =$ {glue:text}`n_last` the peak is about {glue:text}`mem_last_mb:.0f` MB,
and a single $N \times N$ float64 score matrix of that length takes {glue:text}`scores_last_mb:.1f` MB (softmax keeps a
few more copies along the way).

The times count the CPU time spent on a single thread, so other programs on the same machine
cannot inflate them. In this run NumPy's time slope came out at {glue:text}`slope_time_np:.2f`, and doubling $N$
from {glue:text}`n_prev` to {glue:text}`n_last` multiplied the time by {glue:text}`time_ratio_np:.1f` (exactly quadratic growth would be 4). At
short lengths, fixed overheads (calling functions, allocating memory) pull the slope down; at long
lengths the $N \times N$ matrix no longer fits in the processor's cache, and moving data around can
push the slope a little above 2.

The fused `F.scaled_dot_product_attention` (time slope {glue:text}`slope_time_sdpa:.2f` in this run) works in
blocks and never stores the whole $N \times N$ matrix, which saves a lot of memory (the idea behind
FlashAttention); but not one of the $N^2$ dot products can be skipped, so its time grows
quadratically too.
""",
)

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
## 進階：把位置寫進內積

第 2 章留下兩件事：座位號碼怎麼改變注意力分數，以及能不能不把位置**加**在向量上，而是**寫進內積**裡。
第一次讀可以跳過這一整節。

(def-permutation-equivariance)=
### 少了位置，「誰咬誰」就消失

取 $d = 2$，詞嵌入 狗 $= [1.0, 0.2]$、咬 $= [0.0, 1.0]$、人 $= [0.8, 0.6]$；位置嵌入 第 1 號 $[0.4, 0.0]$、
第 2 號 $[0.0, 0.2]$、第 3 號 $[-0.4, 0.0]$。為了好算，三個投影矩陣都是單位矩陣，模型看得到整句，
而且這個例子省略除以 $\sqrt{d_k}$（`scale=False`）。只追蹤「咬」這個詞元。
""",
    en=r"""
## Advanced: positions inside the dot product

Chapter 2 left two questions open: how seat numbers change the attention scores, and whether a
position can be written **into the dot product** rather than **added** to the vector. You can skip
this whole section on a first reading.

(def-permutation-equivariance)=
### Without positions, "who bit whom" disappears

Take $d = 2$ and the embeddings dog $= [1.0, 0.2]$, bites $= [0.0, 1.0]$, man $= [0.8, 0.6]$; the
position embeddings are $[0.4, 0.0]$ for seat 1, $[0.0, 0.2]$ for seat 2 and $[-0.4, 0.0]$ for seat 3.
To keep the arithmetic easy, all three projections are the identity, the model sees the whole
sentence, and this example skips the division by $\sqrt{d_k}$ (`scale=False`). We follow only the
token "bites".
""",
)

ch.code("""
dog, bites, man = np.array([1.0, 0.2]), np.array([0.0, 1.0]), np.array([0.8, 0.6])
P = np.array([[0.4, 0.0], [0.0, 0.2], [-0.4, 0.0]])       # seats 1, 2, 3         [N, d]
I = np.eye(2)                                             # identity projections  [d, d]

def attend(X):
    \"\"\"Self-attention with identity W^Q, W^K, W^V, bidirectional and unscaled.\"\"\"
    return lib.scaled_dot_product_attention(X @ I, X @ I, X @ I, scale=False)

dog_bites_man = np.stack([dog, bites, man])               # [N, d]
man_bites_dog = np.stack([man, bites, dog])
runs = {}
for name, X in [("dog bites man", dog_bites_man), ("man bites dog", man_bites_dog)]:
    runs[name, "no positions"] = attend(X)
    runs[name, "positions"] = attend(X + P)
for (name, pos), (o, w) in runs.items():
    print(f"{name:14s} {pos:13s} weights of 'bites' {w[1].round(3)}   output {o[1].round(3)}")
""")

ch.hidden("""
o_np, w_np = runs["dog bites man", "no positions"]
o_mbd, w_mbd = runs["man bites dog", "no positions"]
o_p, w_p = runs["dog bites man", "positions"]
o_pm, w_pm = runs["man bites dog", "positions"]
scores_np = dog_bites_man @ bites
for i in range(3):
    lib.glue(f"dbm_score_{i}", float(scores_np[i])); lib.glue(f"dbm_exp_{i}", float(np.exp(scores_np[i])))
    lib.glue(f"dbm_w_{i}", float(w_np[1, i])); lib.glue(f"dbm_wp_{i}", float(w_p[1, i]))
    lib.glue(f"dbm_scorep_{i}", float(((dog_bites_man + P) @ (bites + P[1]))[i]))
lib.glue("dbm_exp_sum", float(np.exp(scores_np).sum()))
lib.glue("dbm_out", f"[{o_np[1, 0]:.3f}, {o_np[1, 1]:.3f}]")
lib.glue("dbm_out_p", f"[{o_p[1, 0]:.3f}, {o_p[1, 1]:.3f}]")
lib.glue("mbd_out_p", f"[{o_pm[1, 0]:.3f}, {o_pm[1, 1]:.3f}]")
lib.glue("x_bites", f"[{(bites + P[1])[0]:.1f}, {(bites + P[1])[1]:.1f}]")
lib.glue("dog_subject", f"[{(dog + P[0])[0]:.1f}, {(dog + P[0])[1]:.1f}]")
lib.glue("dog_object", f"[{(dog + P[2])[0]:.1f}, {(dog + P[2])[1]:.1f}]");
""")

ch.check("""
assert np.allclose(w_np[1], [0.21, 0.47, 0.32], atol=0.005) and np.allclose(o_np[1], [0.465, 0.704], atol=0.0005)
assert np.allclose(o_mbd[1], o_np[1])                      # same output for 咬 / bites
assert np.allclose(o_mbd, o_np[::-1])                      # permutation equivariance
assert np.allclose((dog_bites_man + P) @ (bites + P[1]), [0.24, 1.44, 0.72])
assert np.allclose(w_p[1], [0.168, 0.559, 0.272], atol=0.0005) and np.allclose(w_pm[1], w_p[1][::-1])
assert not np.allclose(o_pm[1], o_p[1])
""")

ch.md(
    zh=r"""
不加位置時，「咬」對三個詞的分數是 {glue:text}`dbm_score_0:.1f`、{glue:text}`dbm_score_1:.1f`、{glue:text}`dbm_score_2:.1f`，
指數約為 {glue:text}`dbm_exp_0:.2f`、{glue:text}`dbm_exp_1:.2f`、{glue:text}`dbm_exp_2:.2f`，總和約 {glue:text}`dbm_exp_sum:.2f`，
權重約 {glue:text}`dbm_w_0:.2f`、{glue:text}`dbm_w_1:.2f`、{glue:text}`dbm_w_2:.2f`，加權之後是 {glue:text}`dbm_out`。
「人咬狗」只是把同一組「詞與分數」換了排列；加權總和不分先後，所以「咬」的輸出一模一樣，模型確實分不出誰咬誰。

更一般地說：把輸入的詞換個順序，輸出只會跟著換同樣的順序，數值本身不變（上面的檢查確認了「人咬狗」的三個輸出正好是
「狗咬人」的倒序）。這個性質叫{term}`置換等變 <置換等變（permutation equivariance）>`（permutation equivariance）：注意力本身只看「誰和誰相似」，不看「誰坐在哪裡」。

加上位置之後，「咬」是 $\mathbf{x}_2 =$ {glue:text}`x_bites`，分數變成 {glue:text}`dbm_scorep_0:.2f`、{glue:text}`dbm_scorep_1:.2f`、{glue:text}`dbm_scorep_2:.2f`，
權重 {glue:text}`dbm_wp_0:.3f`、{glue:text}`dbm_wp_1:.3f`、{glue:text}`dbm_wp_2:.3f`（「人咬狗」只是左右對調）。
「狗」當主詞時是 {glue:text}`dog_subject`，當受詞時是 {glue:text}`dog_object`：兩種角色拿到不同的向量，
「咬」的輸出也就分開了——「狗咬人」得 {glue:text}`dbm_out_p`，「人咬狗」得 {glue:text}`mbd_out_p`。
""",
    en=r"""
Without positions, the scores of "bites" against the three words are {glue:text}`dbm_score_0:.1f`, {glue:text}`dbm_score_1:.1f`,
{glue:text}`dbm_score_2:.1f`, their exponentials about {glue:text}`dbm_exp_0:.2f`, {glue:text}`dbm_exp_1:.2f`, {glue:text}`dbm_exp_2:.2f`
(about {glue:text}`dbm_exp_sum:.2f` in all), the weights about {glue:text}`dbm_w_0:.2f`, {glue:text}`dbm_w_1:.2f`, {glue:text}`dbm_w_2:.2f`,
and the weighted sum is {glue:text}`dbm_out`. "Man bites dog" only permutes the same words and scores; a
weighted sum does not care about order, so the output of "bites" is exactly the same: the model
really cannot tell who bit whom.

More generally: reorder the input words, and the outputs are reordered the same way, their values
unchanged (the check above confirms that the three outputs of "man bites dog" are exactly those of
"dog bites man" in reverse). This property is called {term}`permutation equivariance <permutation equivariance（置換等變）>`: attention by
itself sees "who is similar to whom", not "who sits where".

With positions, "bites" is $\mathbf{x}_2 =$ {glue:text}`x_bites`, the scores become {glue:text}`dbm_scorep_0:.2f`, {glue:text}`dbm_scorep_1:.2f`,
{glue:text}`dbm_scorep_2:.2f` and the weights {glue:text}`dbm_wp_0:.3f`, {glue:text}`dbm_wp_1:.3f`, {glue:text}`dbm_wp_2:.3f` ("man bites dog"
just mirrors them). The dog as subject is {glue:text}`dog_subject`, as object {glue:text}`dog_object`: the two roles get
different vectors, and the outputs of "bites" part: {glue:text}`dbm_out_p` for "dog bites man",
{glue:text}`mbd_out_p` for "man bites dog".
""",
)

ch.code("""
names = lib.tr(zh={"dog bites man": "狗咬人", "man bites dog": "人咬狗"},
               en={"dog bites man": "dog bites man", "man bites dog": "man bites dog"})
titles = {"no positions": lib.tr(zh="不加位置", en="without positions"),
          "positions": lib.tr(zh="加上位置", en="with positions")}
cases = {titles[pos]: {names[s]: runs[s, pos][0][1] for s in names} for pos in titles}
lib.figures.attention.plot_word_order(cases, token=lib.tr(zh="咬", en="bites"));
""")

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
(def-sinusoidal)=
### 正弦編碼：一組同時報時的指針

原始論文 {cite}`vaswani2017attention` 的{term}`正弦位置編碼 <正弦位置編碼（sinusoidal encoding）>`不必學習，用固定的正弦函數算出來。$d$ 維切成 $d/2$ 組，第 $k$ 組以角速度 $\omega_k$ 轉動：

$$
\mathrm{PE}(p, 2k) = \sin(p\,\omega_k), \qquad \mathrm{PE}(p, 2k+1) = \cos(p\,\omega_k), \qquad \omega_k = \frac{1}{10000^{2k/d}} .
$$

每一組 $(\sin, \cos)$ 就是鐘面上的一根指針，每往後一個位置轉 $\omega_k$ 弧度。$k = 0$ 那組的分母是 $10000^0 = 1$，轉得最快，像秒針；
越後面的組轉得越慢，像分針、時針。

**算算看。** 取 $d = 4$：$k = 0$ 的分母是 1（秒針），$k = 1$ 的分母是 $10000^{2/4} = \sqrt{10000} = 100$（時針）。
""",
    en=r"""
(def-sinusoidal)=
### Sinusoidal encodings: hands of a clock

The original paper {cite}`vaswani2017attention` uses {term}`sinusoidal encodings <sinusoidal encoding（正弦位置編碼）>` that are not learned but
computed from fixed sine waves. The $d$ dimensions form $d/2$ pairs, and pair $k$ turns with angular
speed $\omega_k$:

$$
\mathrm{PE}(p, 2k) = \sin(p\,\omega_k), \qquad \mathrm{PE}(p, 2k+1) = \cos(p\,\omega_k), \qquad \omega_k = \frac{1}{10000^{2k/d}} .
$$

Each pair $(\sin, \cos)$ is a hand on a clock face that turns $\omega_k$ radians per position. Pair
$k = 0$ has denominator $10000^0 = 1$ and turns fastest, like a second hand; later pairs turn slower
and slower, like minute and hour hands.

**Worked example.** Take $d = 4$: pair $k = 0$ has denominator 1 (the second hand), pair $k = 1$ has
$10000^{2/4} = \sqrt{10000} = 100$ (the hour hand).
""",
)

ch.code("""
positions = [1, 2, 7, 100]
pe = lib.sinusoidal_encoding(positions, d=4)     # [N, d] = [4, 4]
for p, row in zip(positions, pe):
    print(f"{p:3d}", row.round(3))
""")

ch.hidden("""
lib.glue("pe1", str(pe[0].round(3).tolist()))
lib.glue("pe2", str(pe[1].round(3).tolist()))
lib.glue("pe7_fast", f"[{pe[2, 0]:.3f}, {pe[2, 1]:.3f}]")
lib.glue("pe1_fast", f"[{pe[0, 0]:.3f}, {pe[0, 1]:.3f}]")
lib.glue("pe7_slow", float(pe[2, 2])); lib.glue("pe1_slow", float(pe[0, 2]))
lib.glue("two_pi", float(2 * np.pi))
lib.glue("angle_100_slow", float(100 * lib.positions.angular_speeds(4)[1]));
""")

ch.check("""
assert np.allclose(pe[0], [0.841, 0.540, 0.010, 1.000], atol=0.0005)
assert np.allclose(pe[2, :2], [0.657, 0.754], atol=0.0005) and round(pe[2, 2], 3) == 0.070 and round(pe[0, 2], 3) == 0.010
assert np.isclose(100 * lib.positions.angular_speeds(4)[1], 1.0)
""")

ch.md(
    zh=r"""
第 1 號是 {glue:text}`pe1`，第 2 號是 {glue:text}`pe2`：前兩格變化明顯，後兩格幾乎不動；
要等位置相隔夠遠，慢的那一組才拉得開。第 7 號的快組 {glue:text}`pe7_fast` 已經轉回接近第 1 號的 {glue:text}`pe1_fast`，
因為秒針每 $2\pi \approx$ {glue:text}`two_pi:.2f` 個位置轉一圈；這時要靠慢的一組（{glue:text}`pe7_slow:.3f` 對 {glue:text}`pe1_slow:.3f`）才分得開。
到了第 100 號，慢的一組也轉了 {glue:text}`angle_100_slow:.0f` 弧度，四個數合起來仍是獨一無二的座標。

下面把 $d = 6$ 的三組畫成秒針、分針、時針（$(\sin, \cos)$ 當作 $(x, y)$，指針從 12 點開始順時針轉）：
""",
    en=r"""
Position 1 is {glue:text}`pe1`, position 2 is {glue:text}`pe2`: the first two numbers change visibly, the last two
hardly move; the slow pair only separates positions that are far apart. At position 7 the fast pair
{glue:text}`pe7_fast` has come back close to position 1's {glue:text}`pe1_fast`, because the second hand goes round
once every $2\pi \approx$ {glue:text}`two_pi:.2f` positions; now only the slow pair tells them apart ({glue:text}`pe7_slow:.3f`
against {glue:text}`pe1_slow:.3f`). By position 100 the slow pair too has turned {glue:text}`angle_100_slow:.0f` radian, and
the four numbers together are still a unique coordinate.

Below, the three pairs of $d = 6$ drawn as second, minute and hour hands ($(\sin, \cos)$ read as
$(x, y)$, so a hand starts at 12 o'clock and turns clockwise):
""",
)

ch.code("lib.figures.rope.plot_clock([1, 2, 7, 100], d=6);")

ch.md(
    zh=r"""
更長的表（64 個位置、$d = 32$）畫成熱圖就是左圖：左邊的欄轉得快、條紋細，右邊的欄轉得慢、條紋粗。
右圖是任兩個位置編碼的內積 $\mathrm{PE}(p) \cdot \mathrm{PE}(p')$：沿著每條斜線顏色都一樣。

**相對位置藏在內積裡。** 因為 $\sin a \sin b + \cos a \cos b = \cos(a - b)$，

$$
\mathrm{PE}(p) \cdot \mathrm{PE}(p') = \sum_{k} \cos\!\big((p - p')\,\omega_k\big),
$$

只取決於距離 $p - p'$。
""",
    en=r"""
A longer table (64 positions, $d = 32$) as a heatmap is the left panel: the left columns turn fast
(thin stripes), the right ones slowly (broad stripes). The right panel shows the dot product of
every two encodings, $\mathrm{PE}(p) \cdot \mathrm{PE}(p')$: it is constant along each diagonal.

**Relative position hides in the dot product.** Because $\sin a \sin b + \cos a \cos b = \cos(a - b)$,

$$
\mathrm{PE}(p) \cdot \mathrm{PE}(p') = \sum_{k} \cos\!\big((p - p')\,\omega_k\big),
$$

which depends only on the distance $p - p'$.
""",
)

ch.code("lib.figures.rope.plot_encoding_table(n_positions=64, d=32);")

ch.code("""
for p, p2 in [(1, 3), (5, 7), (40, 42)]:
    print(p, p2, lib.sinusoidal_encoding(p, 4) @ lib.sinusoidal_encoding(p2, 4))
""")

ch.hidden("""
dots_2 = [float(lib.sinusoidal_encoding(p, 4) @ lib.sinusoidal_encoding(p + 2, 4)) for p in (1, 5, 40)]
lib.glue("pe_dot_2", dots_2[0]);
""")

ch.check("""
assert np.allclose(dots_2, 0.584, atol=0.0005)
""")

ch.md(
    zh=r"""
只要相隔兩格，內積都是 {glue:text}`pe_dot_2:.3f`。RoPE 正是把這個性質直接用在 $\mathbf{q}$ 與 $\mathbf{k}$ 上。
""",
    en=r"""
Two seats apart, the dot product is always {glue:text}`pe_dot_2:.3f`. RoPE applies exactly this property to
$\mathbf{q}$ and $\mathbf{k}$.
""",
)

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
(def-rope)=
### RoPE：轉動查詢與鍵

現在的大型語言模型多半使用{term}`旋轉位置編碼 <旋轉位置編碼（RoPE, rotary position embedding）>` RoPE {cite}`su2024roformer`：位置不加在 $\mathbf{x}$ 上，而是讓 $\mathbf{q}$ 和 $\mathbf{k}$ 依所在位置旋轉一個角度。把列向量 $[x, y]$ 逆時針轉 $\alpha$：

$$
[x, y] \mapsto [\,x\cos\alpha - y\sin\alpha,\;\; x\sin\alpha + y\cos\alpha\,] .
$$

位置 $m$ 的查詢轉 $m\theta$，位置 $n$ 的鍵轉 $n\theta$。設 $\varphi$ 是轉動前從 $\mathbf{k}$ 逆時針量到 $\mathbf{q}$ 的角度，轉完之後

$$
\operatorname{rope}(\mathbf{q}, m) \cdot \operatorname{rope}(\mathbf{k}, n) = \lVert\mathbf{q}\rVert\,\lVert\mathbf{k}\rVert\cos\!\big(\varphi + (m - n)\,\theta\big),
$$

只看角度差，也就是相對距離 $m - n$。模型在意的是「隔幾個詞」，不是「坐在第幾號」。

**算算看。** 二維、每往後一個位置多轉 $30°$。先讓 $\mathbf{q} = \mathbf{k} = [1, 0]$：位置 1 與 3 分別轉 $30°$ 與 $90°$，
夾角 $60°$；位置 5 與 7 轉 $150°$ 與 $210°$，夾角仍是 $60°$。
""",
    en=r"""
(def-rope)=
### RoPE: rotating queries and keys

Most of today's large language models use {term}`rotary position embeddings <RoPE, rotary position embedding（旋轉位置編碼）>`, RoPE
{cite}`su2024roformer`: the position is not added to $\mathbf{x}$; instead $\mathbf{q}$ and
$\mathbf{k}$ are rotated by an angle that depends on where they sit. Turning the row vector $[x, y]$
counter-clockwise by $\alpha$:

$$
[x, y] \mapsto [\,x\cos\alpha - y\sin\alpha,\;\; x\sin\alpha + y\cos\alpha\,] .
$$

The query at position $m$ turns by $m\theta$, the key at position $n$ by $n\theta$. With $\varphi$
the angle from $\mathbf{k}$ counter-clockwise to $\mathbf{q}$ before rotation,

$$
\operatorname{rope}(\mathbf{q}, m) \cdot \operatorname{rope}(\mathbf{k}, n) = \lVert\mathbf{q}\rVert\,\lVert\mathbf{k}\rVert\cos\!\big(\varphi + (m - n)\,\theta\big),
$$

which sees only the difference of the angles, that is the relative distance $m - n$. The model
cares about "how many words apart", not "which seat".

**Worked example.** In two dimensions, turn $30°$ more per position. First let
$\mathbf{q} = \mathbf{k} = [1, 0]$: positions 1 and 3 turn by $30°$ and $90°$, $60°$ apart; positions 5
and 7 turn by $150°$ and $210°$, still $60°$ apart.
""",
)

ch.code("""
theta = np.deg2rad(30)                        # 30° per position
e1 = np.array([1.0, 0.0])
for m, n in [(1, 3), (5, 7)]:
    print(m, n, lib.rope(e1, m, theta=theta) @ lib.rope(e1, n, theta=theta))
""")

ch.hidden("""
unit_scores = [float(lib.rope(e1, m, theta=theta) @ lib.rope(e1, n, theta=theta)) for m, n in [(1, 3), (5, 7)]]
lib.glue("rope_unit_13", unit_scores[0]); lib.glue("rope_unit_57", unit_scores[1]);
""")

ch.check("""
assert np.allclose(unit_scores, 0.5)
""")

ch.md(
    zh=r"""
兩者的內積都是 $\cos 60° =$ {glue:text}`rope_unit_13:.1f`。換成真正的 $\mathbf{q}$ 與 $\mathbf{k}$：沿用「它」的 $\mathbf{q} = [1, 2]$ 與
「獎盃」的 $\mathbf{k} = [2, 1]$，轉動前內積為 {glue:text}`qk_unrotated:.0f`，$\cos\varphi =$ {glue:text}`cos_phi:.1f`。設「它」在位置 $m = 3$、「獎盃」在 $n = 1$：$\mathbf{q}$ 轉 $90°$，$\mathbf{k}$ 轉 $30°$。再換幾組位置：
""",
    en=r"""
Both dot products are $\cos 60° =$ {glue:text}`rope_unit_13:.1f`. Now real $\mathbf{q}$ and $\mathbf{k}$: keep the query of
"it", $\mathbf{q} = [1, 2]$, and the key of "trophy", $\mathbf{k} = [2, 1]$; unrotated, their dot product is {glue:text}`qk_unrotated:.0f`
and $\cos\varphi =$ {glue:text}`cos_phi:.1f`. Put "it" at position $m = 3$ and "trophy" at $n = 1$: $\mathbf{q}$ turns $90°$,
$\mathbf{k}$ turns $30°$. And a few more pairs of positions:
""",
)

ch.code("""
k_trophy = K[0]                               # [2, 1]
for m, n in [(1, 1), (2, 1), (3, 1), (7, 5)]:
    q_m, k_n = lib.rope(q_it, m, theta=theta), lib.rope(k_trophy, n, theta=theta)
    print(f"m={m} n={n}  q_m={q_m.round(3)}  k_n={k_n.round(3)}  q_m·k_n={q_m @ k_n:.3f}")
""")

ch.hidden("""
rope_pairs = [(1, 1), (2, 1), (3, 1), (7, 5)]
rope_scores = [float(lib.rope(q_it, m, theta=theta) @ lib.rope(k_trophy, n, theta=theta)) for m, n in rope_pairs]
for (m, n), s in zip(rope_pairs, rope_scores):
    lib.glue(f"rope_{m}{n}", s)
lib.glue("rope_period", int(round(360 / 30)))
lib.glue("cos_phi", float(q_it @ k_trophy / (np.linalg.norm(q_it) * np.linalg.norm(k_trophy))))
lib.glue("qk_unrotated", float(q_it @ k_trophy));
""")

ch.check("""
assert np.allclose(rope_scores, [4.0, 1.964, -0.598, -0.598], atol=0.0005)
phi = np.arctan2(q_it[1], q_it[0]) - np.arctan2(k_trophy[1], k_trophy[0])     # from k to q
assert np.isclose(np.cos(phi), 0.8)
assert np.allclose(rope_scores, [5 * np.cos(phi + (m - n) * theta) for m, n in rope_pairs])
assert not np.allclose(lib.rope(q_it, 3, theta=theta), lib.rope(q_it, 7, theta=theta))
""")

ch.md(
    zh=r"""
$(1, 1)$ 不隔任何位置，分數仍是 {glue:text}`rope_11:.1f`；$(2, 1)$ 相隔一個，{glue:text}`rope_21:.3f`；$(3, 1)$ 與 $(7, 5)$ 都相隔兩個，
分數都是 {glue:text}`rope_31:.3f` 與 {glue:text}`rope_75:.3f`——後兩組轉完的向量完全不同，內積卻一樣。
相隔 0、1、2 個位置時分數各不相同，模型因此可以學到自己比較在意隔多遠的詞。

**互動圖。** 拉動每個位置的角度與 $\mathbf{q}$、$\mathbf{k}$ 的位置 $m$、$n$。左圖是轉動前（虛線）與轉動後（實線）的箭頭；
右圖是這個角度下分數對距離 $m - n$ 的曲線，圓圈標出目前的 $(m, n)$。圖一開始停在上面的例子（$30°$、$m = 3$、$n = 1$）；把 $m$ 拉到 7、$n$ 拉到 5：箭頭完全不同，圓圈卻落在同一點。把 $m$ 拉到 1，兩個向量轉一樣多，分數回到不轉時的 {glue:text}`rope_11:.1f`；把角度改成 $15°$，曲線擺盪得慢一倍。
""",
    en=r"""
$(1, 1)$ is zero positions apart and still scores {glue:text}`rope_11:.1f`; $(2, 1)$, one apart, scores {glue:text}`rope_21:.3f`;
$(3, 1)$ and $(7, 5)$ are both two apart and both score {glue:text}`rope_31:.3f` and {glue:text}`rope_75:.3f`: the rotated
vectors of these two pairs are completely different, yet their dot products agree. Distances 0, 1 and 2
all score differently, so a model can learn how far away the words it cares about tend to be.

**Interactive figure.** Move the angle per position and the positions $m$ and $n$ of $\mathbf{q}$ and
$\mathbf{k}$. Left: the arrows before (dashed) and after (solid) rotation; right: the score against
the distance $m - n$ at this angle, the current $(m, n)$ circled. It opens at the example above
($30°$, $m = 3$, $n = 1$); move $m$ to 7 and $n$ to 5: completely different arrows, the same point
on the curve. Move $m$ to 1 and both vectors turn by the same angle, so the score is back to the
unrotated {glue:text}`rope_11:.1f`; switch to $15°$ and the curve swings half as fast.
""",
)

ch.code("lib.figures.rope.rope_widget()")

ch.md(
    zh=r"""
這個例子每一步轉 $30°$，只是為了讓變化看得清楚：轉 {glue:text}`rope_period` 步就繞回原處，分數也跟著重複。
真正的 RoPE（`lib.rope` 不給 `theta` 時）把 $d$ 維切成 $d/2$ 組，各組的角速度和正弦編碼的 $\omega_k$ 相同：
少數幾組轉得快，多數組轉得很慢，合起來不會轉幾步就繞回原處。下圖比較 $\mathbf{q} = \mathbf{k} = [1, \dots, 1]$ 時兩者的分數對距離：
二維的例子上下擺盪、每 {glue:text}`rope_period` 步重來一次；真正的 RoPE 不會回到起點，而且距離越遠，分數大致越小
（RoFormer 論文稱為長距離衰減）。
""",
    en=r"""
This example turns $30°$ per step only to make the change easy to see: after {glue:text}`rope_period` steps it is
back where it started, and the scores repeat. Real RoPE (`lib.rope` without `theta`) splits the $d$
dimensions into $d/2$ pairs whose angular speeds are the $\omega_k$ of the sinusoidal encoding: a few
pairs turn fast, most turn very slowly, and together they do not come back around after a few steps.
The figure compares the score against distance for $\mathbf{q} = \mathbf{k} = [1, \dots, 1]$: the
two-dimensional example swings up and down and starts over every {glue:text}`rope_period` steps; real RoPE
never returns to its start, and the further apart, the smaller the score tends to be (the RoFormer
paper calls this long-term decay).
""",
)

ch.code("lib.figures.rope.plot_rope_distance(d=64, max_distance=200);")

# ---------------------------------------------------------------------------------------------
ch.md(
    zh=r"""
## 小結

- 自注意力是**值向量的加權總和**；權重是查詢與各個鍵的內積，經過 $\sqrt{d_k}$ 縮放與 softmax。
- 「它」的三詞元例子：權重 {glue:text}`w_trophy:.2f`、{glue:text}`w_suitcase:.2f`、{glue:text}`w_it:.2f`，輸出 [{glue:text}`out_0:.2f`, {glue:text}`out_1:.2f`]。這個數字不會隨「大／小」翻轉：那需要看得到整句。
- 除以 $\sqrt{d_k}$ 讓分數的變異數回到 1，softmax 不會一面倒，梯度也不會消失。
- 因果遮罩把未來位置設為 $-\infty$；生成式模型讀「它」時還看不到「大／小」。
- $N \times N$ 個分數：時間與記憶體都隨長度平方成長（量到的記憶體斜率 {glue:text}`slope_mem:.2f`）。
- 注意力本身置換等變，分不出「狗咬人」與「人咬狗」；位置可以加在輸入上（學來的或正弦的），也可以寫進內積（RoPE），讓分數只看相對距離。

## 練習
""",
    en=r"""
## Summary

- Self-attention is a **weighted sum of values**; the weights are the dot products of the query with
  each key, scaled by $\sqrt{d_k}$ and passed through softmax.
- The three-token example: weights {glue:text}`w_trophy:.2f`, {glue:text}`w_suitcase:.2f`, {glue:text}`w_it:.2f`, output
  [{glue:text}`out_0:.2f`, {glue:text}`out_1:.2f`]. This number does not flip with "big/small": that needs the whole sentence.
- Dividing by $\sqrt{d_k}$ brings the variance of the scores back to 1, so softmax is not one-sided
  and the gradients do not vanish.
- The causal mask sets future positions to $-\infty$; a generative model reading "it" cannot yet see
  "big/small".
- $N \times N$ scores: time and memory grow with the square of the length (measured memory slope
  {glue:text}`slope_mem:.2f`).
- Attention by itself is permutation equivariant and cannot tell "dog bites man" from "man bites dog";
  positions can be added to the input (learned or sinusoidal) or written into the dot product (RoPE),
  so that scores see only the relative distance.

## Exercises
""",
)

ch.code("""
_, w_ex1 = lib.scaled_dot_product_attention(np.array([[2.0, 1.0]]), K, V)   # hidden helper for exercise 1
""", tags=["remove-cell"])

ch.hidden("""
for tok, w in zip(["trophy", "suitcase", "it"], w_ex1[0]):
    lib.glue(f"ex1_w_{tok}", float(w))
lib.glue("ex4_gib", 131072 ** 2 * 2 / 2 ** 30)
lib.glue("ex5_longest_period", float(2 * np.pi / lib.positions.angular_speeds(64)[-1]))
lib.glue("ex5_fastest_period", float(2 * np.pi / lib.positions.angular_speeds(64)[0]));
""")

ch.md(
    zh=r"""
**練習 1（紙筆）。** 把「它」的查詢從 $[1, 2]$ 改成 $[2, 1]$，鍵與值不變。先不計算，猜猜哪個詞元分到最多權重；再照四個步驟算出權重。

:::{dropdown} 解答
內積變成 獎盃 $2\times2 + 1\times1 = 5$、行李箱 $2\times1 + 1\times0 = 2$、它 $2\times0 + 1\times1 = 1$。除以 $\sqrt{2}$ 後 softmax，
權重約為 {glue:text}`ex1_w_trophy:.2f`、{glue:text}`ex1_w_suitcase:.2f`、{glue:text}`ex1_w_it:.2f`。
獎盃的鍵 $[2, 1]$ 和新的查詢方向相同，所以分得更多；行李箱的鍵 $[1, 0]$ 也比原本更貼近查詢，超過了「它」自己。
可以用 `lib.scaled_dot_product_attention(np.array([[2.0, 1.0]]), K, V)` 驗算。
:::

**練習 2（程式）。** 寫一個函式，算出注意力權重的熵（以位元計）：$H(\boldsymbol\alpha) = -\sum_j \alpha_j \log_2 \alpha_j$，$0 \log 0$ 當作 0。權重平均分給 4 個詞元時應該是 2 位元。然後比較 $[8, 4, 0]$ 縮放前後的熵。
""",
    en=r"""
**Exercise 1 (pen and paper).** Change the query of "it" from $[1, 2]$ to $[2, 1]$, keeping the keys
and values. Before computing, guess which token gets the most weight; then compute the weights with
the four steps.

:::{dropdown} Solution
The dot products become trophy $2\times2 + 1\times1 = 5$, suitcase $2\times1 + 1\times0 = 2$, it
$2\times0 + 1\times1 = 1$. After dividing by $\sqrt{2}$ and softmax the weights are about
{glue:text}`ex1_w_trophy:.2f`, {glue:text}`ex1_w_suitcase:.2f`, {glue:text}`ex1_w_it:.2f`. The trophy's key $[2, 1]$ points exactly along the new
query, so it gets even more; the suitcase's key $[1, 0]$ is now closer to the query than the key of
"it" itself. Check with `lib.scaled_dot_product_attention(np.array([[2.0, 1.0]]), K, V)`.
:::

**Exercise 2 (code).** Write a function that returns the entropy of attention weights in bits,
$H(\boldsymbol\alpha) = -\sum_j \alpha_j \log_2 \alpha_j$, counting $0 \log 0$ as 0. Weights spread
evenly over 4 tokens should give 2 bits. Then compare the entropy of $[8, 4, 0]$ before and after
scaling.
""",
)

ch.code("""
def attention_entropy(weights):
    \"\"\"Entropy in bits of a vector of attention weights.\"\"\"
    weights = np.asarray(weights, dtype=float)
    return 0.0    # ← your code here

lib.check(attention_entropy(np.full(4, 0.25)), 2.0, hint="−Σ α log₂ α; np.log2")
lib.check(attention_entropy(lib.softmax([8.0, 4.0, 0.0])),
          float(lib.figures.attention.entropy_bits(lib.softmax([8.0, 4.0, 0.0]))), rtol=1e-4,
          hint=lib.tr(zh="跳過 0：只取 weights > 0 的項", en="skip the zeros: keep weights > 0"));
""")

ch.hidden("""
lib.glue("ex2_h_raw", float(lib.figures.attention.entropy_bits(w_raw)))
lib.glue("ex2_h_scaled", float(lib.figures.attention.entropy_bits(w_scaled)));
""")

ch.md(
    zh=r"""
:::{dropdown} 解答
```python
def attention_entropy(weights):
    weights = np.asarray(weights, dtype=float)
    nonzero = weights[weights > 0]
    return float(-(nonzero * np.log2(nonzero)).sum())
```
$[8, 4, 0]$ 不縮放時熵只有 {glue:text}`ex2_h_raw:.2f` 位元，縮放後是 {glue:text}`ex2_h_scaled:.2f` 位元（三個詞元最多 $\log_2 3 \approx 1.58$ 位元）。
:::

**練習 3（程式）。** 不加位置時，把「狗咬人」三個詞元任意重新排列（例如用 `rng.permutation(3)`），用 `attend` 算出新的輸出 `out_perm`。
置換等變說：它應該正好是原本的輸出 `out_original` 依同樣順序重排的結果。
""",
    en=r"""
:::{dropdown} Solution
```python
def attention_entropy(weights):
    weights = np.asarray(weights, dtype=float)
    nonzero = weights[weights > 0]
    return float(-(nonzero * np.log2(nonzero)).sum())
```
Unscaled, $[8, 4, 0]$ has an entropy of only {glue:text}`ex2_h_raw:.2f` bits; scaled, {glue:text}`ex2_h_scaled:.2f` bits (three
tokens allow at most $\log_2 3 \approx 1.58$ bits).
:::

**Exercise 3 (code).** Without positions, shuffle the three tokens of "dog bites man" in any order
(for example with `rng.permutation(3)`) and compute the new output `out_perm` with `attend`.
Permutation equivariance says it should be exactly the original outputs `out_original` reordered the
same way.
""",
)

ch.code("""
rng = np.random.default_rng(3)
order = rng.permutation(3)                   # e.g. [2, 0, 1]
shuffled = dog_bites_man[order]              # the tokens in the new order   [N, d]
out_perm = np.zeros((3, 2))                  # ← your code here: attention over `shuffled`

out_original = runs["dog bites man", "no positions"][0]   # the outputs in the original order [N, d]
lib.check(out_perm, out_original[order], atol=1e-9,
          hint=lib.tr(zh="用「狗咬人」那格的 attend()", en="attend() from the dog-bites-man cell"));
""")

ch.md(
    zh=r"""
:::{dropdown} 解答
`out_perm, _ = attend(shuffled)`。每個詞元的分數只取決於自己和其他詞元的向量，和它們排在哪裡無關；softmax 與加權總和也不管順序。
所以詞元換位置，輸出只是跟著換位置。加上位置（`attend(shuffled + P)`）之後，這個等式就不成立了。
:::

**練習 4（概念）。** 一個有 128k（$131072$）個詞元的上下文，單一注意力頭、單一層的分數矩陣若以 float16（2 位元組）存下，要多少記憶體？
長度加倍時呢？FlashAttention 省下的是什麼，省不下的又是什麼？

:::{dropdown} 解答
$131072^2 \times 2$ 位元組約 {glue:text}`ex4_gib:.0f` GiB——只是一個頭、一層。長度加倍，分數變四倍。FlashAttention 分塊計算 softmax，從不把整個 $N \times N$ 矩陣存下，省下的是記憶體（變成隨 $N$ 線性成長）；
但 $N^2$ 個內積仍然都要算，時間依舊是平方成長。
:::

**練習 5（概念）。** RoPE 例子裡每個位置轉 $30°$，分數每 {glue:text}`rope_period` 個位置重複一次。真正的 RoPE 在 $d = 64$ 時，
最快與最慢的一組各要多少個位置才轉一圈？這對「轉幾步就繞回原處」的問題代表什麼？

:::{dropdown} 解答
最快的一組 $\omega_0 = 1$，每 $2\pi \approx$ {glue:text}`ex5_fastest_period:.1f` 個位置轉一圈；最慢的一組 $\omega_{31} = 10000^{-62/64}$，
要約 {glue:text}`ex5_longest_period:.0f` 個位置才轉一圈。快的組分辨近距離，慢的組分辨遠距離；在實際的上下文長度內，
各組不會同時繞回原處，所以分數不會像二維例子那樣週期性地重複。
:::
""",
    en=r"""
:::{dropdown} Solution
`out_perm, _ = attend(shuffled)`. Each token's scores depend only on its own vector and the other
tokens' vectors, not on where they sit; softmax and the weighted sum ignore order too. So moving the
tokens only moves their outputs. Add positions (`attend(shuffled + P)`) and the equality breaks.
:::

**Exercise 4 (concept).** A context of 128k ($131072$) tokens: how much memory does the score matrix
of a single head in a single layer take if stored in float16 (2 bytes)? And if the length doubles?
What does FlashAttention save, and what can it not save?

:::{dropdown} Solution
$131072^2 \times 2$ bytes is about {glue:text}`ex4_gib:.0f` GiB, for one head in one layer. Double the length and
there are four times as many scores. FlashAttention computes the softmax in blocks and never stores
the whole $N \times N$ matrix, which saves memory (it grows linearly in $N$ instead); but all $N^2$
dot products must still be computed, so the time still grows quadratically.
:::

**Exercise 5 (concept).** In the RoPE example every position turns $30°$, and the scores repeat every
{glue:text}`rope_period` positions. With real RoPE at $d = 64$, how many positions do the fastest and the slowest
pair take to turn once? What does that mean for the "back where it started" problem?

:::{dropdown} Solution
The fastest pair has $\omega_0 = 1$ and turns once every $2\pi \approx$ {glue:text}`ex5_fastest_period:.1f` positions; the
slowest, $\omega_{31} = 10000^{-62/64}$, takes about {glue:text}`ex5_longest_period:.0f` positions. Fast pairs resolve
short distances, slow pairs long ones; within practical context lengths the pairs never all come back
around at once, so the scores do not repeat periodically the way the two-dimensional example does.
:::
""",
)

ch.write()
