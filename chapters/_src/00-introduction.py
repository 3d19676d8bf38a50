"""Chapter 0: the introduction (both books)."""
from nbgen import Chapter

ch = Chapter("00-introduction")

ch.md(
    zh="""
# 0. 導讀

Transformer 想解決的問題其實只有一個：**同一個詞，放進不同的句子，應該得到不同的向量。**
這本書從這個問題出發，一站一站走完一個 Transformer：先用一個生活裡的比喻說清楚直覺，再寫出式子，
最後用程式把式子算一遍。書裡出現的每個數字都是程式算出來的，每張互動圖都會跟著滑桿或按鈕改變。
""",
    en="""
# 0. Introduction

A Transformer exists to solve one problem: **the same word, placed in different sentences, should
get different vectors.** This book starts from that problem and walks through a Transformer one
station at a time: first an everyday analogy for the intuition, then the formula, then code that
computes the formula. Every number in the text is computed by the code, and every interactive
figure follows its sliders and buttons.
""",
)

ch.bootstrap()

ch.md(
    zh="""
上面收合起來的那一格（點一下就能展開）是每一章的第一格程式：它找到本書的程式庫 `lib`（在 Colab 上會自動下載），設定語言、
中文字型與亂數種子。之後每一章都只呼叫 `lib` 裡的函式，不在筆記本裡重寫公式。

## 五站路線圖

整個流程可以一句話說完：**{term}`詞元 <詞元（token）>`先查出{term}`詞嵌入 <詞嵌入（embedding）>`，加上{term}`位置嵌入 <位置嵌入（position embedding）>`，再經過 $L$ 個 Transformer 區塊逐層改寫，
最後由{term}`語言模型頭 <語言模型頭（language model head）>`給出下一個詞元的機率分布。** 下圖是本書的地圖，每一站對應一到兩章。
""",
    en="""
The folded cell above (click to unfold it) is the first code cell of every chapter: it finds the book's library `lib`
(downloading it on Colab), and sets the language, the font for Chinese labels and the random
seeds. From here on, chapters only call functions from `lib`; no notebook rewrites a formula.

## The map: five stations

The whole pipeline fits in one sentence: **{term}`tokens <token（詞元）>` look up their {term}`embeddings <embedding（詞嵌入）>`,
{term}`position embeddings <position embedding（位置嵌入）>` are added, $L$ Transformer blocks
rewrite the vectors layer by layer, and the {term}`language-model head <language model head（語言模型頭）>`
turns the last vector into a probability distribution over the next token.** The figure below is
the map of this book; each station gets one or two chapters.
""",
)

ch.code("lib.figures.intro.plot_pipeline();")

