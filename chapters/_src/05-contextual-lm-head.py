"""Chapter 5: contextual vectors, the LM head, pretraining and temperature (both books)."""

from nbgen import Chapter

ch = Chapter("05-contextual-lm-head")

md = ch.md  # tools/nbgen.py joins wrapped Chinese lines


md(
    zh="""
# 5. 上下文詞向量、語言模型頭與預訓練

疊完所有區塊之後，每個詞元都換上了一組「讀過上下文」的新數字。這一章回答三個問題：
這組數字和第 1 章查出來的詞嵌入有什麼不同？模型怎麼把它換回「下一個詞是什麼」？
模型又是怎麼學會這件事、怎麼開口說話的？
""",
    en="""
# 5. Contextual vectors, the LM head and pretraining

Once all the blocks are stacked, every token wears a new set of numbers, one that "has read the
context". This chapter answers three questions: how do these numbers differ from the embeddings
we looked up in chapter 1? How does the model turn them back into "what is the next word"? And
how does the model learn to do this, and how does it speak?
""",
)

ch.bootstrap()

md(
    zh="""
**這一章你會學到：**

- 靜態詞向量與**上下文詞向量**的差別，並親眼看到兩句裡的「它」怎麼在層層處理之後分道揚鑣；
- **語言模型頭**如何用 $\\mathbf{h}\\mathbf{E}^\\top$ 把向量換回詞彙表上的分數，以及**權重共享**為什麼省下一整個矩陣；
- **預訓練**：預測下一個詞、**交叉熵**就是正確詞元的負對數機率、**教師強制**（teacher forcing）；還會現場訓練一個小解碼器幾秒鐘；
- **生成**：貪婪解碼與抽樣，**溫度** $\\tau$ 怎麼讓分布變尖或變平（附互動滑桿）；
- Transformer 的三大家族：只有編碼器、只有解碼器、編碼器－解碼器。
""",
    en="""
**In this chapter you will learn:**

- the difference between static and **contextual vectors**, and watch the two vectors of "it"
  part ways as they go up through the layers;
- how the **LM head** turns a vector back into scores over the vocabulary with
  $\\mathbf{h}\\mathbf{E}^\\top$, and why **weight tying** saves a whole matrix;
- **pretraining**: next-token prediction, **cross-entropy** as the negative log-probability of the
  right token, **teacher forcing**; and you will train a tiny decoder live for a few seconds;
- **generation**: greedy decoding and sampling, and how the **temperature** $\\tau$ sharpens or
  flattens the distribution (with an interactive slider);
- the three families of Transformers: encoder-only, decoder-only, encoder–decoder.
""",
)

ch.code(
    """
import inspect
import numpy as np
import lib.figures.contextual, lib.figures.generation   # this chapter's figures
"""
)

# ---------------------------------------------------------------------------------------------
# 1. static vs contextual
# ---------------------------------------------------------------------------------------------
md(
    zh=r"""
(def-contextual-embedding)=
## 辭典釋義與讀者的理解：上下文詞向量

**比喻：一本辭典，和一位正在讀句子的讀者。** 第 1 章的詞嵌入像辭典裡的條目：一個詞只有一條，
把它所有可能的意思都列在一起，不管這個詞出現在哪一句。上下文詞向量則像讀者讀到某一句時腦中的理解：
同一個詞，每出現一次就有一份，只留下此刻說得通的那個意思。讀到「它太大了」，你心裡的「它」是獎盃；
讀到「它太小了」，同一個字在你心裡就成了行李箱。

**定義。** 詞元 $i$ 在最後一層（第 $L$ 層）的輸出 $\mathbf{h}_i^L$，就是它的**上下文詞向量**。
兩句裡的「它」起點 $\mathbf{x}_i$ 完全一樣（同一列詞嵌入、同一個座位），經過 $L$ 層注意力與前饋網路之後，
$\mathbf{h}_i^L$ 卻不一樣。

**眼見為憑。** 本書的小編碼器在每一層之後都留下了{term}`殘差流 <殘差流（residual stream）>`：`resolve(...).hidden` 的形狀是 $[L+1, N, d]$，
第 0 層是輸入（詞嵌入加位置嵌入），第 $\ell$ 層是第 $\ell$ 個區塊之後的向量。我們取出「它」在兩句裡的向量：
""",
    en=r"""
(def-contextual-embedding)=
## A dictionary entry vs a reader's understanding: contextual vectors

**Analogy: a dictionary, and a reader in the middle of a sentence.** The embeddings of chapter 1
are like dictionary entries: one entry per word, listing every meaning it might have, whatever
sentence the word appears in. A contextual vector is like a reader's understanding at a given
sentence: one per occurrence, keeping only the meaning that makes sense right now. When you read
"it is too big", the "it" in your head is the trophy; when you read "it is too small", the same
word has become the suitcase.

**Definition.** The output of token $i$ at the last layer $L$, $\mathbf{h}_i^L$, is its
**contextual vector**. The two "it"s start from exactly the same $\mathbf{x}_i$ (the same row
of the embedding matrix, the same seat), yet after $L$ layers of attention and feed-forward
networks their $\mathbf{h}_i^L$ differ.

**Seeing is believing.** The book's tiny encoder keeps the {term}`residual stream <residual stream（殘差流）>` after every layer:
`resolve(...).hidden` has shape $[L+1, N, d]$; layer 0 is the input (embedding plus position),
layer $\ell$ is the vector after the $\ell$-th block. We take the vector of "it" in both
sentences:
""",
)

ch.code(
    """
big, small = lib.winograd.canonical_pair(LANG)
r_big = lib.winograd.resolve(big, LANG)
r_small = lib.winograd.resolve(small, LANG)
i = r_big.pronoun_index                # the position of 它 / it (the same in both)
print(" ".join(big), "→", r_big.referent)
print(" ".join(small), "→", r_small.referent)
print("hidden:", r_big.hidden.shape)          # [L+1, N, d]
"""
)

md(
    zh=r"""
比較兩個向量最常用的是**餘弦相似度**：只看方向、不看長度，完全同向是 1，互相垂直是 0。

$$
\cos(\mathbf{a}, \mathbf{b}) = \frac{\mathbf{a}\cdot\mathbf{b}}{\lVert\mathbf{a}\rVert\,\lVert\mathbf{b}\rVert}
$$
""",
    en=r"""
The usual way to compare two vectors is **cosine similarity**: it looks at direction, not
length; pointing the same way gives 1, perpendicular gives 0.

$$
\cos(\mathbf{a}, \mathbf{b}) = \frac{\mathbf{a}\cdot\mathbf{b}}{\lVert\mathbf{a}\rVert\,\lVert\mathbf{b}\rVert}
$$
""",
)

ch.code(
    """
a = r_big.hidden[:, i]                 # [L+1, d]  它 / it in the "big" sentence
b = r_small.hidden[:, i]               # [L+1, d]  它 / it in the "small" sentence
norms = np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1)     # [L+1]
cos = (a * b).sum(-1) / norms                                      # [L+1]
print(cos.round(3))
lib.figures.contextual.plot_cosine_by_layer(cos, pronoun=big[i]);
"""
)

