"""The engine's shortcuts for speed and memory give the same results as the general way.

Each shortcut (relu's bitwise mask, shared wrapped numbers, one-pass in-place updates under
no_grad, a product with a float under no_grad, zero_() written straight in, nodes that hold
fewer objects) is checked against what it replaces, bit for bit.
How few objects a node holds is a budget, not a behaviour: benchmarks/ab.py measures it."""
from __future__ import annotations


import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import minigrad as mg
from minigrad import _inplace
from minigrad.autograd.graph import input_tensor, num_outputs, output_ref, replace_output
from minigrad.ops import pointwise
from minigrad.ops.fill import Zero
from minigrad.ops.operands import wrapped_number
from minigrad.ops.selection import _keep_where

FLOATS = st.sampled_from([np.float16, np.float32, np.float64])


@given(st.data())
def test_relu_mask_is_np_where_bit_for_bit(data: st.DataObject) -> None:
    dtype = data.draw(FLOATS)
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=6))
    values = data.draw(hnp.arrays(dtype, shape, elements=st.floats(
        allow_nan=True, allow_infinity=True, width=np.dtype(dtype).itemsize * 8)))
    keep = data.draw(hnp.arrays(np.bool_, shape))
    got, expected = _keep_where(keep, values), np.where(keep, values, 0)
    assert got.dtype == expected.dtype
    assert got.tobytes() == expected.tobytes()  # -0.0 kept where kept, +0.0 elsewhere


def test_relu_backward_keeps_the_sign_of_zero() -> None:
    x = mg.tensor([-1.0, 2.0, 3.0], requires_grad=True)
    x.relu().backward(mg.tensor([-5.0, -0.0, 4.0]))
    assert x.grad.numpy().tobytes() == np.array([0.0, -0.0, 4.0], np.float32).tobytes()


# ---- wrapped numbers: one read-only tensor per Python number --------------------------------

def _constant_of(y: mg.Tensor) -> mg.Tensor:
    return input_tensor(y.grad_fn, 1)


def test_a_number_is_one_shared_read_only_tensor() -> None:
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 0.5, x * 0.5
    constant = _constant_of(a)
    assert constant is _constant_of(b)
    assert not constant._data.flags.writeable


def test_a_number_saved_by_many_nodes_outlives_each_backward() -> None:
    """One SavedTensor serves every node that saves the same number: freeing one node's saved
    tensors (backward without retain_graph) must leave the others able to run."""
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 0.5, x * 0.5
    a.sum().backward()
    with pytest.raises(RuntimeError, match="backward through the graph a second time"):
        a.sum().backward()
    b.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]


@pytest.mark.parametrize("number", [0.0, -0.0, float("nan")])
def test_numbers_that_compare_badly_are_not_shared(number: float) -> None:
    x = mg.tensor([1.0], requires_grad=True)
    a, b = x * number, x * number
    assert _constant_of(a) is not _constant_of(b)
    assert np.signbit(_constant_of(a)._data) == np.signbit(number)


def test_int_and_float_numbers_keep_their_results_apart() -> None:
    x = mg.tensor([3.0], dtype=mg.float64, requires_grad=True)
    y = x * 2 + x * 2.0 + x * True
    y.backward()
    assert x.grad.item() == 5.0


def test_a_diagram_draws_one_box_per_use_of_a_number() -> None:
    from minigrad.viz._graph import forward_graph

    x = mg.tensor(1.0, requires_grad=True)
    y = x * 2.0 * 2.0
    constants = [box for box in forward_graph([y]).boxes if box.kind == "constant"]
    assert len(constants) == 2


def test_next_functions_leads_to_the_inputs_nodes() -> None:
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    doubled = x * 2.0
    y = doubled * x
    mul2, leaf = y.grad_fn.next_functions
    assert mul2 == (doubled.grad_fn, 0) and mul2[0].name() == "MulBackward0"
    assert leaf[0].name() == "torch::autograd::AccumulateGrad" and leaf == (leaf[0], 0)
    assert leaf[0].variable is x
    assert mul2[0].next_functions[1] == (None, 0)  # the number 2.0 needs no gradient


