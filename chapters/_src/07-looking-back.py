"""Chapter 7: a linguistic look back, the attention heatmaps, surprisal and the summary (both books)."""
from nbgen import Chapter

ch = Chapter("07-looking-back")

ch.md(zh="# 7. 語言學回望與小結", en="# 7. Looking back: linguistics, and a summary")

ch.bootstrap()

ch.code(
    """
import numpy as np
import lib.figures.heatmaps
import lib.winograd
"""
)

ch.md(
    zh="""
走完五站之後，這一章退後一步，用語言學的眼光回頭看：Transformer 做的事，和語言學家早就在談的「詞義」「語序」「預期」有什麼關係？
然後打開本書小編碼器的每一個注意力頭，看它在獎盃與行李箱的句對上到底看向哪裡，並且動手檢驗：看向哪裡，是否等於靠哪裡做判斷。

**本章你會學到**

- Firth 的「觀其伴，知其義」，以及注意力如何把它變成當下的計算；
- 為什麼「狗咬人」和「人咬狗」的差別全靠位置，RoPE 的相對距離又和依存距離有什麼關係；
- 讀注意力熱圖、注意力展開（rollout），並追蹤模型實際走的路線；
- 為什麼注意力是線索而不是解釋：一次關掉一個頭，量出哪個頭真的重要；
- 驚奇度：模型在句子的哪裡感到意外；
- 把例句沿著五站再走一遍，以及全書的一句話小結。
""",
    en="""
With all five stations behind us, this chapter steps back and looks again through a linguist's
eyes: how does what a Transformer does relate to what linguists have long said about meaning,
word order and expectation? Then we open every attention head of the book's tiny encoder, see
where it really looks on the trophy-and-suitcase pair, and test by experiment whether where it
looks is what it relies on.

**What you will learn**

- Firth's "you shall know a word by the company it keeps", and how attention turns it into a
  computation made on the spot;
- why "dog bites man" and "man bites dog" differ only by position, and how RoPE's relative
  distance relates to dependency distance;
- to read attention heatmaps and attention rollout, and to trace the route the model really took;
- why attention is a clue and not an explanation: switch off one head at a time and measure
  which heads matter;
- surprisal: where in the sentence the model is surprised;
- to walk the example sentence back through the five stations, and the book in one sentence.
""",
)

# ------------------------------------------------------------------------ 7.1 Firth
ch.md(
    zh="""
## 7.1 分佈語意學動起來了

語言學家 Firth 有一句常被引用的話：要認識一個詞，就看它和誰作伴 {cite}`firth1957synopsis`。
這就是**分佈語意學**：詞義藏在它出現的上下文裡。word2vec 這類靜態詞向量 {cite}`mikolov2013efficient` 把這個想法做成了一本辭典：
掃過整個語料庫，把一個詞所有的「同伴」累積成**一個**平均值，一詞一條。

注意力把同一個想法改寫成**當下的計算**：詞義不是查表查出來的，而是由此刻身旁的詞共同決定。
用小編碼器驗證：兩句的「它」在輸入時是同一個向量（同一個詞、同一個座位）；它們在哪一層分開？
下面逐層算兩個「它」向量的餘弦相似度：
""",
    en="""
## 7.1 Distributional semantics, set in motion

The linguist Firth left a much-quoted line: you shall know a word by the company it keeps
{cite}`firth1957synopsis`. That is **distributional semantics**: a word's meaning lives in the
contexts it occurs in. Static word vectors such as word2vec {cite}`mikolov2013efficient` turned
the idea into a dictionary: sweep the whole corpus and accumulate all the "company" of a word
into **one** average, one entry per word.

Attention rewrites the same idea as a **computation made on the spot**: meaning is not looked up,
it is decided by the words around it right now. Let us check it on the tiny encoder: the two
"it"s start as the same vector (same word, same seat); in which layer do they part? Here is the
cosine similarity of the two "it" vectors, layer by layer:
""",
)

ch.code(
    """
big, small = lib.winograd.canonical_pair(LANG)
r_big, r_small = lib.winograd.resolve(big, LANG), lib.winograd.resolve(small, LANG)
p = r_big.pronoun_index
for layer in range(r_big.hidden.shape[0]):
    a, b = r_big.hidden[layer, p], r_small.hidden[layer, p]
    print(f"layer {layer}: cosine = {a @ b / np.linalg.norm(a) / np.linalg.norm(b):.4f}")
"""
)

ch.hidden(
    """
def _cos(a, b):
    return float(a @ b / np.linalg.norm(a) / np.linalg.norm(b))

L = r_big.attention.shape[0]
cos_layers = [_cos(r_big.hidden[l, p], r_small.hidden[l, p]) for l in range(L + 1)]
lib.glue("cos_input", cos_layers[0])
lib.glue("cos_top", cos_layers[-1])
lib.glue("cos_layer1", cos_layers[1])
lib.glue("n_layers", int(L));
"""
)

ch.check(
    """
assert abs(cos_layers[0] - 1) < 1e-12          # same word, same seat: the same input vector
assert cos_layers[-1] < cos_layers[0] - 0.05    # the context pushed them apart
assert cos_layers[-1] < cos_layers[1] < 1 - 1e-6         # they part, further in layer 2
assert 1 - cos_layers[1] < cos_layers[1] - cos_layers[2]  # "most of the parting happens in layer 2"
"""
)

ch.md(
    zh="""
輸入層的相似度是 {glue:text}`cos_input:.4f`：兩個「它」一模一樣。第 1 層之後是 {glue:text}`cos_layer1:.4f`，第 {glue:text}`n_layers:d` 層之後降到 {glue:text}`cos_top:.4f`：大部分的分離發生在第 2 層。第 1 層裡，「它」能讀到的差別只有「大」或「小」這個字本身；要等第 2 層，才讀得到形容詞在第 1 層從名詞那裡收集來的訊息（7.3 節會量這條路線）。
辭典裡只有一個「它」，句子裡卻有兩個：一個讀過「大」，一個讀過「小」。
""",
    en="""
At the input the similarity is {glue:text}`cos_input:.4f`: the two "it"s are identical. After
layer 1 it is {glue:text}`cos_layer1:.4f`, after layer {glue:text}`n_layers:d`
{glue:text}`cos_top:.4f`: most of the parting happens in layer 2. In layer 1, the only difference
"it" can read is the word "big" or "small" itself; only in
layer 2 can it read what the adjective gathered from the nouns in layer 1 (section 7.3 measures
this route). The dictionary holds
one "it"; the sentences hold two, one that has read "big" and one that has read "small".
""",
)

