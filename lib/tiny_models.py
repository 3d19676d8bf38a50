"""The tiny Transformers of the book: built from ``lib.torch_mirror``, run by the NumPy reference.

One architecture, three trained models (``lib/weights/``):

* ``encoder``       bidirectional; at the pronoun's position it predicts the referent noun
                    through the tied LM head (cross-entropy over the whole vocabulary).
* ``encoder_nopos`` the same encoder trained without position embeddings (the ablation).
* ``decoder``       causal; next-token prediction with teacher forcing on the same corpus, stopped
                    early on the dev split's perplexity.

The model is the book's pre-norm block and nothing else: ``x = embed(ids, E) + P[:N]``, then
``L`` × ``transformer_block``, a final ``layer_norm`` and ``lm_head(h, E)`` (weight tying). No
dropout, no loss on attention weights. Training uses the Torch mirror (CUDA when present);
inference in chapters uses the NumPy reference, which reproduces the Torch logits.
"""
from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from . import corpus

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
WEIGHTS_FILE = "tiny_models.npz"
CONFIG_FILE = "config.json"
VOCAB_FILE = "vocab.json"
MODEL_NAMES = ("encoder", "encoder_nopos", "decoder")
#: the shipped training recipe (tools/train_tiny.py)
ENCODER_STEPS = 1000
DECODER_MAX_STEPS = 1500
BATCH_SIZE = 64
LEARNING_RATE = 3e-3
BLOCK_KEYS = ("gamma1", "beta1", "WQ", "WK", "WV", "WO", "gamma2", "beta2", "W1", "b1", "W2", "b2")


@dataclass(frozen=True)
class Config:
    vocab_size: int
    d: int = 32
    n_layers: int = 2
    n_heads: int = 2
    d_ff: int = 128
    max_len: int = 16
    positions: bool = True
    causal: bool = False

    @property
    def d_k(self) -> int:
        return self.d // self.n_heads


def default_config(name: str) -> Config:
    """The architecture of one of the shipped models."""
    base = Config(vocab_size=corpus.vocab_size())
    if name == "encoder":
        return base
    if name == "encoder_nopos":
        return replace(base, positions=False)
    if name == "decoder":
        return replace(base, causal=True)
    raise ValueError(f"model must be one of {MODEL_NAMES}, got {name!r}")


# ---------------------------------------------------------------- Torch side (training)


def _torch():
    import torch
    return torch


def _tm():
    from . import torch_mirror
    return torch_mirror


def init_params(cfg: Config, seed: int = 0) -> dict:
    """Initial parameters as NumPy float32 arrays, drawn from ``np.random.default_rng(seed)``."""
    rng = np.random.default_rng(seed)
    d, f = cfg.d, cfg.d_ff

    def normal(shape, std):
        return (rng.standard_normal(shape) * std).astype(np.float32)

    p = {"E": normal((cfg.vocab_size, d), 0.1)}
    if cfg.positions:
        p["P"] = normal((cfg.max_len, d), 0.1)
    for layer in range(cfg.n_layers):
        pre = f"layer{layer}."
        p[pre + "gamma1"] = np.ones(d, np.float32)
        p[pre + "beta1"] = np.zeros(d, np.float32)
        for k in ("WQ", "WK", "WV", "WO"):
            p[pre + k] = normal((d, d), d ** -0.5)
        p[pre + "gamma2"] = np.ones(d, np.float32)
        p[pre + "beta2"] = np.zeros(d, np.float32)
        p[pre + "W1"] = normal((d, f), d ** -0.5)
        p[pre + "b1"] = np.zeros(f, np.float32)
        p[pre + "W2"] = normal((f, d), f ** -0.5)
        p[pre + "b2"] = np.zeros(d, np.float32)
    p["gamma_f"] = np.ones(d, np.float32)
    p["beta_f"] = np.zeros(d, np.float32)
    return p


