"""What each op of a long chain keeps alive: bytes (tracemalloc) and objects tracked by the
garbage collector, for the minigrad of a given checkout. Deterministic, so unlike timings it
needs no repeats. Usage: `python benchmarks/op_memory.py [TREE] [--op mul|add]` (default: this
checkout, and the chain `y = y * 1.0000001`; `--op add` measures `y = y + 1.0000001`)."""
from __future__ import annotations

import argparse
import gc
import operator
import sys
import tracemalloc
from pathlib import Path
from types import ModuleType

LENGTH = 20_000


OPS = {"mul": operator.mul, "add": operator.add}


def kept_per_op(minigrad: ModuleType, length: int = LENGTH, op: str = "mul"
                ) -> tuple[float, float]:
    """(bytes, GC-tracked objects) that each op of `y = y * 1.0000001` (or +) keeps alive."""
    apply = OPS[op]
    x = minigrad.tensor(1.0, requires_grad=True)
    y = apply(x, 1.0000001)  # the first op creates what every later one shares
    gc.collect()
    tracemalloc.start()
    objects, start = len(gc.get_objects()), tracemalloc.get_traced_memory()[0]
    for _ in range(length):
        y = apply(y, 1.0000001)
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    return kept / length, (len(gc.get_objects()) - objects) / length


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=str(Path(__file__).resolve().parent.parent))
    parser.add_argument("--op", choices=sorted(OPS), default="mul")
    args = parser.parse_args()
    sys.path.insert(0, args.tree)
    import minigrad

    kept, objects = kept_per_op(minigrad, op=args.op)
    print(f"{args.tree}: {kept:.0f} bytes and {objects:.2f} GC-tracked objects per {args.op} op")


if __name__ == "__main__":
    main()