ch.check(
    """
assert r_big.pronoun_index == r_small.pronoun_index
assert big[:i + 1] == small[:i + 1]                          # the same words up to the pronoun
assert np.allclose(a[0], b[0]) and abs(cos[0] - 1) < 1e-9    # identical at the input
assert cos[-1] < cos[0] - 0.05                               # apart at the top
assert len(cos) == 3 and cos[-2] - cos[-1] > cos[0] - cos[-2]   # 2 layers; most parting in layer 2
assert r_big.referent != r_small.referent
"""
)

ch.hidden(
    """
lib.glue("ch5_n_layers", int(len(cos) - 1))
lib.glue("ch5_cos_input", float(cos[0]))
lib.glue("ch5_cos_top", float(cos[-1]))
lib.glue("ch5_cos_before_top", float(cos[-2]))
lib.glue("ch5_ref_big", str(r_big.referent))
lib.glue("ch5_ref_small", str(r_small.referent))
lib.glue("ch5_pronoun", str(big[i]));
"""
)

md(
    zh="""
在輸入端，兩個「{glue:text}`ch5_pronoun`」的餘弦相似度是 {glue:text}`ch5_cos_input:.2f`：同一列詞嵌入，
同一個座位，向量分毫不差。這就是第 1 章說的靜態詞向量的限制。第 1 層之後還有 {glue:text}`ch5_cos_before_top:.2f`，
到了第 {glue:text}`ch5_n_layers` 層（最後一層）之後降到 {glue:text}`ch5_cos_top:.2f`：兩個向量主要是在最後一層分開的，
這和第 4 章看到的路線一致：「它」要到第 2 層才轉向句尾，讀進第 1 層寫在形容詞一帶的語境。
模型也據此把一句的「它」判給「{glue:text}`ch5_ref_big`」、
另一句判給「{glue:text}`ch5_ref_small`」。兩句唯一的差別是「它」**後面**的一個字，所以能把兩個向量推開的，
只有注意力從後文帶回來的資訊。這正是 Transformer 要做的事：**讓同一個詞的向量，隨語境而改變。**
""",
    en="""
At the input, the two "{glue:text}`ch5_pronoun`"s have cosine similarity
{glue:text}`ch5_cos_input:.2f`: the same row of embeddings, the same seat, exactly the same vector.
This is the limit of static vectors that chapter 1 pointed out. After layer 1 it is still
{glue:text}`ch5_cos_before_top:.2f`; after layer {glue:text}`ch5_n_layers`, the
last, it has dropped to {glue:text}`ch5_cos_top:.2f`. The two vectors part mostly in the last layer, which fits the route
chapter 4 found: "it" turns to the end of the sentence only in layer 2, and reads there the context
that layer 1 wrote into the words around the adjective. The model accordingly
assigns one "it" to "{glue:text}`ch5_ref_big`" and the other to "{glue:text}`ch5_ref_small`".
The only difference between the two sentences is one word **after** "it", so the only thing that
can push the two vectors apart is what attention brings back from the words that follow. This is
exactly what a Transformer is for: **the same word gets a vector that changes with its context.**
""",
)

# ---------------------------------------------------------------------------------------------
# 2. the LM head and weight tying
# ---------------------------------------------------------------------------------------------
md(
    zh=r"""
(def-lm-head)=
## 語言模型頭：把向量換回詞

上下文詞向量還只是一串數字。要讓模型「說出」下一個詞，得把最後一層的向量換回詞彙表上的機率，
這一步叫**語言模型頭**（LM head），也叫解嵌入（unembedding）。它只做兩件事：拿向量 $\mathbf{h}$
和詞彙表裡每個詞元的向量做內積，得到一個分數（logit）；再用 softmax 把分數變成機率。

$$
\mathbf{u} = \mathbf{h}^L\,\mathbf{E}^\top, \qquad \mathbf{p} = \operatorname{softmax}(\mathbf{u})
$$

形狀是 $[1, d] \times [d, |V|] = [1, |V|]$：每個詞元一個分數。第 $j$ 個分數 $u_j = \mathbf{h}\cdot\mathbf{E}_j$
問的是：「這個向量和詞元 $j$ 的座標有多像？」

(def-weight-tying)=
### 權重共享

上式的矩陣不是新的：它就是第 1 章的詞嵌入矩陣 $\mathbf{E}$，只是轉置了。輸入端用 $\mathbf{E}$ 把編號換成座標，
輸出端用同一本「座標辭典」把座標換回編號，這叫**權重共享**（weight tying）{cite}`press2017using`。
好處是少學一個 $|V|\times d$ 的大矩陣，而且兩端對「哪些詞相近」的看法一致。

`lib` 的實作就是一行矩陣乘法：
""",
    en=r"""
(def-lm-head)=
## The LM head: turning vectors back into words

A contextual vector is still just a list of numbers. To make the model "say" the next word, the
last layer's vector must become probabilities over the vocabulary. This step is the **language
model head** (LM head), also called the unembedding. It does two things only: it takes the dot
product of the vector $\mathbf{h}$ with every token's vector in the vocabulary, which gives a
score (a logit) per token; then softmax turns the scores into probabilities.

$$
\mathbf{u} = \mathbf{h}^L\,\mathbf{E}^\top, \qquad \mathbf{p} = \operatorname{softmax}(\mathbf{u})
$$

The shapes are $[1, d] \times [d, |V|] = [1, |V|]$: one score per token. The $j$-th score
$u_j = \mathbf{h}\cdot\mathbf{E}_j$ asks: "how much does this vector look like token $j$'s
coordinates?"

(def-weight-tying)=
### Weight tying

The matrix in that formula is not new: it is chapter 1's embedding matrix $\mathbf{E}$,
transposed. The input side uses $\mathbf{E}$ to turn ids into coordinates; the output side uses
the same "coordinate dictionary" to turn coordinates back into ids. This is **weight tying**
{cite}`press2017using`. It saves learning a second large $|V|\times d$ matrix, and both ends
agree on which words are close.

In `lib` it is one matrix product:
""",
)

ch.code("print(inspect.getsource(lib.lm_head))")

md(
    zh=r"""
**算算看。** 沿用第 1 章的 4 詞元詞彙表（$d = 3$），「它」的編號是 2、座標是 $[0.2, 0.7, 0.5]$。
設最後一層正規化後的向量是 $\mathbf{h} = [0.8, 0.2, 0.6]$。乘上 $\mathbf{E}^\top$，就是拿 $\mathbf{h}$
和每一列做內積：
""",
    en=r"""
**Work it out.** Take chapter 1's four-token vocabulary ($d = 3$); "it" has id 2 and
coordinates $[0.2, 0.7, 0.5]$. Let the last layer's normalised vector be
$\mathbf{h} = [0.8, 0.2, 0.6]$. Multiplying by $\mathbf{E}^\top$ means taking the dot product of
$\mathbf{h}$ with each row:
""",
)

