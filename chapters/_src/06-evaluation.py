"""Chapter 6: evaluation — perplexity, bits per byte, benchmarks and contamination (both books)."""
from nbgen import Chapter

ch = Chapter("06-evaluation")

ch.md(zh="# 6. 評估", en="# 6. Evaluation")

ch.bootstrap()

ch.code(
    """
import inspect
import numpy as np
import lib.figures.evaluation
"""
)

ch.md(
    zh="""
第 5 章讓模型一遍又一遍地猜下一個詞，猜錯就用{term}`交叉熵 <交叉熵（cross-entropy）>`罰它。訓練完了，怎麼知道它猜得好不好？
本章的主角是**困惑度**（perplexity）：模型每一步平均在幾個詞之間拿不定主意。數字越小越好。

**本章你會學到**

- 困惑度可以讀成「模型每一步在擲幾面的骰子」，以及它為什麼用幾何平均；
- 困惑度就是第 5 章交叉熵的指數；
- 本書的小解碼器和三種基準模型（均勻、一元、二元）比起來有多好；
- 困惑度跟著斷詞器走，換斷詞器或換語言時改用「每個位元組的位元數」；
- 困惑度之外：基準測驗，以及資料汙染為什麼會讓分數說謊。
""",
    en="""
Chapter 5 made a model guess the next word again and again, and punished each miss with the
{term}`cross-entropy <cross-entropy（交叉熵）>`. Once it is trained, how do we know whether it guesses well? This chapter's main
character is **perplexity**: on average, how many words is the model torn between at each step?
Lower is better.

**What you will learn**

- to read perplexity as "how many faces the model's die has at each step", and why it uses a
  geometric mean;
- that perplexity is the exponential of chapter 5's cross-entropy;
- how much better the book's tiny decoder is than three baselines (uniform, unigram, bigram);
- that perplexity depends on the tokenizer, and that across tokenizers or languages one compares
  bits per byte instead;
- what lies beyond perplexity: benchmarks, and why contamination makes scores lie.
""",
)

# --------------------------------------------------------------------------- 6.1 the die
ch.md(
    zh="""
(def-perplexity)=
## 6.1 困惑度：每一步擲幾面的骰子

**比喻：每一步在幾個選項之間猶豫。** 想像模型在每個位置都擲一顆骰子來決定下一個詞。
若它對正確的詞只有「六分之一」的把握，就像在擲一顆公正的六面骰。困惑度就是這顆骰子的**等效面數**，
也叫等效分支數：困惑度為 4，表示模型平均像在 4 個一樣可能的詞之間擲骰子。越低，代表它對真實文本越不意外。

先驗證這個比喻。十步、每一步都給正確的詞 $1/6$：
""",
    en="""
(def-perplexity)=
## 6.1 Perplexity: how many faces on the die

**Analogy: how many options the model hesitates between at each step.** Picture the model rolling
a die at every position to choose the next word. If it gives the right word only a one-in-six
chance, it is rolling a fair six-sided die. Perplexity is the **effective number of faces** of that
die, also called the effective branching factor: a perplexity of 4 means the model behaves, on
average, as if it were rolling a die among 4 equally likely words. The lower, the less real text
surprises it.

First we check the analogy. Ten steps, and at each one the right word gets $1/6$:
""",
)

ch.code(
    """
die = [1 / 6] * 10          # ten steps, each like a fair six-sided die
lib.perplexity(die)
"""
)

ch.check("assert abs(lib.perplexity([1 / 6] * 10) - 6) < 1e-9")

ch.md(
    zh=r"""
**進階：式子。** 模型給整段測試文本 $w_1, \dots, w_N$ 的機率，是每一步正確詞元機率的乘積。
這個乘積會隨長度一路變小：一段一百個詞元的文本，機率幾乎一定比十個詞元的小，就算模型一樣好也是如此，
所以不能直接拿來跨文本比較。解法是開 $N$ 次方，得到「平均每一步」的機率，也就是各步機率的**幾何平均**；
再取倒數，就是骰子的面數：

$$
\mathrm{PPL}(w_{1:N})
= P(w_1, \dots, w_N)^{-1/N}
= \sqrt[N]{\prod_{t=1}^{N} \frac{1}{P(w_t \mid w_{<t})}}
= \exp\!\Big(-\frac{1}{N}\sum_{t=1}^{N} \ln P(w_t \mid w_{<t})\Big)
$$

為什麼是幾何平均，不是算術平均？因為機率是**相乘**的：把每一步的機率都換成它們的幾何平均，
整段文本的機率完全不變；換成算術平均就會變。最右邊一式把乘積改寫成對數的平均，電腦上也比較好算，下面會看到原因。

**算算看。** 一段三個詞元的文本，模型給正確詞元的機率依序是 0.5、0.25、0.125。先照定義算：乘積再開三次方、取倒數。
""",
    en=r"""
**Advanced: the formula.** The probability a model gives a whole test text $w_1, \dots, w_N$ is
the product of the probabilities of the right token at each step. That product keeps shrinking
with length: a hundred-token text is almost always less probable than a ten-token one, even for
an equally good model, so it cannot be compared across texts. The fix is to take the $N$-th root,
the probability "per step on average", which is the **geometric mean** of the step
probabilities; its inverse is the number of faces on the die:

$$
\mathrm{PPL}(w_{1:N})
= P(w_1, \dots, w_N)^{-1/N}
= \sqrt[N]{\prod_{t=1}^{N} \frac{1}{P(w_t \mid w_{<t})}}
= \exp\!\Big(-\frac{1}{N}\sum_{t=1}^{N} \ln P(w_t \mid w_{<t})\Big)
$$

Why the geometric mean and not the arithmetic one? Because probabilities **multiply**: replace
every step's probability by their geometric mean and the probability of the whole text does not
change; replace them by their arithmetic mean and it does. The right-most form turns the product
into a mean of logarithms, which is also easier on a computer, as we will see.

**Worked example.** In a text of three tokens, the model gives the right tokens probabilities 0.5,
0.25 and 0.125. By the definition first: multiply, take the cube root, invert.
""",
)

