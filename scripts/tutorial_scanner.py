"""The counting rules of scripts/scan_tutorial_api.py (its docstring states them): a visitor
that walks one file's code, keeps what it knows about names (imported from torch, or holding a
tensor, a module, an optimizer), and counts the PyTorch names used."""
from __future__ import annotations

import ast
import collections
import importlib
import inspect

import numpy as np
import torch

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
