"""Chapter 1: tokens and embeddings (both books)."""
from nbgen import Chapter

ch = Chapter("01-tokens-embeddings")

md = ch.md  # tools/nbgen.py joins wrapped Chinese lines


md(
    zh="""
# 1. 詞元與詞嵌入

電腦不認得字，只認得數字。所以 Transformer 的第一站只做兩件事：先把句子切成一小塊一小塊，
再替每一塊查出一串代表它的數字。
""",
    en="""
# 1. Tokens and embeddings

Computers do not read characters; they only handle numbers. So the first station of a Transformer
does just two things: it cuts the sentence into small pieces, and it looks up a list of numbers
for each piece.
""",
)

ch.bootstrap()

md(
    zh="""
**這一章你會學到：**

- 什麼是{term}`詞元 <詞元（token）>`，斷詞器怎麼把句子切成詞元，以及 BPE 怎麼從位元組一步步「學」出詞彙表；
- 詞嵌入矩陣 $\\mathbf{E}$ 是一本「座標辭典」，查表就等於 one-hot 向量乘上 $\\mathbf{E}$；
- 這張表是靜態的：「太大」與「太小」兩句裡的「它」拿到同一列；
- 切分並不中立：同樣的內容，中文和英文會被切成不一樣多的詞元。
""",
    en="""
**In this chapter you will learn:**

- what a {term}`token <token（詞元）>` is, how a tokenizer cuts a sentence into tokens, and how BPE "learns" a
  vocabulary from bytes, one merge at a time;
- that the embedding matrix $\\mathbf{E}$ is a "coordinate dictionary", and that looking a row up
  is the same as multiplying a one-hot vector by $\\mathbf{E}$;
- that the table is static: "it" gets the same row in "too big" and in "too small";
- that tokenization is not neutral: the same content costs a different number of tokens in
  Chinese and in English.
""",
)

ch.code(
    """
import inspect
from functools import partial
import numpy as np
import lib.figures.embeddings
"""
)

md(
    zh="""
## 比喻：一本座標辭典

想像一本很特別的辭典。查一個詞，它不給你解釋，而是給你一組座標，例如 $[0.2, 0.7, 0.5]$，
也就是空間裡的一個點。意思相近的詞，點也靠得近。

用這本辭典要兩個步驟：

1. **斷詞器**（tokenizer）先把句子切成辭典裡查得到的條目，再把每個條目換成編號；
2. **詞嵌入矩陣**（embedding matrix）就是辭典本身：第 $i$ 列是編號 $i$ 的座標。

這一章先做第一步，再做第二步。
""",
    en="""
## The analogy: a coordinate dictionary

Picture an unusual dictionary. Look up a word and it gives you no definition, only a set of
coordinates such as $[0.2, 0.7, 0.5]$: a point in space. Words with similar meanings sit close
together.

Using it takes two steps:

1. the **tokenizer** cuts the sentence into entries the dictionary has, and replaces each entry
   by its number;
2. the **embedding matrix** is the dictionary itself: row $i$ holds the coordinates of number
   $i$.

This chapter does the first step, then the second.
""",
)

md(
    zh="""
(def-token)=
## 詞元：模型眼中的「字」

**詞元**（token）是模型處理文字的最小單位。它可以是一個詞（「行李箱」）、一個字（「它」）、
一個詞的一部分（英文的 `ing`），甚至是一個字的一部分。**詞彙表**（vocabulary）$V$ 列出所有詞元，
每個詞元有一個從 0 開始的編號，詞彙表的大小寫成 $|V|$。

(def-tokenizer)=
### 斷詞器

**斷詞器**把一段文字變成詞元編號的序列 $\\mathbf{w} = [w_1, w_2, \\dots, w_N]$，$N$ 是詞元數。
最簡單的斷詞器是查字典：本書的小模型用的就是這種，每個詞一個編號。可是字典查不到的詞怎麼辦？
新詞、錯字、人名、表情符號……永遠列不完。現代的語言模型因此改用**子詞**（subword）：
常見的詞整個收進詞彙表，少見的詞拆成幾塊常見的片段，最差的情況退回單一位元組。
""",
    en="""
(def-token)=
## Tokens: the model's "characters"

A **token** is the smallest unit of text a model works with. It can be a word ("suitcase"), a
single character (「它」), part of a word (English `ing`), even part of a character. The
**vocabulary** $V$ lists every token; each token has a number counted from 0, and the size of the
vocabulary is written $|V|$.

(def-tokenizer)=
### The tokenizer

A **tokenizer** turns text into a sequence of token ids $\\mathbf{w} = [w_1, w_2, \\dots, w_N]$,
where $N$ is the number of tokens. The simplest tokenizer is a word list: the book's tiny models
use one, a number per word. But what about a word the list does not have? New words, typos,
names, emoji: the list never ends. Modern language models therefore use **subwords**: frequent
words enter the vocabulary whole, rare words are split into a few frequent pieces, and in the
worst case a word falls back to single bytes.
""",
)

