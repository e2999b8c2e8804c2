"""What the examples of PyTorch's autograd reference pages (tests/corpus/pytorch_autograd_api_examples.py)
found, each against real PyTorch on more cases than the example shows: `numpy()` of a tensor that
requires grad is refused only while grad mode is on; an inference tensor has no `_version`;
`torch.autograd.graph.register_multi_grad_hook` calls its hook once per backward pass with the
gradients that pass computed. Skipped without PyTorch."""
from __future__ import annotations

import minigrad as mg


def _attempt(action):
    try:
        return action()
    except (RuntimeError, ValueError) as error:  # the error is part of what is compared
        return type(error).__name__, str(error)


def _numpy_behaviour(lib) -> list:
    x = lib.ones(2, requires_grad=True)
    seen = [_attempt(lambda: x.numpy().tolist())]
    with lib.no_grad():
        seen.append(_attempt(lambda: x.numpy().tolist()))
        with lib.enable_grad():
            seen.append(_attempt(lambda: x.numpy().tolist()))
    with lib.inference_mode():
        seen.append(_attempt(lambda: x.numpy().tolist()))
    with lib.set_grad_enabled(False):
        x.numpy()[0] = 5.0  # the same memory: the tensor changes, and its version does not
    seen.append((x.tolist(), x._version))
    return seen


def test_numpy_of_a_tensor_that_requires_grad_is_refused_only_with_grad_mode_on(torch):
    assert _numpy_behaviour(mg) == _numpy_behaviour(torch)


def _version_behaviour(lib) -> list:
    x = lib.ones(3, requires_grad=True)
    with lib.inference_mode():
        y = x * 2
        inside = _attempt(lambda: y._version)
        y.add_(1)
    view = y[:2]
    return [inside, _attempt(lambda: y._version), _attempt(lambda: view._version),
            _attempt(lambda: (x * 2)._version), y.is_inference(), view.is_inference()]


def test_an_inference_tensor_has_no_version(torch):
    assert _version_behaviour(mg) == _version_behaviour(torch)


def _multi_grad_behaviour(lib, mode: str) -> list:
    lib.manual_seed(0)
    a = lib.rand(2, 3, requires_grad=True)
    b = lib.rand(2, 3, requires_grad=True)
    c, d = a * b, a * b
    calls = []

    def fn(grads):
        if mode == "any":
            calls.append(grads.tolist())
        else:
            calls.append([None if g is None else g.tolist() for g in grads])

    handle = lib.autograd.graph.register_multi_grad_hook((a, b, c, d), fn, mode=mode)
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    (c * 2 + d).sum().backward(retain_graph=True)
    lib.autograd.grad(d.sum(), (c, d), retain_graph=True, allow_unused=True)  # d's hook alone
    calls.append(_attempt(lambda: [g.tolist() for g in lib.autograd.grad(d.sum(), (b,),
                                                                       retain_graph=True)]))
    handle.remove()
    c.sum().backward()
    return calls


def test_register_multi_grad_hook_all_and_any(torch):
    for mode in ("all", "any"):
        assert _multi_grad_behaviour(mg, mode) == _multi_grad_behaviour(torch, mode), mode


def _refusals(lib) -> list:
    seen = [_attempt(lambda: lib.autograd.graph.register_multi_grad_hook(
        (lib.ones(1, requires_grad=True),), print, mode="each"))]
    try:  # mode "all" wants a node for every tensor
        lib.autograd.graph.register_multi_grad_hook((lib.ones(1),), print)
    except AssertionError as error:
        seen.append(str(error))
    calls = []  # mode "any" leaves out a tensor that needs no grad
    lib.autograd.graph.register_multi_grad_hook((lib.ones(1), x := lib.ones(1, requires_grad=True)),
                                                calls.append, mode="any")
    (x * 3).sum().backward()
    return seen + [[g.tolist() for g in calls]]


def test_register_multi_grad_hook_refusals_as_torch(torch):
    assert _refusals(mg) == _refusals(torch)