ch.code(
    """
p = np.array([0.5, 0.25, 0.125])
print("product:", p.prod())
print("product ** (-1/N):", p.prod() ** (-1 / len(p)))
"""
)

ch.md(
    zh="""
乘積是 {glue:text}`pp3_product:.6f`（也就是 1/64），開三次方再取倒數得 {glue:text}`pp3_root:.0f`。
再用最右邊的寫法：三個 $-\\ln p$ 分別是 {glue:text}`pp3_nl0:.3f`、{glue:text}`pp3_nl1:.3f`、{glue:text}`pp3_nl2:.3f`，
平均 {glue:text}`pp3_mean:.3f`，取指數：
""",
    en="""
The product is {glue:text}`pp3_product:.6f` (that is 1/64); the cube root, inverted, is
{glue:text}`pp3_root:.0f`. Now the right-most form: the three values of $-\\ln p$ are
{glue:text}`pp3_nl0:.3f`, {glue:text}`pp3_nl1:.3f` and {glue:text}`pp3_nl2:.3f`, their mean is
{glue:text}`pp3_mean:.3f`, and its exponential is:
""",
)

ch.code(
    """
neg_log = -np.log(p)
print("-ln p:", neg_log.round(3))
print("exp(mean):", np.exp(neg_log.mean()))
print("lib.perplexity:", lib.perplexity(p))
"""
)

ch.hidden(
    """
lib.glue("pp3_product", float(p.prod()))
lib.glue("pp3_root", float(p.prod() ** (-1 / len(p))))
for i, v in enumerate(neg_log):
    lib.glue(f"pp3_nl{i}", float(v))
lib.glue("pp3_mean", float(neg_log.mean()))
lib.glue("pp3", lib.perplexity(p));
"""
)

ch.check(
    """
assert p.prod() == 1 / 64
assert abs(p.prod() ** (-1 / 3) - 4) < 1e-12
assert np.allclose(neg_log.round(3), [0.693, 1.386, 2.079])
assert abs(np.exp(neg_log.mean()) - 4) < 1e-12 and abs(lib.perplexity(p) - 4) < 1e-12
"""
)

ch.md(
    zh="""
兩種算的方式都得到 {glue:text}`pp3:.0f`：這個模型平均像在 4 個詞之間挑一個。本書的 `lib.perplexity` 用的是對數那一種：
""",
    en="""
Both ways give {glue:text}`pp3:.0f`: on average the model picks among 4 words. The book's
`lib.perplexity` uses the logarithm form:
""",
)

ch.code("print(inspect.getsource(lib.perplexity))")

ch.md(
    zh="""
為什麼不直接相乘？因為真實的測試集有成千上萬個詞元，乘積小到電腦存不下。一千個詞元、每個機率 0.01，
乘積是 $10^{-2000}$，遠低於浮點數能表示的最小值，直接變成 0；取對數再平均就沒有這個問題：
""",
    en="""
Why not just multiply? A real test set has thousands of tokens, and the product becomes too small
for the computer to store. A thousand tokens at probability 0.01 each multiply to $10^{-2000}$,
far below the smallest floating-point number, so the product is simply 0; averaging logarithms
has no such problem:
""",
)

ch.code(
    """
long_text = [0.01] * 1000
print("product:", np.prod(long_text))              # underflows to 0.0
print("lib.perplexity:", lib.perplexity(long_text))
"""
)

ch.check(
    """
assert np.prod([0.01] * 1000) == 0.0
assert abs(lib.perplexity([0.01] * 1000) - 100) < 1e-9
"""
)

ch.md(
    zh="""
再看兩個例子。八個詞元、每個都給 0.25，困惑度是 {glue:text}`pp_quarter:.1f`：每一步都是四選一。
另一段四個詞元的文本，機率是 0.9、0.5、0.05、0.6：
""",
    en="""
Two more examples. Eight tokens at 0.25 each give a perplexity of {glue:text}`pp_quarter:.1f`:
every step is one in four. Another text of four tokens gets 0.9, 0.5, 0.05 and 0.6:
""",
)

ch.code(
    """
print(lib.perplexity([0.25] * 8))
p4 = [0.9, 0.5, 0.05, 0.6]
print(lib.perplexity(p4))
"""
)

ch.hidden(
    """
lib.glue("pp_quarter", lib.perplexity([0.25] * 8))
lib.glue("pp4", lib.perplexity(p4))
lib.glue("pp4_without", lib.perplexity([0.9, 0.5, 0.6]))
terms4 = lib.figures.evaluation.neg_log_terms(p4)
lib.glue("pp4_share", float(terms4[2] / terms4.sum()))
lib.glue("pp4_arith", float(1 / np.mean(p4)));
"""
)

ch.check(
    """
assert abs(lib.perplexity([0.25] * 8) - 4) < 1e-12
assert round(lib.perplexity(p4), 2) == 2.93
assert lib.perplexity([0.9, 0.5, 0.6]) < 1.6
"""
)

ch.md(
    zh="""
困惑度約 {glue:text}`pp4:.2f`。拿掉那個 0.05，另外三個詞元的困惑度只有 {glue:text}`pp4_without:.2f`；
光是一個 0.05，就佔了整段 $-\\ln p$ 總和的 {glue:text}`pp4_share:.0%`。下圖把每個詞元的 $-\\ln p$ 畫成一根長條：
虛線是它們的平均（交叉熵），困惑度是它的指數。
""",
    en="""
The perplexity is about {glue:text}`pp4:.2f`. Without the 0.05, the other three tokens have a
perplexity of only {glue:text}`pp4_without:.2f`; that single 0.05 contributes
{glue:text}`pp4_share:.0%` of the total $-\\ln p$. The figure draws each token's $-\\ln p$ as a bar:
the dashed line is their mean (the cross-entropy), and the perplexity is its exponential.
""",
)