md(
    zh="""
(def-bpe)=
### BPE：從位元組開始，一次合併一對

**位元組對編碼**（byte-pair encoding，BPE）{cite}`sennrich2016neural` 是最常見的子詞演算法。它的想法很樸素：

1. 從最小的片段開始。本書的版本從**位元組**開始：UTF-8 編碼下，一個英文字母是 1 個位元組，
   一個漢字是 3 個位元組。所以什麼文字都切得開，不會有「查不到」的詞元。
2. 數一數訓練文本裡，哪一對相鄰的片段出現最多次。
3. 把這一對黏成一個新詞元，加進詞彙表，然後回到第 2 步。

合併幾次，詞彙表就多幾個詞元。先看看一個漢字到底是幾個位元組：
""",
    en="""
(def-bpe)=
### BPE: start from bytes, merge one pair at a time

**Byte-pair encoding** (BPE) {cite}`sennrich2016neural` is the most common subword algorithm.
The idea is plain:

1. Start from the smallest pieces. The book's version starts from **bytes**: in UTF-8 a Latin
   letter is 1 byte and a Han character is 3 bytes. So any text can be cut, and there is never
   an "unknown" token.
2. Count which pair of neighbouring pieces occurs most often in the training text.
3. Glue that pair into a new token, add it to the vocabulary, and go back to step 2.

Each merge adds one token to the vocabulary. First, how many bytes is a Han character?
""",
)

ch.code(
    """
for text in ["它", "it", "獎盃", "trophy"]:
    b = text.encode("utf-8")
    print(f"{text!r:10} {len(b)} bytes: {list(b)}")
"""
)

ch.check(
    """
assert len("它".encode("utf-8")) == 3 and len("it".encode("utf-8")) == 2
"""
)

md(
    zh="""
我們在本書附的一小份**雙語平行文本**上訓練：每一行是同一句話的中文與英文，
前面幾行是本書的例句，其他是日常句子。留下最後幾對不給斷詞器看，稍後用來公平地比較中英文。
""",
    en="""
We train on the book's small **bilingual parallel text**: each line is the same sentence in
Chinese and in English; the first lines are the book's examples, the rest everyday sentences.
The last few pairs are kept away from the tokenizer, to compare the two languages fairly later.
""",
)

ch.code(
    """
pairs = lib.bpe.parallel_text("train")          # [(zh, en), ...]
heldout = lib.bpe.parallel_text("heldout")      # pairs the tokenizer never sees
for zh, en in pairs[:3]:
    print(zh, "|", en)
text = [zh for zh, en in pairs] + [en for zh, en in pairs]   # both halves
tok = lib.bpe.train_bpe(text, n_merges=200)
print(len(tok.merges), "merges; vocabulary size", tok.vocab_size)
"""
)

ch.glue(
    """
lib.glue("n_pairs", len(pairs))
lib.glue("n_heldout", len(heldout))
lib.glue("n_merges", len(tok.merges))
lib.glue("vocab_size", tok.vocab_size)
first = tok.merge_table(12)
lib.glue("merge0_left", first[0][0].replace(" ", "␣"))
lib.glue("merge0_right", first[0][1])
lib.glue("merge0_count", first[0][3])
"""
)

ch.check(
    """
assert tok.vocab_size == 256 + len(tok.merges) == 456
assert all(tok.decode(tok.encode(s)) == s for pair in pairs for s in pair)
"""
)

md(
    zh="""
在 {glue:text}`n_pairs` 對句子上合併 {glue:text}`n_merges` 次之後，詞彙表從 256 個位元組長到 {glue:text}`vocab_size` 個詞元。
下面是最先學到的 12 次合併。第一次合併的是「{glue:text}`merge0_left`」加上「{glue:text}`merge0_right`」
（共出現 {glue:text}`merge0_count` 次，␣ 代表空格）：英文有很多以 t 開頭的詞（the、trophy、too……），前面都有空格。
`<e4>` 這樣的寫法是**不完整的漢字**：它是某個字 UTF-8 編碼的第一個位元組，很多常用字的第一個位元組相同，所以很早就被合併了。
位元組層級的 BPE 根本不知道「字」在哪裡結束。
""",
    en="""
After {glue:text}`n_merges` merges on {glue:text}`n_pairs` sentence pairs the vocabulary has
grown from 256 bytes to {glue:text}`vocab_size` tokens. Below are the first 12 merges. The very first glues
"{glue:text}`merge0_left`" to "{glue:text}`merge0_right`" ({glue:text}`merge0_count` times;
␣ stands for a space): English has many words starting with t (the, trophy, too …), each with a space before it.
A piece written like `<e4>` is **part of a Han character**: the first byte of its UTF-8 code.
Many common characters share a first byte, so such pairs merge early. A byte-level BPE has no
idea where a character ends.
""",
)

ch.code(
    """
for k, (left, right, merged, count) in enumerate(tok.merge_table(12)):
    print(f"{k:2d}: {left!r:10} + {right!r:8} -> {merged!r:14} ({count} times)")
"""
)