ch.code(
    """
tokens = [lib.tr(zh="獎盃", en="trophy"), lib.tr(zh="行李箱", en="suitcase"),
          lib.tr(zh="它", en="it"), lib.tr(zh="大", en="big")]       # chapter 1: ids 0-3
E = np.array([[0.9, 0.1, 0.4],               # 0 獎盃 trophy
              [0.3, 0.8, 0.6],               # 1 行李箱 suitcase
              [0.2, 0.7, 0.5],               # 2 它 it
              [0.7, 0.4, 0.7]])              # 3 大 big          E: [|V|, d] = [4, 3]
h = np.array([0.8, 0.2, 0.6])       # [d]
u = lib.lm_head(h, E)               # [|V|]  scores h · E_j
p = lib.softmax(u)                  # [|V|]  probabilities
print("u =", u.round(2))
print("p =", p.round(3))
"""
)

ch.check(
    """
assert np.allclose(u, [0.98, 0.76, 0.60, 1.06])
assert np.allclose(E[2], [0.2, 0.7, 0.5])
assert np.allclose(p.round(3), [0.280, 0.225, 0.192, 0.303])
assert int(np.argmax(p)) == 3
assert abs(u[2] - (0.8 * 0.2 + 0.2 * 0.7 + 0.6 * 0.5)) < 1e-12
"""
)

ch.hidden(
    """
lib.glue("ch5_u_spread", float(u.max() - u.min()))
lib.glue("ch5_toy_saved", int(E.size))
lib.glue("ch5_loss_half", float(-np.log(0.5)))
lib.glue("ch5_p_one_nat", float(np.exp(-1)))
lib.glue("ch5_big_in_10", int(round(10 * p[3])))
for j, name in enumerate(["trophy", "suitcase", "it", "big"]):
    lib.glue(f"ch5_u_{name}", float(u[j]))
    lib.glue(f"ch5_p_{name}", float(p[j]));
"""
)

md(
    zh="""
以「它」那一列為例：$0.8\\times0.2 + 0.2\\times0.7 + 0.6\\times0.5 =$ {glue:text}`ch5_u_it:.2f`。
四個分數是 {glue:text}`ch5_u_trophy:.2f`、{glue:text}`ch5_u_suitcase:.2f`、{glue:text}`ch5_u_it:.2f`、
{glue:text}`ch5_u_big:.2f`，softmax 之後「大」最高，是 {glue:text}`ch5_p_big:.3f`。
模型認為下一個詞最可能是「大」，但把握不高：示範用的數字很小，最高分和最低分只差 {glue:text}`ch5_u_spread:.2f`，機率也就擠在一起。
""",
    en="""
For the row of "it": $0.8\\times0.2 + 0.2\\times0.7 + 0.6\\times0.5 =$ {glue:text}`ch5_u_it:.2f`.
The four scores are {glue:text}`ch5_u_trophy:.2f`, {glue:text}`ch5_u_suitcase:.2f`,
{glue:text}`ch5_u_it:.2f` and {glue:text}`ch5_u_big:.2f`; after softmax "big" is the highest,
at {glue:text}`ch5_p_big:.3f`. The model thinks the next word is most likely "big", but it is not
confident: the demo numbers are small, the highest and lowest scores differ by only
{glue:text}`ch5_u_spread:.2f`, and so the probabilities stay close together.
""",
)

ch.code("lib.figures.generation.plot_scores_probs(tokens, u, p);")

md(
    zh="""
**權重共享是「同一塊記憶體」，不是複製。** 在 PyTorch 裡，把輸出層的權重指向詞嵌入的權重，兩者就是同一個張量：
改一邊，另一邊跟著變；訓練時兩端的梯度也加在同一個參數上。`lib.torch_mirror.tied_lm_head` 就是這樣接的
（本書的小模型更直接：輸出層就是 `lm_head(h, E)`，拿的正是輸入端那一個參數 $\\mathbf{E}$）：
""",
    en="""
**Tying means "the same memory", not a copy.** In PyTorch, pointing the output layer's weight at
the embedding's weight makes them one tensor: change one and the other changes; during training
the gradients from both ends add up in the same parameter. `lib.torch_mirror.tied_lm_head` wires
it this way (the book's tiny models are more direct still: their output layer is
`lm_head(h, E)` with the very parameter $\\mathbf{E}$ of the input side):
""",
)

ch.code(
    """
import torch
emb = torch.nn.Embedding(4, 3, dtype=torch.float64)   # the input side: E, [|V|, d]
with torch.no_grad():
    emb.weight.copy_(torch.from_numpy(E))
head = lib.torch_mirror.tied_lm_head(emb)           # the output side, d → |V|, tied
print("same storage:", head.weight.data_ptr() == emb.weight.data_ptr())
print("head(h) =", head(torch.from_numpy(h)).detach().numpy().round(2))  # lm_head(h, E)
with torch.no_grad():
    emb.weight[3, 0] = 0.0                           # edit the embedding of 大 / big …
print("the head's row 3 now:", head.weight[3].detach().numpy())  # … the head changed
"""
)

ch.check(
    """
assert head.weight is emb.weight and head.weight.data_ptr() == emb.weight.data_ptr()
assert float(head.weight.detach()[3, 0]) == 0.0
shared = {id(q): q for q in list(emb.parameters()) + list(head.parameters())}
assert sum(q.numel() for q in shared.values()) == 4 * 3       # one matrix, not two
with torch.no_grad():
    emb.weight.copy_(torch.from_numpy(E))
    assert np.allclose(head(torch.from_numpy(h)).numpy(), u)
"""
)

ch.hidden(
    """
lib.glue("ch5_gpt2_saved", float(50257 * 768 / 1e6))
lib.glue("ch5_gpt2_saved_wan", float(50257 * 768 / 1e4))   # in 萬 (10^4), for the zh book
lib.glue("ch5_gpt2_total_m", 124.0)                      # GPT-2 small, tied: about 124 M parameters
lib.glue("ch5_gpt2_total_yi", 1.24)                      # the same, in 億 (10^8)
lib.glue("ch5_gpt2_share", float(100 * 50257 * 768 / 124e6));
"""
)

md(
    zh="""
四個詞元、三維，省下的只有 {glue:text}`ch5_toy_saved` 個參數；但像 GPT-2 那樣 $|V| = 50{,}257$、$d = 768$ 的模型，
共享省下的是約 {glue:text}`ch5_gpt2_saved_wan:.0f` 萬個參數 {cite}`radford2019language`。
""",
    en="""
With four tokens in three dimensions tying saves only {glue:text}`ch5_toy_saved` parameters; for a model like GPT-2,
with $|V| = 50{,}257$ and $d = 768$, it saves about {glue:text}`ch5_gpt2_saved:.1f` million
{cite}`radford2019language`.
""",
)