# --------------------------------------------------------------------- 7.2 word order
ch.md(
    zh="""
## 7.2 語序與位置

漢語幾乎沒有詞形變化，「狗咬人」和「人咬狗」用的是同樣三個字，差別幾乎全落在**位置**上。
第 3 章證明過：不加位置的注意力對詞序{term}`置換等變 <置換等變（permutation equivariance）>`，看到的只是一袋詞。本書的語料特意讓兩個名詞都可能排在前面
（也有「行李箱放不進獎盃」），所以「它」指誰，取決於哪個名詞先出現。把位置嵌入拿掉，編碼器就只能亂猜：
""",
    en="""
## 7.2 Word order and positions

Chinese has almost no inflection: 狗咬人 "dog bites man" and 人咬狗 "man bites dog" use the same
three characters, and the difference lies almost entirely in **position**. Chapter 3 proved that
attention without positions is {term}`permutation-equivariant <permutation equivariance（置換等變）>`: it sees a bag of words. The book's corpus
lets either noun come first on purpose ("the suitcase doesn't fit into the trophy" is there too),
so what "it" refers to depends on which noun comes first. Remove the position embeddings and the
encoder can only guess:
""",
)

ch.code(
    """
for model in ("encoder", "encoder_nopos"):
    print(model, {lang: round(lib.winograd.heldout_accuracy(lang, model=model), 3) for lang in ("zh", "en")})
"""
)

ch.hidden(
    """
acc_pos = {lang: float(lib.winograd.heldout_accuracy(lang, model="encoder")) for lang in ("zh", "en")}
acc_nopos = {lang: float(lib.winograd.heldout_accuracy(lang, model="encoder_nopos")) for lang in ("zh", "en")}
for lang in ("zh", "en"):
    lib.glue(f"acc_pos_{lang}", acc_pos[lang])
    lib.glue(f"acc_nopos_{lang}", acc_nopos[lang])
toks = big
ref_noun, other_noun = r_big.referent, r_small.referent
lib.glue("dist_ref", int(p - toks.index(ref_noun)))
lib.glue("dist_other", int(p - toks.index(other_noun)));
"""
)

ch.check(
    """
for lang in ("zh", "en"):
    assert acc_pos[lang] >= 0.9 and acc_nopos[lang] <= 0.65, (acc_pos, acc_nopos)
"""
)

ch.md(
    zh="""
有位置時，保留集答對率是中文 {glue:text}`acc_pos_zh:.1%`、英文 {glue:text}`acc_pos_en:.1%`；
沒有位置時只剩 {glue:text}`acc_nopos_zh:.1%` 與 {glue:text}`acc_nopos_en:.1%`，和丟銅板差不多。

{term}`RoPE <旋轉位置編碼（RoPE, rotary position embedding）>`（第 3 章）更進一步：它只編碼**相對距離**，注意力分數看的是「隔幾個詞」，不是「坐在第幾號」{cite}`su2024roformer`。
這和語言學裡的**依存距離**很接近：一個詞和它所依附的中心詞隔了多遠。以本章的句子為例，
「它」離先行詞「獎盃」{glue:text}`dist_ref:d` 個詞元，離「行李箱」{glue:text}`dist_other:d` 個詞元；
先行詞並不是比較近的那一個，模型得靠意思，而不是靠距離。至於大型模型是否因此學到類型學意義上的語序規律
（例如動詞和受詞誰先誰後），仍是開放的問題。本書的小編碼器用的是學出來的絕對位置，不是 RoPE。
""",
    en="""
With positions, held-out accuracy is {glue:text}`acc_pos_zh:.1%` in Chinese and
{glue:text}`acc_pos_en:.1%` in English; without them it is only {glue:text}`acc_nopos_zh:.1%` and
{glue:text}`acc_nopos_en:.1%`, about a coin toss.

{term}`RoPE <RoPE, rotary position embedding（旋轉位置編碼）>` (chapter 3) goes further: it encodes only **relative distance**, so attention scores depend
on "how many words apart", not on "which seat" {cite}`su2024roformer`. That is close to the
linguist's **dependency distance**: how far a word sits from the head it depends on. In this
chapter's sentence, "it" is {glue:text}`dist_ref:d` tokens from its antecedent "trophy" and
{glue:text}`dist_other:d` tokens from "suitcase"; the antecedent is not the nearer noun, so the
model must go by meaning, not by distance. Whether large models thereby learn word-order
regularities in the typologist's sense (whether the verb comes before its object, say) is still
an open question. The book's tiny encoder uses learned absolute positions, not RoPE.
""",
)

# ---------------------------------------------------------- 7.3 attention is a clue
ch.md(
    zh=r"""
## 7.3 注意力是線索，不是解釋

有些注意力頭的行為和句法關係相當吻合：在 BERT 裡，有的頭讓受詞看向它的動詞，有的讓代名詞看向它的先行詞
{cite}`clark2019what`。這很誘人：看熱圖，就能讀出模型在想什麼？然而權重高，不代表模型就是依那個詞做判斷
{cite}`jain2019attention`；反過來，權重也不是全無資訊，要看你怎麼檢驗 {cite}`wiegreffe2019attention`。
結構究竟是模型自己長出來的，還是我們讀進去的，要靠**探測**（probe）{cite}`hewitt2019structural` 與**介入**實驗共同回答。
這一節兩件事都做：先看圖，再動手介入。

**怎麼讀熱圖。** 每一列是「看的詞」（查詢），每一欄是「被看的詞」（鍵），每一列加起來是 1；顏色越深，權重越大，每個頭都用同一把尺（白是 0，最深的藍是 1）。紅框是「它」那一列，格子裡標著它的權重。
「差」的畫面是太大句減太小句，尺從 −1 到 1：紅色表示在太大句裡看得比較多，藍色表示在太小句裡看得比較多，白色表示兩句一樣。

(def-attention-rollout)=
### 注意力展開（attention rollout）

單一個頭只是一層裡的一步。要看兩層合起來，「它」最後從哪些輸入詞取得資訊，
可以把各層接起來 {cite}`abnar2020quantifying`：每層先把各頭平均，再加上殘差連線那條「不動」的路（單位矩陣），
每列重新正規化，最後逐層相乘：

$$
\bar{A}_\ell = \operatorname{rownorm}\Big(\frac{1}{A}\sum_{h=1}^{A} A_\ell^{(h)} + 0.5\, I\Big), \qquad
R = \bar{A}_L \cdots \bar{A}_2\, \bar{A}_1 .
$$

$R$ 的第 $i$ 列，就是第 $i$ 個詞在最上層用到各個輸入詞的比例（`lib.attention_rollout`）。
展開圖的份量比單一個頭分散，所以它的三個畫面共用另一把尺：最深的藍，是兩句展開圖裡最大的那個值。

下面的小工具可以切換語言（同一個模型也讀英文句子）、句子（太大、太小、兩者之差），以及第幾層第幾個頭或展開圖。每一格都事先算好，網頁上不需要 Python 也能操作。
比較兩種語言：同一個頭在中文句和英文句裡做的事，未必一樣。
""",
    en=r"""
## 7.3 Attention is a clue, not an explanation

Some attention heads behave strikingly like syntactic relations: in BERT, one head sends direct
objects to their verbs, another sends pronouns to their antecedents {cite}`clark2019what`. That
is tempting: can we read what the model thinks off a heatmap? But a high weight does not mean the
model decides by that word {cite}`jain2019attention`; nor are the weights empty of information,
it depends on how you test them {cite}`wiegreffe2019attention`. Whether the structure grew in the
model or was read into it by us takes **probes** {cite}`hewitt2019structural` and
**interventions** together to settle. This section does both: look first, then intervene.

**Reading a heatmap.** Each row is the token doing the looking (the query), each column a token
being looked at (the key), and each row sums to 1; the darker the cell, the larger the weight,
on one scale for every head (white is 0, the darkest blue 1). The red frame marks the row of
"it", with its weights written in. The "difference" view is the big sentence minus the small
one, on a scale from −1 to 1: red means more weight in the big sentence, blue more in the small
one, white the same in both.

(def-attention-rollout)=
### Attention rollout

One head is one step inside one layer. To see where "it" ends up drawing
its information from across both layers, chain the layers {cite}`abnar2020quantifying`: in each
layer average the heads, add the residual connection's "stay put" path (the identity),
renormalise the rows, then multiply the layers:

$$
\bar{A}_\ell = \operatorname{rownorm}\Big(\frac{1}{A}\sum_{h=1}^{A} A_\ell^{(h)} + 0.5\, I\Big), \qquad
R = \bar{A}_L \cdots \bar{A}_2\, \bar{A}_1 .
$$

Row $i$ of $R$ is the share of each input token that token $i$ uses at the top
(`lib.attention_rollout`). The rollout's shares are spread thinner than a single head's, so its
three views share a scale of their own: the darkest blue is the largest value in the two
sentences' rollouts.

The widget below switches the language (the same model also reads the Chinese sentences), the
sentence (too big, too small, or their difference) and the map (a layer's head, or the rollout).
Every frame is precomputed, so it works on the website without Python. Compare the two
languages: the same head need not do the same thing in the Chinese and the English sentence.
""",
)