def test_outputs_are_found_for_one_and_for_several() -> None:
    x = mg.tensor([[1.0, 5.0], [4.0, 2.0]], requires_grad=True)
    single = x * 2
    values, indices = x.max(dim=1)
    assert num_outputs(single.grad_fn) == 1 and output_ref(single.grad_fn, 0)() is single
    assert output_ref(single.grad_fn, 1) is None
    assert num_outputs(values.grad_fn) == 2
    assert output_ref(values.grad_fn, 0)() is values
    assert output_ref(values.grad_fn, 1)() is indices


def test_an_output_can_be_replaced_for_one_and_for_several() -> None:
    x = mg.tensor([[1.0, 5.0], [4.0, 2.0]], requires_grad=True)
    single, other = x * 2, mg.zeros(2, 2)
    replace_output(single.grad_fn, single, other)
    assert num_outputs(single.grad_fn) == 1 and output_ref(single.grad_fn, 0)() is other
    values, indices = x.max(dim=1)
    replace_output(values.grad_fn, indices, other)
    assert output_ref(values.grad_fn, 0)() is values
    assert output_ref(values.grad_fn, 1)() is other


# ---- in-place updates under no_grad: one numpy pass, the same bits --------------------------

UPDATES = {
    "add_": lambda t, o: t.add_(o),
    "add_ alpha": lambda t, o: t.add_(o, alpha=-0.25),
    "sub_": lambda t, o: t.sub_(o),
    "sub_ alpha": lambda t, o: t.sub_(o, alpha=3),
    "mul_": lambda t, o: t.mul_(o),
    "div_": lambda t, o: t.div_(o),
    "-=": lambda t, o: t.__isub__(o),
}


@pytest.mark.parametrize("name", UPDATES)
@pytest.mark.parametrize("dtype", [mg.float32, mg.float64])
@pytest.mark.parametrize("other", ["tensor", "number", "broadcast", "int tensor"])
def test_no_grad_update_matches_the_recorded_way(name: str, dtype: mg.dtype, other: str) -> None:
    rng = np.random.default_rng(0)
    start = rng.standard_normal((3, 4))
    operand = {"tensor": lambda: mg.tensor(rng.standard_normal((3, 4)), dtype=dtype),
               "number": lambda: 0.1,
               "broadcast": lambda: mg.tensor(rng.standard_normal(4), dtype=dtype),
               "int tensor": lambda: mg.tensor([[1, 2, 3, 4]] * 3)}[other]()
    fast = mg.tensor(start, dtype=dtype, requires_grad=True)
    slow = mg.tensor(start, dtype=dtype)  # grad mode on and no leaf: the general path
    with mg.no_grad():
        returned = UPDATES[name](fast, operand)
    UPDATES[name](slow, operand)
    assert returned is fast and fast._version == slow._version == 1
    assert fast._data.tobytes() == slow._data.tobytes()


def test_no_grad_update_reaches_views_and_base() -> None:
    base = mg.zeros(2, 3)
    row = base[1]
    with mg.no_grad():
        row += mg.ones(3)
        base *= 2.0
    assert base.tolist() == [[0.0, 0.0, 0.0], [2.0, 2.0, 2.0]]
    assert row.tolist() == [2.0, 2.0, 2.0]
    assert base._version == row._version == 2


def test_no_grad_update_of_an_int_tensor_by_a_float_is_refused() -> None:
    t = mg.tensor([1, 2])
    with mg.no_grad(), pytest.raises(RuntimeError, match="can't be cast"):
        t.add_(0.5)


