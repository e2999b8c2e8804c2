"""Adagrad, as torch.optim.Adagrad: each parameter's step is divided by the root of the sum
of all its squared gradients so far, so often-moved parameters slow down."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..fidelity import fma
from ..fidelity.formulas import add_scaled
from ..tensor import Tensor, tensor_of
from .optimizer import Optimizer, _check_not_supported


class Adagrad(Optimizer):
    """sum += g*g; p -= clr * g / (sqrt(sum) + eps), clr = lr / (1 + (step - 1) * lr_decay).
    Same order of operations as PyTorch's."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0,
                 eps: float = 1e-10, foreach: bool | None = None, *, maximize: bool = False,
                 differentiable: bool = False, fused: bool | None = None) -> None:
        for name, value, low in (("learning rate", lr, 0.0), ("lr_decay value", lr_decay, 0.0),
                                 ("weight_decay value", weight_decay, 0.0),
                                 ("initial_accumulator_value value", initial_accumulator_value,
                                  0.0), ("epsilon value", eps, 0.0)):
            if value < low:
                raise ValueError(f"Invalid {name}: {value}")
        _check_not_supported(differentiable=differentiable, fused=fused)
        super().__init__(params, {
            "lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
            "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
            "maximize": maximize, "differentiable": differentiable, "fused": fused})
        for group in self.param_groups:  # PyTorch makes the state when it makes the optimizer
            for param in group["params"]:
                self.state[param]["step"] = tensor_of(np.zeros((), dtype=np.float32))
                self.state[param]["sum"] = tensor_of(np.full_like(
                    param._data, group["initial_accumulator_value"]))

    def _update(self, param: Tensor, grad: np.ndarray, group: dict, state: dict) -> None:
        if group["maximize"]:
            grad = -grad
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, param._data, group["weight_decay"])
        state["step"]._data += 1
        step = float(state["step"]._data)
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]._data
        total[...] = fma(grad, grad, total) if total.dtype == np.float32 else total + grad * grad
        std = np.sqrt(total) + np.asarray(group["eps"], dtype=total.dtype)
        param._data += (np.asarray(-clr, dtype=grad.dtype) * grad) / std
        for memory in state.values():
            memory._bump_version()
