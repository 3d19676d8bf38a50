"""Figures and small experiments of chapter 4: multi-head attention and the Transformer block.

Plots return a matplotlib ``Figure`` (labels through ``lib.tr``). Besides the plots, the module
holds three things the chapter needs and ``lib`` deliberately lacks:

* :func:`post_norm_block`, the original paper's block (Vaswani et al. 2017), written as a short
  composition of ``lib`` functions. It is a contrast to the book's pre-norm
  ``lib.transformer_block``, not a primitive of the library.
* :func:`param_shapes` / :func:`param_count`, parameter counts computed from the shapes of a
  block's matrices (one block, GPT-2 small, GPT-3).
* :func:`depth_experiment`, pre-norm against post-norm through a deep stack of random-init blocks,
  run with ``lib.torch_mirror`` so autograd gives the gradients (Xiong et al. 2020).
"""
from __future__ import annotations

from math import prod

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import Normalize

import lib
from lib.book import tr

__all__ = [
    "post_norm_block", "random_block_params", "param_shapes", "param_count",
    "depth_experiment", "depth_sweep", "adjective_index", "head_summary", "head_table", "heads_widget",
    "plot_heads", "plot_concat", "plot_residual_update",
    "plot_layer_norm", "plot_relu", "plot_depth_experiment", "plot_param_breakdown",
]

# One colour per role, used by every figure of the chapter.
_C_X, _C_T2, _C_T3 = "#4C72B0", "#DD8452", "#55A868"
_C_PRE, _C_POST = "#4C72B0", "#C44E52"


# --------------------------------------------------------------------------------------------
# The post-norm block, random parameters and parameter counts
# --------------------------------------------------------------------------------------------
def post_norm_block(x, params, causal=False, ops=None):
    """The original Transformer block (post-norm, "Add & Norm"), composed from ``lib``.

    ``u = LN(x + MHA(x))``; ``h = LN(u + FFN(u))``: the norm comes *after* each residual
    addition, so the stream itself is renormalised twice per block. Compare the pre-norm
    ``lib.transformer_block``, where the norm only feeds each sublayer and the stream is
    never rescaled.

    Parameters
    ----------
    x : array-like (or torch tensor), shape [N, d]
    params : dict with the keys of ``lib.transformer_block``
    causal : bool
    ops : module, optional
        ``lib`` (NumPy, the default) or ``lib.torch_mirror`` (torch tensors, autograd).

    Returns
    -------
    h : shape [N, d]
    weights : shape [A, N, N]
    """
    ops = lib if ops is None else ops
    p = params
    a, weights = ops.multi_head_attention(x, p["WQ"], p["WK"], p["WV"], p["WO"], p["n_heads"],
                                          causal=causal)                  # [N, d]
    u = ops.layer_norm(x + a, p["gamma1"], p["beta1"])                    # [N, d]
    f = ops.feed_forward(u, p["W1"], p["b1"], p["W2"], p["b2"])           # [N, d]
    return ops.layer_norm(u + f, p["gamma2"], p["beta2"]), weights        # [N, d], [A, N, N]


def param_shapes(d, d_ff=None, attn_bias=False):
    """The shape of every parameter of one block, as ``lib.transformer_block`` names them.

    Parameters
    ----------
    d : int
        Model width.
    d_ff : int, optional
        Width of the feed-forward layer (default ``4 d``).
    attn_bias : bool
        Add a bias to each of the four attention projections (``bQ, bK, bV, bO``), as GPT-2
        does; ``lib.transformer_block`` has none.

    Returns
    -------
    dict name → shape tuple
    """
    d = int(d)
    d_ff = 4 * d if d_ff is None else int(d_ff)
    shapes = {"gamma1": (d,), "beta1": (d,),
              "WQ": (d, d), "WK": (d, d), "WV": (d, d), "WO": (d, d),
              "gamma2": (d,), "beta2": (d,),
              "W1": (d, d_ff), "b1": (d_ff,), "W2": (d_ff, d), "b2": (d,)}
    if attn_bias:
        shapes.update({"bQ": (d,), "bK": (d,), "bV": (d,), "bO": (d,)})
    return shapes


