"""Chapter 2: position embeddings (both books)."""
from nbgen import Chapter

ch = Chapter("02-positions")

md = ch.md  # tools/nbgen.py joins wrapped Chinese lines


md(
    zh="""
# 2. 位置嵌入

光知道句子裡有哪些詞還不夠，還得告訴模型每個詞排第幾。否則「狗咬人」和「人咬狗」，對模型來說沒有分別。
""",
    en="""
# 2. Position embeddings

Knowing which words a sentence contains is not enough: the model must also be told where each
word stands. Otherwise "dog bites man" and "man bites dog" look the same to it.
""",
)

ch.bootstrap()

md(
    zh="""
**這一章你會學到：**

- 為什麼只有詞嵌入的模型看到的是「一袋詞」，分不出「狗咬人」和「人咬狗」；
- 位置嵌入像一張座位號碼牌：另學一張位置表 $\\mathbf{E}_{\\text{pos}}$，把座位那一列加到詞嵌入上；
- 查表的代價：訓練時沒坐過的座位，沒有向量可查；
- 用實驗證明：拿掉位置的小模型，在 Winograd 句對上只能亂猜。
""",
    en="""
**In this chapter you will learn:**

- why a model with word embeddings alone sees a "bag of words" and cannot tell "dog bites man"
  from "man bites dog";
- that a position embedding is a seat number: a second table $\\mathbf{E}_{\\text{pos}}$ whose
  row for the seat is added to the word embedding;
- the price of a table: a seat never used in training has no vector;
- by experiment: the tiny model without positions can only guess on the Winograd pairs.
""",
)

ch.code(
    """
import inspect
from collections import Counter
from functools import partial
import numpy as np
import lib.figures.positions
"""
)

md(
    zh="""
## 狗咬人，還是人咬狗？

「狗咬人」不是新聞，「人咬狗」就是。兩句用的是同樣三個詞，只是主詞和受詞對調。
把它們換成第 1 章的詞嵌入，得到的是**同樣三列**，只是順序不同。這裡借用第 3 章手算會用到的 $d = 2$ 小例子：
""",
    en="""
## Dog bites man, or man bites dog?

"Dog bites man" is not news; "man bites dog" is. Both use the same three words, with subject and
object swapped. Turned into embeddings as in chapter 1, they give the **same three rows** in a
different order. We borrow the small $d = 2$ example that chapter 3 computes by hand:
""",
)

ch.code(
    """
vocab = {"狗": 0, "咬": 1, "人": 2}           # dog, bites, man
E_dog = np.array([[1.0, 0.2],                  # 狗 dog
                  [0.0, 1.0],                  # 咬 bites
                  [0.8, 0.6]])                 # 人 man      [|V|, d] = [3, 2]
dog_bites_man = ["狗", "咬", "人"]
man_bites_dog = ["人", "咬", "狗"]
X1 = lib.embed([vocab[w] for w in dog_bites_man], E_dog)    # [N, d] = [3, 2]
X2 = lib.embed([vocab[w] for w in man_bites_dog], E_dog)
print(X1, "\\n")
print(X2)
print("same bag of words:", Counter(dog_bites_man) == Counter(man_bites_dog))
"""
)

ch.check(
    """
assert Counter(dog_bites_man) == Counter(man_bites_dog)
assert np.allclose(X1[[2, 1, 0]], X2)
assert np.allclose(X1.sum(axis=0), X2.sum(axis=0))
"""
)

ch.code("lib.figures.positions.plot_bag_of_words(dog_bites_man, man_bites_dog);")

md(
    zh="""
如果模型只在乎「有哪些向量」，不在乎「誰排第幾」（例如把它們加起來），兩句就完全一樣。
下一章會看到，自注意力正是這樣：它只比較「誰和誰相似」，不看「誰坐在哪裡」。
把輸入的順序打亂，輸出只是跟著打亂，內容不變。所以順序必須另外放進向量裡。

## 比喻：座位號碼牌

想像每個詞走進教室時，身上別了一張座位號碼牌。「狗」坐 1 號時是主詞，坐 3 號時是受詞；
詞還是那個詞，號碼牌不同，模型就分得出來。**位置嵌入**（position embedding）就是這張號碼牌：
它把「坐在第幾號」變成一串數字，加到詞的向量上。
""",
    en="""
If a model only cares *which* vectors there are and not *in what order* (say, it adds them up),
the two sentences are identical. The next chapter shows that self-attention behaves exactly like
that: it compares who is similar to whom, not who sits where. Shuffle the input and the output
is merely shuffled the same way. So the order has to be put into the vectors themselves.

## The analogy: seat numbers

Imagine that every word entering the classroom wears a badge with a seat number. 「狗」 (dog) in
seat 1 is the subject, in seat 3 the object: the word is the same, the badge differs, and the
model can tell them apart. A **position embedding** is that badge: it turns "sits in seat
number so-and-so" into a list of numbers and adds it to the word's vector.
""",
)