# ---------------------------------------------------------------------------------------------
# 3. pretraining: next-token prediction, cross-entropy, teacher forcing
# ---------------------------------------------------------------------------------------------
md(
    zh=r"""
(def-cross-entropy)=
## 預訓練：預測下一個詞

**比喻：克漏字練習，做了幾十億題。** 拿大量文字，在每個位置 $t$ 遮住後文，要模型猜下一個詞 $w_{t+1}$；
猜完立刻對答案，錯得越離譜罰得越重。不需要人工標註：文字本身就是答案。

罰多少由**交叉熵**決定。正確答案的分布是 one-hot（正確的詞機率 1，其他都是 0），所以交叉熵只剩一項：
**正確詞元的負對數機率**。

$$
\ell_t = -\log p\,(w_{t+1} \mid w_1, \dots, w_t), \qquad
\mathcal{L} = \frac{1}{T}\sum_{t=1}^{T} \ell_t
$$

訓練就是不斷調整參數，讓 $\mathcal{L}$ 變小。本書的對數都是自然對數，單位叫 nats。
""",
    en=r"""
(def-cross-entropy)=
## Pretraining: predicting the next word

**Analogy: a fill-in-the-blank exercise, done billions of times.** Take a lot of text; at every
position $t$ hide what follows and ask the model to guess the next word $w_{t+1}$; check the
answer at once, and penalise more the more wrong the guess was. No human labels are needed: the
text itself is the answer key.

The penalty is the **cross-entropy**. The right answer's distribution is one-hot (probability 1
on the right word, 0 elsewhere), so cross-entropy keeps a single term: **the negative
log-probability of the right token**.

$$
\ell_t = -\log p\,(w_{t+1} \mid w_1, \dots, w_t), \qquad
\mathcal{L} = \frac{1}{T}\sum_{t=1}^{T} \ell_t
$$

Training keeps adjusting the parameters to make $\mathcal{L}$ smaller. Logarithms in this book
are natural logarithms; the unit is the nat.
""",
)

ch.code("print(inspect.getsource(lib.cross_entropy))")

md(
    zh="""
**算算看。** 假設正確的下一個詞是「大」。上面的語言模型頭給它 {glue:text}`ch5_p_big:.3f`；再和兩種情況並排比較：
更有把握（給到 0.9）與幾乎猜錯（只給 0.01）。
""",
    en="""
**Work it out.** Suppose the right next word is "big". The LM head above gives it {glue:text}`ch5_p_big:.3f`;
compare it with two other cases side by side: more confident (0.9) and nearly wrong (0.01).
""",
)

ch.code(
    """
loss_now = lib.cross_entropy(u, 3)          # target id 3 = 大 / big
for p_right in (float(p[3]), 0.9, 0.01):
    print(f"p = {p_right:.3f}   loss = -ln p = {-np.log(p_right):.3f}")
print("lib.cross_entropy(u, 3) =", round(loss_now, 3))
"""
)

ch.check(
    """
assert abs(loss_now - (-np.log(p[3]))) < 1e-12
assert abs(loss_now - 1.19) < 0.01
assert abs(-np.log(0.9) - 0.105) < 1e-3 and abs(-np.log(0.01) - 4.6) < 0.01
"""
)

ch.hidden(
    """
lib.glue("ch5_loss_now", float(loss_now))
lib.glue("ch5_loss_sure", float(-np.log(0.9)))
lib.glue("ch5_loss_wrong", float(-np.log(0.01)));
"""
)

md(
    zh="""
三個損失依序是 {glue:text}`ch5_loss_now:.2f`（現況）、{glue:text}`ch5_loss_sure:.3f`（更有把握）、
{glue:text}`ch5_loss_wrong:.1f`（幾乎猜錯）。機率越接近 1，損失越接近 0；機率越接近 0，損失就無限制地變大。
猜錯而且很有把握，罰得最重。
""",
    en="""
The three losses are {glue:text}`ch5_loss_now:.2f` (as it is), {glue:text}`ch5_loss_sure:.3f`
(more confident) and {glue:text}`ch5_loss_wrong:.1f` (nearly wrong). As the probability goes to
1 the loss goes to 0; as it goes to 0 the loss grows without bound. Being confidently wrong costs
the most.
""",
)

ch.code("lib.figures.generation.plot_cross_entropy((float(p[3]), 0.9, 0.01));")

md(
    zh=r"""
(def-teacher-forcing)=
### 教師強制（teacher forcing）：一次練完整句

訓練時，不管模型上一步猜了什麼，下一步一律餵入**正確的**詞，這叫**教師強制**（teacher forcing）。
好處是整句可以一次算完：輸入是 $w_1, \dots, w_{N-1}$，答案是同一句往左移一格的 $w_2, \dots, w_N$；
{term}`因果遮罩 <因果遮罩（causal mask）>`（第 3 章）保證位置 $t$ 看不到答案 $w_{t+1}$。一句 $N$ 個詞元，就是 $N-1$ 題克漏字同時作答：
""",
    en=r"""
(def-teacher-forcing)=
### Teacher forcing: practising a whole sentence at once

During training, whatever the model guessed at the previous step, the next step is always fed
the **right** word. This is **teacher forcing**. Its benefit is that a whole sentence is computed
in one pass: the inputs are $w_1, \dots, w_{N-1}$, the answers are the same sentence shifted left
by one, $w_2, \dots, w_N$; the {term}`causal mask <causal mask（因果遮罩）>` (chapter 3) makes sure position $t$ cannot see its
answer $w_{t+1}$. A sentence of $N$ tokens is $N-1$ blanks answered at the same time:
""",
)

ch.code(
    """
inputs, targets = big[:-1], big[1:]          # the same sentence, shifted by one
for t in range(1, len(big)):                 # blank t: the words w_1 … w_t, the answer w_{t+1}
    print(f"t={t}:", " ".join(inputs[:t]), "→", targets[t - 1])
"""
)

ch.check(
    """
assert len(inputs) == len(targets) == len(big) - 1
assert list(targets[:-1]) == list(inputs[1:])
"""
)

md(
    zh="""
**現場訓練。** 下面從隨機初始化開始，用 `lib.torch_mirror` 的函式組成的小解碼器，在本書語料的中文訓練句上
訓練 {glue:text}`ch5_steps` 步（有 GPU 就用 GPU，沒有也只要幾秒）。每一步都是一小批句子的教師強制，損失就是上面那個交叉熵的平均。
""",
    en="""
**Training live.** Below, a tiny decoder built from the functions of `lib.torch_mirror` starts
from random weights and trains for {glue:text}`ch5_steps` steps on the English training sentences of the book's corpus (on a GPU
if there is one; a few seconds without). Every step is teacher forcing over a small batch of sentences, and the loss is
the average of the cross-entropy above.
""",
)

ch.code(
    """
device = "cuda" if torch.cuda.is_available() else "cpu"
torch.set_num_threads(1)              # tensors this small: one CPU thread is fastest
run = lib.tiny_models.train_decoder(seed=0, max_steps=60, device=device,
                                    exs=lib.corpus.examples(lang=LANG, split="train"))
losses = np.asarray(run.losses)       # one cross-entropy per step
uniform = np.log(lib.corpus.vocab_size())   # ln |V|: the loss of a uniform guess
lib.figures.generation.plot_loss(losses, baseline=uniform, device_name=device);
"""
)

ch.check(
    """
assert len(losses) == 60 and np.all(np.isfinite(losses))
assert losses[-5:].mean() < losses[:5].mean() - 0.5        # the loss really fell
assert abs(losses[0] - np.log(lib.corpus.vocab_size())) < 1.5   # it starts near a uniform guess
"""
)

