"""Counts the PyTorch API that public teaching code uses, into tests/data/tutorial_api_usage.csv
(name, uses, source, commit); scripts/api_coverage.py then measures minigrad against it offline.

    python scripts/scan_tutorial_api.py [--mirrors DIR]   # needs PyTorch 2.13 in this Python

Each source in SOURCES is read, at its named commit, from a local git copy (bare or not) at
DIR/<owner>+<name>/repo (/work/.mirror by default; a clone or the search tool's `fetch` gives one).
Only the counts are kept: no third-party code enters this repository.

What is read: .py files whole; .ipynb code cells; .rst `code-block:: python` blocks; d2l's .md
```{.python .input}` blocks tabbed `pytorch` or `all`. IPython lines (`%...`, `!...`) are dropped;
a cell that still does not parse is skipped (the run prints how many). Cells of one file share
what is known about names, in order, as a notebook's kernel does.

What is counted, once per occurrence in the code:
- every attribute chain on a name imported from torch, with imports resolved
  (`import torch.nn.functional as F; F.relu` is `torch.nn.functional.relu`, `from torch.nn import
  Linear; Linear` is `torch.nn.Linear`), under its full name;
- `r.name` where `r` is a Tensor, as `Tensor.name` (methods and properties alike), when
  torch.Tensor has `name`; likewise `torch.nn.Module.name` on a module, and
  `torch.optim.Optimizer.name` / `torch.optim.lr_scheduler.LRScheduler.name` on those.

The receiver rule. An expression is a Tensor when it is: a call of a torch function (torch.X,
torch.linalg.X, F.X, nn.init.X, nn.Parameter; not a class, and not one of NOT_TENSOR); a call
of a module (`model(x)`); a Tensor method's result (except the methods in NOT_TENSOR_METHODS);
`.grad`, `.data`, `.T`, `.mT` of a Tensor, `.weight`/`.bias` of a module; a subscript of a
Tensor; arithmetic or a comparison with a Tensor operand; a name or `self.attr` last assigned
one of these; a loop variable over a DataLoader (also through `enumerate`); a parameter of a
Module subclass's `forward`, or one annotated `torch.Tensor`. A module is a call of an
nn class or of a class of the file that subclasses nn.Module, `self` in such a class, and
`.to()`/`.train()`/... of a module. A receiver whose kind is not known this way counts as a
Tensor only for names that torch.Tensor has and numpy arrays, modules, optimizers and Python's
containers do not (`backward`, `item`, `requires_grad`...): these are unambiguous.
"""
from __future__ import annotations

import argparse
import ast
import collections
import csv
import fnmatch
import importlib
import inspect
import json
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "tests" / "data" / "tutorial_api_usage.csv"


@dataclass(frozen=True)
class Source:
    name: str  # the public repository the code comes from
    commit: str
    include: tuple[str, ...]  # fnmatch patterns of the paths read
    exclude: tuple[str, ...] = ()
    mirror: str = ""  # another repository holding the same code, when the original is not at hand
    note: str = ""


