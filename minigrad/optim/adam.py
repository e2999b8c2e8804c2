"""Adam, as torch.optim.Adam: momentum on the gradient and on its square, bias-corrected."""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from ..fidelity import vector_math
from ..fidelity.formulas import add_scaled, addcmul_, lerp_
from ..tensor import Tensor, tensor_of
from .optimizer import Optimizer, _check_not_supported


class Adam(Optimizer):
    """m and v are running averages of g and g*g (betas set how slowly they move); each
    step moves p by -lr * m_hat / (sqrt(v_hat) + eps), where the hats undo the averages'
    bias towards their zero start. Same order of operations as PyTorch's."""

    def __init__(self, params: Iterable[Any], lr: float = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 weight_decay: float = 0, amsgrad: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if eps < 0.0:
            raise ValueError(f"Invalid epsilon value: {eps}")
        for i in (0, 1):
            if not 0.0 <= betas[i] < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {betas[i]}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        _check_not_supported(capturable=capturable, differentiable=differentiable, fused=fused)
        super().__init__(params, {
            "lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
            "amsgrad": amsgrad, "maximize": maximize, "foreach": foreach,
            "capturable": capturable, "differentiable": differentiable, "fused": fused,
            "decoupled_weight_decay": decoupled_weight_decay})

    def _update(self, param: Tensor, grad: np.ndarray, group: dict, state: dict) -> None:
        beta1, beta2 = group["betas"]
        lr, weight_decay = group["lr"], group["weight_decay"]
        if not state:
            state["step"] = tensor_of(np.zeros((), dtype=np.float32))
            state["exp_avg"] = tensor_of(np.zeros_like(param._data))
            state["exp_avg_sq"] = tensor_of(np.zeros_like(param._data))
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = tensor_of(np.zeros_like(param._data))
        if group["maximize"]:
            grad = -grad
        if weight_decay != 0:
            if group["decoupled_weight_decay"]:  # AdamW: decay the weights, not the gradient
                param._data *= 1 - lr * weight_decay
                param._bump_version()
            else:
                grad = add_scaled(grad, param._data, weight_decay)  # grad.add(p, alpha=wd)
        state["step"]._data += 1
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        lerp_(m, grad, 1 - beta1)
        v *= beta2
        addcmul_(v, grad, grad, 1 - beta2)
        step = float(state["step"]._data)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5  # as PyTorch: not math.sqrt
        if group["amsgrad"]:  # the largest v so far, so the step size never grows back
            v = np.maximum(state["max_exp_avg_sq"]._data, v, out=state["max_exp_avg_sq"]._data)
        denom = vector_math.sqrt_like_torch(v) / bias_correction2_sqrt + group["eps"]
        param._data += -(lr / bias_correction1) * m / denom
        for memory in state.values():
            memory._bump_version()
