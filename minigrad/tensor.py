"""The Tensor: a numpy array plus what autograd needs to know about it.

A tensor is a *leaf* when no recorded operation produced it (`grad_fn is None`). Leaves that
require grad receive `.grad` from backward; other tensors only send gradients through.

This file holds what a tensor is and its autograd state; its operations (`+`, `exp`, `sum`,
`view`, `add_`...) are in _tensor_ops.py, each a line that hands over to `minigrad.ops`, and so
is `backward()`, which hands over to `minigrad.autograd`: both are built on Tensor."""
from __future__ import annotations

import copy
import warnings
import weakref
from typing import TYPE_CHECKING, Any, Callable

import numpy as np

from . import _dtype, _grad_mode
from ._device import CPU
from ._handles import RemovableHandle, seen
from ._printing import tensor_repr
from ._subset import missing

if TYPE_CHECKING:  # Tensor sits below the graph: it holds a node but never makes one
    from .autograd.graph import Node

NON_LEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad field "
    "to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
    "access the non-leaf Tensor by mistake, make sure you access the leaf Tensor instead. See "
    "github.com/pytorch/pytorch/pull/30531 for more information."
)


# PyTorch's words (sic: no spaces after the periods)
ERR_INFERENCE_IN_PLACE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details.")


class _VersionCounter:
    """Counts in-place changes; shared by a tensor, its views and its detached aliases, as in
    PyTorch. It also keeps the live views with a history among them (`views`, by
    function.track_view): a change through any tensor that shares the counter makes their
    history stale (_inplace.views_read_again), a detached alias's (`x.detach().add_(1)`, an
    accumulation into a `.grad` set to `x.detach()`) too, as PyTorch's check of the shared
    version when grad_fn is read finds."""

    __slots__ = ("value", "views")

    def __init__(self) -> None:
        self.value = 0
        self.views: weakref.WeakValueDictionary | None = None


class _InferenceVersionCounter(_VersionCounter):
    """The counter of an inference tensor's `.data` or `detach()` (and of their views): an
    inference tensor counts no versions, but PyTorch gives these one of their own, so they
    count their changes, and may be changed in place outside inference mode."""

    __slots__ = ()


# Told of each in-place change of a tensor's memory, `before_write(tensor, array)` (through
# `array`, a view of it or its own), before it is counted: set by a context that watches writes
# (autograd/mutation_on_saved.py), else None. (A module global: one lookup per change.)
before_write: Callable[[Any, np.ndarray], None] | None = None


def watch_writes(watch: Callable[[Any, np.ndarray], None] | None) -> None:
    global before_write
    before_write = watch


def writes_watched() -> bool:
    return before_write is not None


