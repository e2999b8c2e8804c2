"""Does the engine's `_run_plain` earn its place? µs per node of a chain's forward and backward,
with the plain-node path and with every node sent the general way (`_run_node`), interleaved in
one process (medians of CPU time). Usage: `python benchmarks/run_plain.py [TREE]`."""
from __future__ import annotations

import gc
import statistics
import sys
import time
from pathlib import Path

LENGTH = 20_000
TREE = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parent.parent)
sys.path.insert(0, TREE)

import minigrad as mg  # noqa: E402 - the checkout chosen above
from minigrad.autograd import engine  # noqa: E402

IS_PLAIN = engine._is_plain


def forward_backward_us(plain: bool) -> tuple[float, float]:
    engine._is_plain = IS_PLAIN if plain else (lambda node: False)
    x = mg.tensor(1.0, requires_grad=True)
    y = x
    start = time.process_time()
    for _ in range(LENGTH):
        y = y * 1.0000001
    middle = time.process_time()
    y.backward()
    end = time.process_time()
    return (middle - start) / LENGTH * 1e6, (end - middle) / LENGTH * 1e6


def main() -> None:
    samples: dict[bool, list[tuple[float, float]]] = {True: [], False: []}
    for round_nr in range(9):
        for plain in (True, False) if round_nr % 2 else (False, True):
            gc.collect()
            samples[plain].append(forward_backward_us(plain))
    for plain, values in samples.items():
        print(f"{'with _run_plain' if plain else 'without':16s} forward "
              f"{statistics.median(f for f, _ in values):.2f} µs/op, backward "
              f"{statistics.median(b for _, b in values):.2f} µs/op")


if __name__ == "__main__":
    main()