_GROUP = {"gamma1": "norm", "beta1": "norm", "gamma2": "norm", "beta2": "norm",
          "WQ": "attention", "WK": "attention", "WV": "attention", "WO": "attention",
          "bQ": "attention", "bK": "attention", "bV": "attention", "bO": "attention",
          "W1": "feed_forward", "b1": "feed_forward", "W2": "feed_forward",
          "b2": "feed_forward"}


def param_count(d, n_layers=1, vocab=0, n_positions=0, d_ff=None, attn_bias=False,
                final_norm=False, tied=True):
    """Count a decoder's parameters from the shapes of its matrices, part by part.

    Parameters
    ----------
    d, d_ff, attn_bias : see :func:`param_shapes`
    n_layers : int
        Blocks in the stack (``L``).
    vocab : int
        ``|V|``: the embedding matrix ``E`` is ``[|V|, d]`` (0: no embedding).
    n_positions : int
        Rows of a learned position-embedding table ``[n_positions, d]`` (0: none).
    final_norm : bool
        One more LayerNorm (γ, β) after the last block, as in GPT-2 and GPT-3.
    tied : bool
        The LM head reuses ``E`` (weight tying) and adds nothing; otherwise ``[d, |V|]`` more.

    Returns
    -------
    dict with int entries ``embeddings, positions, attention, feed_forward, norm, lm_head``
    and ``total``.
    """
    parts = dict.fromkeys(("embeddings", "positions", "attention", "feed_forward", "norm",
                           "lm_head"), 0)
    for name, shape in param_shapes(d, d_ff, attn_bias).items():
        parts[_GROUP[name]] += int(n_layers) * prod(shape)
    parts["embeddings"] = int(vocab) * int(d)
    parts["positions"] = int(n_positions) * int(d)
    parts["norm"] += 2 * int(d) if final_norm else 0
    parts["lm_head"] = 0 if tied else int(d) * int(vocab)
    parts["total"] = sum(parts.values())
    return parts


def random_block_params(d, n_heads, d_ff=None, rng=None):
    """Random initial parameters for ``lib.transformer_block`` (and :func:`post_norm_block`).

    Matrices are Xavier-normal (``std = √(2 / (fan_in + fan_out))``, the initialisation of
    Xiong et al. 2020), biases 0, γ = 1, β = 0 — a block before any training.

    Returns
    -------
    dict of ``np.ndarray`` plus ``n_heads``
    """
    rng = np.random.default_rng(rng)
    params = {}
    for name, shape in param_shapes(d, d_ff).items():
        if len(shape) == 2:
            params[name] = rng.normal(0.0, np.sqrt(2.0 / sum(shape)), size=shape)
        else:
            params[name] = np.ones(shape) if name.startswith("gamma") else np.zeros(shape)
    params["n_heads"] = int(n_heads)
    return params


def depth_experiment(n_layers=24, d=64, n_heads=4, n_tokens=10, vocab=100, seeds=(0, 1, 2),
                     causal=True):
    """Pre-norm against post-norm at initialisation, through a stack of random blocks.

    For each seed, one stack of ``n_layers`` random blocks (:func:`random_block_params`), one
    random input ``x`` (rows ~ N(0, 1)) and random next-token targets; both variants use the
    *same* weights. The head is a random tied-style unembedding ``[|V|, d]`` read after a
    final LayerNorm (pre-norm, as GPT-2) or directly (post-norm: its stream is already
    normalised). The loss is ``lib.torch_mirror.cross_entropy``; autograd gives the gradients.

    Returns
    -------
    dict ``{"pre": …, "post": …}``, each with arrays averaged over the seeds:

    * ``stream_norm`` [L+1]: mean ‖row‖ of the residual stream, input and after each block;
    * ``grad_W1`` [L]: Frobenius norm of ∂loss/∂W₁ of each block (Xiong et al.'s Fig. 3);
    * ``grad_x`` float: ‖∂loss/∂x‖, the gradient that reaches the input;
    * ``loss`` float.
    """
    import torch

    from lib import torch_mirror as tm

    out = {v: {"stream_norm": [], "grad_W1": [], "grad_x": [], "loss": []}
           for v in ("pre", "post")}
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # tiny matrices: one thread is fastest, and 2-core machines stay calm
    try:
        for seed in seeds:
            _one_seed(seed, out, n_layers, d, n_heads, n_tokens, vocab, causal, torch, tm)
    finally:
        torch.set_num_threads(threads)
    for r in out.values():
        for k in ("stream_norm", "grad_W1"):
            r[k] = np.mean(np.array(r[k]), axis=0)
        for k in ("grad_x", "loss"):
            r[k] = float(np.mean(r[k]))
    return out