ch.code("lib.figures.evaluation.plot_neg_log_terms(p4);")

ch.md(
    zh="""
一個幾乎猜錯的詞元，為什麼能拉高這麼多？下圖讓第三個詞元的機率從 0.01 滑到 1，其餘三個不動。
困惑度（實線）在機率很小時急遽上升；要是改用「算術平均的倒數」（點線），一次嚴重的失手幾乎看不出來：
在 0.05 那一點它只有 {glue:text}`pp4_arith:.2f`。困惑度選擇幾何平均，正是為了不讓模型用很多次的「還可以」掩蓋一次的「完全沒想到」。
""",
    en="""
Why can one nearly-missed token pull it up so much? The figure slides the third token's
probability from 0.01 to 1 and keeps the other three fixed. Perplexity (solid) climbs steeply as
that probability gets small; "one over the arithmetic mean" (dotted) would barely notice the
blunder: at 0.05 it is only {glue:text}`pp4_arith:.2f`. Perplexity uses the geometric mean exactly
so that many "fair enough" guesses cannot hide one "never saw that coming".
""",
)

ch.code("lib.figures.evaluation.plot_one_small_probability(p4, index=2);")

# --------------------------------------------------------------- 6.2 exp(cross-entropy)
ch.md(
    zh=r"""
## 6.2 困惑度就是交叉熵的指數

第 5 章的訓練損失，是每個位置上正確詞元的負對數機率 $-\ln \operatorname{softmax}(\mathbf{z}_t)_{w_t}$；
對整段文本取平均，就是交叉熵 $H$。比對上面的公式，最右邊那一式正是

$$
\mathrm{PPL} = e^{H}, \qquad H = -\frac{1}{N}\sum_{t=1}^{N} \ln P(w_t \mid w_{<t}).
$$

所以**訓練時壓低交叉熵，就是在壓低困惑度**。若改用以 2 為底的對數，$H$ 的單位就是位元（bits），
$\mathrm{PPL} = 2^{H_2}$：困惑度 4 等於每個詞元 2 位元，相當於每一步要問兩個是非題才能確定下一個詞。

用第 5 章的 `lib.cross_entropy` 驗證一次。三個位置、四個詞元的詞彙表，每一列是模型的分數（logits）；
我們刻意讓正確詞元的機率又是 0.5、0.25、0.125：
""",
    en=r"""
## 6.2 Perplexity is the exponential of the cross-entropy

Chapter 5's training loss is the negative log-probability of the right token at each position,
$-\ln \operatorname{softmax}(\mathbf{z}_t)_{w_t}$; averaged over a text it is the cross-entropy
$H$. Compare with the formula above: its right-most form is exactly

$$
\mathrm{PPL} = e^{H}, \qquad H = -\frac{1}{N}\sum_{t=1}^{N} \ln P(w_t \mid w_{<t}).
$$

So **lowering the cross-entropy in training is lowering the perplexity**. With logarithms to base
2, $H$ is measured in bits and $\mathrm{PPL} = 2^{H_2}$: a perplexity of 4 is 2 bits per token, as
if each step took two yes/no questions to pin down the next word.

Let us check it with chapter 5's `lib.cross_entropy`. Three positions, a vocabulary of four
tokens, one row of scores (logits) per position; we arrange for the right tokens to get 0.5, 0.25
and 0.125 again:
""",
)

ch.code(
    """
P = np.array([[0.5,   0.3,   0.1,   0.1],
              [0.25,  0.25,  0.25,  0.25],
              [0.125, 0.625, 0.125, 0.125]])
logits = np.log(P)                   # softmax(log P) = P
targets = [0, 2, 3]                  # the right next token at each position
losses = [lib.cross_entropy(logits[t], targets[t]) for t in range(3)]
H = np.mean(losses)
print("cross-entropy H (nats):", round(H, 3), "  bits:", round(H / np.log(2), 3))
print("exp(H):", np.exp(H))
"""
)

ch.hidden(
    """
lib.glue("ce_nats", float(H))
lib.glue("ce_bits", float(H / np.log(2)));
"""
)

ch.check(
    """
p_true = lib.softmax(logits)[np.arange(3), targets]
assert np.allclose(p_true, [0.5, 0.25, 0.125])
assert abs(np.exp(H) - lib.perplexity(p_true)) < 1e-12
assert abs(H / np.log(2) - 2) < 1e-12
"""
)

ch.md(
    zh="""
交叉熵是 {glue:text}`ce_nats:.3f` 奈特，也就是 {glue:text}`ce_bits:.0f` 位元；它的指數又是 4。
""",
    en="""
The cross-entropy is {glue:text}`ce_nats:.3f` nats, that is {glue:text}`ce_bits:.0f` bits; its
exponential is 4 once more.
""",
)

# ------------------------------------------------------------- 6.3 the tiny decoder
ch.md(
    zh="""
## 6.3 量一量本書的小解碼器

一個困惑度數字本身沒有意義，要和別人比。我們拿第 5 章的小解碼器（兩層、只看左邊），
在**保留集**上量困惑度：那些句子用的名詞組合，訓練時從沒一起出現過。每句的第一個詞沒有前文可猜，
所以從第二個詞算起。比較的對象有三個由簡到繁的基準：

- **均勻模型**：不看任何東西，詞彙表裡每個詞一樣可能。每一步的機率都是 $1/|V|$，所以困惑度恰好是 $|V|$。
- **一元模型**（unigram）：只知道每個詞在訓練語料裡出現得多頻繁，不看上下文。
- **二元模型**（bigram）：只看前一個詞，$P(w_t \\mid w_{t-1})$ 由訓練語料的計數估出。沒看過的詞對機率會是 0，
  困惑度就變成無限大，所以每個計數先加上 $k$（add-$k$ 平滑）。$k = 1$ 是教科書的預設；
  公平的對手要把 $k$ 調好，而且要在開發集（dev）上調，不能偷看保留集。
""",
    en="""
## 6.3 Measuring the book's tiny decoder

A perplexity means nothing on its own; it needs something to be compared with. We take chapter
5's tiny decoder (two layers, looking left only) and measure its perplexity on the **held-out**
set: sentences whose noun pairs never appeared together in training. A sentence's first word has
nothing before it to be guessed from, so scoring starts at the second word. The decoder faces
three baselines, from the simplest up:

- **Uniform**: looks at nothing; every word of the vocabulary is equally likely. Each step gets
  $1/|V|$, so the perplexity is exactly $|V|$.
- **Unigram**: knows how often each word occurs in the training corpus, and ignores context.
- **Bigram**: looks at the previous word only; $P(w_t \\mid w_{t-1})$ is estimated by counting in
  the training corpus. A word pair never seen would get probability 0 and an infinite perplexity,
  so every count first gets $k$ added (add-$k$ smoothing). $k = 1$ is the textbook default; a
  fair opponent needs a tuned $k$, tuned on the development (dev) split, never on the held-out one.
""",
)

