"""Module: the base class of layers and models, as torch.nn.Module.

Assigning a Parameter or a Module to an attribute registers it, in assignment order; that
order gives `named_parameters()` its names ("0.weight", "layer.bias") and `repr` its layout."""
from __future__ import annotations

from collections import OrderedDict, namedtuple
from collections.abc import Callable, Iterator
from typing import Any

from .. import _grad_mode
from .._dtype import float16, float32, float64
from .._tensor_ops import dtype_of_to
from ..autograd.graph import RemovableHandle
from ..tensor import Tensor
from .hooks import add_hook, call_with_hooks
from .parameter import Parameter, zero_grads


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What load_state_dict returns: the keys that did not match."""

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self.missing_keys}, " \
               f"unexpected_keys={self.unexpected_keys})"


class Module:
    """Subclass it, create Parameters and sub-Modules in `__init__`, compute in `forward`;
    calling the module calls `forward`."""

    training: bool

    def __init__(self) -> None:
        # set through object.__setattr__: our own __setattr__ needs these dicts to exist
        object.__setattr__(self, "training", True)
        object.__setattr__(self, "_parameters", OrderedDict())
        object.__setattr__(self, "_buffers", OrderedDict())
        object.__setattr__(self, "_modules", OrderedDict())
        object.__setattr__(self, "_backward_hooks", OrderedDict())

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                                  '"forward" function')

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        hooked = self.__dict__
        if (hooked.get("_backward_hooks") or hooked.get("_forward_hooks")
                or hooked.get("_forward_pre_hooks") or hooked.get("_backward_pre_hooks")):
            return call_with_hooks(self, args, kwargs)
        return self.forward(*args, **kwargs)

    def _add_hook(self, registry: str, hook: Any, prepend: bool) -> RemovableHandle:
        return add_hook(self.__dict__.setdefault(registry, OrderedDict()), hook, prepend)

    def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """`hook(module, args)` runs before forward; a result it returns replaces args."""
        return self._add_hook("_forward_pre_hooks", (hook, with_kwargs), prepend)

    def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False, always_call: bool = False
                              ) -> RemovableHandle:
        """`hook(module, args, output)` runs after forward; a result it returns replaces
        output."""
        return self._add_hook("_forward_hooks", (hook, with_kwargs), prepend)

    def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False
                                        ) -> RemovableHandle:
        """`hook(module, grad_output)` runs during backward as the gradients with respect to
        this module's outputs arrive; a tuple it returns replaces grad_output."""
        return self._add_hook("_backward_pre_hooks", hook, prepend)

    def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """`hook(module, grad_input, grad_output)` runs during backward, once the gradients with
        respect to this module's inputs are known; a tuple it returns replaces grad_input."""
        return self._add_hook("_backward_hooks", hook, prepend)

    # ---- registration ---------------------------------------------------------------------

    def __setattr__(self, name: str, value: Any) -> None:
        params, modules = self.__dict__.get("_parameters"), self.__dict__.get("_modules")
        buffers = self.__dict__.get("_buffers")
        if isinstance(value, (Parameter, Module)) and params is None:
            kind = "parameters" if isinstance(value, Parameter) else "module"
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if isinstance(value, Parameter):  # a name already a parameter keeps its place
            self._forget(name, keep="_parameters")
            params[name] = value
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            params[name] = None
        elif isinstance(value, Module):
            self._forget(name, keep="_modules")
            modules[name] = value
        elif modules is not None and name in modules:
            if value is not None:
                raise TypeError(f"cannot assign '{_type_name(value)}' as child module '{name}' "
                                "(torch.nn.Module or None expected)")
            modules[name] = None
        elif buffers is not None and name in buffers:
            if value is not None and not isinstance(value, Tensor):
                raise TypeError(f"cannot assign '{_type_name(value)}' as buffer '{name}' "
                                "(torch.nn.Buffer, torch.Tensor or None expected)")
            buffers[name] = value
        else:
            object.__setattr__(self, name, value)

    def __getattr__(self, name: str) -> Any:  # only reached when normal lookup fails
        for registry in ("_parameters", "_buffers", "_modules"):
            found = self.__dict__.get(registry, {})
            if name in found:
                return found[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __delattr__(self, name: str) -> None:
        for registry in ("_parameters", "_buffers", "_modules"):
            if name in self.__dict__.get(registry, {}):
                del self.__dict__[registry][name]
                return
        object.__delattr__(self, name)

    def _forget(self, name: str, keep: str) -> None:
        """Drop `name` from the instance and from the registries but `keep`, where it stays in
        its place if it is there: it is assigned again next (PyTorch's order of parameters)."""
        self.__dict__.pop(name, None)
        for registry in ("_parameters", "_buffers", "_modules"):
            if registry != keep:
                self.__dict__[registry].pop(name, None)

    def _check_new_name(self, kind: str, name: Any, registry: str) -> None:
        """PyTorch's refusals of a name to register a parameter, buffer or module under."""
        if registry not in self.__dict__:
            raise AttributeError(f"cannot assign {kind} before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"{kind} name should be a string. Got {type(name).__name__}")
        if "." in name:
            raise KeyError(f"{kind} name can't contain \".\""
                           + (f", got: {name}" if kind == "module" else ""))
        if name == "":
            raise KeyError(f"{kind} name can't be empty string \"\"")
        if hasattr(self, name) and name not in self.__dict__[registry]:
            raise KeyError(f"attribute '{name}' already exists")

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        self._check_new_name("parameter", name, "_parameters")
        if param is not None and not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_type_name(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        self._parameters[name] = param

    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """A tensor the module keeps that is not a parameter (a running mean); a persistent
        one is also saved in its state_dict."""
        self._check_new_name("buffer", name, "_buffers")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_type_name(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        not_saved = self.__dict__.setdefault("_non_persistent_buffers_set", set())
        (not_saved.discard if persistent else not_saved.add)(name)

    def add_module(self, name: str, module: Module | None) -> None:
        if module is not None and not isinstance(module, Module):
            raise TypeError(f"{_type_name(module)} is not a Module subclass")
        self._check_new_name("module", name, "_modules")
        self._modules[name] = module

    register_module = add_module

    # ---- walking the module tree (iteratively: nesting depth is the learner's choice) -------

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """Every module of the tree, this one first, depth-first in registration order."""
        seen = memo if memo is not None else set()
        stack = [(prefix, self)]
        while stack:
            name, module = stack.pop()
            if remove_duplicate:
                if module in seen:
                    continue
                seen.add(module)
            yield name, module
            children = [(f"{name}.{key}" if name else key, child)
                        for key, child in module._modules.items() if child is not None]
            stack.extend(reversed(children))

    def modules(self) -> Iterator[Module]:
        for _, module in self.named_modules():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        seen: set = set()
        for name, module in self._modules.items():
            if module is not None and module not in seen:
                seen.add(module)
                yield name, module

    def children(self) -> Iterator[Module]:
        for _, module in self.named_children():
            yield module

    def _named_members(self, registry: str, prefix: str, recurse: bool,
                       remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        seen: set = set()
        for module_prefix, module in modules:
            for name, value in module.__dict__[registry].items():
                if value is None or (remove_duplicate and value in seen):
                    continue
                seen.add(value)
                yield (f"{module_prefix}.{name}" if module_prefix else name), value

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        yield from self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_buffers(self, prefix: str = "", recurse: bool = True) -> Iterator[tuple[str, Tensor]]:
        yield from self._named_members("_buffers", prefix, recurse)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buffer in self.named_buffers(recurse=recurse):
            yield buffer

    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call `fn` on every submodule, then on this module: each module's children first, in
        order, each after its own children (PyTorch's recursion, walked with a stack)."""
        stack = [(self, self.children())]
        while stack:
            module, children = stack[-1]
            child = next(children, None)
            if child is None:
                stack.pop()
                fn(module)
            else:
                stack.append((child, child.children()))
        return self

    # ---- state ------------------------------------------------------------------------------

    def train(self, mode: bool = True) -> Module:
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")  # noqa: TRY004 - as PyTorch
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self) -> Module:
        return self.train(False)

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """`model.to(device)` (the CPU; CUDA gets PyTorch's error) or `model.to(dtype)`, which
        casts the floating-point parameters and buffers in place, as PyTorch does."""
        dtype = dtype_of_to(args, kwargs)
        if dtype is not None:
            for tensor in (*self.parameters(), *self.buffers()):
                if tensor.is_floating_point() and tensor.dtype is not dtype:
                    tensor.data = tensor.data.to(dtype)
        return self

    def cpu(self) -> Module:
        return self

    def float(self) -> Module:  # noqa: A003
        return self.to(float32)

    def double(self) -> Module:
        return self.to(float64)

    def half(self) -> Module:
        return self.to(float16)

    def cuda(self, device: Any = None) -> Module:
        return self.to("cuda" if device is None else device)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients: `.grad = None` by default, or zero them in place."""
        zero_grads(self.parameters(), set_to_none)

    def state_dict(self, prefix: str = "", keep_vars: bool = False) -> OrderedDict:
        """Parameters and buffers by dotted name, detached unless keep_vars."""
        result: OrderedDict = OrderedDict()
        # PyTorch's order: each module's own parameters, then its own buffers, then its children
        for module_prefix, module in self.named_modules(prefix=prefix):
            not_saved = module.__dict__.get("_non_persistent_buffers_set", ())
            for registry in ("_parameters", "_buffers"):
                for name, value in module.__dict__[registry].items():
                    if value is None or (registry == "_buffers" and name in not_saved):
                        continue
                    key = f"{module_prefix}.{name}" if module_prefix else name
                    result[key] = value if keep_vars else value.detach()
        return result

    def load_state_dict(self, state_dict: dict, strict: bool = True) -> _IncompatibleKeys:
        """Copy values in place into the parameters and buffers of the same names."""
        for prefix, module in self.named_modules():  # lazy layers take the loaded shapes
            if hasattr(module, "materialize_from"):
                module.materialize_from(state_dict, f"{prefix}." if prefix else "")
        own = self.state_dict(keep_vars=True)
        missing = [key for key in own if key not in state_dict]
        unexpected = [key for key in state_dict if key not in own]
        errors = []
        if strict and unexpected:
            errors.append("Unexpected key(s) in state_dict: "
                          + ", ".join(f'"{k}"' for k in unexpected) + ". ")
        if strict and missing:
            errors.insert(0, "Missing key(s) in state_dict: "
                          + ", ".join(f'"{k}"' for k in missing) + ". ")
        for key, target in own.items():
            if key in state_dict and state_dict[key].shape != target.shape:
                errors.append(f"size mismatch for {key}: copying a param with shape "
                              f"{state_dict[key].shape} from checkpoint, the shape in current "
                              f"model is {target.shape}.")
        if errors:
            raise RuntimeError(f"Error(s) in loading state_dict for {self._get_name()}:\n\t"
                               + "\n\t".join(errors))
        with _grad_mode.no_grad():
            for key, target in own.items():
                if key in state_dict:
                    target.copy_(state_dict[key])
        return _IncompatibleKeys(missing, unexpected)

    # ---- printing ---------------------------------------------------------------------------

    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """What goes between the parentheses of this module's repr; subclasses override it."""
        return ""

    def _repr_children(self, children: list[tuple[str, str]]) -> list[str]:
        """The lines of this module's repr for its children, given as (name, repr)."""
        return [f"({key}): {text}" for key, text in children]

    def __repr__(self) -> str:
        # Children's reprs are built first (reverse of the top-down order), so no recursion.
        order = [module for _, module in self.named_modules(remove_duplicate=False)]
        text: dict = {}
        for module in reversed(order):
            extra = module.extra_repr()
            lines = extra.split("\n") if extra else []
            children = [line.replace("\n", "\n  ") for line in module._repr_children(
                [(key, "None" if child is None else text[child])
                 for key, child in module._modules.items()])]
            if len(lines) == 1 and not children:
                inside = lines[0]
            elif lines or children:
                inside = "\n  " + "\n  ".join(lines + children) + "\n"
            else:
                inside = ""
            text[module] = f"{module._get_name()}({inside})"
        return text[self]


def _type_name(value: Any) -> str:
    return f"torch.{value.dtype.tensor_type}" if isinstance(value, Tensor) \
        else type(value).__name__