def _one_seed(seed, out, n_layers, d, n_heads, n_tokens, vocab, causal, torch, tm):
    """One random stack, input and target; both variants on the same weights."""
    rng = np.random.default_rng(seed)
    stack = [random_block_params(d, n_heads, rng=rng) for _ in range(n_layers)]
    x0 = rng.normal(size=(n_tokens, d))
    E = rng.normal(0.0, 1.0 / np.sqrt(d), size=(vocab, d))
    targets = rng.integers(0, vocab, size=n_tokens)
    for variant in ("pre", "post"):
        layers = [{k: (v if k == "n_heads" else
                       torch.tensor(v, dtype=torch.float64, requires_grad=True))
                   for k, v in p.items()} for p in stack]
        x = torch.tensor(x0, dtype=torch.float64, requires_grad=True)
        h, norms = x, [float(x.detach().norm(dim=-1).mean())]
        for p in layers:
            if variant == "pre":
                h, _ = tm.transformer_block(h, p, causal=causal)              # [N, d]
            else:
                h, _ = post_norm_block(h, p, causal=causal, ops=tm)           # [N, d]
            norms.append(float(h.detach().norm(dim=-1).mean()))
        top = tm.layer_norm(h) if variant == "pre" else h                    # [N, d]
        logits = tm.lm_head(top, torch.tensor(E))                           # [N, |V|]
        loss = tm.cross_entropy(logits, torch.tensor(targets))
        loss.backward()
        r = out[variant]
        r["stream_norm"].append(norms)
        r["grad_W1"].append([float(p["W1"].grad.norm()) for p in layers])
        r["grad_x"].append(float(x.grad.norm()))
        r["loss"].append(float(loss.detach()))


def depth_sweep(depths=(2, 8, 32), **kwargs):
    """:func:`depth_experiment` for several depths ``L``: the gradient norm of the top block's
    W₁ and of the input, for each variant. Xiong et al. (2020) prove that at initialisation the
    top block's gradient of post-norm does not shrink with ``L`` while pre-norm's scales like
    ``1/√L``.

    Returns
    -------
    dict ``{"depths": [...], "pre": {"top_grad": [...], "input_grad": [...]}, "post": …,
    "runs": {L: the result of depth_experiment(L)}}``
    """
    out = {"depths": [int(L) for L in depths], "runs": {}}
    out.update({v: {"top_grad": [], "input_grad": []} for v in ("pre", "post")})
    for L in out["depths"]:
        r = out["runs"][L] = depth_experiment(n_layers=L, **kwargs)
        for v in ("pre", "post"):
            out[v]["top_grad"].append(float(r[v]["grad_W1"][-1]))
            out[v]["input_grad"].append(r[v]["grad_x"])
    return out


def _noun_indices(r):
    """Positions of the two candidate nouns of a ``lib.winograd.resolve`` result, in order."""
    return sorted(r.tokens.index(noun) for noun in r.probs)


def adjective_index(r_big, r_small):
    """The position of the one word that differs between the two sentences of a pair."""
    diff = [k for k, (a, b) in enumerate(zip(r_big.tokens, r_small.tokens)) if a != b]
    if len(r_big.tokens) != len(r_small.tokens) or len(diff) != 1:
        raise ValueError(f"the sentences must have the same length and differ in one token, got "
                         f"{r_big.tokens} and {r_small.tokens}")
    return diff[0]