md(
    zh=r"""
(def-position-embedding)=
## 位置嵌入：再學一張表

最直接的做法是**絕對位置嵌入**：另學一張位置嵌入矩陣 $\mathbf{E}_{\text{pos}}$，形狀 $[N_{\max} \times d]$，
每個座位一列，和詞嵌入一樣從亂數開始訓練。第 $i$ 號座位上的詞元 $w_i$，送進模型的向量是

$$
\mathbf{x}_i = \mathbf{E}[w_i] + \mathbf{E}_{\text{pos}}[i].
$$

查位置那一列，和查詞那一列是同一件事：座位號碼就是這張表的編號，所以同樣可以用 `lib.embed`。
兩者相加而不是接在一起，寬度仍然是 $d$。BERT {cite}`devlin2019bert` 和 GPT-2 {cite}`radford2019language` 用的就是這種學出來的位置表。

**算算看。** 沿用第 1 章 4 個詞元的 $\mathbf{E}$，「它」的詞嵌入是 $[0.2, 0.7, 0.5]$。
假設「它」坐在第 11 號，而 $\mathbf{E}_{\text{pos}}$ 的第 11 列是 $[0.1, -0.2, 0.0]$。
位置表的其他列，這裡用亂數代替訓練好的數字（座位和編號一樣從 0 數起，這張表有 0 到 11 號，共 12 個座位）：
""",
    en=r"""
(def-position-embedding)=
## Position embeddings: one more table

The most direct way is an **absolute position embedding**: learn a second matrix
$\mathbf{E}_{\text{pos}}$ of shape $[N_{\max} \times d]$, one row per seat, trained from random
numbers just like the word embeddings. The token $w_i$ in seat $i$ enters the model as

$$
\mathbf{x}_i = \mathbf{E}[w_i] + \mathbf{E}_{\text{pos}}[i].
$$

Looking up the seat's row is the same operation as looking up the word's row: the seat number is
the id into this table, so `lib.embed` serves again. The two are added, not concatenated, so the
width stays $d$. BERT {cite}`devlin2019bert` and GPT-2 {cite}`radford2019language` use such a
learned table of positions.

**Work it out.** Keep chapter 1's four-token $\mathbf{E}$: the embedding of 「它」 ("it") is
$[0.2, 0.7, 0.5]$. Suppose "it" sits in seat 11 and row 11 of $\mathbf{E}_{\text{pos}}$ is
$[0.1, -0.2, 0.0]$. The other rows stand in for trained numbers with random ones (seats count
from 0 like ids; this table has seats 0 to 11, twelve in all):
""",
)

ch.code(
    """
E = np.array([[0.9, 0.1, 0.4],        # 0 獎盃 trophy
              [0.3, 0.8, 0.6],        # 1 行李箱 suitcase
              [0.2, 0.7, 0.5],        # 2 它 it
              [0.7, 0.4, 0.7]])       # 3 大 big             E: [|V|, d] = [4, 3]
max_len = 12
rng = np.random.default_rng(2)
E_pos = rng.normal(0.0, 0.15, size=(max_len, 3)).round(1)   # [max_len, d]
E_pos[11] = [0.1, -0.2, 0.0]          # the notes' row for seat 11

x_word = lib.embed(2, E)             # 它 / it          [d]
x_seat11 = x_word + lib.embed(11, E_pos)
x_seat3 = x_word + lib.embed(3, E_pos)
print("word:           ", x_word)
print("word + seat 11: ", x_seat11)
print("word + seat 3:  ", x_seat3)
"""
)

ch.check(
    """
assert np.allclose(x_word, [0.2, 0.7, 0.5])
assert np.allclose(E_pos[11], [0.1, -0.2, 0.0])
assert np.allclose(x_seat11, [0.3, 0.5, 0.5])
assert not np.allclose(x_seat11, x_seat3)
"""
)