ch.code(
    """
k = lib.winograd.best_bigram_k()          # tuned on the dev split
ppl = lib.figures.evaluation.heldout_perplexities(k)
print("bigram k:", k)
for name, value in ppl.items():
    print(f"{name:>12}: {value:7.2f}")
"""
)

ch.hidden(
    """
for name, value in ppl.items():
    lib.glue(f"ppl_{name}", float(value))
lib.glue("bigram_k", lib.figures.evaluation.k_text(k))
train_pairs = {pair for e in lib.corpus.examples(split="train") for pair in zip(e.tokens, e.tokens[1:])}
unseen_pairs = sum(pair not in train_pairs for split in ("dev", "heldout")
                   for e in lib.corpus.examples(split=split) for pair in zip(e.tokens, e.tokens[1:]))
lib.glue("vocab_size", int(lib.corpus.vocab_size()));
"""
)

ch.check(
    """
assert ppl["uniform"] == lib.corpus.vocab_size()
assert ppl["decoder"] < ppl["bigram_addk"] < ppl["bigram_add1"] < ppl["unigram"] < ppl["uniform"]
assert abs(ppl["decoder"] - lib.winograd.decoder_perplexity("heldout")) < 1e-12
assert ppl["decoder"] < 2.2          # "about two words per step" in the text
assert k == min(lib.winograd.BIGRAM_KS) and unseen_pairs == 0   # "the smallest k: every pair was seen"
"""
)

ch.code("lib.figures.evaluation.plot_baselines(ppl, k);")

ch.md(
    zh="""
詞彙表有 {glue:text}`vocab_size:d` 個詞，所以均勻模型的困惑度就是 {glue:text}`ppl_uniform:.0f`。
只知道詞頻的一元模型降到 {glue:text}`ppl_unigram:.1f`；看前一個詞的二元模型，加一平滑時是 {glue:text}`ppl_bigram_add1:.2f`，
把 $k$ 調好之後是 {glue:text}`ppl_bigram_addk:.2f`。調出來的 $k$ 是網格上最小的 {glue:text}`bigram_k`，幾乎等於不平滑：開發集和保留集裡的每一個詞對，訓練語料裡都出現過，這份語料裡的二元模型用不著替沒看過的詞對留機率。小解碼器是 {glue:text}`ppl_decoder:.2f`：
平均每一步在不到兩個詞之間猶豫。加一平滑把太多機率分給了從沒出現過的詞對，這樣的基準太弱，打敗它不代表什麼。

剩下的猶豫從哪裡來？這份語料大部分的詞是註定的：看到「放不進」，後面的結構幾乎已經決定了。
真正的選擇只有幾處：句子裡出現哪兩個名詞，以及最後是「大」還是「小」。第 7 章會用**驚奇度**逐詞看這件事。
""",
    en="""
The vocabulary has {glue:text}`vocab_size:d` words, so the uniform model's perplexity is exactly
{glue:text}`ppl_uniform:.0f`. The unigram model, which knows word frequencies only, gets down to
{glue:text}`ppl_unigram:.1f`; the bigram model, which sees the previous word, reaches
{glue:text}`ppl_bigram_add1:.2f` with add-one smoothing and {glue:text}`ppl_bigram_addk:.2f` with
a tuned $k$. The tuning lands on the smallest $k$ of its grid, {glue:text}`bigram_k`, next to no
smoothing at all: every word pair of the dev and held-out sentences occurs in the training
corpus, so on this corpus a bigram model need keep no probability for unseen pairs. The tiny decoder scores {glue:text}`ppl_decoder:.2f`: on
average it hesitates between fewer than two words per step. Add-one smoothing hands too much
probability to word pairs that never occur; a baseline that weak proves nothing when beaten.

Where does the remaining hesitation come from? Most words of this corpus are forced: after
"doesn't fit into" the rest of the structure is nearly decided. The real choices are few: which
two nouns appear, and whether the sentence ends in "big" or "small". Chapter 7 looks at this word
by word with **surprisal**.
""",
)