ch.md(
    zh="""
真正的「理解」發生在第④站（圖中上色的那一格）。前三站只是把字變成數字、標上座位、讓每個詞聽聽鄰座的意見；第⑤站只是把數字換回詞。

| 站 | 章 | 一句話 |
|---|---|---|
| ① | [第 1 章：詞元與詞嵌入](01-tokens-embeddings.ipynb) | 把句子切塊，每塊查出一列座標 |
| ② | [第 2 章：位置嵌入](02-positions.ipynb) | 替每個詞別上座位號碼 |
| ③ | [第 3 章：自注意力](03-self-attention.ipynb) | 每個詞依相似度混入其他詞的意思 |
| ④ | [第 4 章：多頭注意力與區塊](04-multi-head-block.ipynb) | 多位「審稿人」並行，疊上 $L$ 層 |
| ⑤ | [第 5 章：上下文詞向量與語言模型頭](05-contextual-lm-head.ipynb) | 讀過上下文的向量 → 下一個詞的機率 |
| | [第 6 章：評估](06-evaluation.ipynb) | 困惑度：模型每一步在幾個詞之間猶豫 |
| | [第 7 章：語言學回望與小結](07-looking-back.ipynb) | 注意力熱圖、驚奇度與一句話小結 |

(def-winograd)=
## 貫穿全書的例句

全書反覆回到同一組句子：

> 獎盃放不進行李箱，因為**它**太**大**了。
>
> 獎盃放不進行李箱，因為**它**太**小**了。

只差一個字，「它」就從獎盃改指行李箱。這種只差一詞、指涉就翻轉的句對，稱為 **Winograd 結構**
（Winograd schema）{cite}`levesque2012winograd`：要答對，不能只看「它」附近的字，而得用上整句的意思。
在第 1 章我們會看到，兩句的「它」一開始查出的是**同一個**向量；整本書要回答的，就是這兩個向量如何在後面各站被推開。

本書自己訓練了一個很小的 Transformer 編碼器（{glue:text}`enc_L:d` 層、每層 {glue:text}`enc_A:d` 個頭、寬度只有 {glue:text}`enc_d:d`），在自動產生的雙語句對上學會判斷
「它」指誰。這個模型的權重跟著本書一起發布，每一章都拿它來做實驗。先看它的答案：
""",
    en="""
The real "understanding" happens at station ④ (the shaded box). The first three stations only turn text into
numbers, give each word a seat and let it listen to its neighbours; station ⑤ only turns numbers
back into words.

| station | chapter | in one line |
|---|---|---|
| ① | [Chapter 1: Tokens and embeddings](01-tokens-embeddings.ipynb) | cut the sentence into pieces, look up a row of coordinates for each |
| ② | [Chapter 2: Position embeddings](02-positions.ipynb) | pin a seat number on every word |
| ③ | [Chapter 3: Self-attention](03-self-attention.ipynb) | each word mixes in the others by similarity |
| ④ | [Chapter 4: Multi-head attention and the block](04-multi-head-block.ipynb) | several "reviewers" in parallel, stacked $L$ times |
| ⑤ | [Chapter 5: Contextual vectors and the LM head](05-contextual-lm-head.ipynb) | a vector that has read its context → odds of the next word |
| | [Chapter 6: Evaluation](06-evaluation.ipynb) | perplexity: how many words the model hesitates between |
| | [Chapter 7: Looking back](07-looking-back.ipynb) | attention heatmaps, surprisal, and the summary in one sentence |

(def-winograd)=
## The sentence that runs through the book

The book keeps returning to one pair of sentences:

> The trophy doesn't fit into the suitcase because **it** is too **big**.
>
> The trophy doesn't fit into the suitcase because **it** is too **small**.

One word changes, and "it" moves from the trophy to the suitcase. A pair like this, where a
single word flips what a pronoun refers to, is a **Winograd schema** {cite}`levesque2012winograd`:
to get it right you cannot look only at the words around "it"; you need the meaning of the whole
sentence. In chapter 1 we will see that both "it"s start out as the **same** vector; the whole
book answers how the later stations push those two vectors apart.

The book trains its own very small Transformer encoder ({glue:text}`enc_L:d` layers of
{glue:text}`enc_A:d` heads, width {glue:text}`enc_d:d`) on bilingual sentence pairs that it generates, and the encoder learns to tell what "it"
refers to. Its weights ship with the book, and every chapter experiments with it. Here is its
answer:
""",
)

ch.code(
    """
big, small = lib.winograd.canonical_pair(LANG)
for sentence in (big, small):
    r = lib.winograd.resolve(sentence, LANG)
    print(" ".join(r.tokens), "→", r.referent, f"({r.probs[r.referent]:.2%})")
"""
)

ch.hidden(
    """
r_big, r_small = lib.winograd.resolve(big, LANG), lib.winograd.resolve(small, LANG)
lib.glue("p_big", float(r_big.probs[r_big.referent]))
lib.glue("p_small", float(r_small.probs[r_small.referent]))
lib.glue("heldout_acc", float(lib.winograd.heldout_accuracy(LANG, model="encoder")))
lib.glue("n_heldout", len(lib.corpus.examples(LANG, "heldout")))
_, cfg, _ = lib.tiny_models.load("encoder")
lib.glue("enc_L", cfg.n_layers); lib.glue("enc_A", cfg.n_heads); lib.glue("enc_d", cfg.d);
"""
)

ch.check(
    """
trophy, suitcase = {"zh": ("獎盃", "行李箱"), "en": ("trophy", "suitcase")}[LANG]
assert r_big.referent == trophy, (r_big.referent, trophy)
assert r_small.referent == suitcase, (r_small.referent, suitcase)
assert r_big.probs[trophy] > 0.5 and r_small.probs[suitcase] > 0.5
"""
)

ch.md(
    zh="""
模型把「太大」那句的「它」判給獎盃（機率 {glue:text}`p_big:.2%`），把「太小」那句判給行李箱
（{glue:text}`p_small:.2%`）；在訓練時沒見過的名詞組合上（{glue:text}`n_heldout:d` 句），答對率是 {glue:text}`heldout_acc:.1%`。
下面的小工具可以在兩句之間切換。它在網頁上不需要 Python 核心也能動：每一格畫面都事先算好了。
""",
    en="""
The model assigns the "too big" pronoun to the trophy (probability {glue:text}`p_big:.2%`) and
the "too small" one to the suitcase ({glue:text}`p_small:.2%`); on noun pairs it never saw in
training ({glue:text}`n_heldout:d` sentences) it is right {glue:text}`heldout_acc:.1%` of the time. The widget below switches between
the two sentences. It works on the website without a Python kernel: every frame was computed in
advance.
""",
)