ch.glue(
    """
def _vec(v):
    return "[" + ", ".join(f"{x:.1f}" for x in np.asarray(v) + 0.0) + "]"
lib.glue("x_seat11", _vec(x_seat11))
lib.glue("x_seat3", _vec(x_seat3))
lib.glue("pos3", _vec(E_pos[3]))
lib.glue("max_len", max_len)
lib.glue("last_seat", max_len - 1)
"""
)

ch.code(
    """
it = lib.tr(zh="它", en="it")
lib.figures.positions.plot_position_add(x_word, E_pos[11], it, 11);
"""
)

md(
    zh="""
$[0.2, 0.7, 0.5] + [0.1, -0.2, 0.0] =$ {glue:text}`x_seat11`。同一個「它」換到第 3 號，
加上的是另一列 {glue:text}`pos3`，得到 {glue:text}`x_seat3`。詞沒變，座位變了，向量也就變了。
拉動下面的滑桿，讓「它」換座位：
""",
    en="""
$[0.2, 0.7, 0.5] + [0.1, -0.2, 0.0] =$ {glue:text}`x_seat11`. The same "it" moved to seat 3
gets another row, {glue:text}`pos3`, and becomes {glue:text}`x_seat3`. Same word, new seat, new
vector. Move the slider to give "it" another seat:
""",
)

ch.code(
    """
draw = partial(lib.figures.positions.plot_seat, E_pos, x_word, it)
seats = [0, 3, 6, 9, 11, max_len]     # max_len: one seat past the table
lib.widgets.frames_widget(draw, {"seat": seats},
                          labels={"seat": lib.tr(zh="座位", en="seat")})
"""
)

md(
    zh="""
## 限制：沒坐過的座位，沒有向量

滑桿的最後一格是第 {glue:text}`max_len` 號。這張表只有 {glue:text}`max_len` 列（0 到 {glue:text}`last_seat` 號），
第 {glue:text}`max_len` 號根本沒有那一列。`lib.embed` 會拒絕這個編號，並說明原因（對位置表來說，
「詞彙表」就是座位）：
""",
    en="""
## The limit: a seat never used has no vector

The last step of the slider is seat {glue:text}`max_len`. The table has only
{glue:text}`max_len` rows (seats 0 to {glue:text}`last_seat`): seat {glue:text}`max_len` has no
row at all. `lib.embed` refuses that id and says why (for a position table, the "vocabulary" is
the set of seats):
""",
)

ch.code(
    """
try:
    lib.embed(max_len, E_pos)
except ValueError as err:
    print("ValueError:", err)
"""
)

ch.check(
    """
try:
    lib.embed(12, E_pos)
    raise AssertionError("lib.embed accepted seat 12")
except ValueError as err:
    assert "0 … 11" in str(err), err
"""
)

md(
    zh="""
真正的模型也一樣：位置表在訓練前就決定了列數，訓練時從沒用過的座位，要嘛沒有列，要嘛只有一列沒練過的亂數。
上下文長度因此被這張表卡住。本書的小編碼器也有一張這樣的表：
""",
    en="""
Real models are no different: the number of rows is fixed before training, and a seat never used
in training either has no row or has a row of untrained random numbers. The context length is
capped by this table. The book's tiny encoder has such a table too:
""",
)

ch.code(
    """
params, cfg, info = lib.tiny_models.load("encoder")
print("word table E:    ", params["E"].shape)     # [|V|, d]
print("position table P:", params["P"].shape)     # [max_len, d]
"""
)

md(
    zh="""
本書語料裡的句子有幾種長度？位置表的每一列，訓練前後差了多少？`init_params` 用同一個亂數種子，可以重建訓練開始前的那張表：
""",
    en="""
How long are the sentences of the book's corpus, and how far did each row of the position table
move in training? `init_params` with the same random seed rebuilds the table as it was before
training:
""",
)

ch.code(
    """
lengths = Counter(len(e.tokens) for e in lib.corpus.examples(split="train"))
print("sentence lengths in training:", dict(sorted(lengths.items())))
P_start = lib.tiny_models.init_params(cfg, seed=info["seed"])["P"]  # before
P_end = params["P"]                                # after  [max_len, d]
norm = partial(np.linalg.norm, axis=1)
change = norm(P_end - P_start) / norm(P_start)      # [max_len]
lib.figures.positions.plot_position_change(change, n_seen=max(lengths));
"""
)

