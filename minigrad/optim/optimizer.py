"""Optimizer: what SGD and Adam share, as torch.optim.Optimizer.

An optimizer holds `param_groups` (lists of parameters, each with its own hyperparameters)
and `state` (per-parameter memory such as momentum). `step()` changes the parameters in
place from their `.grad`; `zero_grad()` forgets the gradients before the next backward."""
from __future__ import annotations

import copy
import warnings
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

from .. import _grad_mode
from .._inplace import views_read_again
from ..nn.parameter import zero_grads
from ..tensor import Tensor


def _type_name(obj: Any) -> str:
    return f"torch.{obj.dtype.tensor_type}" if isinstance(obj, Tensor) else type(obj).__name__


class Optimizer:
    def __init__(self, params: Iterable[Any], defaults: dict[str, Any]) -> None:
        if isinstance(params, Tensor):
            raise TypeError("params argument given to the optimizer should be an iterable of "
                            f"Tensors or dicts, but got {_type_name(params)}")
        self.defaults = defaults
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        groups = list(params)
        if not groups:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(groups[0], dict):
            groups = [{"params": groups}]
        for group in groups:
            self.add_param_group(group)

    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add parameters with their own hyperparameters; missing ones come from defaults."""
        group = dict(param_group)
        params = group["params"]
        group["params"] = [params] if isinstance(params, Tensor) else list(params)
        for param in group["params"]:
            if not isinstance(param, Tensor):
                raise TypeError("optimizer can only optimize Tensors, but one of the params is "
                                f"{_type_name(param)}")
            if not param.is_leaf:
                raise ValueError("can't optimize a non-leaf Tensor")
        if len({id(p) for p in group["params"]}) != len(group["params"]):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; in "
                          "future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          UserWarning, stacklevel=3)
        for name, default in self.defaults.items():
            group.setdefault(name, default)
        taken = {id(p) for g in self.param_groups for p in g["params"]}
        if any(id(p) in taken for p in group["params"]):
            raise ValueError("some parameters appear in more than one parameter group")
        self.param_groups.append(group)

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Forget the gradients: `.grad = None` by default, or zero them in place."""
        zero_grads((p for group in self.param_groups for p in group["params"]), set_to_none)

    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """Update every parameter that has a gradient; `closure`, if given, recomputes the
        loss (with grad enabled) and its value is returned."""
        loss = None
        if closure is not None:
            with _grad_mode.enable_grad():
                loss = closure()
        with _grad_mode.no_grad():  # an update is not part of any graph
            for group in self.param_groups:
                for param in group["params"]:
                    if param.grad is not None:
                        # a parameter has a state entry only once an update stores something
                        # (plain SGD never does), as PyTorch's state_dict shows
                        state = self.state.get(param, {})
                        self._update(param, param.grad._data, group, state)
                        if state:
                            self.state[param] = state
                        param._bump_version()  # in place, as PyTorch's add_ would count it
                        if param._counter.views is not None:
                            views_read_again(param)  # (views of it made before, still alive)
        return loss

    def _update(self, param: Tensor, grad: Any, group: dict, state: dict) -> None:
        raise NotImplementedError

    def state_dict(self) -> dict[str, Any]:
        """State and groups with each parameter replaced by its position, as PyTorch saves them."""
        index = {}
        groups = []
        for group in self.param_groups:
            packed = {k: v for k, v in group.items() if k != "params"}
            for param in group["params"]:
                index.setdefault(id(param), len(index))
            packed["params"] = [index[id(p)] for p in group["params"]]
            groups.append(packed)
        state = {index[id(p)]: s for p, s in self.state.items() if id(p) in index}
        return {"state": state, "param_groups": groups}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Take the state and hyperparameters of `state_dict` (parameters matched by position).
        As in PyTorch, the state's tensors are taken as they are, not copied, when their dtype
        already is the parameter's: the state_dict and this optimizer then share them, and an
        optimizer that `state_dict` came from shares them too."""
        saved_groups = copy.deepcopy(state_dict["param_groups"])
        if len(saved_groups) != len(self.param_groups):
            raise ValueError("loaded state dict has a different number of parameter groups")
        if any(len(g["params"]) != len(s["params"])
               for g, s in zip(self.param_groups, saved_groups)):
            raise ValueError("loaded state dict contains a parameter group that doesn't match "
                             "the size of optimizer's group")
        params = {position: p for g, s in zip(self.param_groups, saved_groups)
                  for position, p in zip(s["params"], g["params"])}
        self.state = defaultdict(dict)
        for position, values in state_dict["state"].items():
            if position in params:
                self.state[params[position]] = _cast(params[position], values)
            else:
                self.state[position] = values
        for group, saved in zip(self.param_groups, saved_groups):
            saved["params"] = group["params"]
        self.param_groups = saved_groups

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for i, group in enumerate(self.param_groups):
            text += f"\nParameter Group {i}\n"
            settings = sorted(key for key in group if key != "params")
            text += "".join(f"    {key}: {group[key]}\n" for key in settings)
        return text + ")"


def _cast(param: Tensor, value: Any, key: Any = None) -> Any:
    """A loaded state value for `param`: tensors in the parameter's dtype (the same tensor when
    it already is; a step count as it is), dicts and sequences entry by entry."""
    if isinstance(value, Tensor):
        if key == "step" or not param.is_floating_point():
            return value
        return value.to(param.dtype)
    if isinstance(value, dict):
        return {k: _cast(param, v, k) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(param, v, key) for v in value)
    return value


def _check_not_supported(**flags: Any) -> None:
    """Options PyTorch has that minigrad does not implement: refuse rather than ignore."""
    for name, value in flags.items():
        if value:
            raise NotImplementedError(f"minigrad's optimizers do not implement {name}=True")