# The operand of an in-place update of `t` (a view of `base` when `base` is not `t`, of one
# element more): a fresh tensor (the fast path's case), or one that shares `t`'s memory in
# full or in part, or needs a cast or a broadcast (the general way's).
OPERANDS = {
    "fresh": lambda t, base, values: mg.tensor(values),
    "other dtype": lambda t, base, values: mg.tensor(values.astype(np.float64)),
    "itself": lambda t, base, values: t,
    "alias": lambda t, base, values: t.detach(),
    "transpose": lambda t, base, values: t.t() if t.dim() == 2 else t.detach(),
    "shifted": lambda t, base, values: (base[1:].view(t.shape) if base is not t
                                        else t.reshape(-1)[:max(1, t.numel() // 2)]),
    "view of another": lambda t, base, values: mg.tensor(np.stack([values, values]))[1],
    "one value": lambda t, base, values: mg.tensor(values.reshape(-1)[:1]),
}
IN_PLACE = {"+=": ("__iadd__", "add"), "-=": ("__isub__", "sub"), "*=": ("__imul__", "mul"),
            "/=": ("__itruediv__", "div"), "add_": ("add_", "add"), "sub_": ("sub_", "sub")}


def _target(values: np.ndarray, view: bool, requires_grad: bool) -> tuple:
    if not view:
        t = mg.tensor(values, requires_grad=requires_grad)
        return t, t
    base = mg.tensor(np.append(values.reshape(-1), values.dtype.type(1)))
    return base[:-1].view(values.shape), base


def _changed(t: mg.Tensor, base: mg.Tensor, run) -> tuple:
    try:
        returned = run()
    except RuntimeError as error:
        return str(error), base._data.tobytes(), t._version
    return returned is t, base._data.tobytes(), t.dtype, t._version, base._version


@given(st.data())
def test_no_grad_update_takes_the_general_way_s_result(data: st.DataObject) -> None:
    """`t -= v` (and the rest) under no_grad, from the one-pass path where it applies, is what
    `_inplace.update`'s general way gives, or its error: bits (-0.0, NaN), versions, dtype."""
    dtype = data.draw(FLOATS)
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=2, max_side=4))
    floats = st.floats(allow_nan=True, allow_infinity=True, width=np.dtype(dtype).itemsize * 8)
    values = data.draw(hnp.arrays(dtype, shape, elements=floats))
    operand = data.draw(st.sampled_from(sorted(OPERANDS)))
    call, name = IN_PLACE[data.draw(st.sampled_from(sorted(IN_PLACE)))]
    alpha = data.draw(st.sampled_from([1, 1, -0.5])) if call in ("add_", "sub_") else 1
    view, requires_grad = data.draw(st.booleans()), data.draw(st.booleans())
    fast, fast_base = _target(values, view, requires_grad)
    slow, slow_base = _target(values, view, False)
    fast_other = OPERANDS[operand](fast, fast_base, values)
    slow_other = OPERANDS[operand](slow, slow_base, values)
    method = getattr(mg.Tensor, call)
    with mg.no_grad():
        ours = _changed(fast, fast_base, lambda: method(fast, fast_other) if alpha == 1
                        else method(fast, fast_other, alpha=alpha))
        general = _changed(slow, slow_base, lambda: _inplace._update_generally(
            slow, getattr(mg.Tensor, name), slow_other, alpha))
    assert ours == general


# ---- a product with a Python float under no_grad: numpy's product, one result tensor -------

@given(st.data())
def test_unrecorded_product_with_a_float_is_mul_bit_for_bit(data: st.DataObject) -> None:
    dtype = data.draw(FLOATS)
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=5))
    values = data.draw(hnp.arrays(dtype, shape, elements=st.floats(
        allow_nan=True, allow_infinity=True, width=np.dtype(dtype).itemsize * 8)))
    number = data.draw(st.floats(allow_nan=True, allow_infinity=True))
    x = mg.tensor(values, requires_grad=True)
    with mg.no_grad():
        fast = number * x
        slow = pointwise.Mul.apply(x, wrapped_number(number, values.dtype))  # the general way
    assert fast.dtype is slow.dtype and fast.shape == slow.shape
    assert fast.numpy().tobytes() == slow.numpy().tobytes()  # -0.0 and NaN included
    assert fast.grad_fn is None and not fast.requires_grad and fast._version == 0