ch.check(
    """
n_seen = max(lengths)
assert n_seen < cfg.max_len
assert change[n_seen:].max() < 0.05 < change[:n_seen].min()
cos = (P_end * P_start).sum(1) / np.linalg.norm(P_end, axis=1) / np.linalg.norm(P_start, axis=1)
assert np.allclose(cos[n_seen:], 1.0, atol=1e-4)
"""
)

ch.glue(
    """
lib.glue("tiny_max_len", int(cfg.max_len))
lib.glue("tiny_last_seat", int(cfg.max_len) - 1)
lib.glue("tiny_d", int(cfg.d))
lib.glue("tiny_layers", int(cfg.n_layers))
lib.glue("tiny_heads", int(cfg.n_heads))
lib.glue("longest", int(max(lengths)))
lib.glue("first_unseen", int(max(lengths)))
lib.glue("unused_change", float(change[max(lengths):].max()))
lib.glue("used_change_min", float(change[:max(lengths)].min()))
"""
)

md(
    zh="""
這張表有 {glue:text}`tiny_max_len` 列，可是訓練語料裡最長的句子只有 {glue:text}`longest` 個詞元，
第 {glue:text}`first_unseen` 到 {glue:text}`tiny_last_seat` 號從沒坐過人。坐過人的座位，每一列至少改了
{glue:text}`used_change_min:.0%`；沒坐過的那幾列頂多改了 {glue:text}`unused_change:.0%`，
方向完全沒變，只是被權重衰減（weight decay）等比例縮小了一點：它們從沒收到梯度，仍然是開始時的亂數。
表裡雖然有這幾列，模型卻從沒學過怎麼用它們，所以就算句子只長一點點，小模型的表現也沒有保證。

要讀更長的句子，就得換一種不必查表的做法。第 3 章會介紹兩種：固定的正弦位置編碼（{ref}`def-sinusoidal`），
以及把位置寫進內積、只看相對距離的旋轉位置編碼 RoPE（{ref}`def-rope`）。

## 證明：拿掉位置的小模型只能亂猜

說「沒有位置就分不出順序」是一回事，實際量一次是另一回事。本書的語料裡，每一對名詞都以**兩種順序**出現：
""",
    en="""
The table has {glue:text}`tiny_max_len` rows, but the longest training sentence has only
{glue:text}`longest` tokens: seats {glue:text}`first_unseen` to {glue:text}`tiny_last_seat` were
never used. Every row of a used seat changed by at least {glue:text}`used_change_min:.0%`; the
unused rows changed by at most {glue:text}`unused_change:.0%`, without turning at all, merely
shrunk a little by weight decay. They never received a gradient and are still the random numbers
they started as. The rows exist, but the model never learned to use them, so even a slightly
longer sentence comes with no guarantee.

Reading longer sentences takes a way that needs no table. Chapter 3 introduces two: the fixed
sinusoidal encoding ({ref}`def-sinusoidal`), and rotary position embedding, RoPE, which writes
positions into the dot product so that only relative distances count ({ref}`def-rope`).

## The proof: without positions, the tiny model can only guess

Saying "without positions the order is lost" is one thing; measuring it is another. In the book's
corpus every pair of nouns occurs in **both orders**:
""",
)

ch.code(
    """
big, small = lib.corpus.canonical_pair(LANG)
a, b = lib.corpus.nouns_of(big, LANG)        # the two candidate nouns
swapped = [b if t == a else a if t == b else t for t in big]
print(" ".join(big))
print(" ".join(swapped))
print("same bag of words:", Counter(big) == Counter(swapped))
"""
)

ch.check(
    """
assert Counter(big) == Counter(swapped) and big != swapped
assert lib.corpus.tokenize(swapped, LANG) == swapped      # the swapped sentence is in the corpus vocabulary
"""
)

ch.glue(
    """
lib.glue("noun_a", a)
lib.glue("noun_b", b)
"""
)

