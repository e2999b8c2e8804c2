"""Writes docs/api.md: what minigrad implements of PyTorch's API, read from the code itself
(each module's public names, the Tensor's methods and properties), so that the list cannot
drift from the code; tests/engine/test_api_docs.py checks it.

    python scripts/write_api_docs.py          # rewrite docs/api.md
    python scripts/write_api_docs.py --check  # exit 1 if docs/api.md is not what the code says
"""
from __future__ import annotations

import argparse
import inspect
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import minigrad  # noqa: E402
import minigrad.autograd  # noqa: E402
import minigrad.distributions  # noqa: E402
import minigrad.nn  # noqa: E402
import minigrad.nn.functional  # noqa: E402
import minigrad.optim  # noqa: E402
import minigrad.utils.checkpoint  # noqa: E402
import minigrad.utils.data  # noqa: E402

sys.path.insert(0, str(ROOT / "scripts"))
import api_coverage  # noqa: E402

OUTPUT = ROOT / "docs" / "api.md"

HEADER = """# What minigrad implements

minigrad is the part of PyTorch 2.13 that this course needs, with PyTorch's behaviour, errors
and printed output. This page lists that part; anything else raises an AttributeError whose
one-line message says that minigrad is a subset of PyTorch and, for the APIs tutorials use most,
what to use in the course instead (`minigrad/_subset.py`).

Convolutions and pooling (`nn.Conv1d`/`Conv2d`, `MaxPool2d`, `AvgPool2d`,
`AdaptiveAvgPool2d`, `F.conv1d`/`conv2d`, `F.max_pool2d`, `F.avg_pool2d`, `F.pad`) are numpy:
windows are strided views, a convolution is one matrix product per group (im2col), so
PyTorch's "Neural Networks" blitz runs in well under a second; their gradients, second
derivatives and grad_fn names (`ConvolutionBackward0`, `MaxPool2DWithIndicesBackward0`,
`AvgPool2DBackward0`) are PyTorch's, to float32 rounding. Images the size of ImageNet's
train slowly: minigrad runs on one core, without PyTorch's vectorised kernels.
Saved-tensor hooks (`torch.autograd.graph`) see what PyTorch's nodes save, in PyTorch's order,
for the operations tutorials use; the index tensors that `gather`, `where` and `max(dim)`
keep, and `prod`'s result, are not saved tensors in minigrad, so they are not packed.
`torch.einsum` has a grad_fn of minigrad's own, `EinsumBackward` (PyTorch's depends on how it
rewrites each equation into products); `torch.autograd.profiler.profile` runs its block but
records no timings.
`nn.RNN`, `LSTM` and `GRU` are Python loops over the time steps with PyTorch's parameters and
gate formulas (an LSTM's output has grad_fn `StackBackward0`, where PyTorch's oneDNN kernel
gives `MkldnnRnnLayerBackward0`); `LayerNorm`, `BatchNorm` and `InstanceNorm` take their
statistics in float64 and agree with PyTorch to float32 rounding; dropout and `bernoulli` draw
PyTorch's masks from PyTorch's generator; `topk` orders equal values by position (PyTorch leaves
their order unspecified); `optim.LBFGS` has no line search.

Printed floats carry PyTorch's last bits where minigrad can repeat how PyTorch rounds
(`minigrad/fidelity/`): sums and means, `randn` and the initialisers, `arange` with a float step
and `linspace`, optimizer steps, tanh's backward. PyTorch's x86-64 builds compute float32 `sin`,
`cos`, `tanh`, `exp`, `log` and `sqrt` with Intel MKL's closed vector math (PyTorch's AVX2 and
AVX-512 kernels both call it; ARM builds use SLEEF or the C library, with other last bits):
minigrad gives the correctly rounded value, which is MKL's for about 99.9% of tanh's inputs, 99%
of exp's, 95% of sin's and cos's, 92% of log's; MKL's float32 sqrt is correctly rounded on some
CPUs only (one value in five an ulp off on an AMD EPYC), and Adam's and RMSprop's steps inherit
that last bit. float32 `pow` with a tensor exponent (`a ** b`, `2 ** x`) is numpy's, an ulp from
PyTorch's vectorised one in 17-20% of values (2,000 normal exponents).

Generated from the code by `python scripts/write_api_docs.py`; do not edit by hand.
"""


def _summary(obj: Any) -> str:
    """The first line of an object's docstring, if it has its own."""
    doc = inspect.getdoc(obj) if (inspect.isroutine(obj) or inspect.isclass(obj)
                                  or isinstance(obj, property)) else None
    if not doc or (inspect.isclass(obj) and obj.__doc__ is None):
        return ""
    return doc.strip().splitlines()[0].strip()


def _kind(obj: Any) -> str:
    if isinstance(obj, property):
        return "property"
    if inspect.isclass(obj):
        return "class"
    if isinstance(obj, minigrad.dtype):
        return "dtype"
    if inspect.ismodule(obj):
        return "module"
    if callable(obj):
        return "function"
    if isinstance(obj, minigrad.Generator):
        return "Generator"
    return "namespace"