def _torch_module_class():
    torch = _torch()

    class TinyTransformer(torch.nn.Module):
        """The tiny model as a ``torch.nn.Module`` whose forward calls ``lib.torch_mirror``."""

        def __init__(self, cfg: Config, params: dict, dtype=None, device=None):
            super().__init__()
            self.cfg = cfg
            dtype = dtype or torch.float32
            self.params = torch.nn.ParameterDict({
                k.replace(".", "_"): torch.nn.Parameter(
                    torch.as_tensor(np.array(v), dtype=dtype, device=device))
                for k, v in params.items()})

        def p(self, key: str):
            return self.params[key.replace(".", "_")]

        def block_params(self, layer: int) -> dict:
            out = {k: self.p(f"layer{layer}.{k}") for k in BLOCK_KEYS}
            out["n_heads"] = self.cfg.n_heads
            return out

        def final(self, ids, mask=None, return_attention: bool = False):
            """ids ``[B, N]`` → the last layer-normed states ``[B, N, d]`` (and attention
            ``[B, L, A, N, N]``); ``mask`` (bool, True = may look) hides padding keys."""
            tm = _tm()
            n = ids.shape[-1]
            if n > self.cfg.max_len:
                raise ValueError(f"sequence of {n} tokens is longer than max_len={self.cfg.max_len}")
            E = self.p("E")
            x = tm.embed(ids.reshape(-1), E).reshape(*ids.shape, E.shape[1])  # [B, N, d]
            if self.cfg.positions:
                x = x + self.p("P")[:n]                                 # [B, N, d]
            weights = []
            for layer in range(self.cfg.n_layers):
                x, w = tm.transformer_block(x, self.block_params(layer), causal=self.cfg.causal,
                                            mask=mask)
                weights.append(w)                                       # [B, A, N, N]
            h = tm.layer_norm(x, self.p("gamma_f"), self.p("beta_f"))   # [B, N, d]
            if return_attention:
                return h, torch.stack(weights, 1)                       # [B, L, A, N, N]
            return h

        def forward(self, ids, mask=None):
            """ids ``[B, N]`` → logits ``[B, N, |V|]`` (tied head)."""
            return _tm().lm_head(self.final(ids, mask=mask), self.p("E"))  # [B, N, |V|]

        def numpy_params(self) -> dict:
            return {k: self.params[k.replace(".", "_")].detach().cpu().numpy().astype(np.float32)
                    for k in param_names(self.cfg)}

    return TinyTransformer


def param_names(cfg: Config) -> list:
    return list(init_params(replace(cfg, vocab_size=1, d=2, d_ff=2, max_len=1), 0).keys())


def torch_model(cfg: Config, params: dict, dtype=None, device=None):
    """A Torch module holding ``params`` (NumPy arrays), e.g. the shipped weights in float64."""
    return _torch_module_class()(cfg, params, dtype=dtype, device=device)


def pick_device(device=None):
    torch = _torch()
    if device is not None:
        return torch.device(device)
    return torch.device("cuda" if torch.cuda.is_available() else "cpu")


def padded_ids(exs, with_eos: bool = False) -> np.ndarray:
    """Ids ``[B, N_max]`` of examples, ``<eos>`` appended if asked, ``<pad>`` at the end."""
    pad, eos = corpus.token_id(corpus.PAD), corpus.token_id(corpus.EOS)
    rows = [[corpus.token_id(t) for t in e.tokens] + ([eos] if with_eos else []) for e in exs]
    out = np.full((len(rows), max(map(len, rows))), pad, dtype=np.int64)
    for i, r in enumerate(rows):
        out[i, :len(r)] = r
    return out


def encoder_batch(exs, device) -> dict:
    """One padded batch for the encoder: ids, key mask, pronoun positions, referent ids."""
    torch = _torch()
    ids = torch.as_tensor(padded_ids(exs), device=device)                      # [B, N]
    return {"ids": ids,
            "mask": (ids != corpus.token_id(corpus.PAD))[:, None, None, :],    # [B, 1, 1, N]
            "pronoun": torch.as_tensor([e.pronoun_index for e in exs], device=device),
            "referent": torch.as_tensor([corpus.token_id(e.referent) for e in exs], device=device),
            "distractor": torch.as_tensor([corpus.token_id(e.distractor) for e in exs],
                                          device=device)}


def encoder_logits_at_pronoun(model, batch):
    """Logits ``[B, |V|]`` at each sentence's pronoun."""
    torch = _torch()
    h = model.final(batch["ids"], mask=batch["mask"])                          # [B, N, d]
    at = h[torch.arange(h.shape[0], device=h.device), batch["pronoun"]]        # [B, d]
    return _tm().lm_head(at, model.p("E"))                                     # [B, |V|]