ch.hidden(
    """
lib.glue("ch5_loss_first", float(losses[0]))
lib.glue("ch5_loss_last", float(losses[-5:].mean()))
lib.glue("ch5_loss_uniform", float(np.log(lib.corpus.vocab_size())))
lib.glue("ch5_vocab", int(lib.corpus.vocab_size()))
lib.glue("ch5_steps", int(len(losses)))
lib.glue("ch5_tiny_d", int(lib.tiny_models.default_config("decoder").d))
lib.glue("ch5_tiny_saved", int(lib.corpus.vocab_size() * lib.tiny_models.default_config("decoder").d))
_params, _cfg, _ = lib.tiny_models.load("decoder")
_total = sum(v.size for v in _params.values())
assert _params["E"].shape == (lib.corpus.vocab_size(), _cfg.d)
lib.glue("ch5_tiny_total", int(_total))
lib.glue("ch5_tiny_share", float(100 * _params["E"].size / _total));
"""
)

md(
    zh="""
一開始的損失是 {glue:text}`ch5_loss_first:.2f`，接近在 {glue:text}`ch5_vocab` 個詞元之間亂猜的
$\\ln |V| =$ {glue:text}`ch5_loss_uniform:.2f`；{glue:text}`ch5_steps` 步之後，最後幾步的平均降到
{glue:text}`ch5_loss_last:.2f`。本書附的解碼器是用同一個函式、在兩種語言的訓練句上訓練得更久的版本，後面的生成和第 6 章的評估都用它。
""",
    en="""
The loss starts at {glue:text}`ch5_loss_first:.2f`, close to
$\\ln |V| =$ {glue:text}`ch5_loss_uniform:.2f` for guessing uniformly among
{glue:text}`ch5_vocab` tokens; after {glue:text}`ch5_steps` steps the average of the last few
steps is down to {glue:text}`ch5_loss_last:.2f`. The decoder that ships with the book was
trained longer by the same function, on the training sentences of both languages; the generation below and chapter 6's evaluation use it.
""",
)

# ---------------------------------------------------------------------------------------------
# 4. generation and temperature
# ---------------------------------------------------------------------------------------------
md(
    zh=r"""
(def-temperature)=
## 生成與溫度

模型學會了給下一個詞打分數，接著就能一個詞一個詞地**生成**：選一個詞，接到句尾，再問下一個。
怎麼「選」有兩種做法：

- **貪婪解碼**：每一步都選機率最高的詞。簡單，但平淡、容易一再重複同樣的句子。
- **抽樣**：依機率擲骰子。機率 {glue:text}`ch5_p_big:.3f` 的「大」，大約每 10 次有 {glue:text}`ch5_big_in_10` 次被選中。

抽樣前可以先用**溫度** $\tau$ 調整分布有多尖：把分數除以 $\tau$ 再做 softmax。

$$
\mathbf{p} = \operatorname{softmax}\!\left(\frac{\mathbf{u}}{\tau}\right)
$$

$\tau < 1$ 放大分數之間的差距，分布變尖、選詞變保守；$\tau \to 0$ 時機率全部集中到最高分的詞，就成了貪婪解碼。
$\tau > 1$ 縮小差距，分布變平、選詞變分散。
""",
    en=r"""
(def-temperature)=
## Generation and temperature

Once the model can score the next word, it can **generate** one word at a time: choose a word,
append it, ask for the next. There are two ways to "choose":

- **Greedy decoding**: always take the most probable word. Simple, but bland, and prone to
  repeating the same sentence over and over.
- **Sampling**: roll a die weighted by the probabilities. "Big", with probability
  {glue:text}`ch5_p_big:.3f`, is picked about {glue:text}`ch5_big_in_10` times in 10.

Before sampling, a **temperature** $\tau$ sets how peaked the distribution is: divide the scores
by $\tau$, then softmax.

$$
\mathbf{p} = \operatorname{softmax}\!\left(\frac{\mathbf{u}}{\tau}\right)
$$

$\tau < 1$ stretches the gaps between scores: the distribution sharpens and choices get
cautious; as $\tau \to 0$ all the probability gathers on the top-scoring word, which is greedy
decoding. $\tau > 1$ shrinks the gaps: the distribution flattens and choices spread out.
""",
)

md(
    zh="""
**算算看。** 同一組分數 $\\mathbf{u} = [0.98, 0.76, 0.60, 1.06]$，「大」是第 4 個詞元（編號 3）：
""",
    en="""
**Work it out.** The same scores $\\mathbf{u} = [0.98, 0.76, 0.60, 1.06]$, with "big" the
fourth token (id 3):
""",
)

ch.code(
    """
for tau in (1.0, 0.5, 2.0, 0.01):
    print(f"tau = {tau:<5}", lib.softmax(u, temperature=tau).round(3))
"""
)

ch.check(
    """
p_half = lib.softmax(u, temperature=0.5)
assert np.allclose(p_half, lib.softmax(2 * u))                # τ = 0.5 doubles the scores
assert abs(p[3] - 0.303) < 5e-4 and abs(p_half[3] - 0.357) < 5e-4
assert np.all(p_half[1:3] < p[1:3]) and p_half[0] > p[0]      # low scores fall; 0.98, close to the top, rises
assert p_half.max() > p.max() and np.sort(p_half)[0] < np.sort(p)[0]   # sharper at both ends
p_cold = lib.softmax(u, temperature=0.01)
assert np.all(np.isfinite(p_cold)) and p_cold[3] > 0.999 and int(np.argmax(p_cold)) == 3   # τ → 0: greedy
"""
)

ch.hidden(
    """
p_half = lib.softmax(u, temperature=0.5)
lib.glue("ch5_p_big_half", float(p_half[3]))
lib.glue("ch5_p_big_two", float(lib.softmax(u, temperature=2.0)[3]))
lib.glue("ch5_p_big_cold", float(lib.softmax(u, temperature=0.01)[3]))
lib.glue("ch5_p_trophy_half", float(p_half[0]))
lib.glue("ch5_p_it_half", float(p_half[2]));
"""
)

md(
    zh="""
$\\tau = 0.5$ 等於把分數加倍：「大」從 {glue:text}`ch5_p_big:.3f` 升到 {glue:text}`ch5_p_big_half:.3f`，
分數最低的「它」從 {glue:text}`ch5_p_it:.3f` 降到 {glue:text}`ch5_p_it_half:.3f`，分布變尖。
（分數 0.98、緊追在後的「獎盃」反而從 {glue:text}`ch5_p_trophy:.3f` 略升到 {glue:text}`ch5_p_trophy_half:.3f`：
降溫是把機率從低分的詞搬給高分的詞，並非全數搬給第一名。）$\\tau = 2$ 時「大」只剩 {glue:text}`ch5_p_big_two:.3f`，四個詞幾乎一樣可能；
$\\tau = 0.01$ 時「大」拿到 {glue:text}`ch5_p_big_cold:.4f`，幾乎就是貪婪解碼。
""",
    en="""
$\\tau = 0.5$ amounts to doubling the scores: "big" rises from {glue:text}`ch5_p_big:.3f` to
{glue:text}`ch5_p_big_half:.3f`, the lowest-scoring "it" falls from {glue:text}`ch5_p_it:.3f` to
{glue:text}`ch5_p_it_half:.3f`, and the distribution sharpens. ("Trophy", scoring 0.98 just
behind, even rises a little, from {glue:text}`ch5_p_trophy:.3f` to
{glue:text}`ch5_p_trophy_half:.3f`: cooling moves probability from low-scoring words to
high-scoring ones, not only to the winner.) At
$\\tau = 2$ "big" keeps only {glue:text}`ch5_p_big_two:.3f` and the four words are almost equally
likely; at $\\tau = 0.01$ "big" gets {glue:text}`ch5_p_big_cold:.4f`, practically greedy
decoding.
""",
)