@pytest.mark.parametrize("grad_mode", [False, True])
def test_a_product_overflows_quietly(grad_mode: bool, recwarn: pytest.WarningsRecorder) -> None:
    with mg.set_grad_enabled(grad_mode):  # PyTorch: inf, no warning (float32 cannot hold 1e300)
        assert (mg.tensor([3.0]) * 1e301).tolist() == [float("inf")]
    assert not recwarn.list


# ---- zero_() with nothing to record: the zeros written straight in ---------------------------

def _zero_the_general_way(t: mg.Tensor) -> mg.Tensor:
    return _inplace.inplace(t, lambda x: Zero.apply(x, 0), same_value=True)


@pytest.mark.parametrize("dtype", [mg.float32, mg.float64, mg.int64, mg.bool])
@pytest.mark.parametrize("where", ["grad mode on", "no_grad, requires grad"])
def test_unrecorded_zero_matches_the_general_way(dtype: mg.dtype, where: str) -> None:
    start = np.array([[-1.5, 0.0, 2.0], [3.0, -0.0, 7.0]])
    requires_grad = where != "grad mode on" and dtype.is_floating_point
    fast = mg.tensor(start, dtype=dtype, requires_grad=requires_grad)
    slow = mg.tensor(start, dtype=dtype, requires_grad=requires_grad)
    with mg.set_grad_enabled(where == "grad mode on"):
        returned = fast.zero_()
        _zero_the_general_way(slow)
    assert returned is fast and fast._version == slow._version == 1
    assert fast._data.tobytes() == slow._data.tobytes() and fast.dtype is slow.dtype
    assert fast.grad_fn is None and fast.requires_grad == requires_grad


def test_unrecorded_zero_of_a_gradient_reaches_views_and_base() -> None:
    w = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (w * w).sum().backward()
    row = w.grad[1]
    row.zero_()
    assert w.grad.tolist() == [[2.0, 4.0], [0.0, 0.0]]
    w.grad.zero_()
    # a new .grad starts at version 1 (PyTorch fills it with copy_), then two zero_()s
    assert w.grad.tolist() == [[0.0, 0.0], [0.0, 0.0]] and w.grad._version == row._version == 3