def encoder_loss(model, batch):
    """Mean cross-entropy of the referent at the pronoun position (whole-vocabulary softmax)."""
    torch = _torch()
    return torch.nn.functional.cross_entropy(encoder_logits_at_pronoun(model, batch),
                                             batch["referent"])


def encoder_accuracy(model, exs) -> float:
    """Share of sentences whose referent's logit beats the distractor's at the pronoun (Torch)."""
    torch = _torch()
    batch = encoder_batch(exs, next(model.parameters()).device)
    with torch.no_grad():
        logits = encoder_logits_at_pronoun(model, batch)                      # [B, |V|]
    ref = logits.gather(1, batch["referent"][:, None])
    dis = logits.gather(1, batch["distractor"][:, None])
    return float((ref > dis).double().mean())


def decoder_batch(exs, device) -> dict:
    """Inputs and next-token targets (teacher forcing); padding targets are ignored (−100),
    ``target_words`` also ignores ``<eos>`` (perplexity over the sentence's own words)."""
    torch = _torch()
    ids = torch.as_tensor(padded_ids(exs, with_eos=True), device=device)      # [B, N + 1]
    tgt = ids[:, 1:].clone()                                                   # [B, N]
    tgt[tgt == corpus.token_id(corpus.PAD)] = -100
    words = tgt.clone()
    words[words == corpus.token_id(corpus.EOS)] = -100
    return {"ids": ids[:, :-1], "target": tgt, "target_words": words}


def decoder_loss(model, batch, include_eos: bool = True):
    """Mean next-token cross-entropy over the predicted tokens (padding ignored)."""
    torch = _torch()
    logits = model(batch["ids"])                                               # [B, N, |V|]
    tgt = batch["target"] if include_eos else batch["target_words"]
    return torch.nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]),
                                             tgt.reshape(-1), ignore_index=-100)


@dataclass
class TrainResult:
    model: object
    losses: list
    seconds: float
    steps: int
    info: dict


def _minibatches(batch: dict, batch_size: int, seed: int):
    """Endless minibatches: rows of the full ``batch`` in a fresh seeded order every epoch
    (``batch_size`` ≤ 0 or ≥ B: the full batch every step)."""
    torch = _torch()
    n = next(iter(batch.values())).shape[0]
    if batch_size <= 0 or batch_size >= n:
        while True:
            yield batch
    rng = np.random.default_rng(seed)
    while True:
        order = rng.permutation(n)
        for i in range(0, n - batch_size + 1, batch_size):
            idx = torch.as_tensor(order[i:i + batch_size], device=batch["ids"].device)
            yield {k: v[idx] for k, v in batch.items()}


def _optimizer(model, lr, weight_decay):
    torch = _torch()
    return torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)


def train_encoder(seed: int = 0, steps: int = ENCODER_STEPS, lr: float = LEARNING_RATE,
                  positions: bool = True, batch_size: int = BATCH_SIZE, weight_decay: float = 0.01,
                  device=None, exs=None, log=None) -> TrainResult:
    """Train the encoder on the training split (AdamW, minibatches, no dropout)."""
    torch = _torch()
    torch.manual_seed(seed)
    dev = pick_device(device)
    cfg = default_config("encoder" if positions else "encoder_nopos")
    model = torch_model(cfg, init_params(cfg, seed), device=dev)
    batch = encoder_batch(exs if exs is not None else corpus.examples(split="train"), dev)
    opt = _optimizer(model, lr, weight_decay)
    losses = []
    t0 = time.perf_counter()
    stream = _minibatches(batch, batch_size, seed)
    for step in range(steps):
        opt.zero_grad()
        loss = encoder_loss(model, next(stream))
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
        if log and (step % 250 == 0 or step == steps - 1):
            log(f"  step {step:5d}  loss {losses[-1]:.4f}")
    return TrainResult(model, losses, time.perf_counter() - t0, steps,
                       {"seed": seed, "lr": lr, "weight_decay": weight_decay, "steps": steps,
                        "batch_size": batch_size, "device": str(dev)})