SOURCES = (
    Source("pytorch/tutorials", "84b7db6e020c098cf38a0dfaf036007c24057bb1",
           ("beginner_source/*.py", "beginner_source/*.rst", "recipes_source/*.py",
            "recipes_source/*.rst"),
           mirror="PyTorchKorea/tutorials-kr",
           note="pytorch/tutorials' snapshot (5.3 GB) is over the fetch limit; its Korean "
                "translation keeps the same code with translated prose"),
    Source("d2l-ai/d2l-en", "23d7a5aecceee57d1292c56e90cce307f183bb0a", ("chapter_*.md",)),
    Source("phlippe/uvadlc_notebooks", "0da8037c7abc32f478ff6142acceb72dbcf088ee",
           ("docs/tutorial_notebooks/tutorial*.ipynb",), exclude=("*_empty.ipynb",)),
    Source("rasbt/machine-learning-book", "35ab3774e8e249c43a98209d8efd94c060102003",
           ("ch1[2-9]/ch*.py",),
           note="the chapters' scripts, exported from their notebooks (some of which are over "
                "the snapshot's 4 MiB limit)"),
    Source("rasbt/LLMs-from-scratch", "28c65cdfbc3338e2e040016eea4b7fdf556e4d57",
           ("*/01_main-chapter-code/*.ipynb",)),
    Source("fastai/fastbook", "823b69e00aa1e1c1a45fe88bd346f11e8f89c1ff", ("[0-9][0-9]_*.ipynb",),
           mirror="huangyingw/fastai_fastbook",
           note="fastai/fastbook's snapshot (965 MB) is over the fetch limit; this mirror holds "
                "its history up to the commit named"),
    Source("mrdbourke/pytorch-deep-learning", "baa27b691617461c173ecf3439793cd8cde74e13",
           ("[0-9][0-9]_*.ipynb",)),
)

TENSOR, MODULE, OPTIMIZER, SCHEDULER, LOADER, OTHER = (
    "tensor", "module", "optimizer", "scheduler", "loader", "other")

# torch functions whose result is not a tensor
NOT_TENSOR = {"manual_seed", "seed", "device", "no_grad", "enable_grad", "set_grad_enabled",
              "inference_mode", "is_tensor", "is_grad_enabled", "numel", "save", "load",
              "get_default_dtype", "set_default_dtype", "set_printoptions", "is_floating_point",
              "compile", "set_default_device", "get_default_device", "Generator", "Size",
              "allclose", "equal", "dtype", "finfo", "iinfo", "is_nonzero", "get_rng_state",
              "set_rng_state", "initial_seed", "use_deterministic_algorithms",
              "set_num_threads", "get_num_threads", "set_float32_matmul_precision", "vmap",
              "autocast", "is_inference_mode_enabled", "result_type", "promote_types",
              "can_cast", "broadcast_shapes", "typename", "is_storage", "is_complex",
              "split", "chunk", "unbind", "meshgrid", "tensor_split", "broadcast_tensors",
              "sort", "topk", "max", "min", "std_mean", "var_mean", "unique", "histogram",
              "lu", "svd", "qr", "eig", "slogdet", "where"}
NOT_TENSOR_METHODS = {"item", "tolist", "numpy", "size", "dim", "numel", "nelement", "backward",
                      "data_ptr", "stride", "element_size", "storage", "untyped_storage",
                      "is_contiguous", "is_floating_point", "equal", "allclose", "type",
                      "register_hook", "register_post_accumulate_grad_hook", "split", "chunk",
                      "unbind", "sort", "topk", "max", "min", "unique", "tensor_split",
                      "get_device", "is_leaf", "storage_offset", "__len__", "__iter__"}
MODULE_KEEPS = {"to", "cuda", "cpu", "float", "double", "half", "bfloat16", "train", "eval",
                "requires_grad_", "apply", "type", "zero_grad", "share_memory"}
TENSOR_ATTRIBUTES = {"grad", "data", "T", "mT", "H", "mH", "real", "imag"}


def _is_module(name: str) -> bool:
    """Whether `name` (torch.nn, torch.optim...) is a module of PyTorch's, not an object in one."""
    obj = torch
    for part in name.split(".")[1:]:
        obj = getattr(obj, part, None)
    return obj is None or inspect.ismodule(obj)


def api_name(name: str) -> str | None:
    """`name` cut after its first object that is neither a module nor a class
    (`torch.__version__.split` is `torch.__version__`), or None when PyTorch lacks it (a misread
    alias or a tutorial's typo is not PyTorch's API)."""
    owner, _, rest = name.partition(".")
    obj: object = torch.Tensor if owner == "Tensor" else torch
    kept = [owner]
    for part in rest.split("."):
        if not (inspect.ismodule(obj) or inspect.isclass(obj)):
            break
        try:
            obj = getattr(obj, part)
        except AttributeError:
            try:
                obj = importlib.import_module(f"{obj.__name__}.{part}")
            except (ImportError, AttributeError):
                return None
        kept.append(part)
    return ".".join(kept)