md(
    zh="""
訓練的核心只有十幾行：數每一對相鄰片段（每個片段塊出現幾次就算幾次）、挑最多的那一對、把它黏起來。
合併不會跨過空格或標點：文字會先切成英文單字、連續的漢字、數字和標點，合併只在每一塊裡面發生。
""",
    en="""
The heart of training is a dozen lines: count every neighbouring pair (weighted by how often its
chunk occurs), pick the most frequent, glue it. Merges never cross a space or punctuation: the
text is first cut into English words, runs of Han characters, digits and punctuation, and merges
happen only inside each chunk.
""",
)

ch.code("print(inspect.getsource(lib.bpe.train_bpe))")

md(
    zh="""
現在把例句切成詞元。每一塊換成一個編號，這一串編號 $\\mathbf{w}$ 就是模型真正讀到的東西：
""",
    en="""
Now cut the running example into tokens. Each piece becomes one id; this list of ids
$\\mathbf{w}$ is what the model actually reads:
""",
)

ch.code(
    """
zh, en = pairs[0]
ids_zh, ids_en = tok.encode(zh), tok.encode(en)
print(ids_zh)
print(ids_en)
print(tok.decode(ids_zh), "|", tok.decode(ids_en))
"""
)

ch.check(
    """
assert {"放不進", "行李箱", " suitcase", " because"} <= set(tok.pieces(zh) + tok.pieces(en))
assert "獎盃" not in tok.pieces(zh) and "獎" not in tok.pieces(zh)
assert "因為它太" in tok.pieces(zh)                   # a chunk is a run of Han characters
"""
)

ch.glue(
    """
lib.glue("n_tok_zh", len(ids_zh))
lib.glue("n_tok_en", len(ids_en))
"""
)

ch.code(
    """
rows = [(lib.tr(zh="中文", en="Chinese"), tok.pieces(zh)),
        (lib.tr(zh="英文", en="English"), tok.pieces(en))]
lib.figures.embeddings.plot_tokens(rows);
"""
)

md(
    zh="""
中文句子切成 {glue:text}`n_tok_zh` 個詞元，英文句子 {glue:text}`n_tok_en` 個（· 代表空格）。
例句的片段在訓練文本裡出現過好幾次（「太大」「太小」兩句，還有其他「放不進」的句子），所以「放不進」、「行李箱」這些片段整塊進了詞彙表；
英文的 ` suitcase`、` because` 也是一整個詞元。「獎盃」出現的次數還不夠多，仍然碎成位元組片段。
中文不用空格分詞，一串連續的漢字就是一塊，所以合併會跨過詞的界線：「因為它太」也成了一個詞元。
換成一句斷詞器沒看過的句子，切得就碎得多，等一下比較中英文時會看到。

這些詞元是一次一次合併出來的。拉動滑桿，從 0 次合併（純位元組）看到 {glue:text}`n_merges` 次：
""",
    en="""
The Chinese sentence becomes {glue:text}`n_tok_zh` tokens, the English one
{glue:text}`n_tok_en` (· marks a space). Pieces of the running example occur several times in
the training text (both sentences of the pair, and other "doesn't fit" sentences), so pieces like 「放不進」 and 「行李箱」 entered the vocabulary whole, as did
English ` suitcase` and ` because`. 「獎盃」 (trophy) is not frequent enough yet and still falls
apart into byte pieces. Chinese puts no spaces between words, so a whole run of Han characters is
one chunk and merges cross word boundaries: 「因為它太」 ("because it too") became one token. A sentence the tokenizer never saw is cut much finer, as the
comparison of the two languages will show.

These tokens were built one merge at a time. Move the slider from 0 merges (bare bytes) to
{glue:text}`n_merges`:
""",
)

ch.code(
    """
sentences = [(lib.tr(zh="中文", en="Chinese"), zh),
             (lib.tr(zh="英文", en="English"), en)]
draw = partial(lib.figures.embeddings.plot_merges_frame, tok, sentences)
steps = [0, 10, 30, 60, 100, 200]
lib.widgets.frames_widget(draw, {"n_merges": steps},
                          labels={"n_merges": lib.tr(zh="合併次數", en="merges")})
"""
)

ch.check(
    """
assert len(tok.truncated(0).encode(zh)) == len(zh.encode("utf-8"))
assert tok.truncated(steps[-1]).encode(zh) == ids_zh
"""
)

ch.glue(
    """
lib.glue("bytes_zh_sentence", len(zh.encode("utf-8")))
lib.glue("bytes_en_sentence", len(en.encode("utf-8")))
"""
)

md(
    zh="""
0 次合併時，每個位元組都是一個詞元：中文句子 {glue:text}`bytes_zh_sentence` 個、英文句子 {glue:text}`bytes_en_sentence` 個。
英文的常見片段和標點最先成形；漢字要等它的位元組組合出現得夠多次，才會黏成完整的字，甚至整個詞。
""",
    en="""
With 0 merges every byte is a token: {glue:text}`bytes_zh_sentence` for the Chinese sentence,
{glue:text}`bytes_en_sentence` for the English one. Frequent English pieces and punctuation merge
first; a Han character has to wait until its bytes have occurred together often enough to be
glued into a whole character, or even a whole word.
""",
)