ch.code("lib.figures.intro.referent_widget(LANG)")

ch.md(
    zh="""
這個模型是怎麼做到的？它的注意力在看哪裡？是不是真的「懂」？第 7 章會打開它的每一個注意力頭來看，
也會提醒：注意力權重是線索，不是解釋。

## 怎麼讀這本書

- **每一節的節奏都一樣**：先給比喻，再給式子，最後附上例子或程式。標著「進階」的段落第一次讀可以跳過。
- **記號**：向量一律寫成**列向量**，所以是「向量乘矩陣」$\\mathbf{x}\\mathbf{W}$。$N$ 是詞元數、$d$ 是模型寬度、
  $d_k$ 是鍵與查詢的寬度、$A$ 是頭數、$|V|$ 是詞彙表大小。完整的表在[記號](notation.md)一頁。
- **數字都是算出來的**：內文裡的數字直接取自旁邊程式的結果，所以文字和程式不會對不上。
- **練習**：每章最後都有練習，解答收在可以展開的區塊裡；寫程式的練習附有自我檢查（✓／✗）。
- **術語**：中英對照收在[詞彙表](glossary.md)，每個術語都連回定義它的那一節；參考文獻見[參考文獻](bibliography.md)。

本書依照 Jurafsky 與 Martin《Speech and Language Processing》第三版草稿 {cite}`jurafsky2025slp`
的順序與記號編寫，原始架構來自 {cite}`vaswani2017attention`。

## 怎麼執行

| 方式 | 做法 | 適合 |
|---|---|---|
| 網站 | 直接閱讀；互動圖不需要 Python 也能操作 | 先讀一遍 |
| Binder | 頁面上方火箭圖示 → Binder | 不想安裝，想改程式 |
| Colab | 火箭圖示 → Colab；第一格會自動下載 `lib` | 有 Google 帳號、想用 GPU |
| Live Code | 火箭圖示 → Live Code，在網頁裡直接執行 | 只想改一兩個數字 |
| 自己的電腦 | `make book` 建好整個網站；`make test` 跑全部測試 | 授課、改作業 |

每一章都是一本獨立的 Jupyter 筆記本，從頭到尾執行不超過十幾秒，而且不需要 GPU。
""",
    en="""
How does the model do it? Where does its attention look? Does it really "understand"? Chapter 7
opens up every attention head to look, and also warns that attention weights are a clue, not an
explanation.

## How to read this book

- **Every section has the same rhythm**: an analogy first, then the formula, then an example or
  code. Paragraphs marked "advanced" can be skipped on a first reading.
- **Notation**: vectors are **row vectors**, so we multiply "vector times matrix", $\\mathbf{x}\\mathbf{W}$.
  $N$ is the number of tokens, $d$ the model width, $d_k$ the width of keys and queries, $A$ the
  number of heads, $|V|$ the vocabulary size. The full table is on the [notation](notation.md) page.
- **The numbers are computed**: the numbers in the prose are taken straight from the code beside
  them, so the text and the code cannot disagree.
- **Exercises** end every chapter; solutions sit in blocks you can unfold, and coding exercises
  come with a self-check (✓/✗).
- **Terms**: the bilingual [glossary](glossary.md) links each term back to the section that
  defines it; see the [bibliography](bibliography.md) for the references.

The book follows the order and notation of Jurafsky and Martin's *Speech and Language
Processing*, 3rd edition draft {cite}`jurafsky2025slp`; the architecture itself comes from
{cite}`vaswani2017attention`.

## How to run it

| how | what to do | good for |
|---|---|---|
| the website | just read; the interactive figures work without Python | a first reading |
| Binder | rocket icon at the top of a page → Binder | changing code without installing |
| Colab | rocket icon → Colab; the first cell downloads `lib` | a Google account, a GPU |
| Live Code | rocket icon → Live Code, runs in the page | changing a number or two |
| your computer | `make book` builds the whole site; `make test` runs every test | teaching, grading |

Every chapter is one self-contained Jupyter notebook that runs top to bottom in a dozen seconds
or so, with no GPU needed.
""",
)