class _TensorType(type):
    """Tensor's metaclass: `tensor_of(...)` in a program is PyTorch's legacy constructor
    (`legacy_new`), while minigrad's own code makes each result with `tensor_of(array)`, the
    array taken as it is (type.__call__, which this call bypasses). A subclass (nn.Parameter, a
    learner's) is made by its own __init__, as before."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Tensor:
            return legacy_new(_dtype.get_default_dtype(), args, kwargs)
        return super().__call__(*args, **kwargs)


class Tensor(metaclass=_TensorType):
    # Every field is set in __init__, each a slot: 8 bytes a tensor, and 70 ns more to make
    # one, under 1% of a training step (benchmarks/tricks.md, "Plain layouts, not tricks").
    __slots__ = ("_data", "_requires_grad", "_grad", "grad_fn", "_output_nr", "_counter", "_base",
                 "_accumulator", "_hooks", "_post_accumulate_grad_hooks",
                 "_retains_grad", "_is_inference", "_multi_output_view", "_custom_function_view",
                 "_made_in_no_grad", "_version_when_made", "_is_wrapped_number", "_saved_once",
                 "_number_type", "_promoted_from", "__dict__", "__weakref__")
    __hash__ = object.__hash__  # == is elementwise, yet tensors can be dict keys, as in PyTorch
    # numpy scalars on the left (np.float64(2) * x) defer to the tensor's reflected operator, as
    # they do for PyTorch's Tensor; without it numpy converts x with __array__ and refuses
    __array_priority__ = 1000

    def __init__(self, data: Any = (), *sizes: int, requires_grad: bool = False) -> None:
        if sizes or type(data) is int:  # the legacy `torch.Tensor(2, 3)`: sizes, not values
            data = np.zeros((data, *sizes), dtype=_dtype.get_default_dtype().numpy)
        self._data = data if isinstance(data, np.ndarray) else np.asarray(
            data, dtype=_dtype.get_default_dtype().numpy)
        self._requires_grad = False
        self._grad: Tensor | None = None
        self.grad_fn: Node | None = None
        self._output_nr = 0  # which output of grad_fn this is
        self._counter = None  # made when first needed: most tensors are never saved or changed
        self._is_inference = _grad_mode.state.inference  # made in inference_mode: is_inference
        self._base: Tensor | None = None  # what a view looks into
        self._accumulator: weakref.ref | None = None  # a leaf's AccumulateGrad (grad_accumulator)
        self._hooks: dict | None = None  # a leaf's own hooks
        self._post_accumulate_grad_hooks: dict | None = None  # run by its AccumulateGrad
        self._retains_grad = False
        self._multi_output_view = False  # a view made by unbind(): see _inplace.check_inplace
        self._custom_function_view = False  # a view a custom Function returned: custom_view.py
        self._made_in_no_grad = False  # a view made under no_grad: "no_grad", or "inference"
        # for a view of a normal tensor made in inference mode (function._mark_no_grad_view)
        self._version_when_made: int | None = None  # such a view's version then
        self._is_wrapped_number = False  # a Python number made a tensor (operands.wrapped_number)
        self._saved_once: Any = None  # a wrapped number's one SavedTensor
        self._number_type: type | None = None  # int, float, bool: the number it was made from
        # the tensor whose values these are, cast to the dtype of the op they are given to
        # (ops/operands.promoted), so that the op's node links to that tensor
        self._promoted_from: Tensor | None = None
        if requires_grad:
            if not self.dtype.is_floating_point:  # PyTorch's factories word it with a capital
                raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                                   "gradients")
            self.requires_grad = True

    # ---- autograd state -------------------------------------------------------------------

    @property
    def requires_grad(self) -> bool:
        # A view without a grad_fn of its own (made under no_grad, or before its base required
        # grad) follows its base, as PyTorch's views do; yet no gradient reaches it. (One of an
        # inference tensor is no such view.)
        return (self._requires_grad or self.grad_fn is not None or (
            self._base is not None and self._base.requires_grad and not self._is_inference))

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self.grad_fn is not None:
            _refuse_non_leaf(value)
        if value and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        if value and self._is_inference and not _grad_mode.state.inference:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        # (a view still requires grad while its base does, whatever it is told: the property)
        self._requires_grad = bool(value)

    def requires_grad_(self, requires_grad: bool = True) -> Tensor:
        if requires_grad and self.grad_fn is None and not self.dtype.is_floating_point:
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        if self.grad_fn is not None:
            if not requires_grad:
                _refuse_non_leaf(False)
            return self
        self.requires_grad = requires_grad
        return self

    def is_inference(self) -> bool:
        """Made inside `torch.inference_mode()` (or a view of such a tensor): it can never be
        saved for backward, nor changed in place outside inference mode."""
        return self._is_inference

    @property
    def output_nr(self) -> int:
        """Which output of its grad_fn this tensor is (0 for most)."""
        return self._output_nr

    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def grad(self) -> Tensor | None:
        if self.grad_fn is not None and not self._retains_grad and self._grad is None:
            warnings.warn(NON_LEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value: Tensor | None) -> None:
        if value is not None:
            if not isinstance(value, Tensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of "
                                f"type {type(value).__name__}")
            if value.dtype is not self.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{value.dtype.cpp_name}' to a "
                    f"tensor with grad_dtype '{self.dtype.scalar_name}'. The gradient must match "
                    "the tensor's grad_dtype (defaults to the tensor's dtype). You can set the "
                    "tensor's grad_dtype attribute with a specific dtype, or None to allow any "
                    "dtype. Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    "gradient may break downstream systems that assume they match.")
            if value.shape != self.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '{list(value.shape)}' to a tensor "
                    f"of size '{list(self.shape)}'. Please ensure that the gradient and the "
                    "tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    @property
    def retains_grad(self) -> bool:
        return self._retains_grad

    def retain_grad(self) -> None:
        """Keep `.grad` on this non-leaf too (leaves keep theirs anyway)."""
        if not self.requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None or self._retains_grad:
            return
        if self.grad_fn._retained is None:
            self.grad_fn._retained = {}
        self.grad_fn._retained[self._output_nr] = weakref.ref(self)
        self.grad_fn._has_hooks = seen.hooks = True  # its node now does more than its formula
        self._retains_grad = True

    def register_hook(self, hook: Callable[[Tensor], Tensor | None]) -> RemovableHandle:
        """`hook(grad)` sees the gradient for this tensor and may return a replacement."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            return self.grad_fn._add_tensor_hook(self._output_nr, hook)
        if self._hooks is None:  # a leaf keeps its own hooks; its AccumulateGrad runs them
            self._hooks = {}
        handle = RemovableHandle(self._hooks)
        self._hooks[handle.id] = hook
        node = self._accumulator() if self._accumulator is not None else None
        if node is not None:  # (one made later sees the hooks itself: AccumulateGrad)
            node._has_hooks = True
        seen.hooks = True  # (backward asks each node from now on: run_node_minding_hooks)
        return handle

    def register_post_accumulate_grad_hook(self, hook: Callable[[Tensor], None]
                                           ) -> RemovableHandle:
        """`hook(leaf)` runs once the leaf's `.grad` has been accumulated; it returns None."""
        if not self.requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        if self._post_accumulate_grad_hooks is None:
            self._post_accumulate_grad_hooks = {}
        handle = RemovableHandle(self._post_accumulate_grad_hooks)
        self._post_accumulate_grad_hooks[handle.id] = hook
        seen.hooks = True  # (backward asks each leaf from now on: run_node_minding_hooks)
        return handle

    def detach(self) -> Tensor:
        """The same data (and version counter) without history: gradients stop here."""
        return self._alias()

    def detach_(self) -> Tensor:
        # any view, of a tensor that needs no gradient too; an inference tensor tracks none
        if self._base is not None and not self._is_inference:
            raise RuntimeError(  # PyTorch's whole message, DDP's advice included
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is set "
                "as True, gradients are views of DDP buckets, and hence detach_() cannot be "
                "called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        # its version counter made first, while the node that saved it as its own output
        # (graph.SavedOutput) can still be handed it
        _ = self._version_counter
        self.grad_fn, self._output_nr, self._requires_grad = None, 0, False
        return self

    @property
    def data(self) -> Tensor:
        out = tensor_of(self._data)  # shares the values but not the version counter, as in PyTorch
        if self._is_inference:  # still an inference tensor, with a counter of its own
            out._is_inference, out._counter = True, _InferenceVersionCounter()
        return out

    @data.setter
    def data(self, value: Tensor) -> None:
        if not isinstance(value, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(value).__name__}")
        if self.requires_grad and value._data.dtype.kind != "f":
            raise RuntimeError("data set to a tensor that requires gradients must be floating "
                               "point or complex dtype")
        self._data = value._data

    @property
    def _version_counter(self) -> _VersionCounter:
        counter = self._counter
        if counter is None:
            counter = self._counter = _VersionCounter()
            if self.grad_fn is not None:
                self._hand_counter_to_node(counter)
        return counter

    def _hand_counter_to_node(self, counter: _VersionCounter) -> None:
        """A node that saved this tensor as its own output (`ReluBackward0`) keeps no counter
        until the tensor makes one (graph.SavedOutput): it gets this one, to check. (It is
        made before the tensor becomes another node's output: `detach_`, `_inplace`.)"""
        for saved in self.grad_fn._saved or ():
            if (saved is not None and saved.is_own_output and saved.counter is None
                    and saved.output_nr == self._output_nr):
                saved.counter = counter

    @_version_counter.setter
    def _version_counter(self, counter: _VersionCounter) -> None:
        self._counter = counter

    @property
    def _version(self) -> int:
        if self._is_inference and type(self._counter) is not _InferenceVersionCounter:
            raise RuntimeError("Inference tensors do not track version counter.")
        return 0 if self._counter is None else self._counter.value

    def _bump_version(self, written: np.ndarray | None = None) -> None:
        """Count an in-place change of this tensor's memory. `written`: the part written, when
        PyTorch writes through a view of it (`y[1:] = v`), for allow_mutation_on_saved_tensors'
        watch (`before_write`)."""
        if (self._is_inference and not _grad_mode.state.inference
                and type(self._counter) is not _InferenceVersionCounter):  # no version to count
            raise RuntimeError(ERR_INFERENCE_IN_PLACE)
        if before_write is not None:
            before_write(self, self._data if written is None else written)
        counter = self._counter
        if counter is None:  # (the property _version_counter, without its call)
            counter = self._counter = _VersionCounter()
            if self.grad_fn is not None:
                self._hand_counter_to_node(counter)
        counter.value += 1

    # ---- plumbing used by autograd ----------------------------------------------------------

    def _view(self, data: np.ndarray) -> Tensor:
        """A view of this tensor holding `data` (which shares its memory): the same version
        counter and kind, and `_base` the tensor that owns the memory."""
        out = tensor_of(data)
        if self._multi_output_view:  # a view of one of unbind's views is refused in place too
            out._multi_output_view = True
        if self._custom_function_view:  # and so is one of a custom Function's
            out.__class__ = type(self)  # autograd/custom_view.py
            out._custom_view_version = self._version
        if not (self._is_inference and type(self._counter) is _InferenceVersionCounter):
            out._version_counter = self._version_counter  # (a view of an inference tensor's
        if out._is_inference is not self._is_inference:  # `.data` counts none, as PyTorch's)
            out._is_inference = self._is_inference  # the same memory: the same kind
        out._base = self._base if self._base is not None else self
        if self._made_in_no_grad:  # a view of such a view is refused in-place changes too
            out._made_in_no_grad = self._made_in_no_grad
        return out

    def _own_node(self) -> Node | None:
        """grad_fn itself, read without the check a view's class may put in front of it
        (autograd/custom_view.py, autograd/no_grad_view.py)."""
        return self.grad_fn

    def _is_view(self) -> bool:
        return self._base is not None

    def _alias(self) -> Tensor:
        out = tensor_of(self._data)
        if out._is_inference is not self._is_inference:  # the same memory: the same kind
            out._is_inference = self._is_inference
        if self._is_inference and type(self._counter) is not _InferenceVersionCounter:
            out._counter = _InferenceVersionCounter()  # (an inference tensor has none to share)
        else:
            out._counter = self._version_counter
        return out

    # ---- what a tensor is -------------------------------------------------------------------

    @property
    def dtype(self) -> _dtype.dtype:
        return _dtype.from_numpy(self._data.dtype)

    @property
    def shape(self) -> _dtype.Size:
        return _dtype.Size(self._data.shape)

    def size(self, dim: int | None = None) -> Any:
        return self.shape if dim is None else self._data.shape[dim]

    def dim(self) -> int:
        return self._data.ndim

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    def is_contiguous(self) -> bool:
        return bool(self._data.flags.c_contiguous)

    def is_floating_point(self) -> bool:
        return self.dtype.is_floating_point

    @property
    def device(self) -> Any:
        return CPU

    @property
    def is_cuda(self) -> bool:
        return False

    def item(self) -> Any:
        if self._data.size != 1:
            raise RuntimeError(f"a Tensor with {self._data.size} elements cannot be converted to "
                               "Scalar")
        return self._data.item()  # (numpy reads the one element of any shape)

    def tolist(self) -> Any:
        return self._data.tolist()

    def numpy(self) -> np.ndarray:
        # PyTorch refuses only while grad mode is on: under no_grad (and in a custom Function's
        # forward) the array may be read and written, as the docs' mark_dirty example does
        if self.requires_grad and _grad_mode.is_grad_enabled():
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                               "tensor.detach().numpy() instead.")
        # a new array over the same memory, as PyTorch's: reshaping it in place (`a.shape = ..`)
        # must not reshape the tensor
        return self._data.view()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.numpy() if dtype is None else self.numpy().astype(dtype)

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        return self._data.shape[0]

    def __iter__(self) -> Any:
        if self._data.ndim == 0:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))  # as PyTorch: the rows share one UnbindBackward0

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self._data.reshape(()))

    def __float__(self) -> float:
        if self.requires_grad and _grad_mode.is_grad_enabled():  # silent under no_grad
            _warn_scalar_of_requires_grad()
        return float(self._python_scalar())

    def __int__(self) -> int:
        return int(self._python_scalar())

    def _python_scalar(self) -> Any:
        """float(t) and int(t): the one value, or Python's kind of error (item()'s is PyTorch's)."""
        if self._data.size != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self._data.item()

    def __index__(self) -> int:
        if self.dtype.is_floating_point or self._data.size != 1:
            raise TypeError("only integer tensors of a single element can be converted to an index")
        return int(self.item())

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0 and type(self) is Tensor:  # as PyTorch: f"{t}" is f"{t.item()}"
            return format(self.item(), spec)
        return object.__format__(self, spec)

    def __getattr__(self, name: str) -> Any:  # only reached when no method has the name
        if name.startswith("_"):
            raise AttributeError(f"'Tensor' object has no attribute '{name}'")
        raise missing("Tensor", name, f"'Tensor' object has no attribute '{name}'")

    def __repr__(self) -> str:
        suffixes = []
        if self.grad_fn is not None:
            suffixes.append(f"grad_fn=<{type(self.grad_fn).__name__}>")
        elif self.requires_grad:
            suffixes.append("requires_grad=True")
        return tensor_repr(self._data, self.dtype.name, suffixes)

    __str__ = __repr__

    def __reduce_ex__(self, protocol: int) -> Any:  # a result keeps requires_grad, as in PyTorch
        return (_rebuild, (self._data, self.requires_grad))

    def __deepcopy__(self, memo: dict) -> Tensor:
        """As PyTorch's: a leaf is copied with requires_grad and a deep copy of its .grad;
        a result recorded in a graph is refused."""
        if not self.is_leaf:
            raise RuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the deepcopy "
                "protocol at the moment.  If you were attempting to deepcopy a module, this may "
                "be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001")
        new = memo[id(self)] = _rebuild(self._data.copy(), self._requires_grad)
        if self._grad is not None:
            new._grad = copy.deepcopy(self._grad, memo)
        return new