def head_summary(r_big, r_small):
    """Where the pronoun looks, head by head, in the two sentences of a Winograd pair.

    Parameters
    ----------
    r_big, r_small : results of ``lib.winograd.resolve`` on the two sentences of a pair
        (same length; they differ in one word).

    Returns
    -------
    list of dicts, one per (layer, head), with ``layer``, ``head`` (from 1), and for each
    sentence ``s`` in ``("big", "small")``: ``top_s`` the token the pronoun attends to most and
    ``top_w_s`` its weight, and ``share_s`` the first noun's share of the pronoun's attention to
    the two nouns, ``w(noun 1) / (w(noun 1) + w(noun 2))``; ``adj_top_s`` and ``adj_top_w_s``
    the same for the row of the word that differs between the sentences (大/小, big/small).
    """
    i = r_big.pronoun_index
    n1, n2 = _noun_indices(r_big)
    j = adjective_index(r_big, r_small)
    L, A = np.shape(r_big.attention)[:2]
    rows = []
    for l in range(L):
        for h in range(A):
            row = {"layer": l + 1, "head": h + 1}
            for tag, r in (("big", r_big), ("small", r_small)):
                w = np.asarray(r.attention)[l, h, i]                             # [N]
                top = int(np.argmax(w))
                row[f"top_{tag}"], row[f"top_w_{tag}"] = r.tokens[top], float(w[top])
                row[f"share_{tag}"] = float(w[n1] / (w[n1] + w[n2]))
                a = np.asarray(r.attention)[l, h, j]                             # [N]
                row[f"adj_top_{tag}"] = r.tokens[int(np.argmax(a))]
                row[f"adj_top_w_{tag}"] = float(a.max())
            rows.append(row)
    return rows


def head_table(rows, r_big):
    """:func:`head_summary` as an aligned text table, headed in the book's language."""
    n1 = r_big.tokens[_noun_indices(r_big)[0]]
    pron = r_big.tokens[r_big.pronoun_index]
    big, small = tr(zh="「太大」句", en='"too big"'), tr(zh="「太小」句", en='"too small"')
    head = [tr(zh="層·頭", en="layer·head"),
            tr(zh=f"{pron}最看重（{big}）", en=f"{pron} looks most at ({big})"),
            tr(zh=f"{pron}最看重（{small}）", en=f"{pron} looks most at ({small})"),
            tr(zh=f"{n1}的佔比（大／小）", en=f"{n1}'s share (big / small)")]
    lines = [" | ".join(head)]
    for r in rows:
        lines.append(" | ".join([
            f"{r['layer']}·{r['head']}",
            f"{r['top_big']} ({r['top_w_big']:.2f})",
            f"{r['top_small']} ({r['top_w_small']:.2f})",
            f"{r['share_big']:.2f} / {r['share_small']:.2f}"]))
    return "\n".join(lines)


def heads_widget(r_big, r_small):
    """A two-frame widget (works without a kernel): every head's heatmap, "too big" or
    "too small" sentence."""
    results = {tr(zh="太大", en="too big"): r_big, tr(zh="太小", en="too small"): r_small}

    def draw(sentence):
        r = results[sentence]
        return plot_heads(r.attention, r.tokens, query=r.pronoun_index)

    return lib.widgets.frames_widget(draw, {"sentence": list(results)},
                                     labels={"sentence": tr(zh="句子", en="sentence")})


# --------------------------------------------------------------------------------------------
# Plots
# --------------------------------------------------------------------------------------------
def _width(token):
    """Display width of a label in half-width columns: a CJK character takes two."""
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in token)