md(
    zh=r"""
(def-embedding)=
## 詞嵌入矩陣：辭典本身

有了編號，接著查座標。**詞嵌入矩陣** $\mathbf{E}$ 的形狀是 $[|V| \times d]$：每個詞元一列，
每列 $d$ 個數，$d$ 叫做模型的寬度。編號 $w_i$ 的詞元，它的**詞嵌入**就是 $\mathbf{E}$ 的第 $w_i$ 列：

$$
\mathbf{x}_i = \mathbf{E}[w_i] \in \mathbb{R}^{d}.
$$

這些數字一開始是隨機的，訓練時和模型其他參數一起被調整。真正的模型 $|V|$ 常有五萬以上、$d$ 有幾百到幾千；
這裡為了能手算，只取 4 個詞元、$d = 3$：
""",
    en=r"""
(def-embedding)=
## The embedding matrix: the dictionary itself

With ids in hand, we look up coordinates. The **embedding matrix** $\mathbf{E}$ has shape
$[|V| \times d]$: one row per token, $d$ numbers per row, where $d$ is the model's width. The
**embedding** of the token with id $w_i$ is row $w_i$ of $\mathbf{E}$:

$$
\mathbf{x}_i = \mathbf{E}[w_i] \in \mathbb{R}^{d}.
$$

The numbers start random and are trained together with the rest of the model. Real models have
$|V|$ of fifty thousand or more and $d$ of hundreds to thousands; to compute by hand we take
4 tokens and $d = 3$:
""",
)

ch.code(
    """
tokens = [lib.tr(zh="獎盃", en="trophy"), lib.tr(zh="行李箱", en="suitcase"),
          lib.tr(zh="它", en="it"), lib.tr(zh="大", en="big")]          # ids 0-3
E = np.array([[0.9, 0.1, 0.4],            # 0 獎盃 trophy
              [0.3, 0.8, 0.6],            # 1 行李箱 suitcase
              [0.2, 0.7, 0.5],            # 2 它 it
              [0.7, 0.4, 0.7]])           # 3 大 big      E: [|V|, d] = [4, 3]
lib.figures.embeddings.plot_coordinate_dictionary(E, tokens, highlight=2);
"""
)

md(
    zh=r"""
(def-one-hot)=
### 查表就是乘上 one-hot 向量

「查第 $w$ 列」也可以寫成矩陣乘法。**one-hot 向量**是一個長度 $|V|$ 的列向量，只有第 $w$ 格是 1，其餘都是 0：

$$
\operatorname{onehot}(w)_j = \begin{cases} 1 & j = w \\ 0 & \text{否則} \end{cases}
\qquad
\mathbf{x}_i = \operatorname{onehot}(w_i)\,\mathbf{E}.
$$

一整句一起算，就是 $[N \times |V|]$ 的 one-hot 矩陣乘上 $[|V| \times d]$ 的 $\mathbf{E}$，得到 $[N \times d]$ 的 $\mathbf{X}$。
乘法裡，one-hot 向量的 0 把其他列全部乘掉，只留下 1 對上的那一列。

**算算看。**「它」的編號是 2。編號從 0 開始數，所以 one-hot 向量是 $[0, 0, 1, 0]$：
那個 1 在第 3 格，對上的是由上往下數的**第 3 列**，也就是「它」，不是第 2 列的「行李箱」。
""",
    en=r"""
(def-one-hot)=
### Looking up is multiplying by a one-hot vector

"Take row $w$" can also be written as a matrix product. A **one-hot vector** is a row vector of
length $|V|$ with a 1 in place $w$ and 0 everywhere else:

$$
\operatorname{onehot}(w)_j = \begin{cases} 1 & j = w \\ 0 & \text{otherwise} \end{cases}
\qquad
\mathbf{x}_i = \operatorname{onehot}(w_i)\,\mathbf{E}.
$$

For a whole sentence, an $[N \times |V|]$ one-hot matrix times the $[|V| \times d]$ matrix
$\mathbf{E}$ gives the $[N \times d]$ matrix $\mathbf{X}$. In the product, the zeros of the
one-hot vector wipe out every other row and keep only the row the 1 points at.

**Work it out.** 「它」 ("it") has id 2. Ids count from 0, so its one-hot vector is
$[0, 0, 1, 0]$: the 1 sits in the third place and picks the **third row** from the top, which
is 「它」, not the second row, 「行李箱」 (suitcase).
""",
)

ch.code(
    """
oh = lib.one_hot(2, len(tokens))    # [|V|]
print("one-hot:", oh)
print("one-hot @ E:", oh @ E)       # [d]
print("embed(2, E):", lib.embed(2, E))
"""
)

ch.check(
    """
assert np.array_equal(oh, [0, 0, 1, 0])
assert np.allclose(oh @ E, [0.2, 0.7, 0.5])
assert np.allclose(lib.embed(2, E), E[2]) and not np.allclose(lib.embed(2, E), E[1])
assert np.allclose(lib.one_hot([0, 2, 3], 4) @ E, lib.embed([0, 2, 3], E))
"""
)

ch.glue(
    """
x_it = lib.embed(2, E)
lib.glue("x_it", "[" + ", ".join(f"{v:.1f}" for v in x_it) + "]")
lib.glue("x_suitcase", "[" + ", ".join(f"{v:.1f}" for v in E[1]) + "]")
"""
)

