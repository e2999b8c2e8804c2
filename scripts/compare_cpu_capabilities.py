"""How much PyTorch's softmax, log_softmax and sigmoid (and the first two's backward) change
with the CPU's vector width, and which of the two minigrad gives: PyTorch runs each float32
case twice, in processes of its own, with ATEN_CPU_CAPABILITY=avx2 and with its default (AVX-512
on a CPU that has it); the figures quoted in minigrad/fidelity/softmax.py come from here.

Usage: `python scripts/compare_cpu_capabilities.py [--cases N] [--seed S]`."""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import minigrad  # noqa: E402

TORCH_SIDE = """
import json, sys, numpy as np, torch
cases, arrays, out = json.loads(sys.argv[2]), np.load(sys.argv[1]), {}
out["capability"] = np.array(torch.backends.cpu.get_cpu_capability())
for i, (shape, dim) in enumerate(cases):
    x, g = torch.from_numpy(arrays[f"x{i}"]).requires_grad_(), torch.from_numpy(arrays[f"g{i}"])
    for name, function in (("softmax", torch.softmax), ("log_softmax", torch.log_softmax)):
        y = function(x, dim)
        y.backward(g)
        out[f"{name}{i}"], out[f"{name} backward{i}"] = y.detach().numpy(), x.grad.numpy()
        x.grad = None
    out[f"sigmoid{i}"] = torch.sigmoid(x.detach()).numpy()
np.savez(sys.argv[3], **out)
"""
NAMES = ("softmax", "softmax backward", "log_softmax", "log_softmax backward", "sigmoid")


def minigrads(x: np.ndarray, g: np.ndarray, dim: int) -> dict:
    leaf, out = minigrad.tensor(x, requires_grad=True), {}
    for name, function in (("softmax", minigrad.softmax), ("log_softmax", minigrad.log_softmax)):
        y = function(leaf, dim)
        y.backward(minigrad.tensor(g))
        out[name], out[f"{name} backward"] = y.detach().numpy(), leaf.grad.numpy()
        leaf.grad = None
    out["sigmoid"] = minigrad.sigmoid(minigrad.tensor(x)).numpy()
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cases", type=int, default=80)
    parser.add_argument("--seed", type=int, default=0)
    options = parser.parse_args()
    rng = np.random.default_rng(options.seed)
    cases, arrays = [], {}
    for i in range(options.cases):
        shape = [int(n) for n in rng.integers(1, 40, size=int(rng.integers(1, 4)))]
        dim = len(shape) - 1 if rng.random() < 0.5 else int(rng.integers(0, len(shape)))
        cases.append((shape, dim))
        arrays[f"x{i}"] = (rng.standard_normal(shape) * rng.choice([0.5, 3, 20])).astype("f4")
        arrays[f"g{i}"] = rng.standard_normal(shape).astype(np.float32)
    runs = {}
    with tempfile.TemporaryDirectory() as folder:
        np.savez(Path(folder) / "in.npz", **arrays)
        for capability in ("avx2", "default"):  # (ATEN_CPU_CAPABILITY=default: no vectors)
            env = dict(os.environ, OMP_NUM_THREADS="1", ATEN_CPU_CAPABILITY=capability)
            if capability == "default":
                del env["ATEN_CPU_CAPABILITY"]
            subprocess.run([sys.executable, "-c", TORCH_SIDE, str(Path(folder) / "in.npz"),
                            json.dumps(cases), str(Path(folder) / f"{capability}.npz")],
                           env=env, check=True)
            runs[capability] = dict(np.load(Path(folder) / f"{capability}.npz"))
    ours = [minigrads(arrays[f"x{i}"], arrays[f"g{i}"], dim) for i, (_, dim) in enumerate(cases)]
    elements = sum(arrays[f"x{i}"].size for i in range(len(cases)))
    default = str(runs["default"]["capability"])
    print(f"{len(cases)} float32 cases, {elements} elements; PyTorch's default here: {default}")
    print(f"{'':22}{default + ' vs AVX2':>22}{'minigrad vs AVX2':>22}{'minigrad vs ' + default:>24}")
    for name in NAMES:
        row = []
        for a, b in ((runs["default"], runs["avx2"]), (None, runs["avx2"]),
                     (None, runs["default"])):
            differ = sum(int((np.asarray(ours[i][name] if a is None else a[f"{name}{i}"])
                              .view(np.uint32) != b[f"{name}{i}"].view(np.uint32)).sum())
                         for i in range(len(cases)))
            row.append(f"{100 * differ / elements:.2f}% ({differ})")
        print(f"{name:22}{row[0]:>22}{row[1]:>22}{row[2]:>24}")


if __name__ == "__main__":
    main()