def plot_heads(attention, tokens, query=None, title=None):
    """One heatmap per head (columns) and layer (rows) of a model's attention on one sentence.

    Parameters
    ----------
    attention : array-like, shape [L, A, N, N] or [A, N, N]
        Rows are queries, columns keys (each row sums to 1).
    tokens : list of str, length N
    query : int, optional
        A query row to outline (e.g. the pronoun).
    title : str, optional
    """
    W = np.asarray(attention, dtype=float)
    if W.ndim == 3:
        W = W[None]
    if W.ndim != 4 or W.shape[-1] != W.shape[-2] or W.shape[-1] != len(tokens):
        raise ValueError(f"attention must be [L, A, N, N] or [A, N, N] with N = len(tokens) = "
                         f"{len(tokens)}, got shape {list(np.shape(attention))}")
    L, A, N, _ = W.shape
    side = min(3.6, 7.6 / A)
    fig, axes = plt.subplots(L, A, figsize=(side * A + 0.6, side * L + 0.3 * (title is not None)),
                             squeeze=False, constrained_layout=True)
    norm = Normalize(0.0, 1.0)
    for l in range(L):
        for h in range(A):
            ax = axes[l, h]
            im = ax.imshow(W[l, h], cmap="Blues", norm=norm)
            ax.set_title(tr(zh=f"第 {l + 1} 層 · 頭 {h + 1}", en=f"layer {l + 1} · head {h + 1}"),
                         fontsize=10)
            ax.set_xticks(range(N), tokens, rotation=90 if max(map(_width, tokens)) > 3 else 0,
                          fontsize=8)
            ax.set_yticks(range(N), tokens if h == 0 else [""] * N, fontsize=8)
            if query is not None:
                ax.add_patch(plt.Rectangle((-0.5, query - 0.5), N, 1, fill=False,
                                           edgecolor=_C_T2, linewidth=1.8))
    fig.colorbar(im, ax=axes, shrink=0.6, label=tr(zh="注意力權重", en="attention weight"))
    for ax in axes[-1]:
        ax.set_xlabel(tr(zh="被看的詞元（鍵）", en="looked-at token (key)"), fontsize=9)
    for ax in axes[:, 0]:
        ax.set_ylabel(tr(zh="提問的詞元（查詢）", en="asking token (query)"), fontsize=9)
    if title:
        fig.suptitle(title)
    return fig


def plot_concat(heads, concat, out):
    """The committee at work: each head's [N, d_k] output, their concatenation, and ⊕·W_O.

    Parameters
    ----------
    heads : list of A arrays, each [N, d_k]
    concat : array [N, d]  (the heads side by side)
    out : array [N, d]     (``concat @ WO``, what ``lib.multi_head_attention`` returns)
    """
    heads = [np.asarray(h, dtype=float) for h in heads]
    mats = heads + [np.asarray(concat, dtype=float), np.asarray(out, dtype=float)]
    widths = [m.shape[1] for m in mats]
    vmax = max(float(np.abs(m).max()) for m in mats) or 1.0
    fig, axes = plt.subplots(1, len(mats), figsize=(7.6, 2.6),
                             gridspec_kw={"width_ratios": widths}, constrained_layout=True)
    names = [tr(zh=f"頭 {i + 1}", en=f"head {i + 1}") for i in range(len(heads))]
    names += [tr(zh="串接 ⊕", en="concat ⊕"), tr(zh="× W_O", en="× W_O")]
    for ax, m, name in zip(axes, mats, names):
        im = ax.imshow(m, cmap="RdBu_r", vmin=-vmax, vmax=vmax, aspect="equal")
        ax.set_title(f"{name}\n[{m.shape[0]} × {m.shape[1]}]", fontsize=9)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.colorbar(im, ax=axes, shrink=0.8)
    return fig