ch.md(
    zh="""
## 練習

**1.**（觀念）把「獎盃**放不進**行李箱」改成「獎盃**放得進**行李箱」，句尾也得跟著改成「因為它很小」或「因為它很大」才通順。
這兩句的「它」各指誰？這說明 Winograd 句對的什麼特性？

:::{dropdown} 解答
「獎盃放得進行李箱，因為它很小」的「它」是獎盃（獎盃小，才放得進）；「……因為它很大」的「它」是行李箱（行李箱大，才裝得下）。
換掉動詞和換掉形容詞一樣會讓指涉翻轉：答案取決於「放得進／放不進」和「大／小」的**組合**，也就是整句的意思，而不是任何單獨一個詞。Winograd 句對正是為此設計的：只靠詞與詞的搭配統計答不出來，非得讀懂整句不可 {cite}`levesque2012winograd`。
:::

**2.**（寫程式）模型在沒見過的句子上答對率是 {glue:text}`heldout_acc:.1%`，但它答得有多**確定**？
對每一句測試句 `e`，用 `lib.winograd.resolve` 算出模型給正確答案 `e.referent` 的機率，把其中最小的存成 `p_min`。
""",
    en="""
## Exercises

**1.** (Concepts) Change "the trophy **doesn't fit** into the suitcase" to "the trophy **fits** into
the suitcase"; the end must change too, to "because it is small" or "because it is big", to make
sense. What does "it" refer to in each? What does that say about Winograd pairs?

:::{dropdown} Solution
In "the trophy fits into the suitcase because it is small", "it" is the trophy (a small trophy
fits); in "… because it is big", it is the suitcase (a big suitcase holds it). Changing the verb
flips the referent just as changing the adjective does: the answer depends on the **combination**
of "fits / doesn't fit" and "big / small", on the meaning of the whole sentence, not on any single
word. That is what Winograd pairs are designed for: word-association statistics alone cannot
answer them; you have to understand the sentence {cite}`levesque2012winograd`.
:::

**2.** (Coding) On unseen sentences the model is right {glue:text}`heldout_acc:.1%` of the time, but
how **sure** is it? For every held-out sentence `e`, use `lib.winograd.resolve` to get the
probability the model gives the right answer `e.referent`, and store the smallest of them in
`p_min`.
""",
)

ch.code(
    """
heldout = lib.corpus.examples(LANG, "heldout")   # e.tokens, e.referent, …
p_min = 1.0     # ← replace: the smallest probability of the right referent

expected = min(lib.winograd.resolve(e.tokens, LANG).probs[e.referent]
               for e in heldout)
lib.check(p_min, expected,
          hint=lib.tr(zh="對每一句取 r.probs[e.referent]，再取 min。",
                      en="r.probs[e.referent] for each e, then the min."));
"""
)

ch.hidden(
    """
probs_right = [lib.winograd.resolve(e.tokens, LANG).probs[e.referent] for e in heldout]
k_min = min(range(len(probs_right)), key=probs_right.__getitem__)
sep = "" if LANG == "zh" else " "
lib.glue("hard_sentence", sep.join(heldout[k_min].tokens))
lib.glue("hard_referent", heldout[k_min].referent)
lib.glue("p_min_sol", float(probs_right[k_min]));
"""
)

ch.check(
    """
assert abs(min(probs_right) - expected) < 1e-12
assert (min(probs_right) > 0.5) == (lib.winograd.heldout_accuracy(LANG) == 1.0)
"""
)

ch.md(
    zh="""
:::{dropdown} 解答
```python
p_min = min(lib.winograd.resolve(e.tokens, LANG).probs[e.referent]
            for e in heldout)
```
最沒把握的是「{glue:text}`hard_sentence`」，模型給正確答案「{glue:text}`hard_referent`」的機率仍有
{glue:text}`p_min_sol:.2%`。在這個小小的合成語料上，模型非常有把握；但第 7 章會提醒：有把握、答對了，
不等於它是用人類的理由答對的。
:::
""",
    en="""
:::{dropdown} Solution
```python
p_min = min(lib.winograd.resolve(e.tokens, LANG).probs[e.referent]
            for e in heldout)
```
The least sure case is "{glue:text}`hard_sentence`", and even there the model gives the right
answer, "{glue:text}`hard_referent`", a probability of {glue:text}`p_min_sol:.2%`. On this small
synthetic corpus the model is very sure of itself; chapter 7 will remind us that being sure, and
being right, is not the same as being right for a human's reasons.
:::
""",
)

ch.write()