ch.code("lib.figures.embeddings.plot_lookup(E, tokens, 2);")

md(
    zh="""
兩種寫法得到同一列 {glue:text}`x_it`；若是誤取第 2 列，拿到的會是「行李箱」的 {glue:text}`x_suitcase`。
實作時沒有人真的去乘 one-hot 矩陣（那是一大堆乘以 0），`lib.embed` 直接取列；
one-hot 的寫法則點出一件事：查表是一個**線性**運算，所以 $\\mathbf{E}$ 可以和其他權重一樣用梯度來訓練。
函式庫先檢查編號有沒有超出詞彙表，再取列：
""",
    en="""
Both ways give the same row, {glue:text}`x_it`; taking the second row by mistake would give the
suitcase's {glue:text}`x_suitcase`. In practice nobody multiplies by a one-hot matrix (that is
mostly multiplying by 0): `lib.embed` just takes the rows. The one-hot form says something
useful, though: the lookup is a **linear** operation, so $\\mathbf{E}$ is trained by gradients
like any other weight. The library checks that every id lies inside the vocabulary, then takes
the rows:
""",
)

ch.code("print(inspect.getsource(lib.embed))")

md(
    zh="""
## 限制：這張表是靜態的

回到本書的例句。「獎盃放不進行李箱，因為它太大了」和「……因為它太小了」裡的「它」，
在 4 個詞元的小詞彙表裡都是編號 2，查出來都是 {glue:text}`x_it`。不論 $\\mathbf{E}$ 裡填的是什麼數字，
同一個編號永遠查到同一列。下面換成本書小模型真正使用的詞彙表（{glue:text}`corpus_vocab` 個詞元，每個詞一個），
再隨便填一張表，結果一樣：
""",
    en="""
## The limit: the table is static

Back to the book's running pair. In "The trophy doesn't fit into the suitcase because it is too
big" and "… too small", "it" has the same id, and in our four-token vocabulary both get
{glue:text}`x_it`. Whatever numbers $\\mathbf{E}$ holds, the same id always finds the same row.
Below we switch to the vocabulary the book's tiny models really use
({glue:text}`corpus_vocab` tokens, one per word), fill a table with arbitrary numbers, and get the same result:
""",
)

ch.code(
    """
big, small = lib.corpus.canonical_pair(LANG)   # the running pair, as words
ids_big = lib.corpus.encode(big, LANG)           # [N]
ids_small = lib.corpus.encode(small, LANG)       # [N]
print(list(zip(big, ids_big.tolist())))
print(list(zip(small, ids_small.tolist())))

rng = np.random.default_rng(0)
E_any = rng.normal(size=(lib.corpus.vocab_size(), 3))   # any table: [|V|, 3]
X_big = lib.embed(ids_big, E_any)                       # [N, 3]
X_small = lib.embed(ids_small, E_any)                   # [N, 3]
i = lib.corpus.pronoun_index(big, LANG)
print("it/它 in 'big':  ", X_big[i].round(3))
print("it/它 in 'small':", X_small[i].round(3))
"""
)

ch.check(
    """
assert np.array_equal(X_big[i], X_small[i])
assert (X_big != X_small).any(axis=1).sum() == 1          # only 大/小 differs
"""
)

ch.glue(
    """
lib.glue("corpus_vocab", int(lib.corpus.vocab_size()))
"""
)

md(
    zh="""
兩個「它」拿到一模一樣的向量，整句只有「大／小」那一列不同。詞嵌入本身不知道「它」指的是誰：
這正是 word2vec 這類**靜態詞向量**的問題，一個詞不論出現在哪裡，都只有一個向量。
後面幾章的注意力，就是要依照語境把這個向量推往對的方向；第 5 章會量出兩個「它」最後被推開了多少。

## 切分並不中立

斷詞器是從訓練文本學來的，所以它偏向它看過的東西。書寫系統和構詞方式不同的語言，同樣的內容可能被切成數量差很多的詞元。
這不只是數字好不好看：API 按詞元計費，模型一次能讀的上下文也以詞元計，
切得碎的語言**付得多、讀得少** {cite}`petrov2023tokenizers`。

我們自己量一次。拿斷詞器沒看過的 {glue:text}`n_heldout` 對句子，數中文和英文各被切成幾個詞元。
除了上面那個中英文各半訓練的斷詞器，再用同樣的合併次數訓練兩個：一個只看英文、一個只看中文。
""",
    en="""
Both "it"s get exactly the same vector; in the whole sentence only the row of big/small differs.
The embedding alone cannot know what "it" refers to. This is the problem of **static word
vectors** such as word2vec: a word has one vector wherever it occurs. Attention, in the coming
chapters, pushes that vector in the right direction according to the context; chapter 5 measures
how far apart the two "it"s end up.

## Tokenization is not neutral

A tokenizer is learned from its training text, so it favours what it has seen. Languages with
different writing systems and word structure can cut the same content into very different
numbers of tokens. That is more than a curiosity: APIs charge per token and a model's context is
measured in tokens, so a language that is cut finer **pays more and reads less**
{cite}`petrov2023tokenizers`.

Let us measure it ourselves. Take the {glue:text}`n_heldout` sentence pairs the tokenizer never
saw and count the tokens of the Chinese and of the English half. Besides the tokenizer above,
trained on both halves, train two more with the same number of merges: one on English only and
one on Chinese only.
""",
)