def plot_residual_update(x, t2, t3=None, labels=None):
    """The residual stream as a shared notebook: the note ``x``, the annotation ``t2`` that
    attention adds, and the annotated note ``t3 = x + t2``, coordinate by coordinate."""
    x = np.asarray(x, dtype=float)
    t2 = np.asarray(t2, dtype=float)
    t3 = x + t2 if t3 is None else np.asarray(t3, dtype=float)
    labels = labels or [tr(zh="原本的筆記 x", en="the note x"),
                        tr(zh="注意力的註記 t²", en="attention's annotation t²"),
                        tr(zh="加註後 t³ = x + t²", en="annotated t³ = x + t²")]
    d = len(x)
    fig, ax = plt.subplots(figsize=(6.4, 3.2), constrained_layout=True)
    pos = np.arange(d)
    for k, (v, c, lab) in enumerate(zip((x, t2, t3), (_C_X, _C_T2, _C_T3), labels)):
        bars = ax.bar(pos + (k - 1) * 0.27, v, width=0.26, color=c, label=lab)
        ax.bar_label(bars, fmt="%.1f", fontsize=8, padding=2)
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xticks(pos, [tr(zh=f"第 {i + 1} 格", en=f"coordinate {i + 1}") for i in range(d)])
    ax.set_ylabel(tr(zh="數值", en="value"))
    ax.legend(fontsize=8, loc="upper left")
    ax.margins(y=0.18)
    return fig


def plot_layer_norm(x, y, gamma=None, beta=None):
    """Raw scores and their z-scores side by side: ``y = LN(x)`` (mean and ±1 std marked)."""
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    fig, axes = plt.subplots(1, 2, figsize=(7.2, 3.0), constrained_layout=True)
    titles = [tr(zh="原始分數 x", en="raw scores x"),
              tr(zh="標準分數 LN(x)", en="standard scores LN(x)")]
    for ax, v, title, c in zip(axes, (x, y), titles, (_C_X, _C_T3)):
        mu, sd = round(float(v.mean()), 9) + 0.0, float(v.std())  # population std, as layer_norm
        bars = ax.bar(range(len(v)), v, color=c)
        ax.bar_label(bars, fmt="%.3g", fontsize=8, padding=2)
        ax.axhline(mu, color="0.2", linestyle="--", linewidth=1,
                   label=tr(zh=f"平均 {mu:.3g}", en=f"mean {mu:.3g}"))
        ax.axhspan(mu - sd, mu + sd, color="0.85", zorder=0,
                   label=tr(zh=f"± 標準差 {sd:.3g}", en=f"± std {sd:.3g}"))
        ax.set_title(title, fontsize=10)
        ax.set_xticks(range(len(v)), [f"x{i + 1}" for i in range(len(v))])
        ax.legend(fontsize=8, loc="upper left")
        ax.margins(y=0.2)
    return fig


def plot_relu(z, h):
    """The middle of the feed-forward network: pre-activations ``z`` and ``ReLU(z)``."""
    z = np.asarray(z, dtype=float)
    h = np.asarray(h, dtype=float)
    fig, ax = plt.subplots(figsize=(5.6, 2.8), constrained_layout=True)
    pos = np.arange(len(z))
    b1 = ax.bar(pos - 0.2, z, width=0.38, color=_C_X, label="z")
    b2 = ax.bar(pos + 0.2, h, width=0.38, color=_C_T3, label="ReLU(z)")
    ax.bar_label(b1, fmt="%.1f", fontsize=8, padding=2)
    ax.bar_label(b2, fmt="%.1f", fontsize=8, padding=2)
    ax.axhline(0, color="0.3", linewidth=0.8)
    ax.set_xticks(pos, [f"z{i + 1}" for i in pos])
    ax.set_title(tr(zh="ReLU：負數歸零，正數照留", en="ReLU: negatives to zero, positives kept"),
                 fontsize=10)
    ax.legend(fontsize=8)
    ax.margins(y=0.2)
    return fig


