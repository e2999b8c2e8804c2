"""`Tensor.register_post_accumulate_grad_hook` against real PyTorch: when the hook runs (after
the leaf's `.grad` is complete, between the leaf's gradient hooks and its AccumulateGrad's own
post-hooks), what it is handed, the errors for a hook that returns something and for a tensor
it cannot be registered on, and an optimizer step run inside backward. Skipped without PyTorch."""
from __future__ import annotations

import pytest

import minigrad as mg


def _hook_order(lib) -> list:
    """Every kind of hook on one leaf, over two backward passes, logging what each sees."""
    log = []
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (a * 3).sum()
    accumulate = y.grad_fn.next_functions[0][0].next_functions[0][0]
    accumulate.register_prehook(lambda grad_outputs: log.append("node pre-hook"))
    accumulate.register_hook(lambda grad_inputs, grad_outputs: log.append("node post-hook"))
    a.register_post_accumulate_grad_hook(
        lambda t: log.append(("post 1", t is a, t.grad.tolist())))
    a.register_hook(lambda grad: log.append(("tensor hook", grad.tolist())))
    a.register_post_accumulate_grad_hook(
        lambda t: log.append(("post 2", t is a, t.grad.tolist())))
    removed = a.register_post_accumulate_grad_hook(lambda t: log.append("removed"))
    removed.remove()
    y.backward(retain_graph=True)
    y.backward()
    return log


def test_runs_after_accumulation_in_pytorch_order(torch):
    assert _hook_order(mg) == _hook_order(torch)


def _leaves_order(lib) -> list:
    order = []
    p = lib.tensor([1.0], requires_grad=True)
    q = lib.tensor([2.0], requires_grad=True)
    p.register_post_accumulate_grad_hook(lambda t: order.append("p"))
    q.register_post_accumulate_grad_hook(lambda t: order.append("q"))
    (p * q).sum().backward()
    (q * p + p).sum().backward()
    (p * p * p).sum().backward()  # p reached three times: its hook runs once
    lib.autograd.grad((p * 2).sum(), p)  # no .grad is accumulated: no hook
    (p * 2 + q).sum().backward(inputs=[q])
    return order


def test_one_call_per_accumulation_in_pytorch_order(torch):
    assert _leaves_order(mg) == _leaves_order(torch)


def _sgd_inside_backward(lib) -> list:
    """The optimizer step as each gradient lands, its .grad then dropped."""
    w = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
    b = lib.tensor(0.5, requires_grad=True)
    modes = []

    def step(param):
        modes.append(lib.is_grad_enabled())
        with lib.no_grad():
            param.sub_(0.1 * param.grad)
        param.grad = None

    for p in (w, b):
        p.register_post_accumulate_grad_hook(step)
    x = lib.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]])
    for _ in range(3):
        ((x @ w + b) ** 2).mean().backward()
    return [repr(w), repr(b), w.grad, b.grad, modes]


def test_optimizer_step_inside_backward(torch):
    assert _sgd_inside_backward(mg) == _sgd_inside_backward(torch)


def _outcome(lib, returned) -> tuple:
    x = lib.tensor([1.0, 2.0], requires_grad=True)

    def hook(t):
        return returned(lib, t)

    x.register_post_accumulate_grad_hook(hook)
    try:
        (x * 2).sum().backward()
        error = None
    except (RuntimeError, TypeError) as e:
        error = (type(e).__name__, str(e))
    return error, x.grad.tolist()


RETURNS = {
    "the leaf itself": lambda lib, t: t,
    "its .grad": lambda lib, t: t.grad,
    "a detached alias": lambda lib, t: t.detach(),
    "a new tensor": lambda lib, t: lib.ones(2),
    "a tensor of another size": lambda lib, t: lib.ones(3),
    "a tensor of another dtype": lambda lib, t: lib.ones(2, dtype=lib.float64),
    "a number": lambda lib, t: 1.5,
    "a string": lambda lib, t: "done",
}


@pytest.mark.parametrize("returned", RETURNS)
def test_returning_a_value(torch, returned):
    ours = _outcome(mg, RETURNS[returned])
    assert ours == _outcome(torch, RETURNS[returned])
    if returned in ("its .grad", "a new tensor"):  # the point of the check: the message itself
        assert ours[0] == ("RuntimeError", "Tensor post accumulate grad hooks should return None.")


def _registration_errors(lib) -> list:
    errors = []
    leaf = lib.tensor([1.0, 2.0], requires_grad=True)
    non_leaf = leaf * 2
    non_leaf.retain_grad()
    for t in (non_leaf, lib.ones(2), leaf.detach()):
        try:
            t.register_post_accumulate_grad_hook(lambda t: None)
            errors.append(None)
        except RuntimeError as e:
            errors.append(str(e))
    return errors


def test_registration_errors(torch):
    ours = _registration_errors(mg)
    assert ours == _registration_errors(torch)
    assert None not in ours


def test_handle_is_a_removable_handle():
    from minigrad.utils.hooks import RemovableHandle

    x = mg.tensor([1.0], requires_grad=True)
    calls = []
    with x.register_post_accumulate_grad_hook(calls.append) as handle:
        assert isinstance(handle, RemovableHandle)
        (x * 2).sum().backward()
    (x * 2).sum().backward()
    assert calls == [x]
