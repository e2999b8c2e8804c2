"""What each op of a long chain keeps alive: bytes (tracemalloc) and objects tracked by the
garbage collector, for the minigrad of a given checkout. Deterministic, so unlike timings it
needs no repeats. Usage: `python benchmarks/op_memory.py [TREE]` (default: this checkout)."""
from __future__ import annotations

import gc
import sys
import tracemalloc
from pathlib import Path
from types import ModuleType

LENGTH = 20_000


def kept_per_op(minigrad: ModuleType, length: int = LENGTH) -> tuple[float, float]:
    """(bytes, GC-tracked objects) that each op of `y = y * 1.0000001` keeps alive."""
    x = minigrad.tensor(1.0, requires_grad=True)
    y = x * 1.0000001  # the first op creates what every later one shares
    gc.collect()
    tracemalloc.start()
    objects, start = len(gc.get_objects()), tracemalloc.get_traced_memory()[0]
    for _ in range(length):
        y = y * 1.0000001
    gc.collect()
    kept = tracemalloc.get_traced_memory()[0] - start
    tracemalloc.stop()
    return kept / length, (len(gc.get_objects()) - objects) / length


def main() -> None:
    tree = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parent.parent)
    sys.path.insert(0, tree)
    import minigrad

    kept, objects = kept_per_op(minigrad)
    print(f"{tree}: {kept:.0f} bytes and {objects:.2f} GC-tracked objects per op")


if __name__ == "__main__":
    main()
