"""Each named speed helper of `minigrad/autograd/` against its plain replacement, in ONE process:
the helper is swapped for the plain form and back, in short interleaved blocks, and the
fastest block of each counts (on a loaded machine the fastest block is the one least
disturbed). Whole-workload runs (`ab.py`) swing 12-22% under load; this resolves ~1 µs.

Usage: `PYTHONPATH=TREE python benchmarks/tricks_patch.py [--repeats N]`. Prints, per trick,
µs per chain op (forward of `y * 1.0001` + its share of backward) with and without it."""
from __future__ import annotations

import argparse
import time

import numpy as np

import minigrad
import minigrad.autograd.engine as engine
import minigrad.autograd.function as function

CHAIN = 300  # ops per block: short, so that some blocks escape the neighbours' load


def _errstate(fn, *args, **kwargs):
    with np.errstate(all="ignore"):
        return fn(*args, **kwargs)


PLAIN = {  # trick -> (module, helper name, plain replacement)
    "_run_quietly (Context captured once) vs np.errstate per apply":
        (function, "_run_quietly", _errstate),
    "_link_one_output vs _link_outputs + pack_outputs":
        (function, "_link_one_output",
         lambda ctx, out: function._link_outputs(ctx, (out,), (), ())),
    "_children (flat _edges) vs next_functions in the engine":
        (engine, "_children", lambda node: node.next_functions),
}


def _chain_block() -> float:
    """CPU seconds per op of a CHAIN-op chain, forward and backward."""
    start = time.process_time()
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(CHAIN):
        y = y * 1.0001
    y.backward()
    return (time.process_time() - start) / CHAIN


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=60)
    args = parser.parse_args()
    print(f"minigrad from {minigrad.__file__}; fastest of {args.repeats} interleaved blocks "
          f"of a {CHAIN}-op chain\n")
    print("| trick | with (µs/op) | without (µs/op) | gain |\n| --- | --- | --- | --- |")
    for trick, (module, name, plain) in PLAIN.items():
        helper = getattr(module, name)
        best = {"with": float("inf"), "without": float("inf")}
        for _ in range(args.repeats):
            for label, fn in (("with", helper), ("without", plain)):
                setattr(module, name, fn)
                best[label] = min(best[label], _chain_block())
        setattr(module, name, helper)
        w, wo = best["with"] * 1e6, best["without"] * 1e6
        print(f"| {trick} | {w:.2f} | {wo:.2f} | {(wo - w) / wo * 100:+.1f}% |")


if __name__ == "__main__":
    main()