md(
    zh="""
第一句的「它」指{glue:text}`noun_a`（太大的是放不進去的那個），第二句的「它」指{glue:text}`noun_b`。
可是兩句是同一袋詞：對沒有位置的模型來說，兩個輸入只是同樣幾列換了順序，它分不出來，只能給出相同的答案，一定錯一句。
下面比較兩個架構相同的小編碼器（{glue:text}`tiny_layers` 層、每層 {glue:text}`tiny_heads` 個頭、寬度 {glue:text}`tiny_d`），唯一的差別是有沒有位置表。
兩個都訓練好了，隨書發布；這裡只在它們訓練時沒看過的名詞組合上，數答對的比例：
""",
    en="""
In the first sentence "it" is the {glue:text}`noun_a` (the thing that is too big is the one that
does not fit); in the second it is the {glue:text}`noun_b`. Yet the two are the same bag of
words: to a model without positions the two inputs are the same rows in another order, which it
cannot tell apart, so it must give identical answers and gets one of them wrong. Below we compare two tiny encoders with the same architecture ({glue:text}`tiny_layers`
layers, {glue:text}`tiny_heads` heads each, width {glue:text}`tiny_d`) that differ only in the position table. Both
ship trained with the book; we count how often each is right on noun pairs it never saw in
training:
""",
)

ch.code(
    """
with_pos = lib.tr(zh="有位置嵌入", en="with positions")
no_pos = lib.tr(zh="沒有位置嵌入", en="without positions")
langs = {"zh": lib.tr(zh="中文", en="Chinese"),
         "en": lib.tr(zh="英文", en="English")}
models = {with_pos: "encoder", no_pos: "encoder_nopos"}
accuracy = {label: {name: lib.winograd.heldout_accuracy(lg, model=model)
                    for lg, name in langs.items()}
            for label, model in models.items()}
for label, row in accuracy.items():
    print(label, {k: round(v, 3) for k, v in row.items()})
"""
)

ch.glue(
    """
lib.glue("acc_pos_zh", accuracy[with_pos][langs["zh"]])
lib.glue("acc_pos_en", accuracy[with_pos][langs["en"]])
lib.glue("acc_nopos_zh", accuracy[no_pos][langs["zh"]])
lib.glue("acc_nopos_en", accuracy[no_pos][langs["en"]])
"""
)

ch.check(
    """
cfg_nopos = lib.tiny_models.load("encoder_nopos")[1]
assert cfg.positions and not cfg_nopos.positions
assert cfg_nopos == cfg.__class__(**{**vars(cfg), "positions": False})   # all else the same
for lg in langs.values():
    assert accuracy[with_pos][lg] > 0.9, accuracy
    assert abs(accuracy[no_pos][lg] - 0.5) < 1e-9, accuracy   # every bag has a twin
"""
)

ch.code("lib.figures.positions.plot_ablation(accuracy);")

md(
    zh="""
有位置的模型答對 {glue:text}`acc_pos_zh:.0%`（中文）和 {glue:text}`acc_pos_en:.0%`（英文）；
沒有位置的模型只有 {glue:text}`acc_nopos_zh:.0%` 和 {glue:text}`acc_nopos_en:.0%`，和亂猜一樣。
為什麼？看看例句本身，以及名詞對調後的那一句：
""",
    en="""
The model with positions is right {glue:text}`acc_pos_zh:.0%` of the time in Chinese and
{glue:text}`acc_pos_en:.0%` in English; the one without positions only
{glue:text}`acc_nopos_zh:.0%` and {glue:text}`acc_nopos_en:.0%`, what guessing gives. Why?
Look at the running example itself, and at the sentence with its nouns swapped:
""",
)

ch.code(
    """
readings = {}
for label, model in models.items():
    for sentence in (big, swapped):
        r = lib.winograd.resolve(sentence, LANG, model=model)
        readings[model, tuple(sentence)] = r
        probs = ", ".join(f"{noun} {p:.3f}" for noun, p in r.probs.items())
        print(f"{label}: {' '.join(sentence)} -> {r.referent}   ({probs})")
"""
)

ch.check(
    """
r_big, r_swap = readings["encoder", tuple(big)], readings["encoder", tuple(swapped)]
assert r_big.referent == a and r_swap.referent == b
n_big, n_swap = readings["encoder_nopos", tuple(big)], readings["encoder_nopos", tuple(swapped)]
assert np.isclose(n_big.probs[a], n_swap.probs[a]) and n_big.referent == n_swap.referent
"""
)

ch.glue(
    """
lib.glue("pos_big_a", r_big.probs[a])
lib.glue("pos_swap_b", r_swap.probs[b])
lib.glue("nopos_a", n_big.probs[a])
lib.glue("nopos_referent", n_big.referent)
"""
)

