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