ch.code("lib.figures.generation.plot_temperatures(tokens, u, taus=(0.5, 1.0, 2.0));")

md(
    zh="""
抽樣本身由 `lib.sample` 負責：先算 $\\operatorname{softmax}(\\mathbf{u}/\\tau)$，再依機率擲一次骰子。
擲 1000 次，數一數每個詞被選中幾次：
""",
    en="""
Sampling itself is `lib.sample`: compute $\\operatorname{softmax}(\\mathbf{u}/\\tau)$, then roll the
weighted die once. Roll it 1000 times and count how often each word comes up:
""",
)

ch.code(
    """
rng = np.random.default_rng(0)
for tau in (1.0, 0.5, 0.01):
    draws = [lib.sample(u, tau, rng) for _ in range(1000)]
    print(f"tau = {tau:<5}", np.bincount(draws, minlength=4) / 1000)
"""
)

ch.check(
    """
rng_ = np.random.default_rng(1)
freq = np.bincount([lib.sample(u, 1.0, rng_) for _ in range(4000)], minlength=4) / 4000
assert np.allclose(freq, p, atol=0.03)
p_cold = lib.softmax(u, temperature=0.01)
assert p_cold.max() > 0.999                          # τ = 0.01 puts > 99.9 % on the top word …
cold = np.bincount([lib.sample(u, 0.01, rng_) for _ in range(2000)], minlength=4) / 2000
assert int(np.argmax(cold)) == int(np.argmax(u)) and cold.max() > 0.99   # … so samples are ~greedy
"""
)

md(
    zh="""
**互動圖：溫度滑桿。** 拖動 $\\tau$，看三件事一起變：左邊是上面那四個詞元的分布（虛線框是 $\\tau = 1$）；
右邊是本書的小解碼器在「太＿了」這個空格上的前幾名候選詞，算的方式一樣，都是 softmax(分數/$\\tau$)；
下方是小解碼器在這個溫度下接著句首寫出的句子（每一格用同一顆亂數種子）。
$\\tau$ 很小時幾乎每次都寫出同一句（就是貪婪解碼那一句），$\\tau$ 很大時開始胡言亂語。這個小工具在網頁上不需要 Python 也能動。
""",
    en="""
**Interactive: the temperature slider.** Drag $\\tau$ and watch three things change together. On
the left, the four-token distribution from above (the dashed outline is $\\tau = 1$). On the
right, the tiny decoder's top candidates for the blank in "too ＿", computed the same way,
softmax(scores/$\\tau$). Below, sentences the tiny decoder writes at this temperature, continuing
the start of the sentence (the same random seed in every frame). At a small $\\tau$ it almost always
writes the same sentence, the greedy one; at a large $\\tau$ it starts to babble. The widget works on the website
without Python.
""",
)

ch.code("lib.figures.generation.temperature_widget(tokens, u, LANG)")

ch.code(
    """
prefix = lib.figures.generation.blank_prefix(big)        # up to 太 / too
vocab, probs = lib.winograd.next_token_probs(prefix, LANG)
for k in np.argsort(-probs)[:3]:                          # the top three candidates
    print(" ".join(prefix), "＿ →", vocab[k], round(float(probs[k]), 3))
for tau in (0.01, 1.0):
    words = lib.winograd.generate(big[:2], LANG, tau, np.random.default_rng(0))
    print(f"tau = {tau:<4}:", " ".join(words))
"""
)

ch.check(
    """
assert abs(float(np.sum(probs)) - 1) < 1e-6 and np.all(np.isfinite(probs))
adjectives = {"zh": {"大", "小"}, "en": {"big", "small"}}[LANG]
assert vocab[int(np.argmax(probs))] in adjectives | {"重", "heavy", "弱", "weak", "慢", "slow", "快", "fast"}
# τ = 0.01 is greedy wherever the top word gets > 99.9 % at that temperature, whatever the seed
for seed in (0, 123):
    g = lib.winograd.generate(big[:2], LANG, 0.01, np.random.default_rng(seed))
    sure = 0
    for t in range(2, len(g)):
        v, q = lib.winograd.next_token_probs(g[:t], LANG, temperature=0.01)
        if q.max() > 0.999:
            assert g[t] == v[int(np.argmax(q))], (seed, t, g)
            sure += 1
    assert sure >= (len(g) - 2) / 2, (seed, sure, g)     # most steps are that sure
"""
)

# ---------------------------------------------------------------------------------------------
# 5. three families
# ---------------------------------------------------------------------------------------------
md(
    zh="""
## 三種架構

同一套 Transformer 區塊，換個遮罩、換個訓練目標，就成了三個家族：

| 家族 | 用到哪些區塊 | 注意力能看哪裡 | 訓練目標 | 代表模型 | 擅長 |
|---|---|---|---|---|---|
| 只有編碼器 | 編碼器 | 雙向：整句 | 遮住一些詞，猜回來（masked LM） | BERT {cite}`devlin2019bert` | 分類、命名實體、問答、詞義分析 |
| 只有解碼器 | 解碼器 | 單向：只看左邊（因果遮罩） | 預測下一個詞 | GPT {cite}`radford2019language` | 文字生成、對話 |
| 編碼器－解碼器 | 兩者 | 編碼器雙向；解碼器看左邊，並透過交叉注意力看整個輸入 | 把輸入文字改寫成輸出文字 | T5 {cite}`raffel2020exploring` | 翻譯、摘要 |

本書的兩個小模型正好是前兩類：判斷「它」指誰的是**編碼器**，這一章訓練、生成的是**解碼器**。

**為什麼做詞義分析要用雙向模型？** 讀到「它」的時候，決定它指誰的「大／小」還在**後面**。
解碼器的因果遮罩讓「它」只看得到左邊，兩句的「它」前文一模一樣，所以在解碼器裡「它」的向量在兩句中完全相同，
直到讀到「大」或「小」才分得開。雙向的編碼器則讓「它」的向量同時看得到「大／小」，上面那張餘弦相似度圖才會在頂層分開。
所以若目的是取上下文詞向量來做詞義分析，BERT 類的編碼器最直接。
""",
    en="""
## Three families

The same Transformer blocks, with a different mask and a different training objective, make
three families:

| family | blocks used | where attention can look | training objective | example | good at |
|---|---|---|---|---|---|
| encoder-only | encoder | both ways: the whole sentence | hide some words, guess them back (masked LM) | BERT {cite}`devlin2019bert` | classification, named entities, question answering, word-sense analysis |
| decoder-only | decoder | one way: only to the left (causal mask) | predict the next word | GPT {cite}`radford2019language` | text generation, dialogue |
| encoder–decoder | both | encoder both ways; decoder to the left, plus the whole input through cross-attention | rewrite an input text into an output text | T5 {cite}`raffel2020exploring` | translation, summarisation |

The book's two tiny models are the first two kinds: the one that tells what "it" refers to is an
**encoder**; the one this chapter trains and samples from is a **decoder**.

**Why does word-sense analysis want a bidirectional model?** When the model reaches "it", the
word that decides what "it" refers to, "big" or "small", is still **ahead**. A decoder's causal
mask lets "it" see only its left, and both sentences are identical up to "it", so in a decoder
the vector of "it" is exactly the same in both sentences; they can only part once "big" or
"small" is read. A bidirectional encoder lets the vector of "it" see "big/small" at once, which is
why the cosine plot above parts at the top. So to take contextual vectors for word-sense
analysis, a BERT-style encoder is the direct choice.
""",
)