# ------------------------------------------------------------ 6.4 the tokenizer
ch.md(
    zh=r"""
(def-bits-per-byte)=
## 6.4 困惑度跟著斷詞器走：每個位元組的位元數

困惑度是「**每個詞元**」的平均，分母 $N$ 取決於怎麼切。同一段文字若切成字元，詞元變多、每一步也比較好猜，
每詞元的困惑度就下降，模型卻一點也沒有變聰明。所以**只有斷詞器相同時，困惑度才能比較**（練習 3 會算一個例子）。

換模型、換斷詞器或換語言時，改用一個和切法無關的分母：文字的 UTF-8 位元組數。**每個位元組的位元數**（bits per byte）是

$$
\mathrm{BPB} = \frac{\sum_{t} -\log_2 P(w_t \mid w_{<t})}{\text{文字的 UTF-8 位元組數}}
= \frac{N \log_2 \mathrm{PPL}}{\text{位元組數}} .
$$

分子是模型描述整段文字所花的總位元數，不管切成幾塊都一樣；分母是文字本身的長度，也和切法無關。

本書的語料正好可以示範：中文與英文兩半說的是同一件事，但中文一句平均 {glue:text}`zh_n_tokens:.1f` 個詞元，英文 {glue:text}`en_n_tokens:.1f` 個；
一個漢字在 UTF-8 裡佔 3 個位元組，一個英文字母只佔 1 個。下面分別量兩半的保留集：
""",
    en=r"""
(def-bits-per-byte)=
## 6.4 Perplexity depends on the tokenizer: bits per byte

Perplexity is an average **per token**, and its denominator $N$ depends on how the text is cut.
Cut the same text into characters and there are more tokens, each easier to guess, so the
per-token perplexity drops although the model has become no smarter. **Perplexities compare only
under the same tokenizer** (exercise 3 works an example).

Across models, tokenizers or languages, use a denominator that does not depend on the cutting:
the text's UTF-8 bytes. **Bits per byte** is

$$
\mathrm{BPB} = \frac{\sum_{t} -\log_2 P(w_t \mid w_{<t})}{\text{UTF-8 bytes of the text}}
= \frac{N \log_2 \mathrm{PPL}}{\text{bytes}} .
$$

The numerator is the total number of bits the model spends describing the text, whatever the
number of pieces; the denominator is the length of the text itself, also independent of the
cutting.

The book's corpus shows it well: its Chinese and English halves say the same things, but a
Chinese sentence has {glue:text}`zh_n_tokens:.1f` tokens on average and an English one
{glue:text}`en_n_tokens:.1f`; a Chinese character takes 3
bytes in UTF-8, an English letter 1. We measure the two held-out halves separately:
""",
)

ch.code(
    """
stats = {lang: lib.figures.evaluation.language_stats(lang) for lang in ("zh", "en")}
for lang, s in stats.items():
    print(lang, {key: round(value, 3) for key, value in s.items()})
"""
)

ch.hidden(
    """
for lang, s in stats.items():
    for key, value in s.items():
        lib.glue(f"{lang}_{key}", float(value))
for lang in ("zh", "en"):
    lib.glue(f"{lang}_n_tokens", float(np.mean([len(e.tokens) for e in lib.corpus.examples(lang=lang, split="heldout")])))
big_en, _ = lib.winograd.canonical_pair("en")
lib.glue("en_first_noun_bits", float(lib.winograd.surprisal(big_en, "en")[0][1]));
"""
)

ch.check(
    """
for lang, s in stats.items():
    # the bits, counted per token, agree with the decoder's own perplexity on that half
    assert abs(s["perplexity"] - lib.winograd.decoder_perplexity("heldout", lang=lang)) < 1e-9
    assert abs(s["bits_per_byte"] - s["bits_per_sentence"] / s["bytes_per_sentence"]) < 1e-12
zh, en = stats["zh"], stats["en"]
assert zh["perplexity"] < en["perplexity"]                      # "Chinese looks easier per token"
assert en["bits_per_sentence"] > 1.5 * zh["bits_per_sentence"]  # English pays for its first noun
assert zh["bits_after_first_noun"] == zh["bits_per_sentence"]   # Chinese never scores it
assert abs(zh["bits_after_first_noun"] - en["bits_after_first_noun"]) < 1.0
"""
)

ch.code("lib.figures.evaluation.plot_tokens_vs_bytes(stats);")

ch.md(
    zh="""
每詞元的困惑度：中文 {glue:text}`zh_perplexity:.2f`，英文 {glue:text}`en_perplexity:.2f`，看起來模型的中文比較好。
每個位元組的位元數也一樣：中文 {glue:text}`zh_bits_per_byte:.3f`，英文 {glue:text}`en_bits_per_byte:.3f`。
真是這樣嗎？每句的總位元數透露了原因：中文一句 {glue:text}`zh_bits_per_sentence:.2f` 位元，英文 {glue:text}`en_bits_per_sentence:.2f` 位元，
差了將近一倍。

差別出在**沒被計分的第一個詞**。解碼器沒有「句子開始」的符號，每句的第一個詞不算分。中文句子的第一個詞就是第一個名詞
（「獎盃」），它最難猜，卻免費；英文的第一個詞只是「the」，第一個名詞「trophy」排在第二，得照算，
光是它就花掉 {glue:text}`en_first_noun_bits:.1f` 位元。只比較兩種語言都有計分的同一段內容，也就是第一個名詞之後的部分，
中文每句 {glue:text}`zh_bits_after_first_noun:.2f` 位元，英文 {glue:text}`en_bits_after_first_noun:.2f` 位元，幾乎一樣。

教訓有兩個。第一，換語言時，每詞元的困惑度、甚至每個位元組的位元數都可能騙人：比較之前，先確定兩邊計分的是**同樣的內容**。
第二，位元組也不是完全中立的：同一句話，中文用的位元組比英文少，每個位元組分到的位元就比較多。Petrov 等人 {cite}`petrov2023tokenizers` 指出，同樣的內容在不同語言裡被切成的詞元數可以差好幾倍，使用者付的費用、能用的上下文長度也跟著不同。
""",
    en="""
Perplexity per token: Chinese {glue:text}`zh_perplexity:.2f`, English
{glue:text}`en_perplexity:.2f`, so the model seems better at Chinese. Bits per byte agree:
Chinese {glue:text}`zh_bits_per_byte:.3f`, English {glue:text}`en_bits_per_byte:.3f`. Is it
true? The bits per sentence give the reason away: {glue:text}`zh_bits_per_sentence:.2f` bits for
a Chinese sentence, {glue:text}`en_bits_per_sentence:.2f` for an English one, nearly twice as
many.

The difference lies in **the first word, which is never scored**. The decoder has no
"start of sentence" symbol, so each sentence's first word counts for nothing. In Chinese the
first word is the first noun (獎盃, "trophy"), the hardest word to guess, and it comes free; in
English the first word is merely "the", and the first noun, "trophy", comes second and is
scored: it alone costs {glue:text}`en_first_noun_bits:.1f` bits. Compare the content both
languages score, everything after the first noun, and a Chinese sentence takes
{glue:text}`zh_bits_after_first_noun:.2f` bits, an English one
{glue:text}`en_bits_after_first_noun:.2f`: almost the same.

Two lessons. First, across languages, per-token perplexity and even bits per byte can mislead:
before comparing, make sure both sides score **the same content**. Second, bytes are not
perfectly neutral either: the same sentence takes fewer bytes in Chinese than in English, so
each byte carries more bits. Petrov et al. {cite}`petrov2023tokenizers` show that the same
content can be cut into several times more tokens in one language than in another, and what
users pay and how much context they get differ with it.
""",
)

