"""Chapter 4: multi-head attention and the Transformer block (both books)."""
import re

from nbgen import Chapter

ch = Chapter("04-multi-head-block")

md = ch.md  # tools/nbgen.py joins wrapped Chinese lines

md(
    zh="""
# 4. 多頭注意力與 Transformer 區塊

同時請好幾組「讀者」從不同角度讀同一個句子，再把意見彙整成一份；把這個步驟疊上幾十層，就是一個 Transformer。
""",
    en="""
# 4. Multi-head attention and the Transformer block

Ask several "readers" to read the same sentence from different angles, then merge their opinions
into one; stack that step a few dozen times, and you have a Transformer.
""",
)

ch.bootstrap()

md(
    zh="""
**這一章你會學到：**

- 為什麼一組 $\\mathbf{Q}$、$\\mathbf{K}$、$\\mathbf{V}$ 不夠用，多頭注意力如何切分、串接，再用 $\\mathbf{W}^O$ 彙整；
- 本書的小模型裡，每個頭實際上在看什麼；
- 殘差流：每一層都只在同一份筆記上「加註」；
- 一個區塊的五個步驟（pre-norm），以及其中的前饋網路與 LayerNorm；
- pre-norm 和原始論文的 post-norm 差在哪裡，為什麼深的模型偏好 pre-norm；
- 怎麼從矩陣的形狀算出一個模型的參數量：從一個區塊、GPT-2 小型版到 GPT-3。
""",
    en="""
**In this chapter you will learn:**

- why one set of $\\mathbf{Q}$, $\\mathbf{K}$, $\\mathbf{V}$ is not enough, and how multi-head
  attention splits, concatenates and merges with $\\mathbf{W}^O$;
- what each head of the book's tiny model actually looks at;
- the residual stream: every layer only *annotates* one shared notebook;
- the five steps of a (pre-norm) block, with its feed-forward network and LayerNorm;
- how pre-norm differs from the original paper's post-norm, and why deep models prefer pre-norm;
- how to count a model's parameters from the shapes of its matrices: one block, GPT-2 small,
  GPT-3.
""",
)

ch.code(
    """
import inspect
import numpy as np
import lib.figures.block
"""
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
(def-multi-head)=
## 多頭注意力：一個審稿委員會

**比喻：審稿委員會。** 上一章的一組 $\\mathbf{Q}$、$\\mathbf{K}$、$\\mathbf{V}$ 只能問一種問題，
而語言裡的關係不只一種：誰是主詞、哪個修飾語修飾哪個名詞、代名詞指向誰。多頭注意力就像請 $A$ 位審稿人，
每人負責一個面向，各自讀完全文寫下意見；最後由主編（$\\mathbf{W}^O$）把這些意見整合成一份。

**式子。** 第 $h$ 個頭有自己的投影矩陣 $\\mathbf{W}_Q^{(h)}$、$\\mathbf{W}_K^{(h)}$、$\\mathbf{W}_V^{(h)}$，
形狀都是 $[d \\times d_k]$，各自做一次上一章的注意力：

$$
\\mathrm{head}_h = \\mathrm{Attention}\\big(\\mathbf{X}\\mathbf{W}_Q^{(h)},\\ \\mathbf{X}\\mathbf{W}_K^{(h)},\\ \\mathbf{X}\\mathbf{W}_V^{(h)}\\big),
\\qquad h = 1, \\dots, A
$$

$$
\\mathrm{MultiHead}(\\mathbf{X}) = \\big(\\mathrm{head}_1 \\oplus \\mathrm{head}_2 \\oplus \\cdots \\oplus \\mathrm{head}_A\\big)\\,\\mathbf{W}^O
$$

其中 $\\oplus$ 是串接（把矩陣左右並排）。通常取 $d_k = d / A$，串接之後又回到 $d$ 維，
所以 $\\mathbf{W}^O$ 的形狀是 $[d \\times d]$，輸出和輸入一樣寬 {cite}`vaswani2017attention`。

實作時不必真的存 $A$ 組小矩陣：把 $A$ 個 $[d \\times d_k]$ 的 $\\mathbf{W}_Q^{(h)}$ 左右並排，就是一個
$[d \\times d]$ 的 $\\mathbf{W}_Q$；第 $h$ 個頭用的是第 $h \\cdot d/A$ 到 $(h+1) \\cdot d/A$ 欄（這裡頭和欄都像 Python 一樣從 0 數起，不含右端）。`lib` 正是這樣寫的：
""",
    en="""
(def-multi-head)=
## Multi-head attention: a review committee

**Analogy: a review committee.** The single $\\mathbf{Q}$, $\\mathbf{K}$, $\\mathbf{V}$ of the last
chapter can ask only one kind of question, and language has more than one kind of relation: who
is the subject, which modifier goes with which noun, what a pronoun points to. Multi-head attention
is like asking $A$ reviewers to each take one aspect, read the whole text and write an opinion;
the editor ($\\mathbf{W}^O$) then merges those opinions into one report.

**Formula.** Head $h$ has its own projections $\\mathbf{W}_Q^{(h)}$, $\\mathbf{W}_K^{(h)}$,
$\\mathbf{W}_V^{(h)}$, each $[d \\times d_k]$, and runs the attention of the last chapter:

$$
\\mathrm{head}_h = \\mathrm{Attention}\\big(\\mathbf{X}\\mathbf{W}_Q^{(h)},\\ \\mathbf{X}\\mathbf{W}_K^{(h)},\\ \\mathbf{X}\\mathbf{W}_V^{(h)}\\big),
\\qquad h = 1, \\dots, A
$$

$$
\\mathrm{MultiHead}(\\mathbf{X}) = \\big(\\mathrm{head}_1 \\oplus \\mathrm{head}_2 \\oplus \\cdots \\oplus \\mathrm{head}_A\\big)\\,\\mathbf{W}^O
$$

where $\\oplus$ is concatenation (placing the matrices side by side). Usually $d_k = d / A$, so the
concatenation is $d$ wide again, $\\mathbf{W}^O$ is $[d \\times d]$, and the output is as wide as
the input {cite}`vaswani2017attention`.

An implementation need not keep $A$ small matrices: the $A$ matrices $\\mathbf{W}_Q^{(h)}$ of shape
$[d \\times d_k]$, side by side, form one $[d \\times d]$ matrix $\\mathbf{W}_Q$, and head $h$ uses
its columns $h \\cdot d/A$ to $(h+1) \\cdot d/A$ (here heads and columns count from 0, as in Python,
and the right end is excluded). That is how `lib` writes it:
""",
)

ch.code("print(inspect.getsource(lib.multi_head_attention))")

md(
    zh="""
**算算看。** 設 $d = 8$、$A = 2$，句子有 4 個詞元。我們用隨機的矩陣跑一次 `lib.multi_head_attention`，看看形狀：
""",
    en="""
**Work it out.** Take $d = 8$, $A = 2$ and a sentence of 4 tokens. Run
`lib.multi_head_attention` once with random matrices and look at the shapes:
""",
)

ch.code(
    """
rng = np.random.default_rng(0)
N, d, A = 4, 8, 2
d_k = d // A                                       # each head is 4 wide
X = rng.normal(size=(N, d))                        # [N, d]
WQ, WK, WV, WO = (rng.normal(size=(d, d)) / np.sqrt(d)
                  for _ in range(4))               # each [d, d]

out, weights = lib.multi_head_attention(X, WQ, WK, WV, WO, n_heads=A)
print("X      ", X.shape)
print("out    ", out.shape)        # [N, d]: as wide as the input
print("weights", weights.shape)    # [A, N, N]: one attention table per head
"""
)

md(
    zh="""
再把委員會拆開來看：每位審稿人只拿自己那幾欄，用上一章的單頭 `lib.self_attention` 各算一次，
兩份意見各 4 維；串接回 8 維，乘上 $[8 \\times 8]$ 的 $\\mathbf{W}^O$，得到的正是上面的 `out`。
""",
    en="""
Now take the committee apart: each reviewer gets only its own columns and runs the single-head
`lib.self_attention` of the last chapter. Each opinion is 4 wide; concatenated they are 8 wide
again, and times the $[8 \\times 8]$ matrix $\\mathbf{W}^O$ they give exactly the `out` above.
""",
)

ch.code(
    """
cols = [slice(h * d_k, (h + 1) * d_k) for h in range(A)]   # head h's columns
heads = [lib.self_attention(X, WQ[:, c], WK[:, c], WV[:, c])[0]
         for c in cols]                                    # A × [N, d_k]
concat = np.concatenate(heads, axis=-1)                           # [N, d]
print([h.shape for h in heads], "→", concat.shape, "→", (concat @ WO).shape)
print(np.allclose(concat @ WO, out))
"""
)

ch.check(
    """
assert out.shape == (4, 8) and weights.shape == (2, 4, 4)
assert all(h.shape == (4, 4) for h in heads) and concat.shape == (4, 8)
assert np.allclose(concat @ WO, out)
assert np.allclose(weights.sum(-1), 1.0)
"""
)

ch.hidden(
    """
lib.glue("mh_N", N); lib.glue("mh_d", d); lib.glue("mh_A", A); lib.glue("mh_dk", d_k)
lib.glue("mh_params", int(4 * d * d));
"""
)

ch.code("lib.figures.block.plot_concat(heads, concat, out);")

md(
    zh="""
圖中每一格是一個數字（紅正藍負）。兩位審稿人各寫 {glue:text}`mh_dk:d` 欄，並排成 {glue:text}`mh_d:d` 欄；
主編 $\\mathbf{W}^O$ 再把每一欄重新調配，所以最右邊的每一欄都混合了兩個頭的意見。
注意參數量並沒有因為分頭而增加：不管 $A$ 是多少，$\\mathbf{W}_Q, \\mathbf{W}_K, \\mathbf{W}_V, \\mathbf{W}^O$
合起來都是 $4d^2$ = {glue:text}`mh_params:d` 個數字；分頭只是把同樣的寬度分給好幾個獨立的 softmax。
""",
    en="""
Each cell of the figure is one number (red positive, blue negative). Each reviewer writes
{glue:text}`mh_dk:d` columns; side by side they make {glue:text}`mh_d:d`. The editor
$\\mathbf{W}^O$ then remixes the columns, so every column on the right blends both heads'
opinions. Splitting into heads costs no parameters: whatever $A$ is, $\\mathbf{W}_Q, \\mathbf{W}_K,
\\mathbf{W}_V, \\mathbf{W}^O$ hold $4d^2$ = {glue:text}`mh_params:d` numbers together; the heads only
share the same width among several independent softmaxes.
""",
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
## 小模型的每個頭在看什麼？

本書的小編碼器（見第 0 章）有 {glue:text}`L_tiny:d` 層、每層 {glue:text}`A_tiny:d` 個頭。把「太大」那句餵進去，`lib.winograd.resolve` 會交回每一層、
每一個頭的注意力權重，形狀是 $[L, A, N, N]$。下圖一格一個頭；每一列是一個提問的詞元，
橘框標出「它」那一列。按圖上方的按鈕可以換成「太小」那句。
""",
    en="""
The book's tiny encoder (see chapter 0) has {glue:text}`L_tiny:d` layers of {glue:text}`A_tiny:d`
heads. Feed it the "too big" sentence
and `lib.winograd.resolve` returns the attention weights of every layer and head, of shape
$[L, A, N, N]$. The figure has one panel per head; each row is an asking token, and the orange
frame marks the row of "it". The buttons above the figure switch to the "too small" sentence.
""",
)

