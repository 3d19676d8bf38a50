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
## 7.1 分布語意學動起來了

語言學家 Firth 有一句常被引用的話：要認識一個詞，就看它和誰作伴 {cite}`firth1957synopsis`。
這就是**分布語意學**：詞義藏在它出現的上下文裡。word2vec 這類靜態詞向量 {cite}`mikolov2013efficient` 把這個想法做成了一本辭典：
掃過整個語料庫，把一個詞所有的「同伴」累積成**一個**平均值，一詞一條。

注意力把同一個想法改寫成**當下的計算**：詞義不是查表查出來的，而是由此刻身旁的詞共同決定。
用小編碼器驗證：兩句的「它」在輸入時是同一個向量（同一個詞、同一個座位），越往上層，兩者就越不像。
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
"it"s start as the same vector (same word, same seat), and the higher the layer, the less alike
they are. Here is the cosine similarity of the two "it" vectors, layer by layer:
""",
)

ch.code(
    """
big, small = lib.winograd.canonical_pair(LANG)
r_big, r_small = lib.winograd.resolve(big, LANG), lib.winograd.resolve(small, LANG)
p = r_big.pronoun_index
for layer in range(r_big.hidden.shape[0]):
    a, b = r_big.hidden[layer, p], r_small.hidden[layer, p]
    print(f"layer {layer}: cosine = {a @ b / np.linalg.norm(a) / np.linalg.norm(b):.3f}")
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
lib.glue("n_layers", int(L))
"""
)

ch.check(
    """
assert abs(cos_layers[0] - 1) < 1e-12          # same word, same seat: the same input vector
assert cos_layers[-1] < cos_layers[0] - 0.05    # the context pushed them apart
"""
)

ch.md(
    zh="""
輸入層的相似度是 {glue:text}`cos_input:.3f`：兩個「它」一模一樣。經過 {glue:text}`n_layers:d` 層之後降到 {glue:text}`cos_top:.3f`。
辭典裡只有一個「它」，句子裡卻有兩個：一個讀過「大」，一個讀過「小」。
""",
    en="""
At the input the similarity is {glue:text}`cos_input:.3f`: the two "it"s are identical. After
{glue:text}`n_layers:d` layers it has dropped to {glue:text}`cos_top:.3f`. The dictionary holds
one "it"; the sentences hold two, one that has read "big" and one that has read "small".
""",
)

# --------------------------------------------------------------------- 7.2 word order
ch.md(
    zh="""
## 7.2 語序與位置

漢語幾乎沒有詞形變化，「狗咬人」和「人咬狗」用的是同樣三個字，差別幾乎全落在**位置**上。
第 3 章證明過：不加位置的注意力對詞序置換等變，看到的只是一袋詞。本書的語料特意讓兩個名詞都可能排在前面
（也有「行李箱放不進獎盃」），所以「它」指誰，取決於哪個名詞先出現。把位置嵌入拿掉，編碼器就只能亂猜：
""",
    en="""
## 7.2 Word order and positions

Chinese has almost no inflection: 狗咬人 "dog bites man" and 人咬狗 "man bites dog" use the same
three characters, and the difference lies almost entirely in **position**. Chapter 3 proved that
attention without positions is permutation-equivariant: it sees a bag of words. The book's corpus
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
lib.glue("dist_other", int(p - toks.index(other_noun)))
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

RoPE（第 3 章）更進一步：它只編碼**相對距離**，注意力分數看的是「隔幾個詞」，不是「坐在第幾號」{cite}`su2024roformer`。
這和語言學裡的**依存距離**很接近：一個詞和它所依附的中心詞隔了多遠。以本章的句子為例，
「它」離先行詞「獎盃」{glue:text}`dist_ref:d` 個詞元，離「行李箱」{glue:text}`dist_other:d` 個詞元；
先行詞並不是比較近的那一個，模型得靠意思，而不是靠距離。至於大型模型是否因此學到類型學意義上的語序規律
（例如動詞和受詞誰先誰後），仍是開放的問題。本書的小編碼器用的是學出來的絕對位置，不是 RoPE。
""",
    en="""
With positions, held-out accuracy is {glue:text}`acc_pos_zh:.1%` in Chinese and
{glue:text}`acc_pos_en:.1%` in English; without them it is only {glue:text}`acc_nopos_zh:.1%` and
{glue:text}`acc_nopos_en:.1%`, about a coin toss.

RoPE (chapter 3) goes further: it encodes only **relative distance**, so attention scores depend
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
(def-attention-rollout)=
## 7.3 注意力是線索，不是解釋

有些注意力頭的行為和句法關係相當吻合：在 BERT 裡，有的頭讓受詞看向它的動詞，有的讓代名詞看向它的先行詞
{cite}`clark2019what`。這很誘人：看熱圖，就能讀出模型在想什麼？然而權重高，不代表模型就是依那個詞做判斷
{cite}`jain2019attention`；反過來，權重也不是全無資訊，要看你怎麼檢驗 {cite}`wiegreffe2019attention`。
結構究竟是模型自己長出來的，還是我們讀進去的，要靠**探測**（probe）{cite}`hewitt2019structural` 與**介入**實驗共同回答。
這一節兩件事都做：先看圖，再動手介入。