# ------------------------------------------------------------ 6.5 beyond perplexity
ch.md(
    zh="""
## 6.5 困惑度之外：基準測驗與資料汙染

困惑度低，只說明模型很會猜下一個詞。我們真正在意的常常是別的事：它答得對不對、多大、多快、多耗電、
對不同的使用者是否公平 {cite}`jurafsky2025slp`。所以評估還要靠**基準測驗**（benchmark）：一組有標準答案的題目。
本書的 Winograd 句對就是一份迷你基準 {cite}`levesque2012winograd`，編碼器在保留集上的答對率就是它的成績；LOBSTER 則用語言學奧林匹亞的題目，測模型能不能從少量例子推出一套陌生語言的規則 {cite}`lian2025lobster`。

基準測驗有個陷阱：**資料汙染**（contamination）。如果測驗題早就出現在預訓練語料裡，高分只說明模型記住了，
不說明它有能力。我們的小解碼器可以直接示範這件事：拿**看過**的訓練句和**沒看過**的保留句分別量困惑度。
""",
    en="""
## 6.5 Beyond perplexity: benchmarks and contamination

A low perplexity only says that the model is good at guessing the next word. What we care about
is often something else: whether it answers correctly, how big, fast and power-hungry it is,
whether it is fair to different users {cite}`jurafsky2025slp`. So evaluation also relies on
**benchmarks**: sets of questions with known answers. The book's Winograd pairs are a miniature
benchmark {cite}`levesque2012winograd`, and the encoder's held-out accuracy is its score; LOBSTER
uses Linguistics Olympiad puzzles to test whether a model can infer the rules of an unfamiliar
language from a handful of examples {cite}`lian2025lobster`.

Benchmarks have a trap: **contamination**. If the test questions already sit in the pretraining
corpus, a high score shows memory, not ability. Our tiny decoder shows it directly: we measure
perplexity on training sentences it has **seen** and on held-out sentences it has **not**.
""",
)

ch.code(
    """
gap = lib.figures.evaluation.train_heldout_perplexities(k)
for name, (train, heldout) in gap.items():
    print(f"{name:>12}: train {train:6.3f}   held-out {heldout:6.3f}")
print("second noun, bits:", {split: round(lib.figures.evaluation.second_noun_bits(split), 2)
                             for split in ("train", "heldout")})
"""
)

ch.hidden(
    """
lib.glue("gap_decoder_train", float(gap["decoder"][0]))
lib.glue("gap_decoder_heldout", float(gap["decoder"][1]))
lib.glue("gap_bigram_train", float(gap["bigram_addk"][0]))
lib.glue("gap_bigram_heldout", float(gap["bigram_addk"][1]))
noun2 = {split: lib.figures.evaluation.second_noun_bits(split) for split in ("train", "heldout")}
lib.glue("noun2_train", noun2["train"])
lib.glue("noun2_heldout", noun2["heldout"])
lib.glue("acc_heldout_zh", float(lib.winograd.heldout_accuracy("zh")))
lib.glue("acc_heldout_en", float(lib.winograd.heldout_accuracy("en")));
"""
)

ch.check(
    """
assert gap["decoder"][0] < gap["decoder"][1]
assert gap["bigram_addk"][0] < gap["bigram_addk"][1]
assert noun2["train"] < noun2["heldout"] - 0.3
"""
)

ch.code("lib.figures.evaluation.plot_train_vs_heldout(gap, k);")

ch.md(
    zh="""
在看過的句子上，解碼器的困惑度是 {glue:text}`gap_decoder_train:.2f`；在沒看過的句子上是 {glue:text}`gap_decoder_heldout:.2f`。
二元模型也一樣（{glue:text}`gap_bigram_train:.2f` 對 {glue:text}`gap_bigram_heldout:.2f`）。差距集中在一個地方：
第二個名詞。看到第一個名詞之後猜第二個，在訓練句上花 {glue:text}`noun2_train:.2f` 位元，在保留句上要 {glue:text}`noun2_heldout:.2f` 位元：
模型記住了哪些名詞常一起出現。這裡的差距不大，因為訓練保留的是開發集困惑度最低那一步的參數（提前停止，early stopping）；訓練得越久，記得越多，差距越大。

要是保留句不小心混進了訓練資料，我們會拿到較低的那個數字，並誤以為模型更會類推。這就是為什麼本書的語料以**名詞組合**切分：
保留集的名詞組合在訓練時從沒一起出現過。同樣的道理，編碼器在保留集上的答對率（中文 {glue:text}`acc_heldout_zh:.1%`，英文 {glue:text}`acc_heldout_en:.1%`）是該報告的成績。
""",
    en="""
On sentences it has seen, the decoder's perplexity is {glue:text}`gap_decoder_train:.2f`; on
sentences it has not, {glue:text}`gap_decoder_heldout:.2f`. The bigram model behaves the same way
({glue:text}`gap_bigram_train:.2f` against {glue:text}`gap_bigram_heldout:.2f`). The gap sits in
one place: the second noun. Guessing it from the first noun costs {glue:text}`noun2_train:.2f`
bits on training sentences and {glue:text}`noun2_heldout:.2f` bits on held-out ones: the model
has memorized which nouns tend to go together. The gap is small here because training kept
the parameters of the step with the lowest perplexity on the dev split (early stopping); the longer a model
trains, the more it memorizes and the wider the gap.

Had the held-out sentences leaked into the training data, we would report the lower number and
believe the model generalizes better than it does. That is why the book's corpus is split by
**noun pairs**: a held-out pair never occurs together in training. By the same logic, the
encoder's held-out accuracy (Chinese {glue:text}`acc_heldout_zh:.1%`, English
{glue:text}`acc_heldout_en:.1%`) is the score to report.
""",
)