ch.code(
    """
held_zh = [zh for zh, en in heldout]
held_en = [en for zh, en in heldout]

def count(tokenizer, sentences):
    return sum(len(tokenizer.encode(s)) for s in sentences)

train_zh = [zh for zh, en in pairs]
train_en = [en for zh, en in pairs]
tokenizers = {
    lib.tr(zh="只學英文", en="English only"): lib.bpe.train_bpe(train_en, 200),
    lib.tr(zh="中英各半", en="both halves"): tok,
    lib.tr(zh="只學中文", en="Chinese only"): lib.bpe.train_bpe(train_zh, 200),
}
counts = {name: (count(t, held_zh), count(t, held_en))
          for name, t in tokenizers.items()}
chars = (sum(map(len, held_zh)), sum(map(len, held_en)))
for name, (n_zh, n_en) in counts.items():
    print(f"{name:14} zh {n_zh:4d}  en {n_en:4d}  zh/en = {n_zh / n_en:.2f}")
print("characters     zh", chars[0], " en", chars[1])
"""
)

ch.glue(
    """
(c_en_only, c_both, c_zh_only) = counts.values()
lib.glue("cnt_both_zh", c_both[0]); lib.glue("cnt_both_en", c_both[1])
lib.glue("cnt_enonly_zh", c_en_only[0]); lib.glue("cnt_enonly_en", c_en_only[1])
lib.glue("cnt_zhonly_zh", c_zh_only[0]); lib.glue("cnt_zhonly_en", c_zh_only[1])
lib.glue("ratio_enonly", c_en_only[0] / c_en_only[1])
lib.glue("ratio_zhonly", c_zh_only[1] / c_zh_only[0])
lib.glue("ratio_both", c_both[0] / c_both[1])
lib.glue("held_chars_zh", chars[0]); lib.glue("held_chars_en", chars[1])
seen = set("".join(zh for zh, en in pairs))
lib.glue("unseen_chars", sum(c not in seen for c in "".join(held_zh)))
lib.glue("bytes_zh", sum(len(s.encode("utf-8")) for s in held_zh))
"""
)

ch.check(
    """
assert c_en_only[0] == sum(len(s.encode("utf-8")) for s in held_zh)   # no Chinese merges: bytes
assert c_en_only[0] == 3 * chars[0]          # every character of the Chinese half is 3 bytes
assert c_en_only[0] / c_en_only[1] > 1.3 and c_zh_only[1] / c_zh_only[0] > 1.3
assert abs(c_both[0] / c_both[1] - 1) < 0.3
"""
)

ch.code(
    "lib.figures.embeddings.plot_token_counts(counts, chars=chars);"
)

md(
    zh="""
同樣的內容，中文是 {glue:text}`held_chars_zh` 個字元（含全形標點），英文是 {glue:text}`held_chars_en` 個字元（字母、空格和標點）。詞元數則完全取決於斷詞器看過什麼：

- **只學英文**的斷詞器沒學到任何中文片段，每個漢字和全形標點都退回 3 個位元組（共 {glue:text}`bytes_zh` 個位元組）：中文要 {glue:text}`cnt_enonly_zh` 個詞元，
  英文只要 {glue:text}`cnt_enonly_en` 個，中文的成本是英文的 {glue:text}`ratio_enonly:.2f` 倍。
  大型模型的斷詞器多半以英文為主，Petrov 等人在許多語言上量到的就是這種差距。
- **只學中文**的斷詞器反過來：中文 {glue:text}`cnt_zhonly_zh` 個、英文 {glue:text}`cnt_zhonly_en` 個，英文的成本是中文的 {glue:text}`ratio_zhonly:.2f` 倍。
- **中英各半**時，中文 {glue:text}`cnt_both_zh` 個、英文 {glue:text}`cnt_both_en` 個，比值 {glue:text}`ratio_both:.2f`。
  但即使如此，留下來的句子裡還有 {glue:text}`unseen_chars` 個漢字從沒在訓練文本出現過，
  它們仍然只能切成位元組碎片：漢字有好幾千個，英文字母只有 26 個，小小的訓練文本蓋不住中文。

所以同一個模型，換一種語言，成本和能讀的長度就變了。第 6 章比較困惑度時還會再遇到這個問題：
詞元不同，逐詞元的數字就不能直接比。
""",
    en="""
The same content is {glue:text}`held_chars_zh` characters in Chinese (full-width punctuation
included) and {glue:text}`held_chars_en` characters in English (letters, spaces and punctuation).
The number of tokens depends entirely on what the tokenizer has seen:

- The **English-only** tokenizer learned no Chinese pieces, so every Han character and full-width
  punctuation mark falls back to its 3 bytes ({glue:text}`bytes_zh` bytes in all): Chinese takes {glue:text}`cnt_enonly_zh` tokens, English only
  {glue:text}`cnt_enonly_en`; Chinese costs {glue:text}`ratio_enonly:.2f` times as much. The
  tokenizers of large models are mostly English-heavy; this is the kind of gap Petrov et al.
  measured across many languages.
- The **Chinese-only** tokenizer turns it round: {glue:text}`cnt_zhonly_zh` tokens for Chinese,
  {glue:text}`cnt_zhonly_en` for English, which pays {glue:text}`ratio_zhonly:.2f` times as much.
- Trained on **both halves**, Chinese takes {glue:text}`cnt_both_zh` tokens and English
  {glue:text}`cnt_both_en`, a ratio of {glue:text}`ratio_both:.2f`. Even so, the held-out
  sentences contain {glue:text}`unseen_chars` Han characters that never occur in the training
  text, and each still falls apart into byte pieces: Chinese has thousands of characters, English 26
  letters, and a small training text cannot cover Chinese.

So the same model, in another language, costs a different amount and reads a different length.
Chapter 6 meets this again when comparing perplexities: with different tokens, per-token numbers
cannot be compared directly.
""",
)