ch.code(
    """
big, small = lib.winograd.canonical_pair(LANG)
r_big = lib.winograd.resolve(big, LANG)
r_small = lib.winograd.resolve(small, LANG)
print(r_big.attention.shape)                                      # [L, A, N, N]
lib.figures.block.heads_widget(r_big, r_small)
"""
)

md(
    zh="""
只看「它」那一列，把兩句並排比較：每個頭最看重哪個詞元，以及在兩個候選名詞之間，第一個名詞分到多少。
""",
    en="""
Keep only the row of "it" and put the two sentences side by side: which token each head looks at
most, and, between the two candidate nouns, how much of the attention goes to the first one.
""",
)

ch.code(
    """
rows = lib.figures.block.head_summary(r_big, r_small)
print(lib.figures.block.head_table(rows, r_big))
"""
)

ch.hidden(
    """
L_tiny, A_tiny = r_big.attention.shape[:2]
lib.glue("L_tiny", int(L_tiny)); lib.glue("A_tiny", int(A_tiny))
first_layer = [r for r in rows if r["layer"] == 1]
top_layer = [r for r in rows if r["layer"] == L_tiny]
noun1 = r_big.tokens[min(r_big.tokens.index(n) for n in r_big.probs)]
j_adj = lib.figures.block.adjective_index(r_big, r_small)
ref_big = r_big.tokens.index(r_big.referent)
adj_head = int(np.argmax(r_big.attention[0, :, j_adj, ref_big]))          # layer 1
adj_row = first_layer[adj_head]
it_row = max(top_layer, key=lambda r: r["top_w_big"])
flip = max(top_layer, key=lambda r: abs(r["share_big"] - r["share_small"]))
lib.glue("noun1", noun1)
lib.glue("l1_share", first_layer[0]["share_big"]); lib.glue("l1_share_small", first_layer[0]["share_small"])
lib.glue("adj_big", r_big.tokens[j_adj]); lib.glue("adj_small", r_small.tokens[j_adj])
lib.glue("adj_head", adj_head + 1); lib.glue("referent_big", r_big.referent)
lib.glue("adj_big_w", float(r_big.attention[0, adj_head, j_adj, ref_big]))
lib.glue("adj_small_top", adj_row["adj_top_small"]); lib.glue("adj_small_w", adj_row["adj_top_w_small"])
lib.glue("it_head", it_row["head"])
lib.glue("it_top_big", it_row["top_big"]); lib.glue("it_top_w_big", it_row["top_w_big"])
lib.glue("it_top_small", it_row["top_small"]); lib.glue("it_top_w_small", it_row["top_w_small"])
lib.glue("flip_head", flip["head"])
lib.glue("flip_big", flip["share_big"]); lib.glue("flip_small", flip["share_small"])
noun2 = next(n for n in r_big.probs if n != noun1)
b, s = flip["share_big"], flip["share_small"]
if abs(b - s) < 0.05:
    verdict = lib.tr(zh="幾乎沒變：答案並不是靠「它」直接看兩個名詞得來的",
                     en='hardly a change: the answer does not come from "it" looking straight at the nouns')
elif b > 0.5 > s:
    verdict = lib.tr(zh=f"這個頭確實從偏向「{noun1}」翻成偏向「{noun2}」",
                     en=f'this head does flip, from "{noun1}" to "{noun2}"')
elif s > 0.5 > b:
    verdict = lib.tr(zh="這個頭翻轉的方向和答案相反", en="this head flips the wrong way")
else:
    verdict = lib.tr(zh="有所移動，但沒有翻轉", en="a shift, but no flip")
lib.glue("flip_verdict", verdict);
"""
)

ch.check(
    """
# Layer 1 cannot tell the sentences apart: same query for 它/it, same keys for both nouns.
for r in first_layer:
    assert abs(r["share_big"] - r["share_small"]) < 1e-9, r
assert r_big.attention.shape[:2] == (2, 2)
assert np.allclose(r_big.attention.sum(-1), 1.0)
# the adjective of the "too big" sentence looks most at its referent in some layer-1 head
assert adj_row["adj_top_big"] == r_big.referent, adj_row
# in layer 2, "it" concentrates on one word near the end of the sentence
assert it_row["top_w_big"] > 0.5 and r_big.tokens.index(it_row["top_big"]) > r_big.pronoun_index
"""
)

