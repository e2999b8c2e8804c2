"""float32 softmax and sigmoid give PyTorch's bits: PyTorch's vectorised kernels take SLEEF's exp
(fidelity.vector_math.sleef_expf), and softmax adds and scales in its own order
(fidelity/softmax.py), so that a learner who sums an attention row sees what PyTorch shows
(`tensor([1., 1.])`, not `tensor([1.0000, ...])`).

PyTorch picks its kernels by the CPU: on one with AVX-512 its softmax reads vectors of 16 floats
and rounds otherwise. minigrad repeats AVX2's (vectors of 8), so PyTorch runs here in a process
of its own with ATEN_CPU_CAPABILITY=avx2 (as every test's does: tests/conftest.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

import minigrad

CASES = [((300, n), -1) for n in (1, 2, 5, 7, 8, 9, 15, 16, 17, 33, 100)] + [
    ((4, n, inner), 1) for n in (2, 5, 16) for inner in (1, 3, 8, 11, 20)] + [((6, 7, 2), 0)]

TORCH_SIDE = """
import json, sys, numpy as np, torch
cases = json.loads(sys.argv[2])
arrays = np.load(sys.argv[1])
out = {}
for i, (shape, dim) in enumerate(cases):
    x = torch.from_numpy(arrays[f"x{i}"])
    s = torch.softmax(x, dim)
    out[f"s{i}"], out[f"t{i}"] = s.numpy(), s.sum(dim).numpy()
    out[f"g{i}"] = torch.sigmoid(x).numpy()
np.savez(sys.argv[3], **out)
"""


def _inputs() -> dict:
    rng = np.random.default_rng(7)
    arrays = {}
    for i, (shape, _) in enumerate(CASES):
        x = (rng.standard_normal(shape) * 3).astype(np.float32)
        if i % 3 == 0 and x.shape[-1] > 2:  # an attention mask: -inf, and a row's max repeated
            x[..., -1] = -np.inf
            x[..., 0] = x[..., 1]
        arrays[f"x{i}"] = x
    return arrays


def _torchs(torch: Any, arrays: dict, folder: Path) -> Any:
    np.savez(folder / "in.npz", **arrays)
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2", OMP_NUM_THREADS="1")
    subprocess.run([sys.executable, "-c", TORCH_SIDE, str(folder / "in.npz"), json.dumps(CASES),
                    str(folder / "out.npz")], env=env, check=True)
    return np.load(folder / "out.npz")


def test_softmax_and_its_row_sums_have_pytorchs_bits(torch: Any, tmp_path: Path) -> None:
    arrays = _inputs()
    theirs = _torchs(torch, arrays, tmp_path)
    for i, (shape, dim) in enumerate(CASES):
        ours = minigrad.softmax(minigrad.tensor(arrays[f"x{i}"]), dim)
        assert np.array_equal(ours.numpy().view(np.uint32), theirs[f"s{i}"].view(np.uint32)), \
            (shape, dim)
        assert np.array_equal(ours.sum(dim).numpy(), theirs[f"t{i}"], equal_nan=True), (shape, dim)


def test_sigmoid_has_pytorchs_bits(torch: Any, tmp_path: Path) -> None:
    """16 elements at a time with SLEEF's exp, those left over (size % 16) with glibc's expf."""
    arrays = _inputs()
    theirs = _torchs(torch, arrays, tmp_path)
    for i, (shape, _) in enumerate(CASES):
        ours = minigrad.sigmoid(minigrad.tensor(arrays[f"x{i}"]))
        assert np.array_equal(ours.numpy().view(np.uint32), theirs[f"g{i}"].view(np.uint32)), shape


def test_the_sleef_exp_is_exp_within_an_ulp() -> None:
    """SLEEF's float32 exp, as repeated, is exp to within one ulp over softmax's range."""
    from minigrad.fidelity.vector_math import sleef_expf
    x = np.linspace(-103, 88, 200001, dtype=np.float32)
    exact = np.exp(x.astype(np.float64))
    ulp = np.spacing(exact.astype(np.float32)).astype(np.float64)
    assert np.all(np.abs(sleef_expf(x) - exact) <= ulp)
    assert sleef_expf(np.float32(-np.inf)) == 0 and np.isnan(sleef_expf(np.float32(np.nan)))
