"""How much of the PyTorch API that teaching code uses minigrad has, weighted by use.

    python scripts/api_coverage.py [--top N]

Reads tests/data/tutorial_api_usage.csv (written by scripts/scan_tutorial_api.py from public
tutorials at named commits), offline. A name is covered when minigrad has it (`torch.X` as
`minigrad.X`, `Tensor.X` on minigrad.Tensor, `torch.nn.Module.X` on minigrad.nn.Module...);
that it also behaves as PyTorch's is the parity tests' job. Names that need a GPU, a download or
a compiled extension are left out of the figure (OUT_OF_SCOPE, the one place that says so).
"""
from __future__ import annotations

import argparse
import collections
import csv
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "data" / "tutorial_api_usage.csv"

# Names (a name, and everything under it) that CPU code cannot run without a GPU, a download or
# a compiled extension, with the reason.
OUT_OF_SCOPE = {
    "torch.cuda": "needs a GPU",
    "torch.mps": "needs an Apple GPU",
    "torch.xpu": "needs an Intel GPU",
    "Tensor.cuda": "needs a GPU",
    "Tensor.pin_memory": "needs a GPU",
    "torch.nn.Module.cuda": "needs a GPU",
    "torch.nn.DataParallel": "needs several GPUs",
    "torch.nn.parallel": "needs several GPUs",
    "torch.compile": "compiles the model to native code (Triton or a C++ compiler)",
    "torch.compiler": "torch.compile's controls",
    "torch._dynamo": "torch.compile's tracer",
    "torch._inductor": "torch.compile's code generator",
    "torch._logging": "torch.compile's logs",
    "torch.jit": "TorchScript: a compiler",
    "torch.export": "an ahead-of-time compiler",
    "torch.onnx": "exports through a compiled exporter",
    "torch.ops": "compiled operators",
    "torch.library": "registers compiled operators",
    "torch.utils.cpp_extension": "builds compiled extensions",
    "torch.distributed": "several processes over a compiled communication backend (gloo, NCCL)",
    "torch.multiprocessing": "starts the processes of torch.distributed",
    "torch.utils.data.distributed": "splits data among the processes of torch.distributed",
    "torch.accelerator.set_device_index": "picks one of several GPUs",
    "torch.hub": "downloads models",
    "torch.utils.model_zoo": "downloads weights",
}
# What CPU code calls although it is under a prefix above (`device = "cuda" if
# torch.cuda.is_available() else "cpu"`, seeding every generator).
IN_SCOPE = ("torch.cuda.is_available", "torch.cuda.device_count", "torch.cuda.manual_seed",
            "torch.cuda.manual_seed_all")


def out_of_scope(name: str) -> str | None:
    """Why `name` is left out of the figure, or None when it counts."""
    if name in IN_SCOPE:
        return None
    for prefix, reason in OUT_OF_SCOPE.items():
        if name == prefix or name.startswith(prefix + "."):
            return reason
    return None


def uses() -> collections.Counter:
    """Uses of each name, summed over the sources."""
    counts: collections.Counter = collections.Counter()
    with TABLE.open() as f:
        for row in csv.DictReader(f):
            counts[row["name"]] += int(row["uses"])
    return counts


def minigrad_has(name: str) -> bool:
    import minigrad

    owner, _, attribute = name.partition(".")
    obj: object = minigrad.Tensor if owner == "Tensor" else minigrad
    path = "minigrad"
    for part in attribute.split("."):
        path += f".{part}"
        try:
            obj = getattr(obj, part)
        except AttributeError:
            try:
                obj = importlib.import_module(path)
            except ImportError:
                return False
    return True


def coverage() -> tuple[float, list[tuple[str, int]], int]:
    """The share of in-scope uses minigrad covers, the missing names by uses (most first), and
    the number of in-scope uses."""
    counts = {n: u for n, u in uses().items() if out_of_scope(n) is None}
    missing = sorted(((n, u) for n, u in counts.items() if not minigrad_has(n)),
                     key=lambda item: (-item[1], item[0]))
    total = sum(counts.values())
    return 1 - sum(u for _, u in missing) / total, missing, total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=30, help="how many missing names to list")
    args = parser.parse_args()
    share, missing, total = coverage()
    print(f"minigrad covers {share:.1%} of {total} uses of the PyTorch API in CPU code "
          f"({len(missing)} names missing)")
    for name, count in missing[:args.top]:
        print(f"{count:6d}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
