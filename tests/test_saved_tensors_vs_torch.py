"""`grad_fn._saved_self`, `_saved_other`, `_saved_result`, ... against real PyTorch: every such
name a minigrad node has, PyTorch's node has too, and reading it gives the same thing (the
input itself, a new tensor for the node's own output, None, a number) before backward, after a
backward that freed it (PyTorch's error) and after one with retain_graph=True; a saved tensor
changed in place raises the in-place error when read. Skipped without PyTorch."""
from __future__ import annotations

import pytest

import minigrad as mg


@pytest.fixture
def torch():
    return pytest.importorskip("torch")


OPS = {
    "h * h": lambda lib, h, z, c: h * h,
    "h * z": lambda lib, h, z, c: h * z,
    "h * c": lambda lib, h, z, c: h * c,
    "c * h": lambda lib, h, z, c: c * h,
    "h * 3": lambda lib, h, z, c: h * 3,
    "h * 2.5": lambda lib, h, z, c: h * 2.5,
    "h / z": lambda lib, h, z, c: h / z,
    "c / h": lambda lib, h, z, c: c / h,
    "h / 2": lambda lib, h, z, c: h / 2,
    "h ** 2": lambda lib, h, z, c: h**2,
    "h ** 0.5": lambda lib, h, z, c: h**0.5,
    "h ** z": lambda lib, h, z, c: h**z,
    "h.reciprocal()": lambda lib, h, z, c: h.reciprocal(),
    "h.exp()": lambda lib, h, z, c: h.exp(),
    "h.log()": lambda lib, h, z, c: h.log(),
    "h.sqrt()": lambda lib, h, z, c: h.sqrt(),
    "h.sin()": lambda lib, h, z, c: h.sin(),
    "h.cos()": lambda lib, h, z, c: h.cos(),
    "h.tanh()": lambda lib, h, z, c: h.tanh(),
    "h.sigmoid()": lambda lib, h, z, c: h.sigmoid(),
    "h.abs()": lambda lib, h, z, c: h.abs(),
    "h.relu()": lambda lib, h, z, c: h.relu(),
    "h.clamp(0, 1.5)": lambda lib, h, z, c: h.clamp(0, 1.5),
    "h + z": lambda lib, h, z, c: h + z,
    "h - 1": lambda lib, h, z, c: h - 1,
    "h @ z": lambda lib, h, z, c: h @ z,
    "h @ c": lambda lib, h, z, c: h @ c,
    "c @ h": lambda lib, h, z, c: c @ h,
    "matrix @ h": lambda lib, h, z, c: lib.stack([c, z]) @ h,
    "matrix @ matrix": lambda lib, h, z, c: lib.stack([h, c]) @ lib.stack([c, z]).t(),
}


def _describe(value, named: dict) -> object:
    """What a saved value is, in terms both libraries share."""
    if value is None or isinstance(value, (int, float, tuple)):
        return repr(value)
    for name, tensor in named.items():
        if value is tensor:
            return f"the tensor {name} itself"
    return ("a tensor", repr(value), value.requires_grad,
            None if value.grad_fn is None else value.grad_fn.name())


def _read(node, attribute: str, named: dict) -> object:
    try:
        return _describe(getattr(node, attribute), named)
    except RuntimeError as error:
        return ("RuntimeError", str(error))


def _saved(lib, op: str, attributes: list, retain_graph: bool) -> list:
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1  # an intermediate: _saved_self is it, not a leaf
    z = lib.tensor([0.5, 3.0], requires_grad=True)
    c = lib.tensor([2.0, 4.0])  # needs no gradient
    out = OPS[op](lib, h, z, c)
    node = out.grad_fn
    named = {"h": h, "z": z, "c": c, "out": out}
    before = [_read(node, a, named) for a in attributes]
    out.sum().backward(retain_graph=retain_graph)
    return before + [_read(node, a, named) for a in attributes]


@pytest.mark.parametrize("retain_graph", [False, True])
@pytest.mark.parametrize("op", OPS)
def test_saved_attributes_match(torch, op, retain_graph):
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    ours = [a for a in dir(OPS[op](mg, x * 1, x, x.detach()).grad_fn)
            if a.startswith("_saved_")]
    theirs = [a for a in dir(OPS[op](torch, torch.ones(2, requires_grad=True) * 1,
                                     torch.ones(2, requires_grad=True), torch.ones(2)).grad_fn)
              if a.startswith("_saved_")]
    assert set(ours) <= set(theirs)  # no name PyTorch does not have
    if op not in ("h + z", "h - 1"):  # those save only alpha, a number
        assert any(a in ours for a in ("_saved_self", "_saved_result", "_saved_other"))
    assert _saved(mg, op, ours, retain_graph) == _saved(torch, op, ours, retain_graph)


def _changed_in_place(lib) -> list:
    errors = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    h = x * 1
    square, exponential = h * h, h.exp()
    node = exponential.grad_fn
    h.add_(1)  # saved by MulBackward0 as its input
    exponential.mul_(2)  # saved by ExpBackward0 as its output
    for read in (lambda: square.grad_fn._saved_self, lambda: node._saved_result):
        try:
            read()
            errors.append(None)
        except RuntimeError as error:
            errors.append(str(error))
    return errors


def test_reading_a_tensor_changed_in_place_raises(torch):
    ours = _changed_in_place(mg)
    assert ours == _changed_in_place(torch)
    assert None not in ours


def test_own_output_comes_back_as_a_new_tensor_each_time():
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    first, second = y.grad_fn._saved_result, y.grad_fn._saved_result
    assert first is not y and first is not second
    assert first.grad_fn is y.grad_fn and mg.equal(first, y)