# ------------------------------------------------------------------------ summary
ch.md(
    zh="""
## 小結

- 困惑度是模型每一步等效的「骰子面數」：$\\mathrm{PPL} = P(w_{1:N})^{-1/N}$，即正確詞元機率的幾何平均之倒數。
- 它等於交叉熵的指數 $e^{H}$；以位元計時是 $2^{H_2}$。訓練壓低交叉熵，就是壓低困惑度。
- 幾何平均讓一次嚴重失手（例如 0.05）明顯拉高分數，不會被其他還不錯的猜測掩蓋。
- 小解碼器的保留集困惑度 {glue:text}`ppl_decoder:.2f`，低於均勻（{glue:text}`ppl_uniform:.0f`）、一元（{glue:text}`ppl_unigram:.1f`）
  與調過 $k$ 的二元模型（{glue:text}`ppl_bigram_addk:.2f`）。
- 困惑度只在同一個斷詞器下可比；換斷詞器或換語言時用每個位元組的位元數，而且要確定兩邊計分的是同樣的內容。
- 分數要在沒看過的資料上量；訓練集與保留集的差距，就是資料汙染會藏起來的那一段。
""",
    en="""
## Summary

- Perplexity is the effective number of faces on the model's die at each step:
  $\\mathrm{PPL} = P(w_{1:N})^{-1/N}$, the inverse geometric mean of the right tokens' probabilities.
- It equals the exponential of the cross-entropy, $e^{H}$, or $2^{H_2}$ in bits. Lowering the
  cross-entropy in training lowers the perplexity.
- The geometric mean lets one bad miss (such as 0.05) raise the score visibly, instead of hiding
  it behind other decent guesses.
- The tiny decoder's held-out perplexity, {glue:text}`ppl_decoder:.2f`, beats uniform
  ({glue:text}`ppl_uniform:.0f`), unigram ({glue:text}`ppl_unigram:.1f`) and a tuned bigram
  ({glue:text}`ppl_bigram_addk:.2f`).
- Perplexities compare only under one tokenizer; across tokenizers or languages use bits per byte,
  and make sure both sides score the same content.
- Measure on data the model has not seen; the gap between training and held-out scores is what
  contamination would hide.
""",
)

# ---------------------------------------------------------------------- exercises
ch.md(
    zh="""
## 練習

**1.** 一個模型給五個正確詞元的機率都是 0.2，困惑度是多少？如果其中一個改成 1.0，困惑度變成多少？

:::{dropdown} 解答
五個都是 0.2：每一步都是五選一，困惑度 5。其中一個改成 1.0：$(0.2^4 \\times 1)^{-1/5} = 5^{4/5} \\approx 3.62$。
一個完全確定的詞元不增加 $-\\ln p$（$-\\ln 1 = 0$），但仍算進分母 $N$，所以把平均拉低。
:::

**2.** `lib.perplexity([0.5, 0.0])` 會發生什麼事？照公式，這段文字的困惑度是多少？為什麼二元模型需要 add-$k$ 平滑，神經網路模型卻不太需要？

:::{dropdown} 解答
`lib` 會拒絕它並說明原因：機率必須落在 $(0, 1]$。照公式 $-\\ln 0 = \\infty$，困惑度是無限大：只要有一個詞元被判為不可能，
整段文字就「不可能」。計數估出的二元模型，對訓練時沒看過的詞對給出 0，所以要先加 $k$。神經網路的機率來自 softmax，$e^{z} > 0$，任何詞元的機率都大於 0（雖然可能很小）。
:::

**3.** 斷詞器 A 把一段文字切成 12 個詞元，某模型在上面的困惑度是 3。斷詞器 B 只切成 8 個詞元，假設模型描述整段文字所花的總位元數不變，B 的每詞元困惑度是多少？這說明什麼？

:::{dropdown} 解答
總位元數是 $12 \\log_2 3 \\approx 19.02$。分給 8 個詞元，每個 $19.02 / 8 \\approx 2.38$ 位元，
困惑度 $2^{2.38} = 3^{12/8} \\approx 5.20$。模型一樣好，換個斷詞器，每詞元困惑度卻從 3 變成 5.2：
困惑度只能在同一個斷詞器下比較；總位元數與每個位元組的位元數則不受影響。
:::

**4.** 某個大型模型在一份公開基準上拿到接近滿分。列出兩種方法，檢查這個分數是不是來自資料汙染。

:::{dropdown} 解答
例如：(1) 在訓練語料裡搜尋測驗題的長片段（n-gram 重疊），看有多少題原文出現過；(2) 另外寫一批同類型、
但保證在訓練截止日之後出現的新題（或像本書一樣，用沒一起出現過的名詞組合改寫舊題），比較新舊兩批的分數；
差距大就是記憶的跡象。(3) 也可以比較模型在測驗題與改寫題上的困惑度：看過的原文困惑度會特別低，就像 6.5 節的訓練句。
:::

**5.（程式）** 寫一個以 2 為底的困惑度：先算每個詞元的位元數 $-\\log_2 p$，取平均得 $H_2$，再回傳 $2^{H_2}$。它應該和 `lib.perplexity` 一致。
""",
    en="""
## Exercises

**1.** A model gives each of five right tokens probability 0.2. What is its perplexity? If one of
them becomes 1.0, what does the perplexity become?

:::{dropdown} Solution
All five at 0.2: every step is one in five, so the perplexity is 5. With one at 1.0:
$(0.2^4 \\times 1)^{-1/5} = 5^{4/5} \\approx 3.62$. A certain token adds nothing to
$-\\ln p$ ($-\\ln 1 = 0$) but still counts in the denominator $N$, so it lowers the mean.
:::

**2.** What happens with `lib.perplexity([0.5, 0.0])`? By the formula, what is this text's
perplexity? Why does a bigram model need add-$k$ smoothing while a neural model hardly does?

:::{dropdown} Solution
`lib` refuses it and says why: probabilities must lie in $(0, 1]$. By the formula
$-\\ln 0 = \\infty$, so the perplexity is infinite: one token judged impossible makes the whole
text "impossible". A bigram model estimated by counting gives 0 to every word pair it never saw,
hence the added $k$. A neural model's probabilities come from a softmax, and $e^{z} > 0$: every
token gets a probability above 0, however small.
:::

**3.** Tokenizer A cuts a text into 12 tokens, and a model's perplexity on it is 3. Tokenizer B
cuts it into only 8 tokens. Assuming the model spends the same total number of bits on the text,
what is B's per-token perplexity? What does that tell you?

:::{dropdown} Solution
The total is $12 \\log_2 3 \\approx 19.02$ bits. Spread over 8 tokens, that is
$19.02 / 8 \\approx 2.38$ bits each, a perplexity of $2^{2.38} = 3^{12/8} \\approx 5.20$. An equally
good model, a different tokenizer, and the per-token perplexity goes from 3 to 5.2: perplexities
compare only under one tokenizer, whereas total bits and bits per byte are unaffected.
:::

**4.** A large model scores almost perfectly on a public benchmark. Name two ways to check whether
the score comes from contamination.

:::{dropdown} Solution
For example: (1) search the training corpus for long fragments of the test items (n-gram
overlap) and count how many appear verbatim; (2) write a fresh batch of items of the same kind
that surely appeared after the training cut-off (or, as this book does, rewrite old items with
noun pairs never seen together) and compare the scores on old and new; a large gap is a sign of
memory. (3) Compare the model's perplexity on the test items and on paraphrases: text it has seen
gets a conspicuously low perplexity, like the training sentences in section 6.5.
:::

**5. (coding)** Write a base-2 perplexity: compute each token's bits $-\\log_2 p$, average them to
get $H_2$, and return $2^{H_2}$. It should agree with `lib.perplexity`.
""",
)

