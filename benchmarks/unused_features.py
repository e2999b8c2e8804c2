"""What the features a step does not use cost it: version counters of saved tensors, tensor and
node hooks, post-accumulate-grad hooks, retain_grad, anomaly mode, the step-by-step observers,
custom Functions' dirty and returned inputs, the views of a tensor that an update changes, and
the operators' refusal of a numpy array operand. A copy of minigrad is made with their checks
taken out (the code that runs when they are unused: one `if` each, and the version stamps),
and timed against the tree as it is, in paired rounds (paired.py); the copy's gain is what
those checks cost. Issue 34's target: under 2%. With --each, each feature's checks are also
taken out alone, to see which costs what.
With --bytecodes, Python bytecodes executed per step are counted instead of timed: the same
count on every run and machine, where paired rounds of a shared machine spread by more than
2%. A count is not a time (a call costs more than an attribute test, numpy's work is not
counted), so quote it beside the times.

Usage: `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/unused_features.py [TREE]
[--rounds N] [--only lc] [--each] [--bytecodes]`; TREE holds `minigrad/` (default: this
checkout). The copy is only for measuring: without its checks, hooks and anomaly mode do
nothing, in-place changes go unnoticed and numpy arrays are refused."""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

import paired

HERE = Path(__file__).resolve().parent

# (feature, file, the code as it is, what the copy has instead)
CUTS = [
    ("hooks", "autograd/engine.py",  # tensor, node and leaf hooks, retain_grad: once per pass
     "        if seen.hooks:  # some node has had a hook: each is asked whether it has one\n"
     "            self.run_node = self.run_node_minding_hooks\n", ""),
    ("hooks", "autograd/engine.py",  # the node hooks' test of call_function
     "        if self.on_arrays and not (node._pre_hooks or node._post_hooks):\n",
     "        if self.on_arrays:\n"),
    ("hooks", "autograd/engine.py",  # a node's pre-hooks
     "        if node._pre_hooks:\n            grads = call_pre_hooks(node, grads)\n"
     "            if all(g is None for g in grads):  # the hooks took every gradient away\n"
     "                return (None,) * len(node.next_functions)\n", ""),
    ("hooks", "autograd/engine.py",  # and post-hooks
     "        if node._post_hooks:\n"
     "            grad_inputs = call_post_hooks(node, grad_inputs, grads)\n", ""),
    ("anomaly", "autograd/engine.py",  # anomaly mode, once per pass
     "        if anomaly.state.enabled:\n"
     "            self.run_node, self.on_arrays = anomaly.checking(self.run_node), False\n", ""),
    ("observers", "autograd/engine.py",  # the step-by-step observers, once per pass
     "        if (observe._observers or observe._pass_observers) and observe.starting(self, "
     "roots):\n"
     "            self.on_arrays = False\n"
     "            for slots in self.buffers.values():\n"
     "                slots[:] = as_tensors(slots)\n", ""),
    ("saved hooks", "autograd/engine.py",  # saved tensors unpacked through their hooks
     "formula is None or node._unpacks_through_hooks or", "formula is None or"),
    ("saved hooks", "autograd/function.py",  # (and where a node runs in full)
     "formula is None or self._unpacks_through_hooks or", "formula is None or"),
    ("anomaly", "autograd/function.py",  # anomaly mode, once per recorded op
     "    if anomaly.state.enabled:  # for the warning if this node's backward fails (anomaly.py)\n"
     "        anomaly.record_forward_stack(node)\n", ""),
    ("custom", "autograd/function.py",  # custom Functions' dirty inputs
     "        for tensor in node._dirty:  # changed in place: PyTorch counts one more version\n"
     "            tensor._bump_version()\n", ""),
    ("custom", "autograd/function.py",  # and inputs returned as they are
     "        if cls._is_custom and _returns_an_input(outputs, args):  # (minigrad's ops never "
     "do)\n            outputs = _inputs_returned(node, args, outputs, records, setup_context is "
     "not None)\n", ""),
    ("leaf hooks", "autograd/accumulate.py",  # post-accumulate-grad hooks: AccumulateGrad.apply's
     "        if leaf._post_accumulate_grad_hooks:\n"
     "            for hook in list(leaf._post_accumulate_grad_hooks.values()):\n"
     "                result = hook(leaf)\n                if result is not None:\n"
     "                    check_post_accumulate_result(hook, leaf, result)\n", ""),
    ("versions", "autograd/graph.py",  # saved tensors: no version stamped...
     "        counter = tensor._counter  # (Tensor._version, without the property's call)\n"
     "        self.version = 0 if counter is None else counter.value\n",
     "        self.version = 0\n"),
    ("versions", "autograd/graph.py",  # (a node's own output, graph.SavedOutput, too)
     "        counter = output._counter\n        self.counter = counter\n"
     "        self.version = 0 if counter is None else counter.value\n",
     "        self.counter, self.version = None, 0\n"),
    ("versions", "autograd/graph.py",  # ... and none checked
     "        counter = self.tensor._counter\n"
     "        if counter is not None and counter.value != self.version:\n", "        if False:\n"),
    ("versions", "autograd/graph.py",  # (nor a node's own output's)
     "        counter = self.counter\n"
     "        if counter is not None and counter.value != self.version:\n", "        if False:\n"),
    ("versions", "autograd/graph.py",  # ... nor when a formula on arrays reads what was saved
     "        counter = tensor._counter\n"
     "        if (counter is None or counter.value == self.version) and (\n", "        if (\n"),
    ("views", "_inplace.py",  # the update's refresh of views of a tensor it changed
     "    if t._counter.views is not None:  # (a weight with views made earlier)\n"
     "        views_read_again(t)\n", ""),
    ("arrays", "_tensor_ops.py", "\n_operators()\n", "\n"),  # the operators' test for an array
    ("arrays", "_tensor_ops.py",  # (in the body of + - * / and their reflections)
     "        if not isinstance(other, _OPERANDS):  # an array: numpy's turn\n"
     "            return NotImplemented\n", ""),
]


