"""Train the book's tiny models and ship them: ``python tools/train_tiny.py``.

Trains, on the training split of :mod:`lib.corpus`, with the Torch mirror (CUDA when present):

1. ``encoder``        bidirectional, predicts the referent of 它/it at the pronoun;
2. ``encoder_nopos``  the same without position embeddings (the ablation);
3. ``decoder``        causal next-word model, stopped early on the dev split's perplexity.

Then writes ``lib/weights/{tiny_models.npz, config.json, vocab.json}``, measures every figure
with the NumPy reference (:func:`lib.winograd.summary`), prints them and rewrites the measured
block of ``lib/winograd.py``'s docstring. Deterministic under ``--seed`` on a given device and
thread count (the default is one CPU thread: on two cores that is also the fastest). About a
minute on two CPU cores.

Options: ``--seed N`` · ``--device cpu|cuda`` · ``--threads N`` · ``--out DIR`` (another folder
leaves the shipped weights and the docstring alone) · ``--encoder-steps`` · ``--decoder-steps`` ·
``--measure-only`` (retrain nothing; re-measure the shipped weights, rewrite the docstring).
"""
from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def rewrite_docstring(lines: list, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    block = ".. measured-begin\n\n::\n\n" + "\n".join(lines) + "\n\n.. measured-end"
    new, n = re.subn(r"\.\. measured-begin.*?\.\. measured-end", lambda _: block, text,
                     flags=re.S)
    if n != 1:
        raise SystemExit(f"no measured block found in {path}")
    path.write_text(new, encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--device", default=None, help="cpu or cuda (default: cuda if present)")
    ap.add_argument("--threads", type=int, default=1, help="CPU threads for torch")
    ap.add_argument("--out", default=None, help="output folder (default lib/weights)")
    ap.add_argument("--encoder-steps", type=int, default=None)
    ap.add_argument("--decoder-steps", type=int, default=None)
    ap.add_argument("--measure-only", action="store_true",
                    help="train nothing: measure the shipped weights and rewrite the docstring")
    args = ap.parse_args(argv)
    if args.measure_only:
        from lib import winograd
        lines = winograd.summary_lines()
        print("\n".join(lines))
        rewrite_docstring(lines, Path(winograd.__file__))
        return 0

    import torch

    from lib import tiny_models, winograd

    torch.set_num_threads(args.threads)
    t0 = time.perf_counter()
    enc_steps = args.encoder_steps or tiny_models.ENCODER_STEPS
    dec_steps = args.decoder_steps or tiny_models.DECODER_MAX_STEPS
    results = {}
    for name, pos in (("encoder", True), ("encoder_nopos", False)):
        print(f"training {name} ({enc_steps} steps)", flush=True)
        results[name] = tiny_models.train_encoder(seed=args.seed, steps=enc_steps, positions=pos,
                                                  device=args.device, log=print)
        print(f"  {results[name].seconds:.1f} s", flush=True)
    print(f"training decoder (≤ {dec_steps} steps, early stopping on dev perplexity)", flush=True)
    results["decoder"] = tiny_models.train_decoder(seed=args.seed, max_steps=dec_steps,
                                                   device=args.device, log=print)
    info = results["decoder"].info
    print(f"  best dev perplexity {info['best_dev_perplexity']:.3f} at step {info['best_step']}; "
          f"{results['decoder'].seconds:.1f} s", flush=True)
    total = time.perf_counter() - t0
    extra = {"total_training_seconds": round(total, 1), "torch": torch.__version__,
             "threads": args.threads, "command": "python tools/train_tiny.py"}
    out = tiny_models.save_models(results, args.out, extra=extra)
    print(f"wrote {out} in {total:.1f} s of training")

    default = args.out is None or Path(args.out).resolve() == tiny_models.WEIGHTS_DIR
    if default:
        tiny_models.clear_caches()
        winograd.clear_caches()
        lines = winograd.summary_lines()
        print("\n".join(lines))
        rewrite_docstring(lines, Path(winograd.__file__))
        print(f"updated the measured block of {winograd.__file__}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