def test_recorded_zero_is_still_an_operation() -> None:
    y = mg.tensor([1.0, 2.0], requires_grad=True) * 3
    y.zero_()
    assert type(y.grad_fn).__name__ == "ZeroBackward0"
    leaf = mg.tensor([1.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        leaf.zero_()


def test_unrecorded_zero_refuses_what_the_general_way_refuses() -> None:
    leaf = mg.tensor([1.0, 2.0], requires_grad=True)
    with mg.no_grad():
        view = leaf[0]
    for zero in (mg.Tensor.zero_, _zero_the_general_way):
        # PyTorch's words for a view made under no_grad, changed with grad mode on
        with pytest.raises(RuntimeError, match="A view was created in no_grad mode"):
            zero(view)
        with pytest.raises(RuntimeError, match="a view of a leaf Variable that requires grad"):
            zero(leaf[1])
        with mg.no_grad():
            untracked = leaf[1]
        untracked.requires_grad_(False)  # PyTorch still refuses: the view was made under no_grad
        with pytest.raises(RuntimeError, match="A view was created in no_grad mode"):
            zero(untracked)
        base = mg.tensor([1.0])
        zero(base.expand(3))  # PyTorch writes zeros through an expanded view (it refuses add_)
        assert base.tolist() == [0.0]
    assert leaf.tolist() == [1.0, 2.0] and leaf._version == 0


# ---- built-in formulas on arrays (BackwardFunction.apply_to_arrays) ------------------------

def _both_formulas(node, grad: mg.Tensor) -> tuple[tuple, tuple]:
    """A node's gradients from its `backward` on tensors and from its formula on arrays (as a
    backward pass without a graph runs it: an array in, arrays out)."""
    from minigrad.autograd.engine import as_tensors
    assert node._forward_cls._backward_on_arrays is not None
    with mg.no_grad():
        on_tensors = node._one_per_input(node._forward_cls.backward(node, grad))
        on_arrays = node.apply_to_arrays([grad._data])
    assert not any(isinstance(g, mg.Tensor) for g in on_arrays)
    return on_tensors, tuple(as_tensors(on_arrays))


def _assert_same_gradients(on_tensors: tuple, on_arrays: tuple) -> None:
    assert len(on_tensors) == len(on_arrays)
    for t, a in zip(on_tensors, on_arrays):
        assert (t is None) == (a is None)
        if t is not None:
            assert a.dtype is t.dtype and a.shape == t.shape
            assert a.numpy().tobytes() == t.numpy().tobytes()  # -0.0 and NaN included
            assert a._version == t._version == 0 and not a.requires_grad


def _values(data: st.DataObject, dtype, shape) -> np.ndarray:
    return data.draw(hnp.arrays(dtype, shape, elements=st.floats(
        -1e4, 1e4, allow_nan=False, width=np.dtype(dtype).itemsize * 8)))


@given(st.data())
def test_mm_relu_mean_formulas_on_arrays_match_their_backward(data: st.DataObject) -> None:
    dtype = data.draw(FLOATS)
    n, k, m = (data.draw(st.integers(1, 5)) for _ in range(3))
    needs = data.draw(st.sampled_from([(True, True), (True, False), (False, True)]))
    a = mg.tensor(_values(data, dtype, (n, k)), requires_grad=needs[0])
    b = mg.tensor(_values(data, dtype, (k, m)), requires_grad=needs[1])
    grad = mg.tensor(_values(data, dtype, (n, m)))
    _assert_same_gradients(*_both_formulas((a @ b).grad_fn, grad))
    _assert_same_gradients(*_both_formulas((a @ b).relu().grad_fn, grad))
    x = mg.tensor(_values(data, dtype, (n, k, m)), requires_grad=True)
    dims = data.draw(st.sampled_from([None, 0, 1, (0, 2), (2, 1, 0)]))
    keepdim = data.draw(st.booleans())
    mean = x.mean() if dims is None else x.mean(dim=dims, keepdim=keepdim)
    _assert_same_gradients(*_both_formulas(mean.grad_fn,
                                           mg.tensor(_values(data, dtype, tuple(mean.shape)))))


@given(st.data())
def test_elementwise_formulas_on_arrays_match_their_backward(data: st.DataObject) -> None:
    """Sub (with a tensor, a broadcast one, and alpha), Rsub, Neg. (Mul has none: lesson 11
    prints its class, which stays the formula a learner writes.)"""
    dtype = data.draw(FLOATS)
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=4))
    a = mg.tensor(_values(data, dtype, shape), requires_grad=True)
    b = mg.tensor(_values(data, dtype, shape[1:]), requires_grad=data.draw(st.booleans()))
    alpha = data.draw(st.sampled_from([1, 2, -0.3]))
    grad = mg.tensor(_values(data, dtype, shape))
    for result in (a.sub(b, alpha=alpha), b.sub(a, alpha=alpha), 1 - a, -a):
        _assert_same_gradients(*_both_formulas(result.grad_fn, grad))