def _public(names: Any) -> list[str]:
    return sorted(n for n in names if not n.startswith("_"))


def _section(title: str, prefix: str, owner: Any, names: list[str]) -> list[str]:
    lines = [f"## {title}", "", "| name | kind | what it is |", "|---|---|---|"]
    for name in names:
        obj = getattr(owner, name)
        summary = _summary(obj).replace("|", "\\|")
        lines.append(f"| `{prefix}{name}` | {_kind(obj)} | {summary} |")
    return [*lines, ""]


def _module_names(module: Any) -> list[str]:
    names = getattr(module, "__all__", None) or [
        n for n, v in vars(module).items()
        if not inspect.ismodule(v) or n in ("nn", "optim", "autograd", "linalg", "viz")]
    return _public(names)


def _torch_names() -> list[str]:
    """minigrad's own top level: what `import minigrad as torch` offers as torch.X."""
    skip = {"annotations", "Any", "builtins", "importlib"}
    names = []
    for name, value in vars(minigrad).items():
        if name.startswith("_") or name in skip:
            continue
        if inspect.ismodule(value) and name not in ("autograd", "nn", "optim", "linalg"):
            continue
        names.append(name)
    return sorted({*names, "nn", "optim", "linalg"})


def _tensor_names() -> list[str]:
    names = set()
    for cls in minigrad.Tensor.__mro__[:-1]:
        names.update(n for n in vars(cls) if not n.startswith("_"))
    return sorted(names)


def _coverage(top: int = 40) -> list[str]:
    """The share of tutorials' API uses minigrad covers, and the most used names it lacks."""
    share, missing, total = api_coverage.coverage()
    lines = ["## Coverage of the API that tutorials use", "",
             f"minigrad has **{share:.1%}** of the {total} uses of PyTorch's API in the CPU code "
             "of public teaching material (pytorch/tutorials and pytorch/examples, d2l, the UvA DL "
             "notebooks, Raschka's books, fastbook, Zero to Mastery, Karpathy's, NYU's, "
             "Udacity's and others; `tests/data/tutorial_api_usage.csv`, "
             "written by `scripts/scan_tutorial_api.py`, which names each source's commit and "
             "says how names are counted). `python scripts/api_coverage.py` prints the figure "
             "and the missing names.", "",
             f"The {min(top, len(missing))} most used names it lacks:", "",
             "| name | uses |", "|---|---|"]
    lines += [f"| `{name}` | {uses} |" for name, uses in missing[:top]]
    lines += ["", "Left out of the figure: what needs a GPU, a download or a compiled "
              "extension.", "", "| name (and what is under it) | why |", "|---|---|"]
    lines += [f"| `{name}` | {why} |" for name, why in api_coverage.OUT_OF_SCOPE.items()]
    return [*lines, ""]


def render() -> str:
    lines = [HEADER]
    lines += _section("`torch`", "torch.", minigrad, _torch_names())
    lines += _section("`torch.Tensor` methods and properties", "Tensor.", minigrad.Tensor,
                      _tensor_names())
    lines += _section("`torch.autograd`", "torch.autograd.", minigrad.autograd,
                      _public(minigrad.autograd.__all__))
    lines += _section("`torch.nn`", "torch.nn.", minigrad.nn, _module_names(minigrad.nn))
    lines += _section("`torch.nn.functional`", "torch.nn.functional.", minigrad.nn.functional,
                      _module_names(minigrad.nn.functional))
    lines += _section("`torch.autograd.graph`", "torch.autograd.graph.", minigrad.autograd.graph,
                      ["Node", "allow_mutation_on_saved_tensors", "disable_saved_tensors_hooks",
                       "save_on_cpu", "saved_tensors_hooks"])
    lines += _section("`torch.utils.checkpoint`", "torch.utils.checkpoint.",
                      minigrad.utils.checkpoint, _public(minigrad.utils.checkpoint.__all__))
    lines += _section("`torch.optim`", "torch.optim.", minigrad.optim,
                      _module_names(minigrad.optim))
    lines += _section("`torch.utils.data`", "torch.utils.data.", minigrad.utils.data,
                      _module_names(minigrad.utils.data))
    lines += _section("`torch.distributions`", "torch.distributions.", minigrad.distributions,
                      ["Binomial", "Categorical", "Distribution", "Multinomial", "Normal",
                       "Poisson"])
    lines += _section("`torch.cuda` (a machine without a GPU)", "torch.cuda.", minigrad.cuda,
                      _public(n for n in dir(type(minigrad.cuda)) if n != "mro"))
    lines += _coverage()
    return "\n".join(lines).rstrip("\n") + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only compare, do not write")
    args = parser.parse_args()
    text = render()
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print("docs/api.md is not what the code says: run python scripts/write_api_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