def _names(obj: object) -> set[str]:
    return set(dir(obj))


TENSOR_NAMES = _names(torch.Tensor) - {n for n in dir(torch.Tensor) if n.startswith("_")}
# Names that only a Tensor has among the receivers tutorials use: counted whatever the receiver.
# Names other receivers that tutorials use also have (numpy arrays, modules, optimizers, Python's
# containers, matplotlib, pandas), but for a few that tutorials call on tensors nearly always.
SHARED = set().union(
    _names(np.ndarray), _names(np.float64), _names(torch.nn.Module), _names(torch.optim.Optimizer),
    _names(list), _names(dict), _names(str), _names(tuple), _names(set), _names(float),
    {"to", "apply", "index", "copy", "values", "keys", "items", "update", "append", "add", "view",
     "sum", "mean", "max", "min", "shape", "size", "type", "float", "double", "long", "int",
     "bool", "half", "cpu", "cuda", "abs", "exp", "log", "sqrt", "reshape", "all", "any",
     "clip", "round", "transpose", "std", "var", "argmax", "argmin", "fill_", "eq", "ne",
     "lt", "le", "gt", "ge", "sort", "split", "flatten", "squeeze", "repeat", "cumsum", "prod",
     "dot", "ndim", "dtype", "device", "nonzero", "norm", "name", "names", "tolist", "numpy",
     "item", "count", "is_set_to", "clone", "detach", "apply_", "new", "map_", "lower",
     "upper", "layout", "is_cuda", "is_leaf", "format"},
    # what matplotlib's plt and Axes, and pandas' DataFrame and Series, also offer
    {"scatter", "where", "unique", "mul", "sub", "div", "pow", "round", "cumprod", "median",
     "mode", "diff", "cov", "quantile", "repeat", "isin", "argsort", "ravel", "multiply",
     "divide", "subtract", "corr", "clip", "abs", "sign", "hist", "bar", "stem", "fill",
     "fill_between", "matshow", "imshow", "plot", "step", "nansum", "nanmean", "logical_and",
     "logical_or", "logical_not", "t"},
) - {"item", "detach", "numpy", "tolist", "clone"}
# Names only a Tensor has among them: counted whatever the receiver.
UNAMBIGUOUS = TENSOR_NAMES - SHARED