@given(st.data())
def test_common_formulas_on_arrays_match_their_backward(data: st.DataObject) -> None:
    """Add, Mul (its formula sits outside the class lesson 11 prints), Div, Exp, Log, Tanh,
    Sigmoid, Sum and the views (reshape, permute, transpose, t, expand)."""
    dtype = data.draw(FLOATS)
    shape = data.draw(hnp.array_shapes(min_dims=2, max_dims=2, max_side=4))
    a = mg.tensor(_values(data, dtype, shape), requires_grad=True)
    b = mg.tensor(_values(data, dtype, shape[1:]), requires_grad=data.draw(st.booleans()))
    positive = mg.tensor(np.abs(_values(data, dtype, shape)) + 1, requires_grad=True)
    grad = mg.tensor(_values(data, dtype, shape))
    dims = data.draw(st.sampled_from([None, 0, 1, (0, 1)]))
    for result in (a + b, b + a, a.add(b, alpha=2), a * b, b * a, a * 3, a / positive,
                   positive / a, a / 2, a.exp(), positive.log(), a.tanh(), a.sigmoid(),
                   b.expand(*shape), a.reshape(shape[::-1]).reshape(shape),
                   a.t().t(), a.transpose(0, 1).transpose(1, 0), a.permute(1, 0).permute(1, 0)):
        if result.grad_fn is not None:  # (b may need no gradient)
            _assert_same_gradients(*_both_formulas(result.grad_fn, grad))
    total = a.sum() if dims is None else a.sum(dims)
    _assert_same_gradients(*_both_formulas(total.grad_fn,
                                           mg.tensor(_values(data, dtype, tuple(total.shape)))))


@given(st.data())
def test_pow_formula_on_arrays_matches_its_backward(data: st.DataObject) -> None:
    dtype = data.draw(FLOATS)
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=3, max_side=4))
    a = mg.tensor(_values(data, dtype, shape), requires_grad=True)
    exponent = data.draw(st.sampled_from([2, 3, 4, 0, 1, -1, 0.5, 2.5, -1.5]))
    grad = mg.tensor(_values(data, dtype, shape))
    _assert_same_gradients(*_both_formulas((a ** exponent).grad_fn, grad))


@given(st.data())
def test_summing_back_without_a_graph_matches_the_recorded_sum(data: st.DataObject) -> None:
    """node_call.validate sums a broadcast gradient back on arrays when no graph of the
    backward is built, and with SumBackward1 when one is: the same values, bit for bit."""
    dtype = data.draw(FLOATS)
    x = mg.tensor(_values(data, dtype, (5, 3)))
    bias_shape = data.draw(st.sampled_from([(3,), (1, 3), (5, 1), (1, 1), ()]))
    bias = mg.tensor(_values(data, dtype, bias_shape), requires_grad=True)
    grad = mg.tensor(_values(data, dtype, (5, 3)))
    (plain,) = mg.autograd.grad(x + bias, bias, grad)
    (recorded,) = mg.autograd.grad(x + bias, bias, grad, create_graph=True)
    assert plain.grad_fn is None and plain._version == recorded._version == 0
    assert plain.dtype is recorded.dtype and plain.shape == recorded.shape
    assert plain.numpy().tobytes() == recorded.detach().numpy().tobytes()


@given(st.data())
def test_a_later_gradient_is_added_into_grad_as_add_does(data: st.DataObject) -> None:
    """accumulate_into adds a leaf's later gradient into `.grad`'s memory with numpy in a pass
    that builds no graph: the same tensor, bits and version as `.grad.add_(gradient)`."""
    dtype = data.draw(FLOATS)
    w = mg.tensor(_values(data, dtype, (2, 3)), requires_grad=True)
    first, second = (mg.tensor(_values(data, dtype, (2, 3))) for _ in range(2))
    (w * first).sum().backward()
    grad = w.grad
    (w * second).sum().backward()
    expected = mg.tensor(first.numpy().copy())
    expected.add_(second)  # grad mode on, no leaf: the general in-place path
    assert w.grad is grad and grad._version == expected._version == 1
    assert grad.numpy().tobytes() == expected.numpy().tobytes()


def test_an_expanded_grad_is_refused_as_add_refuses_it() -> None:
    """A `.grad` set by hand to an expanded tensor is left to add_, which refuses to write
    into it with PyTorch's error (PyTorch's AccumulateGrad adds in place too)."""
    w = mg.tensor([1.0, 2.0], requires_grad=True)
    w.grad = mg.zeros(1).expand(2)
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        (w * 2.0).sum().backward()
    assert w.grad.tolist() == [0.0, 0.0] and w.grad._version == 0