def plot_depth_experiment(result, sweep):
    """Two panels: the size of the residual stream after each block of one deep stack
    (:func:`depth_experiment`), and the gradient that the top block receives as the stack gets
    deeper (:func:`depth_sweep`, log–log), pre-norm against post-norm."""
    fig, axes = plt.subplots(1, 2, figsize=(7.8, 3.2), constrained_layout=True)
    names = {"pre": tr(zh="pre-norm（本書）", en="pre-norm (this book)"),
             "post": tr(zh="post-norm（原始論文）", en="post-norm (original paper)")}
    for v, c in (("pre", _C_PRE), ("post", _C_POST)):
        norms = result[v]["stream_norm"]
        axes[0].plot(range(len(norms)), norms, "o-", ms=3, color=c, label=names[v])
        axes[1].loglog(sweep["depths"], sweep[v]["top_grad"], "o-", ms=4, color=c,
                       label=names[v])
    axes[0].set_xlabel(tr(zh="第幾個區塊之後（0 = 輸入）", en="after block (0 = input)"))
    axes[0].set_ylabel(tr(zh="每列的平均長度", en="mean row norm"))
    axes[0].set_title(tr(zh="殘差流有多大", en="size of the residual stream"), fontsize=10)
    axes[0].set_ylim(bottom=0)
    axes[1].set_xlabel(tr(zh="區塊數 L", en="number of blocks L"))
    axes[1].set_ylabel(tr(zh="最上層的 ‖∂損失/∂W₁‖", en="top block's ‖∂loss/∂W₁‖"))
    axes[1].set_title(tr(zh="最上層拿到的梯度", en="gradient at the top block"), fontsize=10)
    depths = np.asarray(sweep["depths"], dtype=float)
    ref = sweep["pre"]["top_grad"][0] * np.sqrt(depths[0] / depths)
    axes[1].loglog(depths, ref, ":", color="0.5", label="∝ 1/√L")
    axes[1].set_xticks(sweep["depths"], [str(L) for L in sweep["depths"]])
    lo = min(min(sweep[v]["top_grad"]) for v in ("pre", "post"))
    hi = max(max(sweep[v]["top_grad"]) for v in ("pre", "post"))
    ticks = [t for t in (0.1, 0.2, 0.5, 1, 2, 5, 10) if lo / 1.5 <= t <= hi * 1.5]
    axes[1].set_yticks(ticks, [f"{t:g}" for t in ticks])
    axes[1].minorticks_off()
    for ax in axes:
        ax.legend(fontsize=8)
        ax.grid(alpha=0.3)
    return fig


def plot_param_breakdown(models):
    """Horizontal stacked bars: where the parameters of each model sit.

    Parameters
    ----------
    models : dict name → the dict of :func:`param_count`
    """
    parts = ("embeddings", "positions", "attention", "feed_forward", "norm", "lm_head")
    names = {"embeddings": tr(zh="詞嵌入 E", en="embeddings E"),
             "positions": tr(zh="位置嵌入", en="positions"),
             "attention": tr(zh="注意力", en="attention"),
             "feed_forward": tr(zh="前饋網路", en="feed-forward"),
             "norm": "LayerNorm", "lm_head": tr(zh="語言模型頭", en="LM head")}
    colors = dict(zip(parts, ("#8172B3", "#937860", _C_PRE, _C_T3, "#CCB974", "#DA8BC3")))
    fig, ax = plt.subplots(figsize=(7.4, 0.9 + 0.7 * len(models)), constrained_layout=True)
    for row, (model, counts) in enumerate(models.items()):
        left = 0.0
        for part in parts:
            share = counts[part] / counts["total"]
            if share == 0:
                continue
            ax.barh(row, share, left=left, color=colors[part], label=names[part])
            if share > 0.06:
                ax.text(left + share / 2, row, f"{share:.0%}", ha="center", va="center",
                        fontsize=8, color="white")
            left += share
    handles, labels = ax.get_legend_handles_labels()
    seen = dict(zip(labels, handles))
    ax.legend(seen.values(), seen.keys(), fontsize=8, ncol=3, loc="upper center",
              bbox_to_anchor=(0.5, -0.12), frameon=False)
    ax.set_yticks(range(len(models)), list(models))
    ax.set_xlim(0, 1)
    ax.set_xticks([])
    ax.invert_yaxis()
    ax.set_title(tr(zh="參數都在哪裡（佔全部的比例）", en="where the parameters are (share of all)"),
                 fontsize=10)
    return fig