**怎麼讀熱圖。** 每一列是「看的詞」（查詢），每一欄是「被看的詞」（鍵），每一列加起來是 1。紅框是「它」那一列。
「差」的畫面是太大句減太小句：紅色表示在太大句裡看得比較多，藍色表示在太小句裡看得比較多。

**注意力展開（attention rollout）。** 單一個頭只是一層裡的一步。要看兩層合起來，「它」最後從哪些輸入詞取得資訊，
可以把各層接起來 {cite}`abnar2020quantifying`：每層先把各頭平均，再加上殘差連線那條「不動」的路（單位矩陣），
每列重新正規化，最後逐層相乘：

$$
\bar{A}_\ell = \operatorname{rownorm}\Big(\frac{1}{A}\sum_{h=1}^{A} A_\ell^{(h)} + 0.5\, I\Big), \qquad
R = \bar{A}_L \cdots \bar{A}_2\, \bar{A}_1 .
$$

$R$ 的第 $i$ 列，就是第 $i$ 個詞在最上層用到各個輸入詞的比例（`lib.attention_rollout`）。

下面的小工具可以切換語言、句子（太大、太小、兩者之差）以及第幾層第幾個頭或展開圖。每一格都事先算好，網頁上不需要 Python 也能操作。
""",
    en=r"""
(def-attention-rollout)=
## 7.3 Attention is a clue, not an explanation

Some attention heads behave strikingly like syntactic relations: in BERT, one head sends direct
objects to their verbs, another sends pronouns to their antecedents {cite}`clark2019what`. That
is tempting: can we read what the model thinks off a heatmap? But a high weight does not mean the
model decides by that word {cite}`jain2019attention`; nor are the weights empty of information,
it depends on how you test them {cite}`wiegreffe2019attention`. Whether the structure grew in the
model or was read into it by us takes **probes** {cite}`hewitt2019structural` and
**interventions** together to settle. This section does both: look first, then intervene.

**Reading a heatmap.** Each row is the token doing the looking (the query), each column a token
being looked at (the key), and each row sums to 1. The red frame marks the row of "it". The
"difference" view is the big sentence minus the small one: red means more weight in the big
sentence, blue more in the small one.

**Attention rollout.** One head is one step inside one layer. To see where "it" ends up drawing
its information from across both layers, chain the layers {cite}`abnar2020quantifying`: in each
layer average the heads, add the residual connection's "stay put" path (the identity),
renormalise the rows, then multiply the layers:

$$
\bar{A}_\ell = \operatorname{rownorm}\Big(\frac{1}{A}\sum_{h=1}^{A} A_\ell^{(h)} + 0.5\, I\Big), \qquad
R = \bar{A}_L \cdots \bar{A}_2\, \bar{A}_1 .
$$

Row $i$ of $R$ is the share of each input token that token $i$ uses at the top
(`lib.attention_rollout`).

The widget below switches the language, the sentence (too big, too small, or their difference)
and the map (a layer's head, or the rollout). Every frame is precomputed, so it works on the
website without Python.
""",
)

ch.code("lib.figures.heatmaps.attention_widget()")

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
for (layer, head), r in [(k, v) for k, v in route.items() if isinstance(k, tuple)]:
    print(f"layer {layer + 1} head {head + 1}:",
          "pronoun →", r["pronoun_big"], "/", r["pronoun_small"],
          "   adjective →", r["adjective_big"], "/", r["adjective_small"])
print("rollout from the pronoun to", route["rollout"]["nouns"], ":",
      np.round(route["rollout"]["big"], 3), "(big) vs", np.round(route["rollout"]["small"], 3), "(small)")
"""
)

ch.md(zh="TODO-ROUTE", en="TODO-ROUTE")

# ---------------------------------------------------------------- ablation
ch.md(
    zh="""
### 檢驗這條線索：一次關掉一個頭

看向哪裡，是否就是靠哪裡做判斷？直接介入：把某個頭的值向量歸零，它照樣分配注意力，卻什麼也寫不回殘差流；
其他頭不動，在保留集上重新量答對率。關掉之後答對率掉得越多，這個頭就越重要。
""",
    en="""
### Testing the clue: switch off one head at a time

Is where a head looks what the model relies on? Intervene directly: zero one head's value
vectors, so it still distributes attention but writes nothing back into the residual stream;
leave the other heads alone, and measure the held-out accuracy again. The more accuracy drops, the
more that head matters.
""",
)

ch.code(
    """
acc = {lang: lib.figures.heatmaps.ablation_accuracies(lang) for lang in ("zh", "en")}
for lang, a in acc.items():
    print(lang, {("all on" if k is None else f"off L{k[0] + 1}H{k[1] + 1}"): round(v, 3) for k, v in a.items()})
"""
)

ch.md(zh="TODO-ABLATION", en="TODO-ABLATION")

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

ch.md(zh="TODO-SURPRISAL", en="TODO-SURPRISAL")

# ------------------------------------------------------------ 7.5 back to the sentence
ch.md(zh="TODO-STATIONS", en="TODO-STATIONS")

ch.write()