md(
    zh="""
有一件事不必看圖就能確定：**在第 1 層，「它」分不出這兩句。** 在第 1 層，「它」的查詢向量在兩句中完全相同，
兩個名詞的鍵向量也完全相同（同樣的詞、同樣的座位），只有「大／小」那一個鍵不同；它只改變 softmax 的分母，
所以「它」分給兩個名詞的比例不會變。以上表第 1 層的頭 1 為例，{glue:text}`noun1`的佔比在「太大」句是
{glue:text}`l1_share:.6f`，在「太小」句是 {glue:text}`l1_share_small:.6f`，一模一樣。

要讓「它」依句子改指，語境得先寫進別的詞裡。形容詞在第 1 層就辦得到，因為它自己的查詢向量在兩句中不同：
第 1 層的頭 {glue:text}`adj_head:d` 裡，「{glue:text}`adj_big`」最看重「{glue:text}`referent_big`」（{glue:text}`adj_big_w:.2f`），
「{glue:text}`adj_small`」則最看重「{glue:text}`adj_small_top`」（{glue:text}`adj_small_w:.2f`）。
到了第 2 層，「它」轉向句尾：頭 {glue:text}`it_head:d` 在「太大」句把 {glue:text}`it_top_w_big:.2f` 的注意力放在
「{glue:text}`it_top_big`」，在「太小」句把 {glue:text}`it_top_w_small:.2f` 放在「{glue:text}`it_top_small`」，
連帶讀到第 1 層寫進這些向量的語境。答案是**分兩步、經由形容詞一帶**傳過來的，這就是區塊要**疊起來**的理由。
至於「它」直接分給兩個名詞的比例，第 2 層裡兩句差最多的是頭 {glue:text}`flip_head:d`：{glue:text}`noun1`的佔比從
{glue:text}`flip_big:.2f` 變成 {glue:text}`flip_small:.2f`，{glue:text}`flip_verdict`。第 7 章會用{term}`注意力展開 <注意力展開（attention rollout）>`（attention rollout）把各層串起來看。

不過，一個頭的權重大，不等於模型「靠它」才答對 {cite}`jain2019attention`。比較直接的檢驗是讓某位審稿人閉嘴：
把一個頭的輸出歸零，再看沒看過的句子還答對多少。第 7 章會在整個測試集上量這條路線，並逐一關掉各個頭來驗證。
""",
    en="""
One thing is certain without looking: **in layer 1, "it" cannot tell the two sentences
apart.** In layer 1 the query of "it" is the same in both sentences, and so are the keys of the
two nouns (same words, same seats); only the key of "big/small" differs, and that only changes
the softmax's denominator, so the split of attention between the two nouns cannot change. In the
table, head 1 of layer 1 gives the first noun, {glue:text}`noun1`, a share of
{glue:text}`l1_share:.6f` in the "too big" sentence and {glue:text}`l1_share_small:.6f` in the
"too small" one: identical.

For "it" to change its referent, the context must first be written into some other word. The
adjective can do that in layer 1 already, because its own query differs between the sentences: in
layer 1, head {glue:text}`adj_head:d`, "{glue:text}`adj_big`" looks most at
"{glue:text}`referent_big`" ({glue:text}`adj_big_w:.2f`), while "{glue:text}`adj_small`" looks most
at "{glue:text}`adj_small_top`" ({glue:text}`adj_small_w:.2f`). In layer 2, "it" turns to the end of
the sentence: head {glue:text}`it_head:d` puts {glue:text}`it_top_w_big:.2f` of its attention on
"{glue:text}`it_top_big`" in the "too big" sentence and {glue:text}`it_top_w_small:.2f` on
"{glue:text}`it_top_small`" in the "too small" one, and with those vectors it reads what layer 1 wrote
into them. The answer travels **in two steps, through the words around the adjective** — which is
why blocks are **stacked**. As for the direct split of "it" between the two nouns, the layer-2 head where it differs most
between the sentences is head {glue:text}`flip_head:d`: {glue:text}`noun1`'s share goes from
{glue:text}`flip_big:.2f` to {glue:text}`flip_small:.2f` — {glue:text}`flip_verdict`.
Chapter 7 chains the layers together with {term}`attention rollout <attention rollout（注意力展開）>`.

Still, a large weight in one head does not prove that the model relies on it
{cite}`jain2019attention`. A more direct test is to silence a reviewer: zero one head's output and
see how many unseen sentences the model still gets right. Chapter 7 measures this route over the
whole held-out set and silences the heads one by one to test it.
""",
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
(def-residual-stream)=
## 殘差流：一份共筆筆記

**比喻：共筆筆記。** 每個詞元都有自己的一條**殘差流**（residual stream），由下往上傳。
每一層都不重寫整份筆記，只在上面**加註**。注意力是唯一能讀別人筆記的元件，負責在詞元之間搬運資訊；
前饋網路則只在各自的筆記上加工 {cite}`elhage2021mathematical`。所以上一節那個 8 維的輸出，
可以整段加回筆記，不必把原來的筆記換掉。

**式子：一個區塊的五個步驟（pre-norm，投影片和本書的寫法）。** 對第 $i$ 個詞元：

$$
\\begin{aligned}
\\mathbf{t}^1_i &= \\mathrm{LayerNorm}(\\mathbf{x}_i) \\\\
\\mathbf{t}^2_i &= \\mathrm{MultiHeadAttention}\\big(\\mathbf{t}^1_i,\\ [\\mathbf{t}^1_1, \\dots, \\mathbf{t}^1_N]\\big) \\\\
\\mathbf{t}^3_i &= \\mathbf{t}^2_i + \\mathbf{x}_i \\\\
\\mathbf{t}^4_i &= \\mathrm{LayerNorm}(\\mathbf{t}^3_i) \\\\
\\mathbf{t}^5_i &= \\mathrm{FFN}(\\mathbf{t}^4_i) \\\\
\\mathbf{h}_i &= \\mathbf{t}^5_i + \\mathbf{t}^3_i
\\end{aligned}
$$

第 3 步和最後一步就是「加註」：子層算出的東西**加**回原來的筆記。`lib.transformer_block` 一行對應一步：
""",
    en="""
(def-residual-stream)=
## The residual stream: a shared notebook

**Analogy: a shared notebook.** Every token has its own **residual stream**, passed from the
bottom up. No layer rewrites the notebook; each only **annotates** it. Attention is the one part
that can read the other tokens' notebooks, so it carries information between tokens; the
feed-forward network only works on each token's own notebook {cite}`elhage2021mathematical`. So
the 8-wide output of the last section can simply be added to the notebook, without replacing what
was there.

**Formula: the five steps of a block (pre-norm, as in the slides and this book).** For token $i$:

$$
\\begin{aligned}
\\mathbf{t}^1_i &= \\mathrm{LayerNorm}(\\mathbf{x}_i) \\\\
\\mathbf{t}^2_i &= \\mathrm{MultiHeadAttention}\\big(\\mathbf{t}^1_i,\\ [\\mathbf{t}^1_1, \\dots, \\mathbf{t}^1_N]\\big) \\\\
\\mathbf{t}^3_i &= \\mathbf{t}^2_i + \\mathbf{x}_i \\\\
\\mathbf{t}^4_i &= \\mathrm{LayerNorm}(\\mathbf{t}^3_i) \\\\
\\mathbf{t}^5_i &= \\mathrm{FFN}(\\mathbf{t}^4_i) \\\\
\\mathbf{h}_i &= \\mathbf{t}^5_i + \\mathbf{t}^3_i
\\end{aligned}
$$

Step 3 and the last step are the annotations: what a sublayer computes is **added** to the
notebook. `lib.transformer_block` has one line per step:
""",
)

ch.code("print(inspect.getsource(lib.transformer_block))")

md(
    zh="""
**算算看。** 沿用第 2 章「它」的輸入向量 $\\mathbf{x}_{11} = [0.3, 0.5, 0.5]$。若注意力算出
$\\mathbf{t}^2 = [0.2, -0.1, 0.4]$，第 3 步就是逐格相加：
""",
    en="""
**Work it out.** Reuse the input vector of "it" from chapter 2, $\\mathbf{x}_{11} = [0.3, 0.5,
0.5]$. If attention produces $\\mathbf{t}^2 = [0.2, -0.1, 0.4]$, step 3 adds them coordinate by
coordinate:
""",
)

ch.code(
    """
x_it = np.array([0.3, 0.5, 0.5])
t2 = np.array([0.2, -0.1, 0.4])
t3 = t2 + x_it
print(t3)
"""
)

ch.check("assert np.allclose(t3, [0.5, 0.4, 0.9])")

ch.hidden(
    """
lib.glue("t3_str", "[" + ", ".join(f"{v:.1f}" for v in t3) + "]");
"""
)

ch.code("lib.figures.block.plot_residual_update(x_it, t2);")

md(
    zh="""
結果是 $\\mathbf{t}^3 =$ {glue:text}`t3_str`。原本的筆記還在，只是每一格多了一點註記。

小模型也是這樣。`r.hidden` 存著每一層之後的殘差流（第 0 層是輸入）。看「它」那一格：
每一層加上的註記，相對於原來的筆記有多長？兩句的「它」又相差多遠？
""",
    en="""
The result is $\\mathbf{t}^3 =$ {glue:text}`t3_str`. The original note is still there; each
coordinate just carries a little annotation.

The tiny model works the same way. `r.hidden` holds the residual stream after every layer
(layer 0 is the input). For the row of "it": how long is each layer's annotation compared with the
note it annotates, and how far apart are the two sentences' "it"?
""",
)

ch.code(
    """
i = r_big.pronoun_index
print(lib.tr(zh="層   ‖註記‖／‖筆記‖   兩句「它」的距離",
             en="layer   |annotation|/|note|   |it(big) − it(small)|"))
for l in range(1, r_big.hidden.shape[0]):
    before, after = r_big.hidden[l - 1, i], r_big.hidden[l, i]     # [d], [d]
    ratio = np.linalg.norm(after - before) / np.linalg.norm(before)
    gap = np.linalg.norm(r_big.hidden[l, i] - r_small.hidden[l, i])
    print(f"{l:>3}   {ratio:>12.2f}   {gap:>12.2f}")
"""
)

ch.hidden(
    """
gaps = [float(np.linalg.norm(r_big.hidden[l, i] - r_small.hidden[l, i])) for l in range(r_big.hidden.shape[0])]
lib.glue("gap0", gaps[0]); lib.glue("gap_top", gaps[-1])
ratio1 = float(np.linalg.norm(r_big.hidden[1, i] - r_big.hidden[0, i]) / np.linalg.norm(r_big.hidden[0, i]))
lib.glue("ratio1", ratio1);
"""
)

ch.check(
    """
assert r_big.hidden.shape[0] == r_big.attention.shape[0] + 1
assert gaps[0] < 1e-9 and gaps[-1] > 1e-3
"""
)

md(
    zh="""
兩句的「它」在輸入時相差 {glue:text}`gap0:.1f`（同一個詞、同一個座位），到了最上層相差
{glue:text}`gap_top:.2f`：差別全是一層層的註記累積出來的。
註記也不一定「小」：小模型第 1 層加給「它」的註記，長度是原本筆記的 {glue:text}`ratio1:.1f` 倍。
即使如此，原本的筆記仍然原封不動地留在總和裡；是加上去，不是換掉。
""",
    en="""
The two "it"s start {glue:text}`gap0:.1f` apart (the same word in the same seat) and end
{glue:text}`gap_top:.2f` apart at the top: the whole difference was written into the notebook,
one annotation per layer. Nor are annotations necessarily small: the one that layer 1 of the tiny
model adds to "it" is {glue:text}`ratio1:.1f` times as long as the note itself. Even so, the
original note is still there, untouched, inside the sum: added to, not replaced.
""",
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
(def-feed-forward)=
## 前饋網路：先放大、再縮回

注意力負責「聽別人說」，前饋網路（feed-forward network，FFN）負責「自己想一想」：它對每個詞元各自做同一個兩層的小網路，
詞元之間不交換資訊。它提供非線性，通常先把維度放大約四倍，再縮回 $d$ 維：

$$
\\mathrm{FFN}(\\mathbf{x}) = \\mathrm{ReLU}(\\mathbf{x}\\mathbf{W}_1 + \\mathbf{b}_1)\\,\\mathbf{W}_2 + \\mathbf{b}_2,
\\qquad \\mathbf{W}_1: [d \\times d_{ff}],\\ \\ \\mathbf{W}_2: [d_{ff} \\times d],\\ \\ d_{ff} \\approx 4d
$$

其中 $\\mathrm{ReLU}(z) = \\max(0, z)$ 逐格作用。

**算算看。** ReLU 把負數歸零、正數照留：
""",
    en="""
(def-feed-forward)=
## The feed-forward network: widen, then narrow

Attention "listens to the others"; the feed-forward network (FFN) "thinks it over": it applies the
same small two-layer network to each token separately, with no exchange between tokens. It supplies
the non-linearity, and usually widens the vector about four times before narrowing it back to $d$:

$$
\\mathrm{FFN}(\\mathbf{x}) = \\mathrm{ReLU}(\\mathbf{x}\\mathbf{W}_1 + \\mathbf{b}_1)\\,\\mathbf{W}_2 + \\mathbf{b}_2,
\\qquad \\mathbf{W}_1: [d \\times d_{ff}],\\ \\ \\mathbf{W}_2: [d_{ff} \\times d],\\ \\ d_{ff} \\approx 4d
$$

where $\\mathrm{ReLU}(z) = \\max(0, z)$ acts on each coordinate.

**Work it out.** ReLU sets negatives to zero and keeps positives:
""",
)