ch.code('lib.figures.heatmaps.attention_widget(langs=(LANG, "en" if LANG == "zh" else "zh"))')

ch.md(
    zh="""
### 模型實際走的路線

圖很好看，但別急著下結論：先**量**。對每個頭，找出「它」那一列權重最高的詞（不算自己），
以及形容詞「大／小」那一列權重最高的詞：
""",
    en="""
### The route the model really took

The pictures are pretty, but do not jump to conclusions: **measure** first. For each head, find
the token that the row of "it" weights most (itself excluded), and the one the row of the
adjective ("big"/"small") weights most:
""",
)

ch.code(
    """
route = lib.figures.heatmaps.route(LANG)
show = lambda token_weight: f"{token_weight[0]} {token_weight[1]:.2f}"
print("                  big sentence / small sentence")
for (layer, head), r in [(k, v) for k, v in route.items() if isinstance(k, tuple)]:
    print(f"layer {layer + 1} head {head + 1}:  pronoun → {show(r['pronoun_big'])} / {show(r['pronoun_small'])}"
          f"    adjective → {show(r['adjective_big'])} / {show(r['adjective_small'])}")
print("rollout, pronoun →", route["rollout"]["nouns"], ":",
      np.round(route["rollout"]["big"], 2), "/", np.round(route["rollout"]["small"], 2))
"""
)

ch.hidden(
    """
from lib import corpus

def _route_numbers(lang):
    big_, small_ = lib.winograd.canonical_pair(lang)
    rb, rs = lib.winograd.resolve(big_, lang), lib.winograd.resolve(small_, lang)
    q, adj = rb.pronoun_index, [i for i, (a, b) in enumerate(zip(big_, small_)) if a != b][0]
    n1, n2 = rb.candidate_indices                       # first and second noun
    last = rb.attention.shape[0] - 1
    keys_small = [j for j in np.argsort(rs.attention[last, :, q].max(0))[::-1] if j != q]
    return {
        "l2_adj_big": float(rb.attention[last, :, q, adj].max()),     # 它 → 大, best head of the last layer
        "l2_adj_small": float(rs.attention[last, :, q, adj].max()),   # 它 → 小
        "l1_adj_noun1_big": float(rb.attention[0, :, adj, n1].max()), # 大 → first noun, best layer-1 head
        "l1_adj_noun2_small": float(rs.attention[0, :, adj, n2].max()),  # 小 → second noun
        "l1_adj_top_big": big_[[j for j in np.argsort(rb.attention[0, :, adj].max(0))[::-1] if j != adj][0]],
        "l2_top_small": small_[keys_small[0]],
        "l2_top_small_w": float(rs.attention[last, :, q, keys_small[0]].max()),
        "roll_big": lib.attention_rollout(rb.attention)[q, [n1, n2]],
        "roll_small": lib.attention_rollout(rs.attention)[q, [n1, n2]],
        "noun1": big_[n1], "noun2": big_[n2],
    }

rn = {lang: _route_numbers(lang) for lang in ("zh", "en")}
for lang, d in rn.items():
    for key in ("l2_adj_big", "l2_adj_small", "l1_adj_noun1_big", "l1_adj_noun2_small", "l2_top_small_w"):
        lib.glue(f"{key}_{lang}", d[key])
    lib.glue(f"l2_top_small_{lang}", d["l2_top_small"])
    for which in ("big", "small"):
        lib.glue(f"roll_{which}_n1_{lang}", float(d[f"roll_{which}"][0]))
        lib.glue(f"roll_{which}_n2_{lang}", float(d[f"roll_{which}"][1]))
stats = {lang: lib.winograd.head_statistics(lang) for lang in ("zh", "en")}
roll_acc = {lang: lib.winograd.rollout_accuracy(lang) for lang in ("zh", "en")}
for lang in ("zh", "en"):
    pref = stats[lang]["prefers_referent"]
    lib.glue(f"l1_pref_{lang}", float(pref[0].max()))
    lib.glue(f"l2_pref_max_{lang}", float(pref[-1].max()))
    lib.glue(f"l2_to_adj_{lang}", float(stats[lang]["to_adjective"][-1].mean()))
    lib.glue(f"roll_acc_{lang}", float(roll_acc[lang]))
lib.glue("n_heldout", int(stats["zh"]["n_sentences"]));
"""
)

ch.check(
    """
for lang, d in rn.items():
    assert d["l2_adj_big"] > 0.8, d                          # 它 → 大 in layer 2
    assert d["l1_adj_top_big"] == d["noun1"], d              # 大 → the first noun in layer 1
    assert d["roll_big"][0] > d["roll_big"][1] and d["roll_small"][1] > d["roll_small"][0], d
assert rn["en"]["l2_adj_small"] > 0.8 and rn["en"]["l1_adj_noun2_small"] > 0.5   # English mirrors it
assert rn["zh"]["l2_adj_small"] < 0.1 and rn["zh"]["l1_adj_noun2_small"] < 0.1   # Chinese does not
for lang in ("zh", "en"):
    assert stats[lang]["prefers_referent"][0].max() == 0.5  # layer 1 cannot flip (exercise 1)
    assert stats[lang]["prefers_referent"][-1].max() < 0.75 and roll_acc[lang] >= 0.95
"""
)

