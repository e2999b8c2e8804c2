"""L-BFGS, as torch.optim.LBFGS: a quasi-Newton method that builds, from the last
`history_size` steps and gradient changes, an estimate of the inverse Hessian times the
gradient, and moves along it. `step(closure)` runs up to max_iter iterations, calling the
closure (which recomputes the loss and its gradients) as it goes. PyTorch's algorithm, step for
step, on all parameters flattened into one vector; the strong Wolfe line search is left out."""
from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from .. import _grad_mode
from .optimizer import Optimizer


class LBFGS(Optimizer):
    def __init__(self, params: Iterable[Any], lr: float = 1, max_iter: int = 20,
                 max_eval: int | None = None, tolerance_grad: float = 1e-7,
                 tolerance_change: float = 1e-9, history_size: int = 100,
                 line_search_fn: str | None = None) -> None:
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if line_search_fn is not None:
            raise NotImplementedError("minigrad is a subset of PyTorch: LBFGS's strong_wolfe line "
                                      "search is not implemented; use line_search_fn=None")
        super().__init__(params, {
            "lr": lr, "max_iter": max_iter, "max_eval": max_eval or max_iter * 5 // 4,
            "tolerance_grad": tolerance_grad, "tolerance_change": tolerance_change,
            "history_size": history_size, "line_search_fn": line_search_fn})
        if len(self.param_groups) != 1:
            raise ValueError("LBFGS doesn't support per-parameter options (parameter groups)")
        self._params = self.param_groups[0]["params"]

    def _flat_grad(self) -> np.ndarray:
        return np.concatenate([np.zeros(p.numel(), p._data.dtype) if p.grad is None
                               else p.grad._data.reshape(-1) for p in self._params])

    def _move(self, step_size: float, direction: np.ndarray) -> None:
        """p += step_size * direction, each parameter its slice (p.add_(d, alpha=t))."""
        offset = 0
        for p in self._params:
            n = p.numel()
            p._data += (step_size * direction[offset:offset + n]).reshape(p.shape).astype(
                p._data.dtype)
            p._bump_version()
            offset += n

    def step(self, closure: Callable[[], Any]) -> Any:  # noqa: C901 - PyTorch's one loop
        group = self.param_groups[0]
        lr, max_iter, max_eval = group["lr"], group["max_iter"], group["max_eval"]
        tolerance_grad, tolerance_change = group["tolerance_grad"], group["tolerance_change"]
        state = self.state[self._params[0]]  # LBFGS's state is global: kept on the first one
        state.setdefault("func_evals", 0)
        state.setdefault("n_iter", 0)
        with _grad_mode.enable_grad():
            orig_loss = closure()
        with _grad_mode.no_grad():  # PyTorch's step runs under no_grad
            loss = float(orig_loss)
        evals = 1
        state["func_evals"] += 1
        flat_grad = self._flat_grad()
        if np.abs(flat_grad).max() <= tolerance_grad:
            return orig_loss
        d, t = state.get("d"), state.get("t")
        old_dirs, old_stps, ro = state.get("old_dirs"), state.get("old_stps"), state.get("ro")
        h_diag, prev_flat_grad = state.get("H_diag"), state.get("prev_flat_grad")
        prev_loss = state.get("prev_loss")
        n_iter = 0
        with _grad_mode.no_grad():
            while n_iter < max_iter:
                n_iter += 1
                state["n_iter"] += 1
                if state["n_iter"] == 1:  # the first direction: steepest descent
                    d, old_dirs, old_stps, ro, h_diag = -flat_grad, [], [], [], 1
                else:  # remember the last step, then the two-loop recursion
                    y, s = flat_grad - prev_flat_grad, d * t
                    ys = float(y.dot(s))
                    if ys > 1e-10:
                        if len(old_dirs) == group["history_size"]:
                            old_dirs.pop(0), old_stps.pop(0), ro.pop(0)
                        old_dirs.append(y), old_stps.append(s), ro.append(1.0 / ys)
                        h_diag = ys / float(y.dot(y))
                    al = [0.0] * len(old_dirs)
                    q = -flat_grad
                    for i in range(len(old_dirs) - 1, -1, -1):
                        al[i] = float(old_stps[i].dot(q)) * ro[i]
                        q = q - al[i] * old_dirs[i]
                    d = r = q * h_diag
                    for i in range(len(old_dirs)):
                        be_i = float(old_dirs[i].dot(r)) * ro[i]
                        r = r + (al[i] - be_i) * old_stps[i]
                    d = r
                prev_flat_grad, prev_loss = flat_grad.copy(), loss
                t = min(1.0, 1.0 / float(np.abs(flat_grad).sum())) * lr if state["n_iter"] == 1 \
                    else lr
                if float(flat_grad.dot(d)) > -tolerance_change:  # not a descent direction
                    break
                self._move(t, d)
                if n_iter != max_iter:  # re-evaluate, except after the last iteration
                    with _grad_mode.enable_grad():
                        loss = closure()
                    loss = float(loss)  # under no_grad, as PyTorch's: no scalar warning
                    flat_grad = self._flat_grad()
                    evals += 1
                    state["func_evals"] += 1
                if (n_iter == max_iter or evals >= max_eval
                        or np.abs(flat_grad).max() <= tolerance_grad
                        or np.abs(d * t).max() <= tolerance_change
                        or abs(loss - prev_loss) < tolerance_change):
                    break
        state.update(d=d, t=t, old_dirs=old_dirs, old_stps=old_stps, ro=ro, H_diag=h_diag,
                     prev_flat_grad=prev_flat_grad, prev_loss=prev_loss)
        return orig_loss

