"""Record what real PyTorch prints, for tests/engine/test_printing.py (which never needs torch).

    python scripts/record_printing_golden.py            # rewrite tests/golden/printing.json
    python scripts/record_printing_golden.py --fuzz N   # compare minigrad with torch on N
                                                        # random tensors, print mismatches

Each golden case is a dict:
    id        readable test id
    data      base64 of the array's little-endian, C-order bytes (exact values, nan, -0.0)
    shape     list of ints
    dtype     torch/numpy dtype name ("float32", "int64", "bool", ...)
    suffixes  what minigrad's Tensor passes to tensor_repr (requires_grad/grad_fn)
    options   keyword arguments for set_printoptions (applied after profile="default")
    expected  repr() of the torch tensor
The cases come from a fixed seed, so re-recording gives the same file for one torch version.
"""
from __future__ import annotations

import base64
import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "golden" / "printing.json"
FLOATS = ("float16", "float32", "float64")
INTS = ("int8", "uint8", "int16", "int32", "int64")
SHAPES = [(), (1,), (2,), (3,), (5,), (8,), (2, 3), (3, 1), (1, 4), (4, 4), (2, 3, 4),
          (2, 1, 3), (1, 1, 1), (2, 2, 2, 2), (3, 2, 1, 2), (1, 2, 1, 3)]
LONG = [(17,), (30,), (64,), (3, 25), (2, 2, 20)]
LARGE = [(1001,), (1500,), (32, 33), (11, 10, 10), (4, 300), (5, 5, 5, 9), (1, 1100)]
EMPTY = [(0,), (0, 3), (3, 0), (2, 0, 4), (0, 0)]
OPTION_SETS = [{"precision": 2}, {"precision": 7}, {"precision": 0}, {"threshold": 5},
               {"threshold": 10, "edgeitems": 1}, {"threshold": 5, "edgeitems": 0},
               {"edgeitems": 0}, {"linewidth": 40}, {"linewidth": 120}, {"linewidth": 10},
               {"sci_mode": True}, {"sci_mode": False}, {"profile": "short"},
               {"profile": "full"}, {"precision": 3, "sci_mode": True, "linewidth": 50}]
SUFFIXES = {None: [], "leaf": ["requires_grad=True"], "mul": ["grad_fn=<MulBackward0>"]}
BORDERS = [[1.0, 1000.0], [1.0, 1000.5], [1e-4, 1.0], [9.99e-5, 1.0], [1e8, 1.0],
           [1.0000001e8, 2.0], [0.1, 100.0], [0.1, 100.01], [0.5, 2.5, -0.5], [1e-4],
           [0.00005, 0.00015], [123456.789], [99999.5], [-0.0, 1.5], [0.0, -0.0],
           [1e38, -1e38], [6e-8, 1.0], [65504.0, 1.0], [3.0, np.nan, -np.inf]]


def float_values(rng: np.random.Generator, shape: tuple, dtype: str) -> np.ndarray:
    """Random floats from one of many families: plain, tiny, huge, integer-valued,
    mixed magnitudes, rounded decimals, sprinkled with nan/inf/-0.0, all-special."""
    n = int(np.prod(shape))
    kind = rng.integers(0, 10)
    if kind == 0:
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-9, 10)
    elif kind == 1:
        v = rng.uniform(0, 1, n)
    elif kind == 2:
        v = rng.integers(-100, 100, n) * 10.0 ** rng.integers(0, 11)
    elif kind == 3:
        v = rng.standard_normal(n) * 10.0 ** rng.uniform(-7, 10, n)
    elif kind == 4:
        v = np.round(rng.standard_normal(n) * 100, rng.integers(0, 5))
    elif kind == 5:
        v = rng.choice([0.0, -0.0, np.nan, np.inf, -np.inf], n)
    else:
        v = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4)
    if kind >= 7:  # sprinkle specials over ordinary values
        mask = rng.uniform(0, 1, n) < 0.3
        v[mask] = rng.choice([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0], int(mask.sum()))
    with np.errstate(over="ignore"):
        return v.astype(dtype).reshape(shape)


def int_values(rng: np.random.Generator, shape: tuple, dtype: str) -> np.ndarray:
    if dtype == "bool":
        return rng.integers(0, 2, shape).astype(bool)
    info = np.iinfo(dtype)
    hi = min([10, 1000, info.max][rng.integers(0, 3)], info.max)
    lo = max(info.min, -hi)
    return rng.integers(lo, hi, shape, dtype=dtype, endpoint=True)


def values(rng: np.random.Generator, shape: tuple, dtype: str) -> np.ndarray:
    return (float_values if dtype in FLOATS else int_values)(rng, shape, dtype)