ch.code(
    """
z = np.array([-1.2, 0.5, 3.0, -0.3])
print(lib.relu(z))
lib.figures.block.plot_relu(z, lib.relu(z));
"""
)

ch.check("assert np.allclose(lib.relu(z), [0, 0.5, 3.0, 0])")

md(
    zh="""
至於維度，以 GPT-2 小型版為例 {cite}`radford2019language`：$d = 768$，$\\mathbf{W}_1$ 先放大到 3072 維，
$\\mathbf{W}_2$ 再縮回 768 維。用隨機權重跑一次 `lib.feed_forward`，看中間那層有多寬：
""",
    en="""
As for the widths, take GPT-2 small {cite}`radford2019language`: $d = 768$; $\\mathbf{W}_1$ widens
to 3072, and $\\mathbf{W}_2$ narrows back to 768. Run `lib.feed_forward` once with random weights
and look at the width in the middle:
""",
)

ch.code(
    """
d_gpt2, d_ff = 768, 4 * 768
x = rng.normal(size=(5, d_gpt2))                   # 5 tokens, [N, d]
W1, b1 = rng.normal(size=(d_gpt2, d_ff)) / np.sqrt(d_gpt2), np.zeros(d_ff)
W2, b2 = rng.normal(size=(d_ff, d_gpt2)) / np.sqrt(d_ff), np.zeros(d_gpt2)
hidden = lib.relu(x @ W1 + b1)                     # [N, d_ff]: the wide middle
y = lib.feed_forward(x, W1, b1, W2, b2)            # [N, d]
print(x.shape, "→", hidden.shape, "→", y.shape)
print(lib.tr(zh="中間被 ReLU 歸零的比例：", en="share of the middle zeroed by ReLU:"),
      f"{(hidden == 0).mean():.0%}")
"""
)

ch.hidden(
    """
ffn_params = W1.size + b1.size + W2.size + b2.size
lib.glue("ffn_params", int(ffn_params)); lib.glue("d_ff", int(d_ff))
lib.glue("relu_zero", float((hidden == 0).mean()));
"""
)

ch.check(
    """
assert hidden.shape == (5, 3072) and y.shape == (5, 768)
assert np.allclose(y, hidden @ W2 + b2)
assert ffn_params == 2 * 768 * 3072 + 3072 + 768
"""
)