_warned_scalar_of_requires_grad = False


def _warn_scalar_of_requires_grad() -> None:
    """PyTorch warns once per process when float() drops a tensor's graph."""
    global _warned_scalar_of_requires_grad
    if not _warned_scalar_of_requires_grad:
        _warned_scalar_of_requires_grad = True
        warnings.warn("Converting a tensor with requires_grad=True to a scalar may lead to "
                      "unexpected behavior.\nConsider using tensor.detach() first.", UserWarning,
                      stacklevel=3)  # PyTorch adds where in its C++ code: minigrad has none


def _refuse_non_leaf(value: bool) -> None:
    message = "you can only change requires_grad flags of leaf variables."
    if not value:  # PyTorch adds the way out only when asked to turn gradients off
        message += (" If you want to use a computed variable in a subgraph that doesn't require "
                    "differentiation use var_no_grad = var.detach().")
    raise RuntimeError(message)


# How minigrad's own code makes a tensor: `tensor_of(array)` takes the array as it is (any
# dtype), `tensor_of(array, requires_grad=True)` makes a leaf; Tensor.__init__ is what it runs.
tensor_of = type.__call__.__get__(Tensor)


def legacy_new(dtype: _dtype.dtype, args: tuple, kwargs: dict, typed: bool = False) -> Tensor:
    """`torch.Tensor(...)` (dtype: the default float type) and, `typed`, `torch.FloatTensor(...)`
    and its kin (compat/legacy.py), as PyTorch's legacy constructor reads its arguments: sizes
    (ints, a Size) make a tensor of that shape (zeros here, uninitialised in PyTorch); a tensor
    (of that dtype, when typed), an alias of it (`x[...]`); a sequence or a numpy array, its
    values converted to `dtype` whatever theirs (a float64 array gives float32); nothing, an
    empty tensor. Only `device` is a keyword."""
    if set(kwargs) - {"device"}:
        raise TypeError(_invalid_arguments(args, kwargs))
    if not args:
        return tensor_of(np.zeros((0,), dtype=dtype.numpy))
    first = args[0]
    if len(args) == 1 and isinstance(first, Tensor):
        if typed and first.dtype is not dtype:  # torch.FloatTensor(t): t of that dtype
            raise TypeError(f"expected {_options(dtype)} (got {_options(first.dtype)})")
        return first[...]
    sizes = tuple(first) if len(args) == 1 and isinstance(first, _dtype.Size) else args
    if all(isinstance(s, (int, np.integer)) and not isinstance(s, bool) for s in sizes):
        for s in sizes:
            if s < 0:
                raise RuntimeError("Trying to create tensor with negative dimension "
                                   f"{s}: [{', '.join(map(str, sizes))}]")
        return tensor_of(np.zeros(tuple(int(s) for s in sizes), dtype=dtype.numpy))
    if len(args) > 1:
        position = next(i for i, s in enumerate(args) if not isinstance(s, (int, np.integer)))
        raise TypeError(f"new(): argument 'size' failed to unpack the object at pos "
                        f"{position + 1} with error \"type must be tuple of ints,but got "
                        f"{type(args[position]).__name__}\"")
    if isinstance(first, str):
        raise TypeError("new(): invalid data type 'str'")
    if not isinstance(first, (list, tuple, np.ndarray)):
        raise TypeError(f"new(): data must be a sequence (got {_type_name(first)})")
    if isinstance(first, np.ndarray) and first.dtype == dtype.numpy:
        return tensor_of(first)  # shares the array's memory, as PyTorch's does
    values = np.array(first, dtype=dtype.numpy)
    if values.size:
        warn_of_a_list_of_arrays(first, stacklevel=4)
    return tensor_of(values)