ch.md(
    zh="""
**太大句：兩步走，兩種語言都一樣。** 第 2 層裡，「它」把注意力幾乎全給了「大」：最集中的那個頭，中文 {glue:text}`l2_adj_big_zh:.0%`、英文 {glue:text}`l2_adj_big_en:.0%`。而「大」在第 1 層看的是獎盃：中文 {glue:text}`l1_adj_noun1_big_zh:.0%`、英文 {glue:text}`l1_adj_noun1_big_en:.0%`。所以「它」不是直接看獎盃，而是**透過形容詞**，二手拿到獎盃的訊息。

**太小句：兩種語言分道揚鑣。** 英文照著鏡子走一遍：*it* 在第 2 層看 *small*（{glue:text}`l2_adj_small_en:.0%`），*small* 在第 1 層看 *suitcase*（{glue:text}`l1_adj_noun2_small_en:.0%`）。中文卻不是：第 2 層的「它」幾乎不看「小」（最多 {glue:text}`l2_adj_small_zh:.0%`），權重最高的是「{glue:text}`l2_top_small_zh`」（{glue:text}`l2_top_small_w_zh:.0%`）；第 1 層的「小」給行李箱的，最多也不過 {glue:text}`l1_adj_noun2_small_zh:.0%`。模型在這一句走了另一條路，而單看這幾張熱圖，看不出是哪一條。

**展開圖把兩層接起來。** 不論哪條路，「它」最後用到的輸入都翻轉了：中文太大句給獎盃 {glue:text}`roll_big_n1_zh:.2f`、行李箱 {glue:text}`roll_big_n2_zh:.2f`，太小句反過來是 {glue:text}`roll_small_n1_zh:.2f` 與 {glue:text}`roll_small_n2_zh:.2f`；英文是 {glue:text}`roll_big_n1_en:.2f`／{glue:text}`roll_big_n2_en:.2f` 與 {glue:text}`roll_small_n1_en:.2f`／{glue:text}`roll_small_n2_en:.2f`。

一組句子不夠，再看全部 {glue:text}`n_heldout:d` 句中文保留句（英文一樣多）。沒有任何一個頭能單獨從「它」指到正確的名詞：第 1 層的頭恰好 {glue:text}`l1_pref_zh:.0%`（和亂猜一樣，練習 1 會說明為什麼一定如此），第 2 層最好的頭也只有 {glue:text}`l2_pref_max_zh:.0%`（英文 {glue:text}`l2_pref_max_en:.0%`）；第 2 層的頭平均把 {glue:text}`l2_to_adj_zh:.0%`（英文 {glue:text}`l2_to_adj_en:.0%`）的注意力放在形容詞上。展開圖則在 {glue:text}`roll_acc_zh:.0%`（英文 {glue:text}`roll_acc_en:.0%`）的句子裡偏向正確的名詞。
""",
    en="""
**The big sentence: two hops, in both languages.** In layer 2, "it" gives nearly all its attention
to "big": {glue:text}`l2_adj_big_zh:.0%` in Chinese and {glue:text}`l2_adj_big_en:.0%` in English,
for the most focused head. And "big", in layer 1, looked at the trophy:
{glue:text}`l1_adj_noun1_big_zh:.0%` in Chinese, {glue:text}`l1_adj_noun1_big_en:.0%` in English.
So "it" does not look at the trophy directly; it gets the trophy second-hand, **through the
adjective**.

**The small sentence: the languages part ways.** English runs the mirror image: *it* looks at
*small* in layer 2 ({glue:text}`l2_adj_small_en:.0%`), and *small* looks at *suitcase* in layer 1
({glue:text}`l1_adj_noun2_small_en:.0%`). Chinese does not: in layer 2, 它 hardly looks at 小 (at
most {glue:text}`l2_adj_small_zh:.0%`); its largest weight goes to {glue:text}`l2_top_small_zh`
({glue:text}`l2_top_small_w_zh:.0%`), and in layer 1, 小 gives 行李箱 ("suitcase") at most
{glue:text}`l1_adj_noun2_small_zh:.0%`. The model took another road in this sentence, and these
heatmaps alone do not show which.

**Rollout chains the two layers.** Whatever the road, the inputs "it" ends up using flip: in
Chinese the big sentence gives the trophy {glue:text}`roll_big_n1_zh:.2f` and the suitcase
{glue:text}`roll_big_n2_zh:.2f`, the small sentence the reverse, {glue:text}`roll_small_n1_zh:.2f`
and {glue:text}`roll_small_n2_zh:.2f`; in English {glue:text}`roll_big_n1_en:.2f` /
{glue:text}`roll_big_n2_en:.2f` against {glue:text}`roll_small_n1_en:.2f` /
{glue:text}`roll_small_n2_en:.2f`.

One pair is not enough, so look at all {glue:text}`n_heldout:d` held-out sentences in Chinese (as
many in English). No single head points from "it" to the right noun: layer-1 heads do exactly
{glue:text}`l1_pref_zh:.0%` (chance; exercise 1 shows why they must), and the best layer-2 head only
{glue:text}`l2_pref_max_zh:.0%` in Chinese ({glue:text}`l2_pref_max_en:.0%` in English); on average
the layer-2 heads put {glue:text}`l2_to_adj_zh:.0%` ({glue:text}`l2_to_adj_en:.0%` in English) of
their attention on the adjective. The rollout favours the right noun in
{glue:text}`roll_acc_zh:.0%` of the sentences ({glue:text}`roll_acc_en:.0%` in English).
""",
)

# ---------------------------------------------------------------- ablation
ch.md(
    zh="""
### 檢驗這條線索：一次關掉一個頭

看向哪裡，是否就是靠哪裡做判斷？直接介入：把某個頭的值向量歸零，它照樣分配注意力，卻什麼也寫不回{term}`殘差流 <殘差流（residual stream）>`；
其他頭不動，在保留集上重新量答對率。關掉之後答對率掉得越多，這個頭就越重要。
""",
    en="""
### Testing the clue: switch off one head at a time

Is where a head looks what the model relies on? Intervene directly: zero one head's value
vectors, so it still distributes attention but writes nothing back into the {term}`residual stream <residual stream（殘差流）>`;
leave the other heads alone, and measure the held-out accuracy again. The more accuracy drops, the
more that head matters.
""",
)

ch.code(
    """
acc = {lang: lib.figures.heatmaps.ablation_accuracies(lang) for lang in ("zh", "en")}
for lang, a in acc.items():
    print(lang, "  ".join(f"{lib.figures.heatmaps.ablation_name(k)}: {v:.1%}" for k, v in a.items()))
"""
)

ch.hidden(
    """
names = lib.figures.heatmaps.map_names(*r_big.attention.shape[:2])
A_heads = r_big.attention.shape[1]
def _name(key):
    return names[key[0] * A_heads + key[1]]
pretty = {lang: lib.figures.heatmaps.prettiest_head(lang) for lang in ("zh", "en")}
shift = {lang: lib.figures.heatmaps.pronoun_shift(lang) for lang in ("zh", "en")}
heads = [k for k in acc["zh"] if isinstance(k, tuple) and k[0] != "layer"]
vital = {lang: min(heads, key=lambda k: acc[lang][k]) for lang in ("zh", "en")}
last = r_big.attention.shape[0] - 1
for lang in ("zh", "en"):
    lib.glue(f"pretty_name_{lang}", _name(pretty[lang]))
    lib.glue(f"pretty_shift_{lang}", shift[lang][pretty[lang]])
    lib.glue(f"pretty_acc_{lang}", acc[lang][pretty[lang]])
    lib.glue(f"l1h1_off_{lang}", acc[lang][(0, 0)])
    lib.glue(f"l1h2_off_{lang}", acc[lang][(0, 1)])
    lib.glue(f"l2_shift_max_{lang}", max(shift[lang][(last, h)] for h in range(A_heads)))
    lib.glue(f"l2_off_min_{lang}", min(acc[lang][(last, h)] for h in range(A_heads)))
    lib.glue(f"l2_both_off_{lang}", acc[lang][("layer", last)])
    lib.glue(f"l1_both_off_{lang}", acc[lang][("layer", 0)]);
"""
)