def stripped_copy(tree: Path, into: Path, features: set[str]) -> Path:
    """A copy of `tree`'s minigrad in `into`, without the checks of `features`."""
    shutil.copytree(tree / "minigrad", into / "minigrad")
    for feature, rel, old, new in CUTS:
        if feature not in features:
            continue
        path = into / "minigrad" / rel
        text = path.read_text()
        if old not in text:
            raise SystemExit(f"{rel} no longer has the code this benchmark takes out:\n{old}")
        path.write_text(text.replace(old, new))
    return into


def bytecodes(key: str, tree: str) -> float:
    """Python bytecodes executed per unit of workload `key` (a step; for c, a chain) on `tree`."""
    mods = paired._load(tree)
    paired._forget_minigrad()
    sys.modules.update(mods)
    work, _ = paired._workload(key, mods["minigrad"])
    for _ in range(3):  # warm: caches filled, a leaf's first gradient made
        work()
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        frame.f_trace_opcodes = True
        count += event == "opcode"
        return trace

    units = 1 if key == "c" else 5
    sys.settrace(trace)
    try:
        for _ in range(units):
            work()
    finally:
        sys.settrace(None)
    return count / units


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=str(HERE.parent))
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--only", default="lc", help="workloads of paired.py: a, l, b, c")
    parser.add_argument("--each", action="store_true",
                        help="also each feature's checks alone, to see which costs what")
    parser.add_argument("--bytecodes", action="store_true",
                        help="count Python bytecodes per step instead of timing")
    args = parser.parse_args()
    features = list(dict.fromkeys(feature for feature, *_ in CUTS))
    how = "Python bytecodes per step (chain)" if args.bytecodes else (
        f"{args.rounds} pairs of rounds, CPU time")
    print(f"A = {args.tree} (as it is)\nB = the same without the checks of unused features "
          f"(all, or the one named)\n{how}\n")
    gain = "B's gain" if args.bytecodes else "B's gain: median (quartiles)"
    print(f"| without | workload | A | B | {gain} |\n| --- | --- | --- | --- | --- |")
    as_is = {key: bytecodes(key, args.tree) for key in args.only} if args.bytecodes else {}
    for cut in [features] + ([[f] for f in features] if args.each else []):
        with tempfile.TemporaryDirectory() as scratch:
            copy = stripped_copy(Path(args.tree), Path(scratch), set(cut))
            for key in args.only:
                if args.bytecodes:
                    b = bytecodes(key, str(copy))
                    row = f"| {key} | {as_is[key]:,.0f} | {b:,.0f} | {1 - b / as_is[key]:+.2%} |"
                else:
                    row = paired.measure(key, [args.tree, str(copy)], args.rounds)
                print(f"| {'all' if cut is features else cut[0]} {row}", flush=True)


if __name__ == "__main__":
    main()