def train_decoder(seed: int = 0, max_steps: int = DECODER_MAX_STEPS, lr: float = LEARNING_RATE,
                  eval_every: int = 25, patience: int = 300, batch_size: int = BATCH_SIZE,
                  weight_decay: float = 0.01, device=None, exs=None, dev_exs=None,
                  log=None) -> TrainResult:
    """Train the decoder; keep the parameters with the lowest dev perplexity (early stopping)."""
    torch = _torch()
    torch.manual_seed(seed)
    dev = pick_device(device)
    cfg = default_config("decoder")
    model = torch_model(cfg, init_params(cfg, seed), device=dev)
    batch = decoder_batch(exs if exs is not None else corpus.examples(split="train"), dev)
    dev_batch = decoder_batch(dev_exs if dev_exs is not None else corpus.examples(split="dev"), dev)
    opt = _optimizer(model, lr, weight_decay)
    losses, dev_ppl = [], []
    best = (float("inf"), 0, model.numpy_params())
    t0 = time.perf_counter()
    step = 0
    stream = _minibatches(batch, batch_size, seed)
    for step in range(1, max_steps + 1):
        opt.zero_grad()
        loss = decoder_loss(model, next(stream))
        loss.backward()
        opt.step()
        losses.append(float(loss.detach()))
        if step % eval_every == 0:
            with torch.no_grad():
                ppl = float(torch.exp(decoder_loss(model, dev_batch, include_eos=False)))
            dev_ppl.append((step, ppl))
            if ppl < best[0]:
                best = (ppl, step, model.numpy_params())
            if log and step % 100 == 0:
                log(f"  step {step:5d}  loss {losses[-1]:.4f}  dev perplexity {ppl:.3f}")
            if step - best[1] >= patience:
                break
    seconds = time.perf_counter() - t0
    final = torch_model(cfg, best[2], device=dev)
    return TrainResult(final, losses, seconds, step,
                       {"seed": seed, "lr": lr, "weight_decay": weight_decay,
                        "max_steps": max_steps, "steps_run": step, "best_step": best[1],
                        "best_dev_perplexity": best[0], "eval_every": eval_every,
                        "patience": patience, "batch_size": batch_size, "device": str(dev),
                        "dev_perplexity_curve": [[s, round(p, 4)] for s, p in dev_ppl]})


# ---------------------------------------------------------------- saving and loading


def save_models(results: dict, out_dir=None, extra: dict | None = None) -> Path:
    """Write ``{name: TrainResult}`` as one ``.npz`` (float32) plus ``config.json`` and
    ``vocab.json``."""
    out = Path(out_dir) if out_dir is not None else WEIGHTS_DIR
    out.mkdir(parents=True, exist_ok=True)
    arrays, config = {}, {"format": 1, "models": {}}
    for name, res in results.items():
        for k, v in res.model.numpy_params().items():
            arrays[f"{name}/{k}"] = v
        config["models"][name] = {"config": asdict(res.model.cfg),
                                  "training": {**res.info, "seconds": round(res.seconds, 2),
                                               "final_loss": round(res.losses[-1], 5)}}
    if extra:
        config.update(extra)
    np.savez_compressed(out / WEIGHTS_FILE, **arrays)
    (out / CONFIG_FILE).write_text(json.dumps(config, ensure_ascii=False, indent=1) + "\n",
                                   encoding="utf-8")
    (out / VOCAB_FILE).write_text(json.dumps(list(corpus.vocabulary()), ensure_ascii=False) + "\n",
                                  encoding="utf-8")
    return out


@lru_cache(maxsize=None)
def _load_dir(path: str):
    path = Path(path)
    try:
        vocab = json.loads((path / VOCAB_FILE).read_text(encoding="utf-8"))
        config = json.loads((path / CONFIG_FILE).read_text(encoding="utf-8"))
        with np.load(path / WEIGHTS_FILE) as z:
            arrays = {k: z[k] for k in z.files}
    except FileNotFoundError as err:
        raise FileNotFoundError(
            f"the tiny models' weights are missing ({err.filename}); "
            "train them with `python tools/train_tiny.py`") from None
    if tuple(vocab) != corpus.vocabulary():
        raise ValueError(f"{path / VOCAB_FILE} does not match lib.corpus.vocabulary(): "
                         "retrain with `python tools/train_tiny.py`")
    return config, arrays