ch.check(
    """
for lang in ("zh", "en"):
    assert pretty[lang][0] == last and vital[lang][0] == 0           # pretty in layer 2, vital in layer 1
    assert max(acc[lang][(0, h)] for h in range(A_heads)) < min(acc[lang][(last, h)] for h in range(A_heads))
    assert acc[lang][pretty[lang]] > acc[lang][vital[lang]] + 0.1
    assert min(acc[lang][(last, h)] for h in range(A_heads)) >= 0.9     # each layer-2 head alone: cheap
    assert acc[lang][("layer", last)] < 0.6 and acc[lang][("layer", 0)] < 0.6   # a whole layer: chance
assert shift["zh"][pretty["zh"]] > 0.8 and max(shift["en"][(last, h)] for h in range(A_heads)) < 0.1
"""
)

ch.code('lib.figures.heatmaps.plot_ablation(acc, highlight=pretty["zh"]);')

ch.md(
    zh="""
哪個頭的圖最「漂亮」？用差的畫面來量：「它」那一列在兩句之間變化最大的頭。中文是{glue:text}`pretty_name_zh`，變化量（兩列差的絕對值總和的一半）高達 {glue:text}`pretty_shift_zh:.2f`，也就是上面那張整片翻轉的圖。可是把它單獨關掉，答對率還有 {glue:text}`pretty_acc_zh:.0%`。關掉之後傷害最大的，反而是第 1 層的頭：關掉第 1 個頭，答對率剩 {glue:text}`l1h1_off_zh:.0%`，關掉第 2 個頭剩 {glue:text}`l1h2_off_zh:.0%`（英文 {glue:text}`l1h1_off_en:.0%` 與 {glue:text}`l1h2_off_en:.0%`），而第 1 層裡「它」那一列根本不可能翻轉（練習 1）。英文更明顯：第 2 層兩個頭的 *it* 那一列在兩句之間幾乎不變（變化量最多 {glue:text}`l2_shift_max_en:.2f`），因為兩句裡 *it* 都看形容詞，差別藏在形容詞帶來的內容裡，熱圖看不出來。

但別急著說第 2 層不重要。單獨關掉第 2 層任一個頭，答對率至少還有 {glue:text}`l2_off_min_zh:.0%`（英文 {glue:text}`l2_off_min_en:.0%`）；兩個**一起**關掉，就掉到 {glue:text}`l2_both_off_zh:.0%`（英文 {glue:text}`l2_both_off_en:.0%`），和亂猜差不多。兩個頭做的是同一件事（都看形容詞），互為備援，所以一次只關一個，會低估它們。第 1 層兩個頭一起關掉也一樣：{glue:text}`l1_both_off_zh:.0%`／{glue:text}`l1_both_off_en:.0%`。

結論：**最漂亮的圖，不一定屬於最重要的頭**；而「重要」本身，也要看你怎麼介入。熱圖告訴我們去哪裡找，介入實驗才告訴我們找到了什麼。
""",
    en="""
Which head has the "prettiest" picture? Measure it with the difference view: the head whose row
for "it" changes most between the two sentences. In Chinese it is {glue:text}`pretty_name_zh`,
with a change (half the summed absolute difference of the two rows) of
{glue:text}`pretty_shift_zh:.2f`: the map that flips wholesale above. Yet switched off on its
own, it leaves the accuracy at {glue:text}`pretty_acc_zh:.0%`. The heads that hurt most when switched
off are in layer 1: without its head 1 the accuracy falls to {glue:text}`l1h1_off_zh:.0%`,
without its head 2 to {glue:text}`l1h2_off_zh:.0%` ({glue:text}`l1h1_off_en:.0%` and
{glue:text}`l1h2_off_en:.0%` in English), and in layer 1 the row of "it" cannot flip at all
(exercise 1). English makes the point more sharply: the row of *it* in the two layer-2 heads
hardly changes
between the sentences (a change of at most {glue:text}`l2_shift_max_en:.2f`), because *it* looks
at the adjective in both; the difference hides in what the adjective carries, which no heatmap
shows.

But do not conclude that layer 2 is unimportant. Switch off either layer-2 head alone and the
accuracy stays at {glue:text}`l2_off_min_zh:.0%` or more ({glue:text}`l2_off_min_en:.0%` in
English); switch off both **together** and it falls to {glue:text}`l2_both_off_zh:.0%`
({glue:text}`l2_both_off_en:.0%` in English), about chance. The two heads do the same job (both
look at the adjective) and back each other up, so switching off one at a time underrates them.
Switching off both layer-1 heads does the same: {glue:text}`l1_both_off_zh:.0%` /
{glue:text}`l1_both_off_en:.0%`.

The conclusion: **the prettiest picture need not belong to the head that matters most**, and
"matters" itself depends on how you intervene. Heatmaps tell us where to look; interventions
tell us what we found.
""",
)

# ------------------------------------------------------------------- 7.4 surprisal
ch.md(
    zh=r"""
(def-surprisal)=
## 7.4 驚奇度：模型在哪裡感到意外

第 6 章的困惑度把每個詞元的 $-\log P$ 平均起來。不平均，一個一個看，就是心理語言學的**驚奇度**（surprisal）：

$$
s(w_t) = -\log_2 P(w_t \mid w_1, \dots, w_{t-1}) \quad \text{（位元）}.
$$

越意外的詞，驚奇度越高；人讀到這種詞時，閱讀時間也比較長 {cite}`hale2001probabilistic,levy2008expectation`。
所以困惑度不只是工程指標（它正是 $2^{\text{平均驚奇度}}$），也是連接模型與人類處理歷程的一座橋。
下圖是小解碼器（只看左邊）讀這組句對時，每個詞元的驚奇度：
""",
    en=r"""
(def-surprisal)=
## 7.4 Surprisal: where the model is surprised

Chapter 6's perplexity averages each token's $-\log P$. Look at them one by one instead of
averaging and you have the psycholinguist's **surprisal**:

$$
s(w_t) = -\log_2 P(w_t \mid w_1, \dots, w_{t-1}) \quad \text{(bits)}.
$$

The more unexpected the word, the higher its surprisal; people also take longer to read such
words {cite}`hale2001probabilistic,levy2008expectation`. So perplexity is not just an engineering
score (it is exactly $2^{\text{mean surprisal}}$) but also a bridge between models and human
processing. Here is the surprisal of each token as the tiny decoder (which looks left only) reads
the pair:
""",
)

ch.code(
    """
pair = lib.figures.heatmaps.surprisal_pair(LANG)
lib.figures.heatmaps.plot_surprisal(pair);
"""
)