LIST_OF_ARRAYS_WARNING = (
    "Creating a tensor from a list of numpy.ndarrays is extremely slow. Please consider "
    "converting the list to a single numpy.ndarray with numpy.array() before converting to a "
    "tensor.")
_warned_of_a_list_of_arrays = False


def warn_of_a_list_of_arrays(data: Any, stacklevel: int) -> None:
    """PyTorch's warning (once a process) for values given as numpy arrays inside nested lists
    or tuples, which it copies element by element: torch.tensor's and torch.Tensor's."""
    global _warned_of_a_list_of_arrays
    if _warned_of_a_list_of_arrays:
        return
    stack = [data] if isinstance(data, (list, tuple)) else []
    while stack:
        for item in stack.pop():
            if isinstance(item, np.ndarray):
                _warned_of_a_list_of_arrays = True
                warnings.warn(LIST_OF_ARRAYS_WARNING, UserWarning, stacklevel=stacklevel)
                return
            if isinstance(item, (list, tuple)):
                stack.append(item)


def _type_name(value: Any) -> str:
    kind = type(value)
    return kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"


def _options(dtype: _dtype.dtype) -> str:
    return (f"TensorOptions(dtype={dtype.cpp_name}, device=cpu, layout=Strided, "
            "requires_grad=false (default), pinned_memory=false (default), "
            "memory_format=(nullopt))")


def _invalid_arguments(args: tuple, kwargs: dict) -> str:
    """PyTorch's refusal of keywords the legacy constructor does not take (`requires_grad`,
    `dtype`): the call as it got it, then its five forms."""
    got = [_type_name(a) for a in args] + [
        f"{k}={'torch.dtype' if isinstance(v, _dtype.dtype) else _type_name(v)}"
        for k, v in kwargs.items()]
    wrong = ", ".join(k for k in kwargs if k != "device")
    return ("new() received an invalid combination of arguments - got "
            f"({', '.join(got)}), but expected one of:\n"
            " * (*, torch.device device = None)\n"
            f"      didn't match because some of the keywords were incorrect: {wrong}\n"
            " * (torch.Storage storage)\n"
            " * (Tensor other)\n"
            " * (tuple of ints size, *, torch.device device = None)\n"
            " * (object data, *, torch.device device = None)\n")


def _rebuild(data: np.ndarray, requires_grad: bool) -> Tensor:
    return tensor_of(data, requires_grad=requires_grad)


def is_tensor(obj: Any) -> bool:
    return isinstance(obj, Tensor)