def clear_caches() -> None:
    """Forget loaded weights (after retraining in the same process)."""
    _load_dir.cache_clear()
    _load_params.cache_clear()


def load(name: str, weights_dir=None):
    """``(params, cfg, info)`` of a shipped model: params as float64 NumPy arrays (cached)."""
    if name not in MODEL_NAMES:
        raise ValueError(f"model must be one of {MODEL_NAMES}, got {name!r}")
    return _load_params(name, str(Path(weights_dir) if weights_dir else WEIGHTS_DIR))


@lru_cache(maxsize=None)
def _load_params(name: str, path: str):
    config, arrays = _load_dir(path)
    if name not in config["models"]:
        raise ValueError(f"model {name!r} is not in {path}/{CONFIG_FILE}")
    entry = config["models"][name]
    cfg = Config(**entry["config"])
    pre = name + "/"
    params = {k[len(pre):]: v.astype(np.float64) for k, v in arrays.items() if k.startswith(pre)}
    for v in params.values():
        v.setflags(write=False)
    return params, cfg, entry["training"]


def weights_info(weights_dir=None) -> dict:
    """Sizes of the shipped files in bytes and parameter counts per model."""
    path = Path(weights_dir) if weights_dir else WEIGHTS_DIR
    config, arrays = _load_dir(str(path))
    files = {f: (path / f).stat().st_size for f in (WEIGHTS_FILE, CONFIG_FILE, VOCAB_FILE)}
    counts = {name: int(sum(v.size for k, v in arrays.items() if k.startswith(name + "/")))
              for name in config["models"]}
    return {"files": files, "total_bytes": sum(files.values()), "parameters": counts}


# ---------------------------------------------------------------- NumPy side (inference)


def numpy_forward(ids, params: dict, cfg: Config, ablate=()) -> dict:
    """Run one sequence through the NumPy reference.

    ``ids`` is ``[N]``; ``ablate`` lists ``(layer, head)`` pairs whose outputs are zeroed (their
    value columns are set to 0, so the head still attends but writes nothing). Returns
    ``logits [N, |V|]``, ``attention [L, A, N, N]``, ``hidden [L+1, N, d]`` (the residual stream
    after each layer; 0 = the input) and ``final [N, d]`` (after the last layer norm).
    """
    import lib

    ids = np.asarray(ids, dtype=np.int64).reshape(-1)
    n = len(ids)
    if n > cfg.max_len:
        raise ValueError(f"sequence of {n} tokens is longer than max_len={cfg.max_len}")
    bad = [i for i in ids if not 0 <= i < cfg.vocab_size]
    if bad:
        raise ValueError(f"ids outside the vocabulary of size {cfg.vocab_size}: {bad}")
    ablate = {(int(l), int(h)) for l, h in ablate}
    for l, h in ablate:
        if not (0 <= l < cfg.n_layers and 0 <= h < cfg.n_heads):
            raise ValueError(f"ablate: (layer, head) = ({l}, {h}) outside "
                             f"{cfg.n_layers} layers × {cfg.n_heads} heads")
    x = lib.embed(ids, params["E"])                                     # [N, d]
    if cfg.positions:
        x = x + params["P"][:n]                                         # [N, d]
    hidden, weights = [x], []
    for layer in range(cfg.n_layers):
        p = {k: params[f"layer{layer}.{k}"] for k in BLOCK_KEYS}
        p["n_heads"] = cfg.n_heads
        heads = [h for (l, h) in ablate if l == layer]
        if heads:
            WV = p["WV"].copy()
            for h in heads:
                WV[:, h * cfg.d_k:(h + 1) * cfg.d_k] = 0.0
            p["WV"] = WV
        x, w = lib.transformer_block(x, p, causal=cfg.causal)          # [N, d], [A, N, N]
        hidden.append(x)
        weights.append(w)
    h = lib.layer_norm(x, params["gamma_f"], params["beta_f"])         # [N, d]
    logits = lib.lm_head(h, params["E"])                                # [N, |V|]
    return {"logits": logits, "attention": np.stack(weights), "hidden": np.stack(hidden),
            "final": h}