ch.hidden(
    """
sur = {lang: lib.figures.heatmaps.surprisal_pair(lang) for lang in ("zh", "en")}
for lang, pr in sur.items():
    big_l, small_l = pr["big"], pr["small"]
    adj_j = [j for j, (a, b) in enumerate(zip(big_l, small_l)) if a[0] != b[0]][0]
    nouns = lib.corpus.nouns_of([t for t, _ in big_l], lang)     # the scored nouns
    noun2_j = [t for t, _ in big_l].index(nouns[-1])
    lib.glue(f"s_big_{lang}", big_l[adj_j][1])
    lib.glue(f"s_small_{lang}", small_l[adj_j][1])
    lib.glue(f"p_bigword_{lang}", 2 ** -big_l[adj_j][1])
    lib.glue(f"p_smallword_{lang}", 2 ** -small_l[adj_j][1])
    lib.glue(f"s_noun2_{lang}", big_l[noun2_j][1])
    others = [b for j, (t, b) in enumerate(big_l) if j != adj_j and t not in nouns]
    lib.glue(f"s_other_max_{lang}", max(others))
lib.glue("s_noun1_en", sur["en"]["big"][0][1])
lib.glue("s_pron_zh", dict(sur["zh"]["big"])["它"])
lib.glue("s_pron_en", dict(sur["en"]["big"])["it"]);
"""
)

ch.check(
    """
for lang, pr in sur.items():
    bits = dict(pr["big"])
    adj = pr["big"][-2][0] if lang == "zh" else pr["big"][-1][0]
    assert 0.3 < bits[adj] < 2.5                       # a real choice, about a coin toss
    nouns = set(lib.corpus.nouns_of(list(bits), lang))
    rest = [b for t, b in pr["big"][1:] if t not in nouns and t != adj]
    assert max(rest) < 0.2                              # everything else is nearly forced
assert sur["en"]["big"][0][1] > 3                      # English pays for the first noun
"""
)

ch.md(
    zh="""
意外集中在三個地方，其餘每個詞元頂多花 {glue:text}`s_other_max_zh:.2f` 位元（英文 {glue:text}`s_other_max_en:.2f`）。第一是**名詞**：看到「獎盃 放不進」之後，是哪個容器放不進？「行李箱」花了 {glue:text}`s_noun2_zh:.1f` 位元（英文 *suitcase* {glue:text}`s_noun2_en:.1f` 位元）。英文的第一個名詞 *trophy* 也要算分（中文的第一個詞不算，第 6 章談過），花了 {glue:text}`s_noun1_en:.1f` 位元。第二是**形容詞**：讀到「太」的時候，「大」與「小」都合理，解碼器給「大」{glue:text}`p_bigword_zh:.0%`、「小」{glue:text}`p_smallword_zh:.0%`，驚奇度分別是 {glue:text}`s_big_zh:.2f` 與 {glue:text}`s_small_zh:.2f` 位元；英文則幾乎是擲銅板（{glue:text}`p_bigword_en:.0%` 對 {glue:text}`p_smallword_en:.0%`）。第三，代名詞本身一點也不意外：「它」只有 {glue:text}`s_pron_zh:.2f` 位元（英文 *it* {glue:text}`s_pron_en:.2f` 位元），因為「因為」之後幾乎總是「它」。

整組句子最關鍵的那個字，對只看左邊的模型來說正好是猜不到的。它在讀到「它」的時候還不知道答案；要等「大」或「小」出現，資訊才進得來。
""",
    en="""
The surprise sits in three places; every other token costs at most
{glue:text}`s_other_max_en:.2f` bits in English ({glue:text}`s_other_max_zh:.2f` in Chinese). First,
the **nouns**: after "the trophy doesn't fit into the", which container is it? "suitcase" costs
{glue:text}`s_noun2_en:.1f` bits ({glue:text}`s_noun2_zh:.1f` in Chinese); and the English first noun, *trophy*, is scored
(the Chinese first word is not, as chapter 6 discussed), costing {glue:text}`s_noun1_en:.1f` bits.
Second, the **adjective**: after "too", both "big" and "small" make sense; the decoder gives "big"
{glue:text}`p_bigword_en:.0%` and "small" {glue:text}`p_smallword_en:.0%`, almost a coin toss (in
Chinese it leans to 大, {glue:text}`p_bigword_zh:.0%` against {glue:text}`p_smallword_zh:.0%`, a
surprisal of {glue:text}`s_big_zh:.2f` and {glue:text}`s_small_zh:.2f` bits). Third, the pronoun
itself is no surprise at all: *it* costs {glue:text}`s_pron_en:.2f` bits (它
{glue:text}`s_pron_zh:.2f`), because "because" is nearly always followed by it.

The one word the whole pair turns on is exactly the word a left-to-right model cannot guess. When
it reads "it" it does not yet know the answer; the information arrives only with "big" or "small".
""",
)

# ------------------------------------------------------------ 7.5 back to the sentence
ch.md(
    zh="""
## 7.5 回到那一句

「獎盃放不進行李箱，因為它太大了」可以沿著五站再走一遍，每一站都用本書的小模型量一個數字：
""",
    en="""
## 7.5 Back to the sentence

"The trophy doesn't fit into the suitcase because it is too big" can walk back through the five
stations, with one number measured on the book's tiny models at each:
""",
)

ch.hidden(
    """
from lib import corpus
pron_id = corpus.token_id(big[p])
lib.glue("pron_id", int(pron_id))
lib.glue("pron_seat", int(p))
lib.glue("n_tokens", len(big))
lib.glue("p_ref_big", float(r_big.probs[r_big.referent]))
lib.glue("p_ref_small", float(r_small.probs[r_small.referent]));
"""
)

ch.check(
    """
assert r_big.tokens[p] == r_small.tokens[p] == corpus.PRONOUN[LANG]
assert np.allclose(r_big.hidden[0, p], r_small.hidden[0, p])      # same row, same seat
assert r_big.referent != r_small.referent
"""
)