class Scanner(ast.NodeVisitor):
    """Counts the names one file uses (see the module's docstring for the rules)."""

    def __init__(self, counts: collections.Counter) -> None:
        self.counts = counts
        self.aliases: dict[str, str] = {}  # local name -> torch qualified name
        self.kinds: dict[str, str] = {}  # "x" or "self.fc" -> TENSOR, MODULE, ...
        self.module_classes: set[str] = set()
        self.class_stack: list[tuple[str, bool]] = []

    # ---- names imported from torch -------------------------------------------------------
    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            local = alias.asname or alias.name.partition(".")[0]
            if alias.name == "torch" or alias.name.startswith("torch."):
                self.aliases[local] = alias.name if alias.asname else "torch"
            else:  # another library (plt, np, pd): what it offers is not a Tensor's
                self.aliases.pop(local, None)
                self.kinds[local] = OTHER

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        from_torch = not node.level and (module == "torch" or module.startswith("torch."))
        for alias in node.names:
            if alias.name == "*":
                continue
            local = alias.asname or alias.name
            if from_torch:
                self.aliases[local] = f"{module}.{alias.name}"
            else:
                self.aliases.pop(local, None)
                self.kinds[local] = OTHER

    def qualified(self, node: ast.AST) -> str | None:
        """`F.relu` -> 'torch.nn.functional.relu' when the chain starts at a torch name."""
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name) and node.id in self.aliases:
            return ".".join([self.aliases[node.id], *reversed(parts)])
        return None

    @staticmethod
    def key(node: ast.AST) -> str | None:
        """'x' or 'self.fc1': the names whose kind is remembered."""
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            return f"{node.value.id}.{node.attr}"
        return None

    # ---- what kind of object an expression gives ---------------------------------------------
    def kind(self, node: ast.AST) -> str | None:
        name = self.qualified(node)
        if name is not None:
            return None
        key = self.key(node)
        if key in self.kinds:
            return self.kinds[key]
        if isinstance(node, ast.Attribute):
            owner = self.kind(node.value)
            if owner == TENSOR and node.attr in TENSOR_ATTRIBUTES:
                return TENSOR
            if owner == MODULE and node.attr in ("weight", "bias"):
                return TENSOR
            return None
        if isinstance(node, ast.Call):
            return self.call_kind(node)
        if isinstance(node, ast.Subscript):
            return TENSOR if self.kind(node.value) == TENSOR else None
        if isinstance(node, ast.BinOp):
            return TENSOR if TENSOR in (self.kind(node.left), self.kind(node.right)) else None
        if isinstance(node, ast.UnaryOp):
            return self.kind(node.operand)
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            return TENSOR if any(self.kind(o) == TENSOR for o in operands) else None
        return None

    def call_kind(self, node: ast.Call) -> str | None:
        name = self.qualified(node.func)
        if name is not None:
            last = name.rsplit(".", 1)[-1]
            if name.startswith("torch.optim.lr_scheduler."):
                return SCHEDULER
            if name.startswith("torch.optim.") and last[:1].isupper():
                return OPTIMIZER
            if name in ("torch.utils.data.DataLoader",):
                return LOADER
            if name == "torch.nn.Parameter":
                return TENSOR
            if name.startswith("torch.nn.") and last[:1].isupper() and ".utils." not in name:
                return MODULE
            tensor_space = name.count(".") == 1 or name.startswith(
                ("torch.nn.functional.", "torch.nn.init.", "torch.linalg.", "torch.special.",
                 "torch.fft."))
            if tensor_space and last[:1].islower() and last not in NOT_TENSOR:
                return TENSOR
            return None
        if isinstance(node.func, ast.Name) and node.func.id in self.module_classes:
            return MODULE
        callee = self.kind(node.func)
        if callee == MODULE:
            return TENSOR
        if isinstance(node.func, ast.Attribute):
            owner = self.kind(node.func.value)
            method = node.func.attr
            if owner == TENSOR:
                return None if method in NOT_TENSOR_METHODS else TENSOR
            if owner == MODULE and method in MODULE_KEEPS:
                return MODULE
        return None

    # ---- remembering kinds ---------------------------------------------------------------------
    def remember(self, target: ast.AST, kind: str | None) -> None:
        if isinstance(target, ast.Name):  # a name imported from torch and then reassigned
            self.aliases.pop(target.id, None)
        key = self.key(target)
        if key is None:
            return
        if kind is None:
            self.kinds.pop(key, None)
        else:
            self.kinds[key] = kind

    def visit_Assign(self, node: ast.Assign) -> None:
        self.visit(node.value)
        kind = self.kind(node.value)
        for target in node.targets:
            self.visit(target)
            for name in ast.walk(target) if isinstance(target, (ast.Tuple, ast.List)) else ():
                self.remember(name, None)
            self.remember(target, kind)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)
            self.remember(node.target, self.kind(node.value))

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        iterable, targets = node.iter, node.target
        if (isinstance(iterable, ast.Call) and isinstance(iterable.func, ast.Name)
                and iterable.func.id == "enumerate" and iterable.args
                and isinstance(targets, ast.Tuple) and len(targets.elts) == 2):
            iterable, targets = iterable.args[0], targets.elts[1]
        loop_kind = TENSOR if self.kind(iterable) == LOADER else None
        for name in ast.walk(targets):
            if isinstance(name, ast.Name):
                self.remember(name, loop_kind)
        for statement in [*node.body, *node.orelse]:
            self.visit(statement)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for base in node.bases:
            self.visit(base)
        is_module = any((self.qualified(b) or "").startswith("torch.nn.")
                        or (isinstance(b, ast.Name) and b.id in self.module_classes)
                        for b in node.bases)
        if is_module:
            self.module_classes.add(node.name)
        self.class_stack.append((node.name, is_module))
        saved = dict(self.kinds)
        for statement in node.body:
            self.visit(statement)
        self.kinds = saved
        self.class_stack.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        saved = dict(self.kinds)
        in_module = bool(self.class_stack) and self.class_stack[-1][1]
        arguments = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
        for i, argument in enumerate(arguments):
            annotated = self.qualified(argument.annotation) if argument.annotation else None
            if i == 0 and in_module and argument.arg == "self":
                kind = MODULE
            elif annotated == "torch.Tensor" or (in_module and node.name == "forward" and i):
                kind = TENSOR
            else:
                kind = None
            self.remember(ast.Name(argument.arg), kind)
        for statement in node.body:
            self.visit(statement)
        # what a method stores on self stays known to the class's other methods
        kept = {k: v for k, v in self.kinds.items() if k.startswith("self.")}
        self.kinds = {**saved, **kept}

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_If(self, node: ast.If) -> None:
        """d2l's `if tab.selected('mxnet', ...):` branches: only PyTorch's are read."""
        test = node.test
        if (isinstance(test, ast.Call) and isinstance(test.func, ast.Attribute)
                and test.func.attr == "selected" and ast.unparse(test.func.value) == "tab"):
            frameworks = {a.value for a in test.args if isinstance(a, ast.Constant)}
            for statement in node.body if "pytorch" in frameworks else node.orelse:
                self.visit(statement)
            return
        self.generic_visit(node)

    # ---- counting --------------------------------------------------------------------------
    def visit_Attribute(self, node: ast.Attribute) -> None:
        name = self.qualified(node)
        if name is not None:
            self.counts[name] += 1
            return  # the chain is one use: its inner parts are not counted again
        owner = self.kind(node.value)
        if owner == TENSOR and node.attr in TENSOR_NAMES:
            self.counts[f"Tensor.{node.attr}"] += 1
        elif owner == MODULE and hasattr(torch.nn.Module, node.attr):
            self.counts[f"torch.nn.Module.{node.attr}"] += 1
        elif owner == OPTIMIZER and hasattr(torch.optim.Optimizer, node.attr):
            self.counts[f"torch.optim.Optimizer.{node.attr}"] += 1
        elif owner == SCHEDULER and hasattr(torch.optim.lr_scheduler.LRScheduler, node.attr):
            self.counts[f"torch.optim.lr_scheduler.LRScheduler.{node.attr}"] += 1
        elif owner is None and node.attr in UNAMBIGUOUS:
            self.counts[f"Tensor.{node.attr}"] += 1
        self.visit(node.value)

    def visit_Name(self, node: ast.Name) -> None:
        name = self.aliases.get(node.id)
        if name is not None and not _is_module(name):  # `Linear(...)` after a from-import
            self.counts[name] += 1