md(
    zh="""
## 小結

- 斷詞器把文字切成詞元，再換成編號 $\\mathbf{w}$。位元組層級的 BPE 從 256 個位元組出發，
  反覆把最常見的相鄰一對合併成新詞元，任何文字都切得開。
- 詞嵌入矩陣 $\\mathbf{E}$（$[|V| \\times d]$）是一本座標辭典：$\\mathbf{x}_i = \\mathbf{E}[w_i] = \\operatorname{onehot}(w_i)\\,\\mathbf{E}$。
  「它」的編號 2 對上第 3 列 {glue:text}`x_it`。
- 這張表是靜態的：兩個例句的「它」拿到同一列，要靠後面的注意力依語境改寫。
- 切分並不中立：同樣的內容，詞元數取決於斷詞器看過哪種語言。

下一章替每個詞元別上座位號碼：光有詞還不夠，「狗咬人」和「人咬狗」用的是同樣三個詞。
""",
    en="""
## Summary

- A tokenizer cuts text into tokens and turns them into ids $\\mathbf{w}$. Byte-level BPE starts
  from the 256 bytes and repeatedly merges the most frequent neighbouring pair into a new token;
  it can cut any text.
- The embedding matrix $\\mathbf{E}$ ($[|V| \\times d]$) is a coordinate dictionary:
  $\\mathbf{x}_i = \\mathbf{E}[w_i] = \\operatorname{onehot}(w_i)\\,\\mathbf{E}$. Id 2 of 「它」
  picks the third row, {glue:text}`x_it`.
- The table is static: "it" gets the same row in both sentences of the pair; attention must
  rewrite it according to the context.
- Tokenization is not neutral: the token count of the same content depends on which language the
  tokenizer has seen.

The next chapter pins a seat number on every token: words alone are not enough, since "dog bites
man" and "man bites dog" use the same three words.
""",
)

ch.glue(
    """
lib.glue("ex_params", 50_000 * 768)
tok400 = lib.bpe.train_bpe(text, n_merges=400)          # exercise 3's answer
for n, t in ((20, tok.truncated(20)), (400, tok400)):   # truncated(20) = 20 merges
    lib.glue(f"ex3_{n}_zh", len(t.encode(zh)))
    lib.glue(f"ex3_{n}_en", len(t.encode(en)))
lib.glue("ex3_held_200", count(tok, held_zh))
lib.glue("ex3_held_400", count(tok400, held_zh))
"""
)

ch.check(
    """
assert len(tok400.encode(zh)) < len(ids_zh) < len(tok.truncated(20).encode(zh))
assert len(tok400.encode(zh)) / len(ids_zh) < 0.5 < count(tok400, held_zh) / count(tok, held_zh)
"""
)

md(
    zh="""
## 練習

**1.** 沿用上面 4 個詞元的 $\\mathbf{E}$。$\\operatorname{onehot}(1)\\,\\mathbf{E}$ 等於多少？它是哪個詞元的向量？

:::{dropdown} 解答
one-hot 向量是 $[0, 1, 0, 0]$，1 在第 2 格，取出第 2 列 {glue:text}`x_suitcase`，也就是「行李箱」（編號 1）。
:::

**2.**（程式）不用 `lib.embed`，自己用 one-hot 矩陣算出句子「獎盃 它 大」（編號 `[0, 2, 3]`）的 $\\mathbf{X}$，
形狀應為 $[3 \\times 3]$。改寫下面那格的 `X`，再執行檢查。
""",
    en="""
## Exercises

**1.** With the four-token $\\mathbf{E}$ above, what is $\\operatorname{onehot}(1)\\,\\mathbf{E}$?
Whose vector is it?

:::{dropdown} Solution
The one-hot vector is $[0, 1, 0, 0]$; its 1 sits in the second place and takes the second row,
{glue:text}`x_suitcase`: the suitcase, id 1.
:::

**2.** (Code) Without `lib.embed`, compute $\\mathbf{X}$ for the sentence "trophy it big" (ids
`[0, 2, 3]`) yourself with a one-hot matrix; its shape should be $[3 \\times 3]$. Change `X` in
the cell below, then run the check.
""",
)