ch.md(
    zh="""
| 站 | 發生什麼事 | 在小模型上量到的 |
|---|---|---|
| ① 詞元與詞嵌入 | 句子切成 {glue:text}`n_tokens:d` 個詞元；兩句的「它」查出同一列 | 「它」的編號都是 {glue:text}`pron_id:d` |
| ② 位置嵌入 | 「它」別上自己的座位號碼，詞序從此能進入計算 | 座位 {glue:text}`pron_seat:d`（從 0 數起）；拿掉位置，答對率只剩 {glue:text}`acc_nopos_zh:.0%`／{glue:text}`acc_nopos_en:.0%` |
| ③ 注意力 | 「它」依照此刻身旁的詞改寫自己；雙向模型看得到「大」或「小」 | 展開圖上，「它」給獎盃／行李箱的份量：太大句 {glue:text}`roll_big_n1_zh:.2f`／{glue:text}`roll_big_n2_zh:.2f`，太小句 {glue:text}`roll_small_n1_zh:.2f`／{glue:text}`roll_small_n2_zh:.2f` |
| ④ 疊 $L$ 層 | 兩個「它」從同一個向量出發，逐層分開 | 最上層的餘弦相似度 {glue:text}`cos_top:.2f` |
| ⑤ 語言模型頭 | 把最後的向量換回詞彙表上的機率 | 在「它」的位置上，兩個名詞之間：太大句選獎盃 {glue:text}`p_ref_big:.2%`，太小句選行李箱 {glue:text}`p_ref_small:.2%` |

只看左邊的生成式模型不一樣：讀到「它」的時候，「大」或「小」還沒出現，照應要等後面的詞把先行詞的訊息帶回來。
7.4 節的驚奇度正好說明這一點：解碼器猜不到句尾是「大」還是「小」，那是兩句話唯一的差別。

## 一句話小結

**每個詞從辭典裡同一個起點出發，別上自己的座位號碼，一層層聽取鄰座的意見，直到它的向量只屬於這一句；
最後，我們用困惑度和基準測驗，檢查這樣的模型說得好不好。**
""",
    en="""
| station | what happens | measured on the tiny models |
|---|---|---|
| ① tokens and embeddings | the sentence becomes {glue:text}`n_tokens:d` tokens; both "it"s look up the same row | "it" has id {glue:text}`pron_id:d` in both |
| ② position embeddings | "it" gets its own seat number, and word order enters the computation | seat {glue:text}`pron_seat:d` (counting from 0); without positions accuracy falls to {glue:text}`acc_nopos_zh:.0%` / {glue:text}`acc_nopos_en:.0%` |
| ③ attention | "it" rewrites itself from the words around it now; a bidirectional model sees "big" or "small" | the rollout's share from "it" to trophy / suitcase: big {glue:text}`roll_big_n1_en:.2f` / {glue:text}`roll_big_n2_en:.2f`, small {glue:text}`roll_small_n1_en:.2f` / {glue:text}`roll_small_n2_en:.2f` |
| ④ $L$ stacked blocks | two "it"s start from one vector and move apart layer by layer | cosine similarity at the top: {glue:text}`cos_top:.2f` |
| ⑤ the LM head | turns the last vector back into probabilities over the vocabulary | at the position of "it", between the two nouns: big, trophy {glue:text}`p_ref_big:.2%`; small, suitcase {glue:text}`p_ref_small:.2%` |

A generative model that looks left only is different: when it reads "it", "big" or "small" has not
appeared yet, and the reference must wait for later words to bring the antecedent's information
back. Section 7.4's surprisal says exactly this: the decoder cannot guess whether the sentence
ends in "big" or "small", the one word on which the two sentences differ.

## The book in one sentence

**Every word sets out from the same dictionary entry, pins on its seat number, and listens to its
neighbours layer after layer until its vector belongs to this sentence alone; then we check how
well such a model speaks, with perplexity and with benchmarks.**
""",
)

ch.md(
    zh="""
## 小結

- 分佈語意學說「觀其伴，知其義」；靜態詞向量把同伴累積成一個平均，注意力則在當下依同伴重新計算詞義。
- 漢語倚重語序，「誰咬誰」全靠位置；拿掉位置，小編碼器只能亂猜。RoPE 只看相對距離，和依存距離的想法相近。
- 注意力熱圖是線索：模型的路線要量出來，不能看圖說故事；一個頭重不重要，要靠介入（例如關掉它）來回答。
- 驚奇度 $-\\log_2 P(w_t \\mid w_{<t})$ 逐詞標出模型的意外；2 的「平均驚奇度」次方就是困惑度。驚奇度也能預測人的閱讀時間。
""",
    en="""
## Summary

- Distributional semantics says "you shall know a word by the company it keeps"; static vectors
  average the company once, attention recomputes meaning from the company at hand.
- Chinese leans on word order: who bites whom is all position; without positions the tiny encoder
  can only guess. RoPE sees only relative distance, close to the idea of dependency distance.
- An attention heatmap is a clue: measure the model's route instead of telling a story about the
  picture, and settle whether a head matters by intervening (switching it off, say).
- Surprisal $-\\log_2 P(w_t \\mid w_{<t})$ marks the model's surprise word by word; two to the
  power of its mean is the perplexity, and it also predicts human reading times.
""",
)

# ---------------------------------------------------------------------- exercises
ch.md(
    zh="""
## 練習

**1.（程式）** 證明第 1 層自己翻轉不了「它」：在第 1 層，「它」給第一個名詞與第二個名詞的權重**比值**，在太大句和太小句裡完全相同。
先用數字驗證（第 1 層第 1 個頭），再說明為什麼。
""",
    en="""
## Exercises

**1. (coding)** Show that layer 1 cannot flip "it" on its own: in layer 1, the **ratio** of the
weights "it" gives the first and the second noun is exactly the same in the big and the small
sentence. Check it numerically (layer 1, head 1), then explain why.
""",
)

ch.code(
    """
w1_big, w1_small = r_big.attention[0, 0], r_small.attention[0, 0]      # layer 1, head 1: [N, N]
first, second = [big.index(n) for n in lib.corpus.nouns_of(big, LANG)]
ratio_big = 0.0      # TODO: w1_big[p, first] / w1_big[p, second]
ratio_small = 1.0    # TODO: the same ratio in the small sentence

lib.check(ratio_big, ratio_small, rtol=1e-9,
          hint="ratio_big = w1_big[p, first] / w1_big[p, second]; likewise for w1_small");
"""
)

ch.md(
    zh="""
:::{dropdown} 解答
```python
ratio_big = w1_big[p, first] / w1_big[p, second]
ratio_small = w1_small[p, first] / w1_small[p, second]
```
第 1 層的查詢與鍵只由輸入向量（詞嵌入加位置）算出，而兩句只有形容詞那一個位置的輸入不同。所以「它」的查詢、兩個名詞的鍵都一樣，
分數 $s_1, s_2$ 也一樣；softmax 之後兩者的比值是 $e^{s_1}/e^{s_2}$，分母（整列的總和）約掉了。形容詞只能改變它自己那一格的權重，
以及其他格被等比例縮放的程度。要讓「它」在兩句之間轉向不同的名詞，資訊得先經過形容詞：第 1 層裡形容詞先看名詞，
第 2 層「它」再看形容詞。這正是 7.3 節量到的路線。
:::

**2.（程式）** 不呼叫 `lib.attention_rollout`，自己算出太大句的注意力展開 $R$（每層平均各頭、加 $0.5I$、列正規化、逐層相乘）。
""",
    en="""
:::{dropdown} Solution
```python
ratio_big = w1_big[p, first] / w1_big[p, second]
ratio_small = w1_small[p, first] / w1_small[p, second]
```
Layer 1's queries and keys are computed from the input vectors alone (embedding plus position),
and the two sentences differ in one input only, the adjective's. So the query of "it" and the keys
of both nouns are the same, and so are their scores $s_1, s_2$; after the softmax their ratio is
$e^{s_1}/e^{s_2}$, the denominator (the sum over the row) cancels. The adjective can only change
its own cell and how much the other cells are scaled, all by the same factor. For "it" to turn to
different nouns in the two sentences, the information has to pass through the adjective: in
layer 1 the adjective looks at the nouns, in layer 2 "it" looks at the adjective. That is the
route measured in section 7.3.
:::

**2. (coding)** Without calling `lib.attention_rollout`, compute the big sentence's attention
rollout $R$ yourself (average the heads of each layer, add $0.5I$, renormalise the rows, multiply
the layers).
""",
)

