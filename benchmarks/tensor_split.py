"""Does `Tensor` split across files cost speed? (issue 35 item 4: "Tensor in one file unless the
op path issue measured otherwise".) tensor.py defines the class; _tensor_ops.py copies the
operator methods of `TensorOps` onto it at import (`_attach`), and _tensor_ops_more.py wraps a
few more. After import the methods sit in `Tensor.__dict__` as if written in its body, so a call
looks them up the same way. Three figures, each measured here:

1. what the copy costs at import: `_attach(TensorOps, Tensor)` run again on a fresh class;
2. a method call on a class whose method was written in its body, against the same method
   attached after the class was made (alternating rounds in one process, CPU time);
3. where Tensor's methods sit after import: in `Tensor.__dict__`, as a class body puts them.
(A subclass holding them in its body is no fair comparison: minigrad's fast paths test
`type(x) is Tensor`, so a subclass's ops take the general way.)

    OMP_NUM_THREADS=1 python benchmarks/tensor_split.py"""
from __future__ import annotations

import statistics
import time
from typing import Any, Callable

ROUNDS, CALLS = 41, 20_000


def cpu_per_call(action: Callable[[], Any]) -> float:
    start = time.process_time()
    for _ in range(CALLS):
        action()
    return (time.process_time() - start) / CALLS


def paired(a: Callable[[], Any], b: Callable[[], Any]) -> tuple[float, float, float]:
    """Median CPU time per call of a and of b, and of b's excess over a, in alternating
    rounds (a then b, then b then a)."""
    times_a, times_b, excess = [], [], []
    for i in range(ROUNDS):
        first, second = (a, b) if i % 2 == 0 else (b, a)
        t1, t2 = cpu_per_call(first), cpu_per_call(second)
        ta, tb = (t1, t2) if i % 2 == 0 else (t2, t1)
        times_a.append(ta)
        times_b.append(tb)
        excess.append(tb / ta - 1)
    return statistics.median(times_a), statistics.median(times_b), statistics.median(excess)


def main() -> None:
    from minigrad import _tensor_ops
    from minigrad.tensor import Tensor

    class Fresh:  # a class as tensor.py makes it, before the copy
        pass

    start = time.perf_counter()
    _tensor_ops._attach(_tensor_ops.TensorOps, Fresh)
    copied = time.perf_counter() - start
    count = sum(1 for name in vars(_tensor_ops.TensorOps) if name in vars(Fresh))
    print(f"1. _attach at import: {count} methods copied in {copied * 1e6:.0f} µs")

    def method(self: Any) -> int:
        return 1

    class InBody:
        f = method

    class Attached:
        pass

    Attached.f = method
    in_body, attached = InBody(), Attached()
    a, b, gain = paired(lambda: in_body.f(), lambda: attached.f())
    print(f"2. a method written in the body {a * 1e9:.1f} ns, attached after {b * 1e9:.1f} ns "
          f"a call: attached {gain:+.1%}")

    # Where a call finds them: in Tensor's own __dict__, the place a class body puts a method
    # (not on a base class, which a lookup would reach one step later).
    ops = [name for name in vars(_tensor_ops.TensorOps) if name in vars(Fresh)]
    own = [name for name in ops if name in vars(Tensor)]
    print(f"3. of those methods, {len(own)} of {len(ops)} are in Tensor.__dict__ itself, where "
          "a class body would have put them")


if __name__ == "__main__":
    main()