def test_formulas_on_arrays_run_only_when_no_graph_of_the_backward_is_built() -> None:
    x = mg.tensor([[1.0, -2.0]], requires_grad=True)
    w = mg.tensor([[3.0], [4.0]], requires_grad=True)
    (gx,) = mg.autograd.grad((x @ w).relu().mean(), x, create_graph=True)
    assert gx.grad_fn is not None  # the tensor formulas ran, and were recorded
    (gx_plain,) = mg.autograd.grad((x @ w).relu().mean(), x)
    assert gx_plain.grad_fn is None and gx_plain.equal(gx.detach())


def test_formulas_on_arrays_keep_numpy_quiet() -> None:
    import warnings
    big = np.finfo(np.float32).max
    x = mg.tensor([[big, big]], requires_grad=True)
    w = mg.tensor([[big], [big]], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # numpy's overflow warning would fail the test
        (x @ w).backward(mg.tensor([[big]]))  # MmBackward0's products overflow
    assert np.isinf(x.grad.numpy()).all() and np.isinf(w.grad.numpy()).all()


# ---- minigrad's own operations: Function.apply's shorter path (_apply_builtin) -------------

def _graph_fields(root: mg.Tensor) -> list:
    """Every node reachable from `root`, with what a graph reader sees of it: its class, flags,
    edges (as positions in this list), input metadata, kept inputs, saved tensors and outputs."""
    from minigrad.autograd.graph import input_tensor, num_outputs, output_ref
    order, index, stack = [], {}, [root.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in index:
            continue
        index[id(node)] = len(order)
        order.append(node)
        stack.extend(child for child, _ in node.next_functions)
    rows = []
    for node in order:
        if type(node).__name__ == "AccumulateGrad":
            rows.append(("AccumulateGrad", id(node.variable)))
            continue
        edges = tuple((None if child is None else index[id(child)], nr)
                      for child, nr in node.next_functions)
        kept = tuple(None if input_tensor(node, i) is None else id(input_tensor(node, i))
                     for i in range(len(edges)))
        saved = tuple(None if s is None else (id(s.tensor) if not s.is_own_output else "own",
                                              s.version, s.output_nr)
                      for s in (node._saved or ()))
        outputs = tuple(None if output_ref(node, nr) is None else id(output_ref(node, nr)())
                        for nr in range(num_outputs(node)))
        rows.append((type(node).__name__, node.needs_input_grad, edges, node._input_meta, kept,
                     saved, node._never_saved, outputs, node._tensor_positions, node._num_args,
                     {k: _comparable(v) for k, v in vars(node).items()
                      if not k.startswith("_") and k != "needs_input_grad"}))
    return rows


def _comparable(value: object) -> object:
    """A ctx attribute as something == compares: a tensor by its values, dtype and shape."""
    if isinstance(value, mg.Tensor):
        return ("tensor", value.shape, str(value.dtype), value.numpy().tobytes())
    return value


def _lesson_graph(x: mg.Tensor, params: list) -> mg.Tensor:
    h = x
    for i in range(0, len(params) - 2, 2):
        h = (h @ params[i] + params[i + 1]).relu()
    scores = h @ params[-2] + params[-1]
    loss = (1 - x[:, :1] * scores).relu().mean() + ((scores - 0.5) ** 2).sum() * 0.25
    return loss + (scores.exp() / (1 + scores.abs())).mean(0).sum() - (-scores).max()


def test_builtin_path_leaves_the_graph_the_general_path_leaves(monkeypatch) -> None:
    """`_apply_builtin` links the same nodes with the same fields as `apply` and `_connect`,
    and the same values come out of forward and backward."""
    from minigrad.autograd.function import Function
    rng = np.random.default_rng(0)
    x = mg.tensor(rng.standard_normal((5, 2)).astype(np.float32))
    params = [mg.tensor(rng.standard_normal(s).astype(np.float32), requires_grad=True)
              for s in ((2, 4), (4,), (4, 1), (1,))]
    results = []
    for builtin in (True, False):
        if not builtin:
            for cls in _function_classes(Function):
                if cls.__dict__.get("_is_builtin"):
                    monkeypatch.setattr(cls, "_is_builtin", False)
        loss = _lesson_graph(x, params)
        fields = _graph_fields(loss)
        loss.backward()
        results.append((loss.item(), fields, [p.grad.numpy().tobytes() for p in params]))
        for p in params:
            p.grad = None
    (value, fields, grads), (value_general, fields_general, grads_general) = results
    assert value == value_general and grads == grads_general
    assert [row[0] for row in fields] == [row[0] for row in fields_general]
    for row, row_general in zip(fields, fields_general):
        assert row[1:] == row_general[1:] or _same_but_for_ids(row, row_general), row[0]


def _function_classes(base: type) -> list:
    found, stack = [], [base]
    while stack:
        cls = stack.pop()
        found.append(cls)
        stack.extend(cls.__subclasses__())
    return found


def _same_but_for_ids(row: tuple, row_general: tuple) -> bool:
    """Kept inputs, saved tensors and outputs are told apart by identity, and the two graphs
    hold different tensors: compare what does not depend on which tensors they are."""
    def shape(row: tuple) -> tuple:
        kept = tuple(k is None for k in row[4])
        saved = tuple(None if s is None else s[1:] for s in row[5])
        return (row[1], row[2], row[3], kept, saved, row[6], len(row[7]), row[8], row[9],
                row[10])
    return shape(row) == shape(row_general)




# Each way a node comes to have more than its formula, as the first of its process: the
# engine asks nodes only once one has (`_handles.seen`), so each must say so. `h` is an
# intermediate, `w` a leaf; each hook prints, so that its running shows.
FIRST_HOOKS = {
    "tensor hook": "h.register_hook(lambda g: print('hook', g.tolist()) or g * 2)",
    "retain_grad": "h.retain_grad()",
    "node pre-hook": "h.grad_fn.register_prehook(lambda g: print('pre', g[0].tolist()))",
    "node post-hook": "h.grad_fn.register_hook(lambda gi, go: print('post', gi[0].tolist()))",
    "leaf hook": "w.register_hook(lambda g: print('leaf', g.tolist()) or g * 2)",
    "post-accumulate hook": "w.register_post_accumulate_grad_hook(lambda p: print('acc'))",
}
FIRST_HOOK_PROGRAM = """
import minigrad as torch
from minigrad._handles import seen
seen.hooks = {seen}
w = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
for step in range(3):
    h = (w * 3).exp()
    if step == 1:  # after a pass without hooks: a leaf's AccumulateGrad exists already
        {first_hook}
    h.mean().backward()
    print(step, w.grad.tolist(), h.grad.tolist() if h._retains_grad else None)
print(seen.hooks)
"""


@pytest.mark.parametrize("kind", sorted(FIRST_HOOKS))
def test_the_first_hook_of_a_process_runs(kind: str) -> None:
    """The first hook of a process runs as it would in a process where nodes are asked from
    the start (and, from the second pass on, the pass asks them)."""
    import subprocess
    import sys

    outputs = []
    for seen in (False, True):
        program = FIRST_HOOK_PROGRAM.format(seen=seen, first_hook=FIRST_HOOKS[kind])
        outputs.append(subprocess.run([sys.executable, "-c", program], capture_output=True,
                                      text=True, check=True).stdout)
    fresh, asked = outputs
    assert fresh == asked
    assert fresh.splitlines()[-1] == "True"
    lines = fresh.splitlines()
    assert len(lines) > 4 or not lines[1].endswith("None")  # the hook printed, or .grad kept