ch.code(
    """
W = r_big.attention                  # [L, A, N, N]
N = W.shape[-1]
R = np.eye(N)
for layer in W:                      # [A, N, N]
    A_bar = layer.mean(axis=0)       # TODO: add 0.5 * identity, then make every row sum to 1
    R = A_bar @ R

lib.check(R, lib.attention_rollout(W),
          hint="A_bar = layer.mean(axis=0) + 0.5 * np.eye(N); A_bar /= A_bar.sum(axis=1, keepdims=True)");
"""
)

ch.md(
    zh="""
:::{dropdown} 解答
```python
for layer in W:
    A_bar = layer.mean(axis=0) + 0.5 * np.eye(N)
    A_bar = A_bar / A_bar.sum(axis=1, keepdims=True)
    R = A_bar @ R
```
少了單位矩陣，展開圖就忽略了殘差連線：每個詞元其實有一大部分資訊是「原地不動」傳上去的。
注意相乘的順序：第 1 層在最右邊，因為它最先作用。
:::

**3.** 把一個頭的值向量歸零（7.3 節的作法）之後，這個頭還在做什麼？不再做什麼？關掉某個頭、答對率幾乎不變，能不能斷定這個頭「沒用」？

:::{dropdown} 解答
它照樣計算查詢、鍵和注意力權重（熱圖不變），但寫回殘差流的東西變成 0，後面的層看不到它搬運的資訊。
答對率不變不代表沒用：(1) 兩個頭可能互為備援，單獨關掉任一個都沒事，同時關掉兩個卻會出事；(2) 它可能對別的句型重要；
(3) 關掉頭會讓模型處在訓練時從沒見過的狀態，結果可能低估或高估它的角色。所以介入實驗也要設計對照，
例如成對關掉、換成平均值而不是 0，或者在更多句型上測。
:::

**4.** 7.4 節裡，解碼器在「大／小」這個位置的驚奇度大約多少位元？為什麼只看左邊的模型在這裡做不到更好？雙向編碼器的情況有什麼不同？

:::{dropdown} 解答
大約 1 位元：讀到「太」的時候，「大」和「小」都是合理的結尾。英文的解碼器幾乎各給一半（{glue:text}`s_big_en:.2f` 與 {glue:text}`s_small_en:.2f` 位元），猜中的機率約 1/2，$-\\log_2 \\tfrac12 = 1$；中文的解碼器稍微偏向「大」（{glue:text}`s_big_zh:.2f` 與 {glue:text}`s_small_zh:.2f` 位元），兩者的平均仍在 1 位元附近。
左邊的文字裡沒有任何線索能決定是哪一個，所以再好的模型也只能這樣；這不是模型的缺陷，而是語言本身的不確定。
雙向編碼器不必預測「大／小」，它在「它」的位置上直接**看得到**這個詞，所以能把指涉判對；生成式模型得先讀完「大」或「小」，再到後面的位置上把照應解開。
:::

**5.** 拉丁文 *canis hominem mordet*（狗咬人）換成 *hominem canis mordet*，意思不變，因為受詞 *hominem* 帶有格的詞尾。
對這樣的語言，位置資訊在判斷「誰咬誰」時的角色會和漢語有什麼不同？模型還需要位置嵌入嗎？

:::{dropdown} 解答
在格標記豐富的語言裡，「誰咬誰」主要寫在詞形上（*canis* 主格、*hominem* 受格），詞序可以自由調動而不改變論元角色，
所以位置對這個問題的貢獻小得多；漢語沒有這種詞尾，角色幾乎全由位置決定。但模型仍需要位置嵌入：
語序在拉丁文裡仍帶有資訊（強調、語篇結構），而且沒有位置的注意力對整個序列置換等變，連片語的邊界、修飾語掛在哪個名詞上都分不出來。
至於模型是否真的學到這些類型學差異，正是 7.2 節說的開放問題。
:::
""",
    en="""
:::{dropdown} Solution
```python
for layer in W:
    A_bar = layer.mean(axis=0) + 0.5 * np.eye(N)
    A_bar = A_bar / A_bar.sum(axis=1, keepdims=True)
    R = A_bar @ R
```
Without the identity, rollout ignores the residual connection, although a large part of each
token's information travels up "staying put". Mind the order of the product: layer 1 sits on the
right, because it acts first.
:::

**3.** After a head's value vectors are zeroed (as in section 7.3), what does the head still do,
and what does it stop doing? If switching a head off leaves the accuracy almost unchanged, may we
conclude the head is "useless"?

:::{dropdown} Solution
It still computes queries, keys and attention weights (its heatmap is unchanged), but it writes
zeros back into the residual stream, so later layers never see what it carried. An unchanged
accuracy does not prove uselessness: (1) two heads may back each other up, so that switching off
either alone does nothing and switching off both breaks the model; (2) the head may matter for
other kinds of sentences; (3) a switched-off head puts the model in a state it never saw in
training, which can under- or overstate the head's role. Interventions need controls too:
switching heads off in pairs, replacing a head by its mean output instead of 0, or testing on
more kinds of sentences.
:::

**4.** In section 7.4, about how many bits of surprisal does the decoder show at "big"/"small"?
Why can a left-to-right model do no better there? How is a bidirectional encoder different?

:::{dropdown} Solution
About 1 bit: after "too", both "big" and "small" are sensible endings. The English decoder
gives them almost half each ({glue:text}`s_big_en:.2f` and {glue:text}`s_small_en:.2f` bits), so
the right one gets about 1/2 and $-\\log_2 \\tfrac12 = 1$; the Chinese one leans a little to 大
({glue:text}`s_big_zh:.2f` and {glue:text}`s_small_zh:.2f` bits), still about 1 bit on average.
Nothing in the words to the left decides between them, so even a perfect model could do no better; this is
not a flaw of the model but uncertainty in the language itself. A bidirectional encoder does not
have to predict "big"/"small": at the position of "it" it can **see** that word, so it can resolve
the reference; a generative model can only resolve it at later positions, once "big" or "small"
has been read.
:::

**5.** Latin *canis hominem mordet* (dog bites man) can become *hominem canis mordet* with the
same meaning, because the object *hominem* carries a case ending. In such a language, how does the
role of position in deciding "who bites whom" differ from Chinese? Does the model still need
position embeddings?

:::{dropdown} Solution
In a language with rich case marking, "who bites whom" is written mostly in the word forms
(*canis* nominative, *hominem* accusative), and the order can move without changing the roles, so
position contributes much less to this question; Chinese has no such endings, and the roles rest
almost entirely on position. The model still needs position embeddings: Latin word order still
carries information (emphasis, discourse structure), and attention without positions is
permutation-equivariant over the whole sequence, unable to tell phrase boundaries or which noun
a modifier belongs to. Whether models actually learn these typological differences is the open
question of section 7.2.
:::
""",
)

ch.write()