md(
    zh="""
中間那層有 {glue:text}`d_ff:d` 維，隨機權重下約有 {glue:text}`relu_zero:.0%` 被 ReLU 歸零。光是這一個前饋網路就有
{glue:text}`ffn_params:,d` 個參數，是同一區塊注意力部分（$4d^2$）的兩倍；在大模型裡，多數參數其實住在前饋網路裡。
""",
    en="""
The middle is {glue:text}`d_ff:d` wide, and with random weights about {glue:text}`relu_zero:.0%`
of it is zeroed by ReLU. This one feed-forward network alone has {glue:text}`ffn_params:,d`
parameters, twice the attention of the same block ($4d^2$); in large models most parameters
actually live in the feed-forward networks.
""",
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
(def-layer-norm)=
## LayerNorm：每個向量的 z 分數

**比喻：把各科原始分數換成標準分數。** 不然某一科只因為分數尺度大，就主宰了總分。
LayerNorm 就是統計學的 z 分數，套用在**單一向量**的 $d$ 個分量上，再用可學習的 $\\boldsymbol{\\gamma}$（縮放）和
$\\boldsymbol{\\beta}$（平移）還原需要的尺度 {cite}`ba2016layer`：

$$
\\mu = \\frac{1}{d}\\sum_{j=1}^{d} x_j, \\qquad
\\sigma^2 = \\frac{1}{d}\\sum_{j=1}^{d} (x_j - \\mu)^2, \\qquad
\\mathrm{LayerNorm}(\\mathbf{x}) = \\boldsymbol{\\gamma} \\odot \\frac{\\mathbf{x} - \\mu}{\\sqrt{\\sigma^2 + \\varepsilon}} + \\boldsymbol{\\beta}
$$

這裡的標準差用全部 $d$ 個分量去除，**分母是 $d$**（母體標準差）；統計課的樣本標準差除以 $d - 1$，這裡不用。
$\\varepsilon$ 是一個很小的數（`lib` 預設 $10^{-5}$），只為了避免除以零。

**算算看。** 取 $\\mathbf{x} = [2, 4, 6, 8]$，$\\gamma = 1$、$\\beta = 0$：
""",
    en="""
(def-layer-norm)=
## LayerNorm: a z-score per vector

**Analogy: turning raw marks into standard scores**, so that no subject dominates the total just
because its marks run on a larger scale. LayerNorm is the z-score of statistics, applied to the $d$
coordinates of **one vector**, followed by a learned scale $\\boldsymbol{\\gamma}$ and shift
$\\boldsymbol{\\beta}$ that restore whatever scale is useful {cite}`ba2016layer`:

$$
\\mu = \\frac{1}{d}\\sum_{j=1}^{d} x_j, \\qquad
\\sigma^2 = \\frac{1}{d}\\sum_{j=1}^{d} (x_j - \\mu)^2, \\qquad
\\mathrm{LayerNorm}(\\mathbf{x}) = \\boldsymbol{\\gamma} \\odot \\frac{\\mathbf{x} - \\mu}{\\sqrt{\\sigma^2 + \\varepsilon}} + \\boldsymbol{\\beta}
$$

The standard deviation divides by all $d$ coordinates — **the denominator is $d$** (the population
standard deviation), not the $d - 1$ of the sample standard deviation in a statistics class.
$\\varepsilon$ is a tiny number (`lib` uses $10^{-5}$) that only prevents division by zero.

**Work it out.** Take $\\mathbf{x} = [2, 4, 6, 8]$ with $\\gamma = 1$, $\\beta = 0$:
""",
)

ch.code(
    """
x = np.array([2.0, 4.0, 6.0, 8.0])
mu, sigma = x.mean(), x.std()                # np.std divides by d by default
print("mean", mu, " std", round(sigma, 3),
      " (sample std would be", round(x.std(ddof=1), 3), ")")
z = lib.layer_norm(x)
print(z.round(3))
lib.figures.block.plot_layer_norm(x, z);
"""
)

ch.check(
    """
assert mu == 5.0 and abs(sigma - np.sqrt(5)) < 1e-12
assert np.allclose(z.round(3), [-1.342, -0.447, 0.447, 1.342])
assert abs(z.mean()) < 1e-12 and abs(z.std() - 1) < 1e-5
"""
)

ch.hidden(
    """
lib.glue("ln_mu", float(mu)); lib.glue("ln_sigma", float(sigma))
lib.glue("ln_sigma_sample", float(x.std(ddof=1)))
lib.glue("ln_z0", float(z[0])); lib.glue("ln_z1", float(z[1]))
lib.glue("ln_z0_sample", float((x[0] - mu) / x.std(ddof=1)));
"""
)

md(
    zh="""
平均是 {glue:text}`ln_mu:.0f`，標準差是 $\\sqrt{5} \\approx$ {glue:text}`ln_sigma:.3f`，
於是 $[2, 4, 6, 8]$ 變成 [{glue:text}`ln_z0:.3f`, {glue:text}`ln_z1:.3f`, …]。
若誤用樣本標準差（{glue:text}`ln_sigma_sample:.3f`），第一格會變成 {glue:text}`ln_z0_sample:.3f`，和 PyTorch 的
`nn.LayerNorm` 對不上。不論原始數字多大，正規化後平均都是 0、標準差都是 1。

$\\boldsymbol{\\gamma}$ 和 $\\boldsymbol{\\beta}$ 讓模型自己決定要不要、以及怎麼還原尺度。
例如 $\\gamma = 2$、$\\beta = 1$，每一格就變成 $2z + 1$：
""",
    en="""
The mean is {glue:text}`ln_mu:.0f` and the standard deviation $\\sqrt{5} \\approx$
{glue:text}`ln_sigma:.3f`, so $[2, 4, 6, 8]$ becomes [{glue:text}`ln_z0:.3f`,
{glue:text}`ln_z1:.3f`, …]. With the sample standard deviation ({glue:text}`ln_sigma_sample:.3f`)
by mistake, the first entry would be {glue:text}`ln_z0_sample:.3f`, and disagree with PyTorch's
`nn.LayerNorm`. Whatever the raw numbers, after normalisation the mean is 0 and the standard
deviation 1.

$\\boldsymbol{\\gamma}$ and $\\boldsymbol{\\beta}$ let the model decide whether, and how, to restore
a scale. With $\\gamma = 2$ and $\\beta = 1$, for example, every entry becomes $2z + 1$:
""",
)

ch.code(
    """
print(lib.layer_norm(x, gamma=np.full(4, 2.0), beta=np.full(4, 1.0)).round(3))
print(lib.layer_norm(100 * x).round(3))      # the scale of x does not matter
"""
)

ch.check(
    """
assert np.allclose(lib.layer_norm(x, gamma=np.full(4, 2.0), beta=np.full(4, 1.0)), 2 * z + 1)
assert np.allclose(lib.layer_norm(100 * x), z, atol=1e-6)
"""
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
(def-pre-norm)=
## Pre-norm 與 post-norm：LayerNorm 放在哪裡

原始論文 {cite}`vaswani2017attention` 把 LayerNorm 放在殘差相加**之後**（「Add & Norm」），稱為 **post-norm**；
很多課程的編碼器區塊也照這個順序寫，例如先算 `x = norm1(x + attn(x))`，再算 `x = norm2(x + ffn(x))`：

$$
\\mathbf{u} = \\mathrm{LayerNorm}\\big(\\mathbf{x} + \\mathrm{MultiHead}(\\mathbf{x})\\big), \\qquad
\\mathbf{h} = \\mathrm{LayerNorm}\\big(\\mathbf{u} + \\mathrm{FFN}(\\mathbf{u})\\big)
$$

投影片、GPT-2 以後的多數模型和本書的 `lib.transformer_block` 用的則是 **pre-norm**：LayerNorm 只放在每個子層的**入口**，
殘差流本身從不被正規化（上一節的五個步驟）。以共筆筆記來說，post-norm 每加一次註就把整份筆記重新謄寫、
縮放一次；pre-norm 則是先把筆記影印一份、整理好給子層讀，子層的意見再直接寫回原稿。

post-norm 不是 `lib` 的函式（本書不用它），但用 `lib` 的零件幾行就能寫出來：
""",
    en="""
(def-pre-norm)=
## Pre-norm and post-norm: where LayerNorm goes

The original paper {cite}`vaswani2017attention` puts LayerNorm **after** the residual addition
("Add & Norm"): **post-norm**. Many course encoder blocks follow that order, computing
`x = norm1(x + attn(x))` and then `x = norm2(x + ffn(x))`:

$$
\\mathbf{u} = \\mathrm{LayerNorm}\\big(\\mathbf{x} + \\mathrm{MultiHead}(\\mathbf{x})\\big), \\qquad
\\mathbf{h} = \\mathrm{LayerNorm}\\big(\\mathbf{u} + \\mathrm{FFN}(\\mathbf{u})\\big)
$$

The slides, most models since GPT-2, and this book's `lib.transformer_block` use **pre-norm**:
LayerNorm sits only at the **entrance** of each sublayer, and the residual stream itself is never
normalised (the five steps above). In the notebook analogy, post-norm recopies and rescales the whole
notebook after every annotation; pre-norm hands each sublayer a tidied photocopy to read, and writes
its opinion straight back onto the original.

Post-norm is not a `lib` function (the book does not use it), but a few lines of `lib` parts write it:
""",
)

ch.code("print(inspect.getsource(lib.figures.block.post_norm_block))")

md(
    zh="""
在同一個輸入、同一組參數上跑這兩種區塊。兩者輸出的形狀一樣，數字卻不同；最明顯的差別是 post-norm 的每一列都剛好被正規化過：
""",
    en="""
Run both blocks on the same input with the same parameters. The outputs have the same shape but
different numbers; the plainest difference is that every row of the post-norm output has just
been normalised:
""",
)

ch.code(
    """
# a random block before training: γ = 1, β = 0
params = lib.figures.block.random_block_params(d=8, n_heads=2, rng=1)
X_loud = rng.normal(size=(4, 8)) * 3               # [N, d], a loud input
h_pre, _ = lib.transformer_block(X_loud, params, causal=False)
h_post, _ = lib.figures.block.post_norm_block(X_loud, params, causal=False)
for name, h in (("input", X_loud), ("pre-norm", h_pre), ("post-norm", h_post)):
    print(f"{name:9}  row means {h.mean(-1).round(2)}",
          f" row stds {h.std(-1).round(2)}")
"""
)

ch.check(
    """
assert h_pre.shape == h_post.shape == (4, 8)
assert np.allclose(h_post.mean(-1), 0, atol=1e-9) and np.allclose(h_post.std(-1), 1, atol=1e-4)
assert not np.allclose(h_pre.std(-1), 1, atol=0.1)
"""
)

md(
    zh="""
**這會影響訓練嗎？** 做一個小實驗：疊 $L$ 個隨機初始化（尚未訓練）的區塊，在最上面接一個隨機的語言模型頭和{term}`交叉熵 <交叉熵（cross-entropy）>`，
用 `lib.torch_mirror`（同樣的函式，換成 PyTorch 張量，好讓 autograd 算梯度）量兩件事：
每個區塊之後殘差流有多大，以及最上層的區塊拿到多大的梯度。兩種區塊用同一組權重，三個亂數種子取平均。
""",
    en="""
**Does it matter for training?** A small experiment: stack $L$ randomly initialised (untrained)
blocks, put a random language-model head and a {term}`cross-entropy <cross-entropy（交叉熵）>` on top, and measure with
`lib.torch_mirror` (the same functions over PyTorch tensors, so autograd gives the gradients) two
things: how large the residual stream is after each block, and how large a gradient the top block
receives. Both variants use the same weights; three random seeds are averaged.
""",
)

ch.code(
    """
# a few seconds: 3 depths × 3 seeds × 2 variants, forward and backward
sweep = lib.figures.block.depth_sweep(depths=(2, 8, 32), d=64, n_heads=4)
lib.figures.block.plot_depth_experiment(sweep["runs"][32], sweep);
"""
)

ch.hidden(
    """
deep = sweep["runs"][32]
pre_top, post_top = sweep["pre"]["top_grad"], sweep["post"]["top_grad"]
lib.glue("stream_in", float(deep["pre"]["stream_norm"][0]))
lib.glue("stream_pre_top", float(deep["pre"]["stream_norm"][-1]))
lib.glue("stream_post_top", float(deep["post"]["stream_norm"][-1]))
lib.glue("sqrt_d64", float(np.sqrt(64)))
lib.glue("grad_pre_2", pre_top[0]); lib.glue("grad_pre_32", pre_top[-1])
lib.glue("grad_post_2", post_top[0]); lib.glue("grad_post_32", post_top[-1])
lib.glue("grad_pre_ratio", pre_top[0] / pre_top[-1])
lib.glue("grad_post_over_pre", post_top[-1] / pre_top[-1]);
"""
)