ch.code(
    """
def perplexity_base2(p_true):
    p = np.asarray(p_true, dtype=float)
    bits = np.zeros_like(p)        # TODO: the bits of each token, -log2 p
    return 0.0                     # TODO: 2 to the power of the mean bits

lib.check(perplexity_base2([0.9, 0.5, 0.05, 0.6]), lib.perplexity([0.9, 0.5, 0.05, 0.6]),
          hint="bits = -np.log2(p); return 2 ** bits.mean()");
"""
)

ch.md(
    zh="""
:::{dropdown} 解答
```python
def perplexity_base2(p_true):
    p = np.asarray(p_true, dtype=float)
    bits = -np.log2(p)
    return 2 ** bits.mean()
```
$2^{H_2} = 2^{H/\\ln 2} = e^{H}$：底數換了，結果不變。
:::

**6.（程式）** 模型依序給「the」「 cat」「 sat」三個詞元機率 0.5、0.25、0.125。算出整段文字 `"the cat sat"` 的每個位元組的位元數。
""",
    en="""
:::{dropdown} Solution
```python
def perplexity_base2(p_true):
    p = np.asarray(p_true, dtype=float)
    bits = -np.log2(p)
    return 2 ** bits.mean()
```
$2^{H_2} = 2^{H/\\ln 2} = e^{H}$: changing the base changes nothing.
:::

**6. (coding)** A model gives the three tokens "the", " cat", " sat" probabilities 0.5, 0.25 and
0.125. Compute the bits per byte of the whole text `"the cat sat"`.
""",
)

ch.code(
    """
probs = [0.5, 0.25, 0.125]
text = "the cat sat"
total_bits = 0.0                   # TODO: the sum of -log2 p
n_bytes = 1                        # TODO: the UTF-8 bytes of text
bpb = total_bits / n_bytes

lib.check(bpb, lib.figures.evaluation.bits_per_byte(-np.log2(probs).sum(), text),
          hint="total_bits = -np.log2(probs).sum(); n_bytes = len(text.encode('utf-8'))");
"""
)

ch.check(
    """
# the numbers the solutions quote
assert round(lib.perplexity([0.2] * 5), 6) == 5 and round(lib.perplexity([0.2] * 4 + [1.0]), 2) == 3.62
assert round(12 * np.log2(3), 2) == 19.02 and round(3 ** (12 / 8), 2) == 5.20
assert len("the cat sat".encode("utf-8")) == 11 and len("貓坐著".encode("utf-8")) == 9
assert round(6 / 11, 3) == 0.545 and round(6 / 9, 3) == 0.667
"""
)

ch.md(
    zh="""
:::{dropdown} 解答
總位元數是 $1 + 2 + 3 = 6$，`"the cat sat"` 有 11 個位元組，所以是 $6 / 11 \\approx 0.545$ 位元／位元組。
```python
total_bits = -np.log2(probs).sum()       # 6.0
n_bytes = len(text.encode("utf-8"))      # 11
```
同一段話寫成中文「貓坐著」只有 9 個位元組（每個漢字 3 個），同樣 6 位元就是每個位元組 0.667 位元：
位元組數也和書寫系統有關。
:::
""",
    en="""
:::{dropdown} Solution
The total is $1 + 2 + 3 = 6$ bits, and `"the cat sat"` has 11 bytes, so $6 / 11 \\approx 0.545$
bits per byte.
```python
total_bits = -np.log2(probs).sum()       # 6.0
n_bytes = len(text.encode("utf-8"))      # 11
```
The same content written in Chinese, 「貓坐著」, is only 9 bytes (3 per character), and the same
6 bits make 0.667 bits per byte: byte counts depend on the writing system too.
:::
""",
)

ch.write()