# ---- reading the sources ------------------------------------------------------------------------
IPYTHON_LINE = re.compile(r"^\s*[%!]")


def _python(code: str) -> str:
    if code.lstrip().startswith("%%") and not code.lstrip().startswith(("%%time", "%%capture")):
        return ""
    return "\n".join(line[:len(line) - len(line.lstrip())] + "pass" if IPYTHON_LINE.match(line)
                     else line for line in code.splitlines())


def _notebook_cells(text: str) -> list[str]:
    cells = json.loads(text).get("cells", [])
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in cells if c.get("cell_type") == "code"]


RST_BLOCK = re.compile(r"^(\s*)\.\. code(?:-block)?::\s*(?:python|py|python3)\s*$")


def _rst_blocks(text: str) -> list[str]:
    lines, blocks, i = text.splitlines(), [], 0
    while i < len(lines):
        match = RST_BLOCK.match(lines[i])
        i += 1
        if not match:
            continue
        indent, block = len(match.group(1)), []
        while i < len(lines) and (not lines[i].strip() or
                                  len(lines[i]) - len(lines[i].lstrip()) > indent):
            if not lines[i].lstrip().startswith(":") or block:
                block.append(lines[i])
            i += 1
        blocks.append(textwrap.dedent("\n".join(block)))
    return blocks