def torch_repr(arr: np.ndarray, grad: str | None, options: dict) -> str:
    torch.set_printoptions(profile="default")
    torch.set_printoptions(**options)
    try:
        t = torch.from_numpy(arr.copy())
        if grad is not None:
            t.requires_grad_()
            if grad == "mul":
                t = t * 1  # same values (keeps -0.0 and nan), grad_fn=<MulBackward0>
        return repr(t)
    finally:
        torch.set_printoptions(profile="default")


def cases(rng: np.random.Generator):
    """Yield (label, array, grad, options) for the golden file."""
    for dtype in FLOATS + INTS + ("bool",):
        for shape in SHAPES:
            for _ in range(3 if dtype in ("float32", "float64") else 1):
                yield "basic", values(rng, shape, dtype), None, {}
        for shape in LONG:
            yield "long", values(rng, shape, dtype), None, {}
        for shape in EMPTY:
            yield "empty", np.zeros(shape, dtype), None, {}
    for dtype in FLOATS:
        for i, border in enumerate(BORDERS):
            with np.errstate(over="ignore"):
                arr = np.array(border).astype(dtype)
            yield f"border{i}", arr, None, {}
            yield f"border{i}-scalar", arr[:1].reshape(()), None, {}
    for i, shape in enumerate(LARGE):
        for dtype in ("float32", "int64", ["float16", "float64", "bool"][i % 3]):
            yield "large", values(rng, shape, dtype), None, {}
    for grad in ("leaf", "mul"):
        for dtype in FLOATS:
            for shape in SHAPES[:12] + LONG + [EMPTY[0], EMPTY[2], LARGE[0]]:
                yield grad, values(rng, shape, dtype), grad, {}
    for j, options in enumerate(OPTION_SETS):
        for shape in [(), (7,), (3, 4), (2, 3, 4), (40,), (12, 12), (1001,)]:
            for dtype in ("float32", ["float64", "int32"][j % 2]):
                if shape == (1001,) and dtype != "float32":
                    continue  # keep the file small
                grad = [None, "leaf", "mul"][j % 3] if dtype != "int32" else None
                yield f"opts{j}", values(rng, shape, dtype), grad, options


def record() -> None:
    rng = np.random.default_rng(20240613)
    out = []
    for i, (label, arr, grad, options) in enumerate(cases(rng)):
        shape = "x".join(map(str, arr.shape)) or "scalar"
        out.append({
            "id": f"{i:03d}-{label}-{arr.dtype.name}-{shape}",
            "data": base64.b64encode(arr.astype(arr.dtype.newbyteorder("<")).tobytes()).decode(),
            "shape": list(arr.shape),
            "dtype": arr.dtype.name,
            "suffixes": SUFFIXES[grad],
            "options": options,
            "expected": torch_repr(arr, grad, options),
        })
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(out, indent=0) + "\n")
    print(f"wrote {len(out)} cases, {OUT.stat().st_size} bytes, to {OUT}")


def fuzz(n: int) -> int:
    sys.path.insert(0, str(ROOT))
    from minigrad import _printing

    rng = np.random.default_rng()
    bad = 0
    for _ in range(n):
        ndim = rng.integers(0, 5)
        shape = tuple(int(s) for s in rng.integers(0 if rng.uniform() < 0.05 else 1,
                                                   [40, 14, 8, 6][max(ndim - 1, 0)], ndim))
        if rng.uniform() < 0.05:
            shape = tuple(int(s) for s in rng.integers(8, 20, rng.integers(2, 4)))
        dtype = str(rng.choice(FLOATS + FLOATS + INTS + ("bool",)))
        arr = values(rng, shape, dtype)
        options = dict(OPTION_SETS[rng.integers(0, len(OPTION_SETS))]) if rng.uniform() < 0.4 else {}
        grad = rng.choice([None, "leaf", "mul"]) if dtype in FLOATS else None
        expected = torch_repr(arr, grad, options)
        _printing.set_printoptions(profile="default")
        _printing.set_printoptions(**options)
        got = _printing.tensor_repr(arr, dtype, SUFFIXES[grad])
        _printing.set_printoptions(profile="default")
        if got != expected:
            bad += 1
            print(f"MISMATCH {dtype} {shape} {options} {grad}\n{arr!r}\n--- torch\n{expected}"
                  f"\n--- minigrad\n{got}\n")
    print(f"{n - bad}/{n} match")
    return bad


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--fuzz":
        sys.exit(1 if fuzz(int(sys.argv[2])) else 0)
    record()