ch.code(
    """
before_it = big[:i + 1]                                   # … 因為 它 / … because it
_, p_after_it_big = lib.winograd.next_token_probs(big[:i + 1], LANG)
_, p_after_it_small = lib.winograd.next_token_probs(small[:i + 1], LANG)
same = np.allclose(p_after_it_big, p_after_it_small)
print("decoder, the same prediction after", before_it[-1], ":", same)
"""
)

ch.check(
    """
assert np.allclose(p_after_it_big, p_after_it_small)
"""
)

# ---------------------------------------------------------------------------------------------
# summary and exercises
# ---------------------------------------------------------------------------------------------
md(
    zh=r"""
## 小結

- **上下文詞向量** $\mathbf{h}_i^L$：同一個詞元，起點相同，經過 $L$ 層之後隨語境不同。小編碼器裡兩個「它」的餘弦相似度從
  {glue:text}`ch5_cos_input:.2f` 降到 {glue:text}`ch5_cos_top:.2f`。
- **語言模型頭** $\mathbf{u} = \mathbf{h}\mathbf{E}^\top$、$\mathbf{p} = \operatorname{softmax}(\mathbf{u})$；
  **權重共享**讓輸入與輸出共用同一個 $\mathbf{E}$（同一塊記憶體）。
- **預訓練**：預測下一個詞，損失是正確詞元的 $-\log p$；**教師強制**讓一整句一次算完。
- **生成**：貪婪或抽樣；**溫度** $\tau$ 把分數除以 $\tau$，$\tau \to 0$ 就是貪婪解碼。
- 三大家族：編碼器（BERT）、解碼器（GPT）、編碼器－解碼器（T5）。

下一章問：模型到底好不好？答案是困惑度，也就是本章交叉熵的指數。
""",
    en=r"""
## Summary

- A **contextual vector** $\mathbf{h}_i^L$: the same token starts from the same point and, after
  $L$ layers, differs with its context. In the tiny encoder the two "it"s go from cosine
  {glue:text}`ch5_cos_input:.2f` to {glue:text}`ch5_cos_top:.2f`.
- The **LM head**: $\mathbf{u} = \mathbf{h}\mathbf{E}^\top$, $\mathbf{p} = \operatorname{softmax}(\mathbf{u})$;
  **weight tying** makes input and output share one $\mathbf{E}$ (the same memory).
- **Pretraining**: predict the next word; the loss is $-\log p$ of the right token;
  **teacher forcing** computes a whole sentence at once.
- **Generation**: greedy or sampling; the **temperature** $\tau$ divides the scores, and
  $\tau \to 0$ is greedy decoding.
- Three families: encoder (BERT), decoder (GPT), encoder–decoder (T5).

The next chapter asks: is the model any good? The answer is perplexity, the exponential of this
chapter's cross-entropy.
""",
)

md(
    zh="""
## 練習

**1.** 為什麼兩個「它」在第 0 層的餘弦相似度**剛好**是 1，而不是「很接近 1」？如果把兩句改成
「因為它太大了」和「因為那個東西太大了」，第 0 層還會是 1 嗎？

:::{dropdown} 解答

第 0 層是詞嵌入加位置嵌入。兩句的「它」查的是 $\\mathbf{E}$ 的同一列，又坐在同一個位置，兩個向量逐位相同，
所以餘弦剛好是 1。換成「那個東西」，詞元不同（甚至數量不同），查出的列不同，第 0 層就不再相同。
上下文詞向量要比較的是「同一個詞元、不同語境」，這個練習提醒我們：第 0 層之後出現的差異，全都來自語境。
:::

**2.** 若模型給正確的下一個詞機率 0.5，損失是多少？機率要多少，損失才會剛好是 1 nat？

:::{dropdown} 解答

$-\\ln 0.5 \\approx$ {glue:text}`ch5_loss_half:.3f`。損失等於 1 時 $p = e^{-1} \\approx$ {glue:text}`ch5_p_one_nat:.3f`。
:::

**3.** 以 GPT-2 的 $|V| = 50{,}257$、$d = 768$ 為例，權重共享省下多少參數？在本書的小解碼器
（$|V| =$ {glue:text}`ch5_vocab`、$d =$ {glue:text}`ch5_tiny_d`）裡又省下多少？

:::{dropdown} 解答

省下的是一個 $|V| \\times d$ 的矩陣：GPT-2 是 $50{,}257 \\times 768 \\approx$ {glue:text}`ch5_gpt2_saved_wan:.0f` 萬個參數；
小解碼器是 $|V| \\times d =$ {glue:text}`ch5_tiny_saved:,` 個。這不是小數目：$\\mathbf{E}$ 佔了小解碼器全部
{glue:text}`ch5_tiny_total:,` 個參數的 {glue:text}`ch5_tiny_share:.0f`%；在最小版的 GPT-2（共約
{glue:text}`ch5_gpt2_total_yi:.2f` 億個參數）裡更佔了 {glue:text}`ch5_gpt2_share:.0f`%。
:::

**4.** 下面三個任務各該選哪一個家族？(a) 找出一篇文章裡每個「它」指的是什麼；(b) 替一句開頭接著寫故事；
(c) 把中文翻成英文。

:::{dropdown} 解答

(a) 只有編碼器（BERT 類）：「它」的向量需要同時看到前後文。(b) 只有解碼器（GPT 類）：一次預測一個詞，只看左邊。
(c) 編碼器－解碼器（T5 類）：編碼器雙向讀完原文，解碼器一個詞一個詞寫出譯文。
:::

**5.（程式）** 溫度要多低，「大」的機率才會到 0.5？請寫一個函式，用二分法找出使
`lib.softmax(u, temperature=tau)[3]` 等於 0.5 的 $\\tau$。提示：$\\tau$ 越小，「大」的機率越高。
""",
    en="""
## Exercises

**1.** Why is the cosine similarity of the two "it"s at layer 0 **exactly** 1, not just "very
close to 1"? If the two sentences were "because it is too big" and "because the thing is too
big", would layer 0 still give 1?

:::{dropdown} Solution
Layer 0 is embedding plus position. Both "it"s look up the same row of $\\mathbf{E}$ and sit at
the same position, so the two vectors agree entry by entry and the cosine is exactly 1. With
"the thing" the tokens differ (even their number), the rows differ, and layer 0 is no longer the
same. Contextual vectors compare "the same token in different contexts"; only the differences
that appear after layer 0 are caused by context.
:::

**2.** If the model gives the right next word probability 0.5, what is the loss? What probability
makes the loss exactly 1 nat?

:::{dropdown} Solution
$-\\ln 0.5 \\approx$ {glue:text}`ch5_loss_half:.3f`. A loss of 1 means $p = e^{-1} \\approx$ {glue:text}`ch5_p_one_nat:.3f`.
:::

**3.** With GPT-2's $|V| = 50{,}257$ and $d = 768$, how many parameters does weight tying save?
And in the book's tiny decoder ($|V| =$ {glue:text}`ch5_vocab`, $d =$ {glue:text}`ch5_tiny_d`)?

:::{dropdown} Solution
It saves one $|V| \\times d$ matrix: for GPT-2 about $50{,}257 \\times 768 \\approx$ {glue:text}`ch5_gpt2_saved:.1f` million
parameters; for the tiny decoder $|V| \\times d =$ {glue:text}`ch5_tiny_saved:,`. That is no small
change: $\\mathbf{E}$ is {glue:text}`ch5_tiny_share:.0f`% of the tiny decoder's
{glue:text}`ch5_tiny_total:,` parameters, and {glue:text}`ch5_gpt2_share:.0f`% of the smallest
GPT-2's (about {glue:text}`ch5_gpt2_total_m:.0f` million in all).
:::

**4.** Which family fits each task? (a) find what every "it" in an article refers to; (b) continue
a story from its first sentence; (c) translate Chinese into English.

:::{dropdown} Solution
(a) Encoder-only (BERT-like): the vector of "it" must see the words on both sides. (b)
Decoder-only (GPT-like): predict one word at a time, looking only left. (c) Encoder–decoder
(T5-like): the encoder reads the source both ways, the decoder writes the translation word by
word.
:::

**5. (code)** How low must the temperature be for "big" to reach probability 0.5? Write a
function that finds, by bisection, the $\\tau$ at which `lib.softmax(u, temperature=tau)[3]`
equals 0.5. Hint: the smaller $\\tau$, the more probable "big".
""",
)