D2L_BLOCK = re.compile(r"```\{\.python \.input[^}]*\}\n(.*?)```", re.S)


def _d2l_blocks(text: str) -> list[str]:
    blocks = []
    for code in D2L_BLOCK.findall(text):
        first, _, rest = code.partition("\n")
        tabs = first.replace("%%tab", "").replace("#@tab", "").replace(",", " ").split()
        if first.startswith(("%%tab", "#@tab")) and ("pytorch" in tabs or "all" in tabs):
            blocks.append(rest)
    return blocks


def code_units(path: str, text: str) -> list[str]:
    if path.endswith(".ipynb"):
        return _notebook_cells(text)
    if path.endswith(".rst"):
        return _rst_blocks(text)
    if path.endswith(".md"):
        return _d2l_blocks(text)
    return [text]


def scan_source(source: Source, mirrors: Path) -> tuple[collections.Counter, int, int, list[str]]:
    """The counts of one source, the number of files read, of cells that did not parse, and the
    files missing from the local copy."""
    repo = mirrors / (source.mirror or source.name).replace("/", "+") / "repo"
    git = ["git", "-C", str(repo)]
    listing = subprocess.run([*git, "ls-tree", "-r", "--name-only", source.commit],
                             capture_output=True, text=True, check=True).stdout.split("\n")
    paths = sorted(p for p in listing
                   if any(fnmatch.fnmatch(p, pattern) for pattern in source.include)
                   and not any(fnmatch.fnmatch(p, pattern) for pattern in source.exclude))
    counts: collections.Counter = collections.Counter()
    unparsed, absent = 0, []
    for path in paths:
        shown = subprocess.run([*git, "show", f"{source.commit}:{path}"], capture_output=True,
                               check=False)
        if shown.returncode:  # a snapshot lacks files of 4 MiB and more
            absent.append(path)
            continue
        text = shown.stdout.decode("utf-8", "replace")
        scanner = Scanner(counts)
        for unit in code_units(path, text):
            try:
                tree = ast.parse(_python(unit))
            except SyntaxError:
                unparsed += 1
                continue
            scanner.visit(tree)
    named: collections.Counter = collections.Counter()
    for name, uses in counts.items():
        if api_name(name) is not None:
            named[api_name(name)] += uses
    return named, len(paths) - len(absent), unparsed, absent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    args = parser.parse_args()
    rows = []
    for source in SOURCES:
        counts, files, unparsed, absent = scan_source(source, args.mirrors)
        print(f"{source.name}@{source.commit[:7]}: {files} files, {sum(counts.values())} uses "
              f"of {len(counts)} names, {unparsed} cells not parsed"
              + "".join(f"\n  not in the local copy: {path}" for path in absent))
        rows += [(name, uses, source.name, source.commit) for name, uses in counts.items()]
    rows.sort(key=lambda r: (-r[1], r[0], r[2]))
    TABLE.parent.mkdir(exist_ok=True)
    with TABLE.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(("name", "uses", "source", "commit"))
        writer.writerows(rows)
    print(f"wrote {TABLE.relative_to(ROOT)} ({len(rows)} rows)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