md(
    zh="""
有位置的模型兩句都答對：第一句給{glue:text}`noun_a` {glue:text}`pos_big_a:.3f`，名詞一對調，改給{glue:text}`noun_b` {glue:text}`pos_swap_b:.3f`。
沒有位置的模型給兩句**一模一樣**的機率（{glue:text}`noun_a`都是 {glue:text}`nopos_a:.3f`），兩句都回答「{glue:text}`nopos_referent`」，
所以必定錯一句。這不是訓練不夠：兩個輸入是同一袋詞，再怎麼訓練也分不開。
留下來的每一句都有這樣一個「雙胞胎」：同一袋詞、相反的答案。所以不論怎麼訓練，沒有位置的模型都剛好對一半，
上面的 {glue:text}`acc_nopos_zh:.0%` 不是巧合。

詞嵌入說「這是哪些詞」，位置嵌入說「它們坐在哪裡」，兩者相加之後，注意力就有足夠的資訊判斷「它」指的是誰。

## 小結

- 只有詞嵌入的輸入是一袋詞：「狗咬人」和「人咬狗」是同樣幾列，只是順序不同，而注意力本身不看順序。
- 絕對位置嵌入另學一張表 $\\mathbf{E}_{\\text{pos}}$（$[N_{\\max} \\times d]$），輸入是
  $\\mathbf{x}_i = \\mathbf{E}[w_i] + \\mathbf{E}_{\\text{pos}}[i]$。「它」坐第 11 號：$[0.2, 0.7, 0.5] + [0.1, -0.2, 0.0] =$ {glue:text}`x_seat11`。
- 表有幾列，模型就只能讀幾個位置：沒坐過的座位沒有向量。不查表的正弦編碼和 RoPE 在第 3 章。
- 拿掉位置，小編碼器在兩種名詞順序都有的 Winograd 句對上掉到亂猜的水準。
""",
    en="""
The model with positions gets both right: {glue:text}`pos_big_a:.3f` for the {glue:text}`noun_a`
in the first sentence; swap the nouns and it gives {glue:text}`pos_swap_b:.3f` to the
{glue:text}`noun_b`. The model without positions gives the two sentences **exactly the same**
probabilities ({glue:text}`nopos_a:.3f` for the {glue:text}`noun_a` in both) and answers
"{glue:text}`nopos_referent`" twice, so it must get one wrong. More training would not help: the
two inputs are the same bag of words. Every held-out sentence has such a twin, the same bag of
words with the opposite answer, so however it is trained, a model without positions is right on
exactly half of them: the {glue:text}`acc_nopos_en:.0%` above is no accident.

Word embeddings say *which* words; position embeddings say *where* they sit. Only with both added
together does attention have enough to decide what "it" refers to.

## Summary

- With word embeddings alone the input is a bag of words: "dog bites man" and "man bites dog"
  are the same rows in another order, and attention itself ignores order.
- An absolute position embedding learns a second table $\\mathbf{E}_{\\text{pos}}$
  ($[N_{\\max} \\times d]$); the input is $\\mathbf{x}_i = \\mathbf{E}[w_i] + \\mathbf{E}_{\\text{pos}}[i]$.
  "It" in seat 11: $[0.2, 0.7, 0.5] + [0.1, -0.2, 0.0] =$ {glue:text}`x_seat11`.
- A table with so many rows reads so many positions: a seat never used has no vector. The
  sinusoidal encoding and RoPE, which need no table, come in chapter 3.
- Without positions, the tiny encoder falls to chance on Winograd pairs that occur in both noun
  orders.
""",
)

ch.glue(
    """
lib.glue("ex_pos_params", 512 * 768)
X_expected = E[[0, 1, 2, 3]] + E_pos[:4]      # exercise 2's answer, kept out of its cell
"""
)