ch.code(
    """
ids = [0, 2, 3]
X = np.zeros((3, 3))   # TODO: one-hot matrix [N, |V|] times E
hint = lib.tr(zh="提示：np.eye(4)[ids] 就是 one-hot 矩陣。",
              en="Hint: np.eye(4)[ids] is the one-hot matrix.")
lib.check(X, lib.embed(ids, E), hint=hint);
"""
)

md(
    zh="""
:::{dropdown} 解答
```python
X = np.eye(4)[ids] @ E     # 或 lib.one_hot(ids, 4) @ E
```
`np.eye(4)` 是 $4 \\times 4$ 的單位矩陣，它的第 $w$ 列正好是 $\\operatorname{onehot}(w)$。
:::

**3.**（程式）把上面的 BPE 改成合併 20 次和 400 次，例句的中文和英文各被切成幾個詞元？
為什麼合併 400 次時，例句的中文會切得那麼少？那個數字能代表斷詞器在新句子上的表現嗎？

:::{dropdown} 解答
```python
for n in (20, 400):
    t = lib.bpe.train_bpe(text, n_merges=n)
    print(n, len(t.encode(zh)), len(t.encode(en)))
```
合併 20 次：中文 {glue:text}`ex3_20_zh` 個、英文 {glue:text}`ex3_20_en` 個詞元；合併 400 次：中文 {glue:text}`ex3_400_zh` 個、英文 {glue:text}`ex3_400_en` 個。
合併越多，詞元越長、越少。合併 400 次時，例句的片段在訓練文本裡重複得夠多（兩句例句，加上其他「放不進」的句子），幾乎被整段「背」進詞彙表，
所以切得特別少。但這是在訓練文本上量的，不能代表沒看過的句子：留下來的中文句子從 200 次合併的 {glue:text}`ex3_held_200` 個詞元，
到 400 次也還有 {glue:text}`ex3_held_400` 個。公平的比較要像正文那樣，用留下來的句子。
:::

**4.** 位元組層級的斷詞器為什麼永遠不需要「未知詞元」（`<unk>`）？只以「字」為單位的斷詞器，遇到沒看過的字會怎樣？

:::{dropdown} 解答
任何文字的 UTF-8 編碼都是位元組，而 256 個位元組本來就全在詞彙表裡，最差的情況就是每個位元組一個詞元。
以字為單位的斷詞器只認得訓練時看過的字，沒看過的字只能換成 `<unk>`，那個字的資訊就丟掉了。
:::

**5.** 一個模型的詞彙表有 50,000 個詞元、寬度 $d = 768$。它的詞嵌入矩陣有幾個參數？

:::{dropdown} 解答
$|V| \\times d = 50{,}000 \\times 768 =$ {glue:text}`ex_params:,` 個參數，光是這一張表就有這麼多數字。
第 5 章會看到，語言模型頭常常和它共用同一張表（權重共享）。
:::
""",
    en="""
:::{dropdown} Solution
```python
X = np.eye(4)[ids] @ E     # or lib.one_hot(ids, 4) @ E
```
`np.eye(4)` is the $4 \\times 4$ identity matrix; its row $w$ is exactly
$\\operatorname{onehot}(w)$.
:::

**3.** (Code) Retrain the BPE above with 20 and with 400 merges. Into how many tokens are the
Chinese and the English sentence of the running example cut? Why is the Chinese so short with
400 merges? Does that number tell you how the tokenizer does on new sentences?

:::{dropdown} Solution
```python
for n in (20, 400):
    t = lib.bpe.train_bpe(text, n_merges=n)
    print(n, len(t.encode(zh)), len(t.encode(en)))
```
With 20 merges: {glue:text}`ex3_20_zh` tokens for the Chinese, {glue:text}`ex3_20_en` for the
English; with 400: {glue:text}`ex3_400_zh` and {glue:text}`ex3_400_en`. More merges make tokens
longer and fewer. With 400 merges the running example, whose pieces recur in the training text
(both sentences of the pair, and other "doesn't fit" sentences), is almost "memorised" into the
vocabulary, so it is cut into very few tokens. But that is measured on training text and says
little about unseen sentences: the held-out Chinese sentences take {glue:text}`ex3_held_200`
tokens with 200 merges and still {glue:text}`ex3_held_400` with 400. A fair comparison uses the
held-out sentences, as in the text.
:::

**4.** Why does a byte-level tokenizer never need an "unknown" token (`<unk>`)? What does a
tokenizer whose units are whole characters do with a character it never saw?

:::{dropdown} Solution
Every text is bytes in UTF-8, and all 256 bytes are in the vocabulary from the start: at worst,
each byte is one token. A character-level tokenizer knows only the characters it saw in
training; an unseen character becomes `<unk>` and its information is lost.
:::

**5.** A model has a vocabulary of 50,000 tokens and width $d = 768$. How many parameters does
its embedding matrix hold?

:::{dropdown} Solution
$|V| \\times d = 50{,}000 \\times 768 =$ {glue:text}`ex_params:,` parameters, all of them in a
single table. Chapter 5 shows that the language-model head often shares this very
table (weight tying).
:::
""",
)

ch.write()