ch.check(
    """
# post-norm: every block ends in LayerNorm, so rows have norm √d; pre-norm's stream keeps growing
assert abs(deep["post"]["stream_norm"][-1] - 8.0) < 1e-3
assert deep["pre"]["stream_norm"][-1] > 3 * deep["pre"]["stream_norm"][0]
# Xiong et al. 2020: pre-norm's top gradient shrinks about like 1/√L, post-norm's does not
assert 2.5 < pre_top[0] / pre_top[-1] < 6.5
assert 0.6 < post_top[-1] / post_top[0] < 1.6
assert post_top[-1] > 3 * pre_top[-1]
"""
)

md(
    zh="""
左圖：post-norm 每個區塊都以 LayerNorm 收尾，殘差流每一列的長度一直是 $\\sqrt{d} =$ {glue:text}`sqrt_d64:.0f`；
pre-norm 的殘差流從 {glue:text}`stream_in:.1f` 一路長到 {glue:text}`stream_pre_top:.1f`，因為每一層的註記都只是加上去，
從來沒有人把整份筆記縮回來。

右圖（對數座標）：疊得越深，pre-norm 最上層拿到的梯度越小——從 2 層的 {glue:text}`grad_pre_2:.2f` 降到 32 層的
{glue:text}`grad_pre_32:.2f`，縮小約 {glue:text}`grad_pre_ratio:.1f` 倍，差不多是 $\\sqrt{32/2} = 4$；
post-norm 則不管疊幾層，都維持在 {glue:text}`grad_post_32:.2f` 左右，32 層時是 pre-norm 的 {glue:text}`grad_post_over_pre:.1f` 倍。
Xiong 等人 {cite}`xiong2020layer` 從理論上證明的，正是這種初始化時的行為：post-norm 靠近輸出的參數梯度很大、而且不隨深度變小，
所以一開始就用大的學習率容易發散，必須先用很小的學習率「暖身」（warm-up）；pre-norm 的梯度隨深度自動變小、比較溫和，
可以省掉暖身，也比較容易把模型疊深。這也是 GPT-2、GPT-3 和本書採用 pre-norm 的原因。

要誠實說明這個實驗的範圍：我們只量了**初始化時**的梯度，沒有真的把 32 層的模型訓練下去；pre-norm 也有代價，
殘差流越來越長，後面幾層的註記佔比越來越小，所以 pre-norm 的模型在最後一個區塊之後還會再接一個 LayerNorm。
""",
    en="""
Left: every post-norm block ends in LayerNorm, so each row of the stream always has length
$\\sqrt{d} =$ {glue:text}`sqrt_d64:.0f`. The pre-norm stream grows from {glue:text}`stream_in:.1f`
to {glue:text}`stream_pre_top:.1f`, because every annotation is simply added and nothing ever
shrinks the notebook back.

Right (log scales): the deeper the stack, the smaller the gradient that pre-norm's top block
receives — from {glue:text}`grad_pre_2:.2f` with 2 blocks to {glue:text}`grad_pre_32:.2f` with 32,
about {glue:text}`grad_pre_ratio:.1f` times smaller, close to $\\sqrt{32/2} = 4$. Post-norm's stays
near {glue:text}`grad_post_32:.2f` however deep the stack; at 32 blocks it is
{glue:text}`grad_post_over_pre:.1f` times pre-norm's. Xiong et al. {cite}`xiong2020layer` proved
that this is the behaviour at initialisation: post-norm's parameters near the output get large
gradients that do not shrink with depth, so a large learning rate from the start tends to diverge,
and training needs a learning-rate **warm-up**; pre-norm's gradients scale down with depth by
themselves, so it can skip the warm-up and is easier to stack deep. That is why GPT-2, GPT-3 and
this book use pre-norm.

To be honest about the scope: we measured gradients **at initialisation** only, and did not train
a 32-block model. Pre-norm has its own cost: the stream keeps growing, so later layers' annotations
are a smaller and smaller share of it; pre-norm models therefore add one more LayerNorm after the
last block.
""",
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
## 疊起來：從形狀算參數

因為一個區塊的輸入和輸出都是 $[N \\times d]$，區塊可以一層層疊上去；位置資訊只在最底下加一次
（第 2 章的位置嵌入或正弦編碼），之後就跟著殘差流往上傳。

參數量可以直接從矩陣的形狀算出來。本書的區塊（`lib.transformer_block`）有：
兩個 LayerNorm 各 $2d$（$\\gamma, \\beta$）、注意力 $4d^2$（$\\mathbf{W}_Q, \\mathbf{W}_K, \\mathbf{W}_V, \\mathbf{W}^O$）、
前饋網路 $d \\cdot 4d + 4d + 4d \\cdot d + d$，合計

$$
\\underbrace{4d^2}_{\\text{attention}} + \\underbrace{8d^2 + 5d}_{\\text{FFN}} + \\underbrace{4d}_{\\text{LayerNorm}} = 12d^2 + 9d .
$$

GPT-2 在四個注意力投影上各多一個偏差向量，所以每個區塊是 $12d^2 + 13d$。把每個參數的形狀列出來、乘起來加總：
""",
    en="""
## Stacking: counting parameters from shapes

Because a block takes and returns an $[N \\times d]$ matrix, blocks stack one on another; position
information is added once at the bottom (chapter 2's position embeddings or sinusoidal encoding)
and then travels up with the residual stream.

A model's parameter count follows from the shapes of its matrices. This book's block
(`lib.transformer_block`) has two LayerNorms of $2d$ each ($\\gamma, \\beta$), attention with $4d^2$
($\\mathbf{W}_Q, \\mathbf{W}_K, \\mathbf{W}_V, \\mathbf{W}^O$) and a feed-forward network with
$d \\cdot 4d + 4d + 4d \\cdot d + d$, in all

$$
\\underbrace{4d^2}_{\\text{attention}} + \\underbrace{8d^2 + 5d}_{\\text{FFN}} + \\underbrace{4d}_{\\text{LayerNorm}} = 12d^2 + 9d .
$$

GPT-2 adds a bias vector to each of the four attention projections, so its block has
$12d^2 + 13d$. List every parameter's shape, multiply out, and add up:
""",
)

ch.code(
    """
shapes = lib.figures.block.param_shapes(d=768)     # lib.transformer_block's
for name, shape in shapes.items():
    print(f"{name:7} {str(shape):12} {np.prod(shape):>10,}")
print("one block:", f"{sum(int(np.prod(s)) for s in shapes.values()):,}")
"""
)

md(
    zh="""
整個模型還要加上詞嵌入 $\\mathbf{E}$（$|V| \\times d$）、位置嵌入表，以及最後一個 LayerNorm；語言模型頭與 $\\mathbf{E}$ {term}`共用權重 <權重共享（weight tying）>`（第 5 章），
不另外算。GPT-2 小型版是 $d = 768$、12 層、$|V| = 50257$、1024 個位置 {cite}`radford2019language`；
GPT-3 是 $d = 12288$、96 層、每層 96 個頭、2048 個位置 {cite}`brown2020language`。先拿本書的小編碼器對帳：從形狀算出來的數字，應該和發布的權重檔裡的數字個數一樣。
""",
    en="""
A whole model adds the embedding matrix $\\mathbf{E}$ ($|V| \\times d$), the position table and one
final LayerNorm; the language-model head shares its weights with $\\mathbf{E}$ ({term}`weight tying <weight tying（權重共享）>`,
chapter 5) and adds
nothing. GPT-2 small has $d = 768$, 12 layers, $|V| = 50257$ and 1024 positions
{cite}`radford2019language`; GPT-3 has $d = 12288$, 96 layers of 96 heads and 2048 positions
{cite}`brown2020language`. First, check the count against the book's tiny encoder: the number
computed from shapes should equal the number of values in the shipped weights.
""",
)

ch.code(
    """
count = lib.figures.block.param_count
gpt2 = count(d=768, n_layers=12, vocab=50257, n_positions=1024,
             attn_bias=True, final_norm=True)
gpt3 = count(d=12288, n_layers=96, vocab=50257, n_positions=2048,
             attn_bias=True, final_norm=True)
params_tiny, cfg_tiny, _ = lib.tiny_models.load("encoder")  # the book's encoder
tiny = count(d=cfg_tiny.d, n_layers=cfg_tiny.n_layers, d_ff=cfg_tiny.d_ff,
             vocab=cfg_tiny.vocab_size, n_positions=cfg_tiny.max_len,
             final_norm=True)
shipped = sum(v.size for v in params_tiny.values())
print(f"tiny encoder: {tiny['total']:,}   (shipped arrays: {shipped:,})")
print(f"GPT-2 small:  {gpt2['total']:,}")
print(f"GPT-3:        {gpt3['total']:,}   (d_k = {12288 // 96} per head)")
tiny_name = lib.tr(zh="本書小模型", en="tiny encoder")
lib.figures.block.plot_param_breakdown({tiny_name: tiny,
                                        "GPT-2 small": gpt2, "GPT-3": gpt3});
"""
)

ch.hidden(
    """
lib.glue("gpt2_total", gpt2["total"]); lib.glue("gpt2_M", gpt2["total"] / 1e6)
lib.glue("gpt3_B", gpt3["total"] / 1e9); lib.glue("gpt3_total", gpt3["total"])
lib.glue("gpt2_emb_share", (gpt2["embeddings"] + gpt2["positions"]) / gpt2["total"])
lib.glue("gpt3_emb_share", (gpt3["embeddings"] + gpt3["positions"]) / gpt3["total"])
lib.glue("gpt3_ffn_share", gpt3["feed_forward"] / gpt3["total"])
lib.glue("d_ratio", 12288 // 768); lib.glue("L_ratio", 96 // 12)
lib.glue("gpt2_block", int(12 * 768**2 + 13 * 768))
lib.glue("tiny_total", tiny["total"]); lib.glue("tiny_d", cfg_tiny.d); lib.glue("tiny_V", cfg_tiny.vocab_size)
lib.glue("tiny_emb_share", (tiny["embeddings"] + tiny["positions"]) / tiny["total"]);
"""
)

ch.check(
    """
for dd in (8, 32, 768):
    assert lib.figures.block.param_count(d=dd)["total"] == 12 * dd**2 + 9 * dd
    assert lib.figures.block.param_count(d=dd, attn_bias=True)["total"] == 12 * dd**2 + 13 * dd
assert gpt2["total"] == 124_439_808                  # the count of the released GPT-2 small
assert tiny["total"] == sum(v.size for v in params_tiny.values())
assert 123e6 < gpt2["total"] < 125e6 and 174e9 < gpt3["total"] < 176e9
"""
)

md(
    zh="""
本書的小編碼器（$d =$ {glue:text}`tiny_d:d`、詞彙 {glue:text}`tiny_V:d` 個）只有 {glue:text}`tiny_total:,d` 個參數，和權重檔一個不差。GPT-2 小型版共 {glue:text}`gpt2_total:,d` 個參數，約 {glue:text}`gpt2_M:.0f` M；
GPT-3 約 {glue:text}`gpt3_B:.0f` B（{glue:text}`gpt3_total:,d` 個）。兩者的組成很不一樣：GPT-2 小型版有
{glue:text}`gpt2_emb_share:.0%` 的參數在詞嵌入與位置表裡；GPT-3 的 $d$ 大了 {glue:text}`d_ratio:d` 倍、層數多了 {glue:text}`L_ratio:d` 倍，
$12d^2 L$ 壓倒一切，嵌入只剩 {glue:text}`gpt3_emb_share:.1%`，前饋網路就佔了 {glue:text}`gpt3_ffn_share:.0%`。
""",
    en="""
The tiny encoder ($d =$ {glue:text}`tiny_d:d`, a vocabulary of {glue:text}`tiny_V:d`) has just
{glue:text}`tiny_total:,d` parameters, exactly as many as its weight file. GPT-2 small has
{glue:text}`gpt2_total:,d` parameters, about {glue:text}`gpt2_M:.0f` M;
GPT-3 about {glue:text}`gpt3_B:.0f` B ({glue:text}`gpt3_total:,d`). They are
built very differently: GPT-2 small keeps {glue:text}`gpt2_emb_share:.0%` of its parameters in the
embedding and position tables; GPT-3's $d$ is {glue:text}`d_ratio:d` times larger and it has {glue:text}`L_ratio:d` times more layers, so
$12d^2 L$ dwarfs everything, the embeddings are down to {glue:text}`gpt3_emb_share:.1%`, and the
feed-forward networks alone hold {glue:text}`gpt3_ffn_share:.0%`.
""",
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
## 小結

- **多頭注意力**把 $d$ 維分給 $A$ 個頭，每個頭 $d/A$ 維、各有一個 softmax；串接回 $d$ 維再乘 $\\mathbf{W}^O$。參數量與 $A$ 無關。
- 小模型的第 1 層裡，「它」分給兩個名詞的比例在兩句中一模一樣；答案要分兩步、經由形容詞一帶才傳得到「它」。這就是要**疊層**的理由。
- **殘差流**是每個詞元的共筆筆記：注意力在詞元之間搬運資訊，前饋網路就地加工，兩者都只是把結果**加**回去。
- **前饋網路**先放大約四倍、ReLU、再縮回；**LayerNorm** 是每個向量的 z 分數（分母是 $d$），再乘 $\\gamma$ 加 $\\beta$。
- **Pre-norm** 只正規化子層的輸入，殘差流不動；**post-norm** 每一步都把殘差流重新正規化。初始化時 post-norm 上層的梯度大、不隨深度縮小，需要暖身；pre-norm 較好訓練。
- 參數量從形狀算：一個區塊 $12d^2 + 9d$（GPT-2 加偏差為 $12d^2 + 13d$）；GPT-2 小型版約 {glue:text}`gpt2_M:.0f` M，GPT-3 約 {glue:text}`gpt3_B:.0f` B。
""",
    en="""
## Summary

- **Multi-head attention** shares $d$ among $A$ heads of $d/A$ each, every head with its own
  softmax; the heads are concatenated back to $d$ and multiplied by $\\mathbf{W}^O$. The parameter
  count does not depend on $A$.
- In layer 1 of the tiny model, "it" splits its attention between the two nouns exactly alike in
  both sentences; the answer reaches it in two steps, through the words around the adjective. That
  is the reason to **stack**.
- The **residual stream** is each token's shared notebook: attention moves information between
  tokens, the feed-forward network works in place, and both only **add** their results.
- The **feed-forward network** widens about four times, applies ReLU and narrows back; **LayerNorm**
  is a per-vector z-score (denominator $d$) followed by $\\gamma$ and $\\beta$.
- **Pre-norm** normalises only what enters a sublayer and leaves the stream alone; **post-norm**
  renormalises the stream at every step. At initialisation post-norm's top gradients are large and
  do not shrink with depth, so it needs a warm-up; pre-norm trains more easily.
- Parameters follow from shapes: one block is $12d^2 + 9d$ ($12d^2 + 13d$ with GPT-2's biases);
  GPT-2 small is about {glue:text}`gpt2_M:.0f` M, GPT-3 about {glue:text}`gpt3_B:.0f` B.
""",
)

# ------------------------------------------------------------------------------------------
md(
    zh="""
## 練習

**1.**（觀念）原始論文的基本模型取 $d = 512$、$A = 8$。每個頭是幾維？$\\mathbf{W}_Q, \\mathbf{W}_K, \\mathbf{W}_V, \\mathbf{W}^O$
合起來有多少參數？若改成 $A = 1$，參數量會變嗎？

:::{dropdown} 解答
每個頭 $512 / 8 = 64$ 維。四個矩陣都是 $[512 \\times 512]$，合計 $4 \\cdot 512^2 = 1{,}048{,}576$ 個參數。
改成 $A = 1$ 不會變：分頭只是把同樣的欄分給不同的 softmax，矩陣大小不變。
:::
""",
    en="""
## Exercises

**1.** (Concepts) The original paper's base model has $d = 512$ and $A = 8$. How wide is each head?
How many parameters do $\\mathbf{W}_Q, \\mathbf{W}_K, \\mathbf{W}_V, \\mathbf{W}^O$ hold together? Does
that change with $A = 1$?

:::{dropdown} Solution
Each head is $512 / 8 = 64$ wide. All four matrices are $[512 \\times 512]$: $4 \\cdot 512^2 =
1{,}048{,}576$ parameters. With $A = 1$ nothing changes: heads only share the same columns among
different softmaxes; the matrices keep their size.
:::
""",
)

ch.check(
    """
assert 512 // 8 == 64 and 4 * 512**2 == 1_048_576
"""
)

md(
    zh="""
**2.**（寫程式）把本章 $d = 8$ 的例子改成 $A = 4$ 個頭（每個頭 2 維）。請用 `lib.self_attention`
逐頭計算、串接、乘上 `WO`，得到 `out4`；自我檢查會拿它和 `lib.multi_head_attention(..., n_heads=4)` 比較。
""",
    en="""
**2.** (Coding) Redo the chapter's $d = 8$ example with $A = 4$ heads (2 wide each). Compute each
head with `lib.self_attention`, concatenate, multiply by `WO` and call the result `out4`; the
self-check compares it with `lib.multi_head_attention(..., n_heads=4)`.
""",
)

ch.code(
    """
A4 = 4
out4 = np.zeros((N, d))   # ← replace: the 4 heads concatenated, times WO

lib.check(out4, lib.multi_head_attention(X, WQ, WK, WV, WO, n_heads=A4)[0],
          hint=lib.tr(zh="第 h 個頭用第 h·2 到 (h+1)·2 欄。",
                      en="Head h uses columns h·2 to (h+1)·2."));
"""
)

md(
    zh="""
:::{dropdown} 解答
```python
cols4 = [slice(h * 2, (h + 1) * 2) for h in range(4)]
heads4 = [lib.self_attention(X, WQ[:, c], WK[:, c], WV[:, c])[0] for c in cols4]
out4 = np.concatenate(heads4, axis=-1) @ WO
```
:::
""",
    en="""
:::{dropdown} Solution
```python
cols4 = [slice(h * 2, (h + 1) * 2) for h in range(4)]
heads4 = [lib.self_attention(X, WQ[:, c], WK[:, c], WV[:, c])[0] for c in cols4]
out4 = np.concatenate(heads4, axis=-1) @ WO
```
:::
""",
)

ch.check(
    """
cols4 = [slice(h * 2, (h + 1) * 2) for h in range(4)]
_out4 = np.concatenate([lib.self_attention(X, WQ[:, c], WK[:, c], WV[:, c])[0] for c in cols4],
                       axis=-1) @ WO
assert np.allclose(_out4, lib.multi_head_attention(X, WQ, WK, WV, WO, n_heads=4)[0])
"""
)

md(
    zh="""
**3.**（寫程式）不用 `lib.layer_norm`，只用 NumPy 的平均與母體標準差，算出 $\\mathbf{x} = [3, 1, 4, 1, 5]$ 的 LayerNorm
（$\\gamma = 1$、$\\beta = 0$，可以忽略 $\\varepsilon$）。自我檢查會拿它和 `lib.layer_norm` 比較。
""",
    en="""
**3.** (Coding) Without `lib.layer_norm`, using only NumPy's mean and population standard deviation,
compute the LayerNorm of $\\mathbf{x} = [3, 1, 4, 1, 5]$ ($\\gamma = 1$, $\\beta = 0$; you may
ignore $\\varepsilon$). The self-check compares it with `lib.layer_norm`.
""",
)

ch.code(
    """
x5 = np.array([3.0, 1.0, 4.0, 1.0, 5.0])
z5 = np.zeros(5)          # ← replace with the z-scores of x5

lib.check(z5, lib.layer_norm(x5), atol=1e-4,
          hint=lib.tr(zh="減去平均，再除以 x5.std()（分母是 d）。",
                      en="Subtract the mean, divide by x5.std() (divides by d)."));
"""
)

md(
    zh="""
:::{dropdown} 解答
```python
z5 = (x5 - x5.mean()) / x5.std()
```
平均是 2.8、母體標準差是 $\\sqrt{2.56} = 1.6$，結果是 $[0.125, -1.125, 0.75, -1.125, 1.375]$。
若用 `x5.std(ddof=1)`（分母 $d - 1$），每一格都會小一點，自我檢查就不會通過。
:::
""",
    en="""
:::{dropdown} Solution
```python
z5 = (x5 - x5.mean()) / x5.std()
```
The mean is 2.8 and the population standard deviation $\\sqrt{2.56} = 1.6$, giving
$[0.125, -1.125, 0.75, -1.125, 1.375]$. With `x5.std(ddof=1)` (denominator $d - 1$) every entry
would shrink a little and the self-check would fail.
:::
""",
)

ch.check(
    """
assert np.allclose((x5 - x5.mean()) / x5.std(), [0.125, -1.125, 0.75, -1.125, 1.375])
assert np.allclose(lib.layer_norm(x5), [0.125, -1.125, 0.75, -1.125, 1.375], atol=1e-4)
"""
)

md(
    zh="""
**4.**（寫程式）GPT-2 中型版是 $d = 1024$、24 層、16 個頭、$|V| = 50257$、1024 個位置，注意力投影有偏差、
最後有一個 LayerNorm、語言模型頭與 $\\mathbf{E}$ 共用。只用本章的公式（每區塊 $12d^2 + 13d$），算出它的參數量 `n_medium`。
""",
    en="""
**4.** (Coding) GPT-2 medium has $d = 1024$, 24 layers, 16 heads, $|V| = 50257$ and 1024 positions,
biases on the attention projections, one final LayerNorm, and an LM head tied to $\\mathbf{E}$.
Using only this chapter's formula ($12d^2 + 13d$ per block), compute its parameter count
`n_medium`.
""",
)

ch.code(
    """
n_medium = 0              # ← blocks + embeddings + positions + final LayerNorm

medium = lib.figures.block.param_count(d=1024, n_layers=24, vocab=50257,
                                        n_positions=1024, attn_bias=True,
                                        final_norm=True)
lib.check(n_medium, medium["total"],
          hint="24·(12d²+13d) + |V|·d + 1024·d + 2d");
"""
)

md(
    zh="""
:::{dropdown} 解答
```python
d_m = 1024
n_medium = 24 * (12 * d_m**2 + 13 * d_m) + 50257 * d_m + 1024 * d_m + 2 * d_m
```
共 354,823,168 個，約 355 M，也就是常說的「345 M／355 M」那個模型。頭數 16 不影響參數量（練習 1）。
:::
""",
    en="""
:::{dropdown} Solution
```python
d_m = 1024
n_medium = 24 * (12 * d_m**2 + 13 * d_m) + 50257 * d_m + 1024 * d_m + 2 * d_m
```
That is 354,823,168, about 355 M — the model usually quoted as "345 M / 355 M". The 16 heads do
not change the count (exercise 1).
:::
""",
)

ch.check(
    """
_d = 1024
assert 24 * (12 * _d**2 + 13 * _d) + 50257 * _d + 1024 * _d + 2 * _d == 354_823_168
assert lib.figures.block.param_count(d=1024, n_layers=24, vocab=50257, n_positions=1024,
                                     attn_bias=True, final_norm=True)["total"] == 354_823_168
"""
)

md(
    zh="""
**5.**（觀念）本章說在小模型的第 1 層，「它」「分不出兩句」。把理由寫完整：為什麼「太大」換成「太小」，
「它」在兩個名詞之間的分配比例在第 1 層完全不變，到第 2 層卻可以改變？

:::{dropdown} 解答
第 1 層的輸入只由詞和座位決定。兩句只有形容詞不同，所以「它」的查詢 $\\mathbf{q}$、兩個名詞的鍵 $\\mathbf{k}_1, \\mathbf{k}_2$
在兩句中都相同。softmax 之後兩個名詞的權重比是
$e^{\\mathbf{q}\\cdot\\mathbf{k}_1/\\sqrt{d_k}} / e^{\\mathbf{q}\\cdot\\mathbf{k}_2/\\sqrt{d_k}}$，與形容詞無關；
形容詞只改變分母，兩個名詞一起放大或縮小。第 1 層之後，每個詞的殘差流都已經混入了其他詞（包括形容詞）的資訊，
名詞的鍵和「它」的查詢在兩句中不再相同，所以第 2 層的比例可以翻轉。
:::

**6.**（觀念）post-norm 區塊的輸出（$\\gamma = 1$、$\\beta = 0$）每一列的平均和標準差是多少？pre-norm 呢？
這和本章實驗左圖的兩條線有什麼關係？

:::{dropdown} 解答
post-norm 每個區塊最後一步是 LayerNorm，所以每一列平均 0、標準差 1，長度是 $\\sqrt{d}$（$d = 64$ 時是 8），
左圖的紅線因此是一條水平線。pre-norm 的輸出是 $\\mathbf{t}^5 + \\mathbf{t}^3$，沒有經過最後的正規化，
平均和標準差都不受控制；每一層又加上一點東西，所以藍線一路往上。
:::
""",
    en="""
**5.** (Concepts) The chapter says that in the tiny model's layer 1, "it" "cannot tell the sentences
apart".
Give the full reason: why, when "big" becomes "small", is the split of the attention of "it"
between the two nouns exactly the same in layer 1, yet able to change in layer 2?

:::{dropdown} Solution
The input of layer 1 depends only on the word and its seat. The sentences differ only in the
adjective, so the query $\\mathbf{q}$ of "it" and the keys $\\mathbf{k}_1, \\mathbf{k}_2$ of the
nouns are the same in both. After the softmax the ratio of the nouns' weights is
$e^{\\mathbf{q}\\cdot\\mathbf{k}_1/\\sqrt{d_k}} / e^{\\mathbf{q}\\cdot\\mathbf{k}_2/\\sqrt{d_k}}$,
independent of the adjective, which only changes the denominator and scales both nouns together.
After layer 1 every token's residual stream has mixed in information from the others (the adjective
included), so the nouns' keys and the query of "it" are no longer the same in both sentences, and
the split in layer 2 can flip.
:::

**6.** (Concepts) What are the mean and standard deviation of each row of a post-norm block's output
($\\gamma = 1$, $\\beta = 0$)? And of a pre-norm block's? How does that explain the two lines in the
left panel of the experiment?

:::{dropdown} Solution
A post-norm block ends with LayerNorm, so every row has mean 0, standard deviation 1 and length
$\\sqrt{d}$ (8 for $d = 64$): the red line is flat. A pre-norm block returns
$\\mathbf{t}^5 + \\mathbf{t}^3$ with no final normalisation, so neither mean nor standard deviation
is controlled; every layer adds a little more, and the blue line keeps rising.
:::
""",
)

ch.write()