ch.code(
    """
def tau_for(target, u, lo=0.01, hi=1.0, steps=50):
    # TODO: bisection on tau. While p(token 3) is above `target`, tau can grow.
    return 1.0                                   # placeholder: replace with your answer

tau_half = tau_for(0.5, u)
hint = lib.tr(zh="在 lo 和 hi 的中點算機率：太高就把 lo 移上來，太低就把 hi 移下去。",
              en="Try the midpoint: too high, move lo up; too low, move hi down.")
lib.check(lib.softmax(u, temperature=tau_half)[3], 0.5, atol=1e-3, hint=hint)
"""
)

md(
    zh="""
:::{dropdown} 解答

```python
def tau_for(target, u, lo=0.01, hi=1.0, steps=50):
    for _ in range(steps):
        mid = (lo + hi) / 2
        if lib.softmax(u, temperature=mid)[3] > target:
            lo = mid          # 還太尖：溫度可以再高一點
        else:
            hi = mid
    return (lo + hi) / 2
```
答案約是 $\\tau \\approx$ {glue:text}`ch5_tau_half:.3f`：要讓「大」有一半的把握，
分數得放大約 {glue:text}`ch5_tau_gain:.1f` 倍。
:::

**6.（程式）** 用小解碼器算整句「獎盃放不進行李箱，因為它太大了」的平均交叉熵。對每個 $t$，
用 `lib.winograd.next_token_probs(big[:t], LANG)` 取得第 $t$ 個位置之後的機率分布，
取出正確下一個詞元的機率，平均 $-\\ln p$。自我檢查會和 `lib.winograd.surprisal`（以位元計）換算後比對。
""",
    en="""
:::{dropdown} Solution
```python
def tau_for(target, u, lo=0.01, hi=1.0, steps=50):
    for _ in range(steps):
        mid = (lo + hi) / 2
        if lib.softmax(u, temperature=mid)[3] > target:
            lo = mid          # still too peaked: tau can go up
        else:
            hi = mid
    return (lo + hi) / 2
```
The answer is about $\\tau \\approx$ {glue:text}`ch5_tau_half:.3f`: the scores must be scaled up
about {glue:text}`ch5_tau_gain:.1f` times before "big" is even odds.
:::

**6. (code)** Use the tiny decoder to compute the mean cross-entropy of the whole sentence "the
trophy doesn't fit into the suitcase because it is too big". For each $t$, get the distribution
after the first $t$ tokens with `lib.winograd.next_token_probs(big[:t], LANG)`, pick the
probability of the right next token, and average $-\\ln p$. The self-check compares your number
with `lib.winograd.surprisal` (in bits), converted.
""",
)

ch.hidden(
    """
def _tau_for(target, u, lo=0.01, hi=1.0, steps=60):
    for _ in range(steps):
        mid = (lo + hi) / 2
        if lib.softmax(u, temperature=mid)[3] > target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2

_tau = _tau_for(0.5, u)
assert abs(lib.softmax(u, temperature=_tau)[3] - 0.5) < 1e-6
lib.glue("ch5_tau_half", float(_tau))
lib.glue("ch5_tau_gain", float(1 / _tau));
"""
)

ch.code(
    """
def sentence_loss(tokens):
    losses = []
    for t in range(1, len(tokens)):
        vocab, probs = lib.winograd.next_token_probs(tokens[:t], LANG)
        # TODO: append -ln(probability of tokens[t]) to losses
    return float(np.mean(losses)) if losses else 0.0   # 0.0 until the loop appends

bits = [b for _, b in lib.winograd.surprisal(big, LANG)]
hint = lib.tr(zh="vocab.index(...) 找得到正確詞元在 probs 裡的位置；位元換成 nats 要乘 ln 2。",
              en="vocab.index(...) finds where the right token sits in probs; nats = bits × ln 2.")
lib.check(sentence_loss(big), np.mean(bits) * np.log(2), rtol=1e-4, hint=hint)
"""
)

md(
    zh="""
:::{dropdown} 解答

```python
def sentence_loss(tokens):
    losses = []
    for t in range(1, len(tokens)):
        vocab, probs = lib.winograd.next_token_probs(tokens[:t], LANG)
        losses.append(-np.log(probs[vocab.index(tokens[t])]))
    return float(np.mean(losses))
```
小解碼器在這一句上的平均交叉熵是 {glue:text}`ch5_sentence_loss:.3f` nats。第 6 章會把它取指數，變成困惑度。
:::
""",
    en="""
:::{dropdown} Solution
```python
def sentence_loss(tokens):
    losses = []
    for t in range(1, len(tokens)):
        vocab, probs = lib.winograd.next_token_probs(tokens[:t], LANG)
        losses.append(-np.log(probs[vocab.index(tokens[t])]))
    return float(np.mean(losses))
```
The tiny decoder's mean cross-entropy on this sentence is {glue:text}`ch5_sentence_loss:.3f`
nats. Chapter 6 takes its exponential and calls it perplexity.
:::
""",
)

ch.hidden(
    """
_ls = []
for _t in range(1, len(big)):
    _v, _p = lib.winograd.next_token_probs(big[:_t], LANG)
    _ls.append(-np.log(_p[list(_v).index(big[_t])]))
assert abs(np.mean(_ls) - np.mean([b for _, b in lib.winograd.surprisal(big, LANG)]) * np.log(2)) < 1e-4
lib.glue("ch5_sentence_loss", float(np.mean(_ls)));
"""
)

ch.write()
