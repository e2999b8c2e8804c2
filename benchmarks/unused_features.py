"""What the features a step does not use cost it: version counters of saved tensors, tensor and
node hooks, post-accumulate-grad hooks, retain_grad, anomaly mode, the step-by-step observers,
and custom Functions' dirty and returned inputs. A copy of minigrad is made with their checks
taken out (the code that runs when they are unused: one `if` each, and the version stamps),
and timed against the tree as it is, in paired rounds (paired.py); the copy's gain is what
those checks cost. Issue 34's target: under 2%.

Usage: `OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 python benchmarks/unused_features.py [TREE]
[--rounds N] [--only lc]`; TREE holds `minigrad/` (default: this checkout). The copy is only
for measuring: without its checks, hooks and anomaly mode do nothing and in-place changes go
unnoticed."""
from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

import paired

HERE = Path(__file__).resolve().parent

# (file, the code as it is, what the copy has instead)
CUTS = [
    ("autograd/engine.py",  # tensor hooks, retain_grad and node hooks: the tests of run_node
     "        if node._tensor_hooks or node._retained:\n"
     "            grads = call_tensor_hooks(node, as_tensors(grads))\n"
     "        elif self.on_arrays and not (node._pre_hooks or node._post_hooks):\n",
     "        if self.on_arrays:\n"),
    ("autograd/engine.py",  # the node hooks' test of call_function
     "        if self.on_arrays and not (node._pre_hooks or node._post_hooks):\n",
     "        if self.on_arrays:\n"),
    ("autograd/engine.py",  # a node's pre-hooks
     "        if node._pre_hooks:\n            grads = call_pre_hooks(node, grads)\n"
     "            if all(g is None for g in grads):  # the hooks took every gradient away\n"
     "                return (None,) * len(node.next_functions)\n", ""),
    ("autograd/engine.py",  # and post-hooks
     "        if node._post_hooks:\n"
     "            grad_inputs = call_post_hooks(node, grad_inputs, grads)\n", ""),
    ("autograd/engine.py",  # anomaly mode and the step-by-step observers, once per pass
     "        if anomaly.state.enabled:\n"
     "            self.run_node, self.on_arrays = anomaly.checking(self.run_node), False\n", ""),
    ("autograd/engine.py",
     "        if observe.watching() and observe.starting(self, roots):  # observers hear of the\n"
     "            self.on_arrays = False  # pass, and may follow its steps: then as tensors\n"
     "            for slots in self.buffers.values():\n"
     "                slots[:] = as_tensors(slots)\n", ""),
    ("autograd/function.py",  # saved tensors unpacked through saved_tensors_hooks
     "formula is None or self._unpacks_through_hooks or", "formula is None or"),
    ("autograd/function.py",  # anomaly mode, once per recorded op
     "    if anomaly.state.enabled:  # for the warning if this node's backward fails (anomaly.py)\n"
     "        anomaly.record_forward_stack(node)\n", ""),
    ("autograd/function.py",  # custom Functions' dirty inputs
     "        for tensor in node._dirty:  # changed in place: PyTorch counts one more version\n"
     "            tensor._bump_version()\n", ""),
    ("autograd/function.py",  # and inputs returned as they are
     "        if cls._is_custom and _returns_an_input(outputs, args):  # (minigrad's ops never do)\n"
     "            outputs = _inputs_returned(node, args, outputs, records, setup_context is not None)\n",
     ""),
    ("autograd/accumulate.py",  # post-accumulate-grad hooks
     "        if leaf._post_accumulate_grad_hooks:\n"
     "            for hook in list(leaf._post_accumulate_grad_hooks.values()):\n"
     "                result = hook(leaf)\n                if result is not None:\n"
     "                    check_post_accumulate_result(hook, leaf, result)\n", ""),
    ("autograd/graph.py",  # saved tensors: no version stamped...
     "        self.counter = tensor._version_counter\n        self.version = self.counter.value\n",
     "        self.counter, self.version = None, 0\n"),
    ("autograd/graph.py",  # (a node's own output, graph.SavedOutput, too)
     "        self.counter = output._version_counter\n        self.version = self.counter.value\n",
     "        self.counter, self.version = None, 0\n"),
    ("autograd/graph.py",  # ... and none checked
     "        if self.counter.value != self.version:\n", "        if False:\n"),
    ("autograd/graph.py",  # ... nor when a formula on arrays reads what was saved
     "        if self.counter.value == self.version and (self.output_nr is None",
     "        if (self.output_nr is None"),
]


def stripped_copy(tree: Path, into: Path) -> Path:
    shutil.copytree(tree / "minigrad", into / "minigrad")
    for rel, old, new in CUTS:
        path = into / "minigrad" / rel
        text = path.read_text()
        if old not in text:
            raise SystemExit(f"{rel} no longer has the code this benchmark takes out:\n{old}")
        path.write_text(text.replace(old, new))
    return into


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tree", nargs="?", default=str(HERE.parent))
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--only", default="lc", help="workloads of paired.py: a, l, b, c")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        copy = stripped_copy(Path(args.tree), Path(scratch))
        print(f"A = {args.tree} (as it is)\nB = the same without the checks of unused features\n"
              f"{args.rounds} pairs of rounds, CPU time\n")
        print("| workload | A | B | B's gain: median (quartiles) |\n| --- | --- | --- | --- |")
        for key in args.only:
            print(paired.measure(key, [args.tree, str(copy)], args.rounds), flush=True)


if __name__ == "__main__":
    main()