md(
    zh="""
## 練習

**1.** 沿用上面的 $\\mathbf{E}$ 和 $\\mathbf{E}_{\\text{pos}}$，「它」坐在第 3 號時，送進模型的向量是多少？

:::{dropdown} 解答
第 3 列是 {glue:text}`pos3`，所以 $[0.2, 0.7, 0.5] +$ {glue:text}`pos3` $=$ {glue:text}`x_seat3`。
:::

**2.**（程式）句子「獎盃 行李箱 它 大」的編號是 `[0, 1, 2, 3]`，坐在 0 到 3 號。算出送進模型的矩陣
$\\mathbf{X}$（形狀 $[4 \\times 3]$）：改寫下面那格的 `X`，再執行檢查。
""",
    en="""
## Exercises

**1.** With $\\mathbf{E}$ and $\\mathbf{E}_{\\text{pos}}$ above, what vector enters the model when
"it" sits in seat 3?

:::{dropdown} Solution
Row 3 is {glue:text}`pos3`, so $[0.2, 0.7, 0.5] +$ {glue:text}`pos3` $=$ {glue:text}`x_seat3`.
:::

**2.** (Code) The sentence "trophy suitcase it big" has ids `[0, 1, 2, 3]` in seats 0 to 3.
Compute the matrix $\\mathbf{X}$ (shape $[4 \\times 3]$) that enters the model: change `X` in the
cell below, then run the check.
""",
)

ch.code(
    """
ids = [0, 1, 2, 3]
X = lib.embed(ids, E)     # TODO: this is only the words; add each seat's row
hint = lib.tr(zh="提示：位置表也用 lib.embed 查，座位號碼就是編號。",
              en="Hint: look up the seats with lib.embed too; a seat is an id.")
lib.check(X, X_expected, hint=hint);
"""
)

md(
    zh="""
:::{dropdown} 解答
```python
X = lib.embed(ids, E) + lib.embed(np.arange(len(ids)), E_pos)   # 或 E[ids] + E_pos[:4]
```
:::

**3.** 假如語料裡每一對名詞只以**一種順序**出現（例如永遠是「獎盃放不進行李箱」，從不對調），
沒有位置的模型在訓練資料上還會只能亂猜嗎？這說明本書的語料為什麼要兩種順序都放？

:::{dropdown} 解答
不一定。只有一種順序時，每一對名詞和「大」「小」的組合只對應一個答案，模型可以死記「這兩個名詞加上『大』，答案是獎盃」，
甚至從名詞本身猜（「獎盃」總是放進去的那個）。這些捷徑不需要知道順序。
把兩種順序都放進語料，同一袋詞就對應兩個不同的答案，捷徑失效，只有看得到位置的模型才答得對。
所以這個實驗量到的，確實是「位置」的作用。
:::

**4.** 一個模型的位置表有 512 列、寬度 $d = 768$。這張表有幾個參數？給它一份 600 個詞元的文件，會發生什麼事？

:::{dropdown} 解答
$512 \\times 768 =$ {glue:text}`ex_pos_params:,` 個參數。第 512 號以後沒有列可查，模型讀不了完整的文件：
只能截斷，或切成幾段分別讀（段與段之間的關係就看不到了）。第 3 章的正弦編碼和 RoPE 用公式算出位置，不受表的列數限制，
不過模型在沒練過的長度上表現好不好，是另一回事。
:::
""",
    en="""
:::{dropdown} Solution
```python
X = lib.embed(ids, E) + lib.embed(np.arange(len(ids)), E_pos)   # or E[ids] + E_pos[:4]
```
:::

**3.** Suppose every noun pair in the corpus occurred in **one order** only (always "the trophy
doesn't fit into the suitcase", never swapped). Would the model without positions still only
guess on its training data? What does this say about why the book's corpus contains both orders?

:::{dropdown} Solution
Not necessarily. With a single order, each combination of two nouns and big/small has one answer,
so the model can memorise "these two nouns plus *big*: the trophy", or even guess from the nouns
themselves ("trophy" is always the thing put inside). None of these shortcuts needs the order.
With both orders in the corpus, the same bag of words has two different answers, the shortcuts
fail, and only a model that sees positions can be right. So the experiment really measures what
positions contribute.
:::

**4.** A model's position table has 512 rows and width $d = 768$. How many parameters does it
hold? What happens when it is given a document of 600 tokens?

:::{dropdown} Solution
$512 \\times 768 =$ {glue:text}`ex_pos_params:,` parameters. From seat 512 on there is no row to
look up, so the model cannot read the whole document: it must truncate it, or read it in pieces
(and then it cannot relate one piece to another). The sinusoidal encoding and RoPE of chapter 3
compute positions from a formula, so no table limits them, though how well a model does at
lengths it never trained on is another question.
:::
""",
)

ch.write()
