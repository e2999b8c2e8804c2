"""Recurrent layers: RNN, LSTM and GRU, and their one-step cells, as in torch.nn, written with
minigrad's operations (a Python loop over the time steps), so the graph a learner draws shows
every step.

The parameters, their names (weight_ih_l0, weight_hh_l0_reverse, ...), their initial values
(uniform in ±1/sqrt(hidden_size), in registration order) and the gate formulas are PyTorch's,
the input projections computed for all steps first, as PyTorch's CPU kernels do. The outputs are
stacked per step (grad_fn StackBackward0, as PyTorch's RNN and GRU; its LSTM goes through
oneDNN, MkldnnRnnLayerBackward0). Float32 results agree with PyTorch's to rounding. A
PackedSequence (nn.utils.rnn) is run as PyTorch's packed layers run it: only the sequences still
running step, the outputs put together with CatBackward0."""
from __future__ import annotations

import math
from typing import Any

from .. import _grad_mode
from ..creation import empty, zeros
from ..ops.shape import cat, stack
from ..tensor import Tensor
from . import functional as F
from .module import Module
from .parameter import Parameter
from .utils.rnn import PackedSequence

GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "LSTM": 4, "GRU": 3}


def _rnn_step(mode: str, x_proj: Tensor, h: Tensor, c: Tensor | None, w_hh: Tensor,
              b_hh: Tensor | None) -> tuple[Tensor, Tensor | None]:
    """One time step of one layer: the new hidden state (and cell state, for an LSTM) from the
    step's input projection x·W_ih^T + b_ih and the previous state."""
    h_proj = F.linear(h, w_hh, b_hh)
    if mode == "RNN_TANH":
        return (h_proj + x_proj).tanh(), None
    if mode == "RNN_RELU":
        return (h_proj + x_proj).relu(), None
    if mode == "LSTM":
        i, f, g, o = (h_proj + x_proj).chunk(4, 1)
        c = f.sigmoid() * c + i.sigmoid() * g.tanh()
        return o.sigmoid() * c.tanh(), c
    x_r, x_z, x_n = x_proj.chunk(3, 1)  # GRU: reset, update and new gates
    h_r, h_z, h_n = h_proj.chunk(3, 1)
    reset, update = (h_r + x_r).sigmoid(), (h_z + x_z).sigmoid()
    new = (x_n + h_n * reset).tanh()
    return (h - new) * update + new, None


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the stacked layers, each run forwards (and backwards, if
    bidirectional) over the sequence."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1,
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0,
                 bidirectional: bool = False, proj_size: int = 0, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        if proj_size:
            raise NotImplementedError("minigrad is a subset of PyTorch: LSTM's proj_size is not "
                                      "implemented")
        if not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the "
                             "probability of an element being zeroed")
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.num_layers, self.bias, self.batch_first = num_layers, bias, batch_first
        self.dropout, self.bidirectional, self.proj_size = float(dropout), bidirectional, 0
        gate_size = GATES[mode] * hidden_size
        directions = 2 if bidirectional else 1
        for layer in range(num_layers):
            width = input_size if layer == 0 else hidden_size * directions
            for suffix in ("", "_reverse")[:directions]:
                shapes = [("weight_ih", (gate_size, width)),
                          ("weight_hh", (gate_size, hidden_size))]
                if bias:
                    shapes += [("bias_ih", (gate_size,)), ("bias_hh", (gate_size,))]
                for name, shape in shapes:
                    setattr(self, f"{name}_l{layer}{suffix}", Parameter(empty(shape, dtype=dtype)))
        self.reset_parameters()

    def reset_parameters(self) -> None:
        bound = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        with _grad_mode.no_grad():
            for weight in self.parameters():
                weight.uniform_(-bound, bound)

    def _weights(self, layer: int, suffix: str) -> tuple:
        get = lambda name: getattr(self, f"{name}_l{layer}{suffix}", None)  # noqa: E731
        return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh")

    def _check(self, input: Tensor, hx: Any) -> None:
        if input.dim() not in (2, 3):
            raise ValueError(f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                             f"{input.dim()}D tensor instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected "
                               f"{self.input_size}, got {input.shape[-1]}")
        states = hx if isinstance(hx, tuple) else (hx,)
        for state in states:
            if state is not None and state.dim() != input.dim():
                raise RuntimeError(f"For {'batched 3' if input.dim() == 3 else 'unbatched 2'}-D "
                                   f"input, hx{' and cx' if isinstance(hx, tuple) else ''} should "
                                   f"also be {input.dim()}-D but got {state.dim()}-D tensor")

    def forward(self, input: Tensor, hx: Any = None) -> tuple:
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        self._check(input, hx)
        batched = input.dim() == 3
        if not batched:  # one sequence: a batch of one
            input = input.unsqueeze(1)
            hx = None if hx is None else tuple(h.unsqueeze(1) for h in hx) \
                if isinstance(hx, tuple) else hx.unsqueeze(1)
        elif self.batch_first:
            input = input.transpose(0, 1)
        directions = 2 if self.bidirectional else 1
        shape = (self.num_layers * directions, input.shape[1], self.hidden_size)
        if hx is None:
            h0 = zeros(shape, dtype=input.dtype)
            hx = (h0, zeros(shape, dtype=input.dtype)) if self.mode == "LSTM" else h0
        h0, c0 = hx if self.mode == "LSTM" else (hx, None)
        last_h, last_c, layer_input = [], [], input
        for layer in range(self.num_layers):
            outputs = []
            for direction, suffix in enumerate(("", "_reverse")[:directions]):
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, suffix)
                index = layer * directions + direction
                h, c = h0[index], None if c0 is None else c0[index]
                x_proj = F.linear(layer_input, w_ih, b_ih)
                steps = range(input.shape[0])
                states = []
                for t in (reversed(steps) if direction else steps):
                    h, c = _rnn_step(self.mode, x_proj[t], h, c, w_hh, b_hh)
                    states.append(h)
                outputs.append(stack(states[::-1] if direction else states))
                last_h.append(h)
                last_c.append(c)
            layer_input = outputs[0] if directions == 1 else cat(outputs, 2)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        output, h_n = layer_input, stack(last_h)
        state = (h_n, stack(last_c)) if self.mode == "LSTM" else h_n
        if not batched:
            output = output.squeeze(1)
            state = tuple(s.squeeze(1) for s in state) if isinstance(state, tuple) \
                else state.squeeze(1)
        elif self.batch_first:
            output = output.transpose(0, 1)
        return output, state

    def _forward_packed(self, packed: PackedSequence, hx: Any) -> tuple:
        """A PackedSequence in, one out, as PyTorch's packed layers run it: at step t only the
        first batch_sizes[t] sequences step; one that has ended keeps its last state (the final
        state of each layer and direction is put together from those, CatBackward0)."""
        data, sizes = packed.data, [int(n) for n in packed.batch_sizes.tolist()]
        directions = 2 if self.bidirectional else 1
        shape = (self.num_layers * directions, sizes[0], self.hidden_size)
        if hx is None:
            h0 = zeros(shape, dtype=data.dtype)
            hx = (h0, zeros(shape, dtype=data.dtype)) if self.mode == "LSTM" else h0
        elif packed.sorted_indices is not None:  # the caller's order, made the packed order
            hx = tuple(h.index_select(1, packed.sorted_indices) for h in hx) \
                if isinstance(hx, tuple) else hx.index_select(1, packed.sorted_indices)
        h0, c0 = hx if self.mode == "LSTM" else (hx, None)
        last_h, last_c, layer_input = [], [], data
        for layer in range(self.num_layers):
            outputs = []
            for direction, suffix in enumerate(("", "_reverse")[:directions]):
                w_ih, w_hh, b_ih, b_hh = self._weights(layer, suffix)
                index = layer * directions + direction
                c_in = None if c0 is None else c0[index]
                x_proj = F.linear(layer_input, w_ih, b_ih)
                run = _packed_backward if direction else _packed_forward
                out, h, c = run(self.mode, x_proj, sizes, h0[index], c_in, w_hh, b_hh)
                outputs.append(out)
                last_h.append(h)
                last_c.append(c)
            layer_input = outputs[0] if directions == 1 else cat(outputs, 1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = F.dropout(layer_input, self.dropout, True)
        state = (stack(last_h), stack(last_c)) if self.mode == "LSTM" else stack(last_h)
        if packed.unsorted_indices is not None:  # back in the caller's order
            state = tuple(s.index_select(1, packed.unsorted_indices) for s in state) \
                if isinstance(state, tuple) else state.index_select(1, packed.unsorted_indices)
        return PackedSequence(layer_input, packed.batch_sizes, packed.sorted_indices,
                              packed.unsorted_indices), state

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if self.batch_first is not False:
            text += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            text += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            text += f", bidirectional={self.bidirectional}"
        return text


def _packed_forward(mode: str, x_proj: Tensor, sizes: list, h: Tensor, c: Tensor | None,
                    w_hh: Tensor, b_hh: Tensor | None) -> tuple:
    """PyTorch's PackedLayer: the states of sequences that end are set aside as the batch
    shrinks, and put back together (last ended last) at the end."""
    steps, ended_h, ended_c, offset, last = [], [], [], 0, sizes[0]
    h, c = h[:last], None if c is None else c[:last]
    for n in sizes:
        if n < last:
            ended_h.append(h[n:last])
            ended_c.append(None if c is None else c[n:last])
            h, c = h[:n], None if c is None else c[:n]
        last = n
        h, c = _rnn_step(mode, x_proj[offset:offset + n], h, c, w_hh, b_hh)
        offset += n
        steps.append(h)
    ended_h.append(h)
    ended_c.append(c)
    h = cat(ended_h[::-1], 0)
    return cat(steps, 0), h, None if c is None else cat(ended_c[::-1], 0)


def _packed_backward(mode: str, x_proj: Tensor, sizes: list, h0: Tensor, c0: Tensor | None,
                     w_hh: Tensor, b_hh: Tensor | None) -> tuple:
    """PyTorch's ReversedPackedLayer: from the last step back, the batch growing as sequences
    start, each starting from its own initial state."""
    steps, offset, last = [], sum(sizes), sizes[-1]
    h, c = h0[:last], None if c0 is None else c0[:last]
    for n in reversed(sizes):
        if n > last:
            h = cat([h, h0[last:n]], 0)
            c = None if c is None else cat([c, c0[last:n]], 0)
        last = n
        h, c = _rnn_step(mode, x_proj[offset - n:offset], h, c, w_hh, b_hh)
        offset -= n
        steps.append(h)
    return cat(steps[::-1], 0), h, c


class RNN(RNNBase):
    """h_t = tanh(x_t W_ih^T + b_ih + h_(t-1) W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1,
                 nonlinearity: str = "tanh", bias: bool = True, batch_first: bool = False,
                 dropout: float = 0.0, bidirectional: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        if nonlinearity not in ("tanh", "relu"):
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or "
                             "'relu'.")
        self.nonlinearity = nonlinearity
        super().__init__(f"RNN_{nonlinearity.upper()}", input_size, hidden_size, num_layers,
                         bias, batch_first, dropout, bidirectional, dtype=dtype)


class LSTM(RNNBase):
    """Gates i, f, g, o from x_t and h_(t-1); c_t = f c_(t-1) + i g, h_t = o tanh(c_t).
    Returns (output, (h_n, c_n))."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 proj_size: int = 0, device: Any = None, dtype: Any = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first,
                         dropout, bidirectional, proj_size, dtype=dtype)


class GRU(RNNBase):
    """Reset and update gates r, z; n = tanh(x W_in + b_in + r (h W_hn + b_hn));
    h_t = (1 - z) n + z h_(t-1)."""

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout,
                         bidirectional, dtype=dtype)


class RNNCellBase(Module):
    """One time step of RNN, LSTM or GRU as a module (RNNCell, LSTMCell, GRUCell): PyTorch's
    parameters weight_ih, weight_hh, bias_ih, bias_hh, initialised as the layers' are, and the
    same step. A 1-D input is one example: unsqueezed, and the results squeezed, as PyTorch
    does."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, bias: bool = True,
                 device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        self.mode, self.input_size, self.hidden_size = mode, input_size, hidden_size
        self.bias = bias
        gate_size = GATES[mode] * hidden_size
        self.weight_ih = Parameter(empty((gate_size, input_size), dtype=dtype))
        self.weight_hh = Parameter(empty((gate_size, hidden_size), dtype=dtype))
        if bias:
            self.bias_ih = Parameter(empty((gate_size,), dtype=dtype))
            self.bias_hh = Parameter(empty((gate_size,), dtype=dtype))
        else:
            self.bias_ih = self.bias_hh = None
        RNNBase.reset_parameters(self)

    def _states(self, input: Tensor, hx: Any) -> tuple:
        if input.dim() not in (1, 2):
            raise ValueError(f"{type(self).__name__}: Expected input to be 1D or 2D, got "
                             f"{input.dim()}D instead")
        if input.shape[-1] != self.input_size:
            raise RuntimeError(f"input has inconsistent input_size: got {input.shape[-1]} "
                               f"expected {self.input_size}")
        batched = input.dim() == 2
        x = input if batched else input.unsqueeze(0)
        states = hx if isinstance(hx, tuple) else (hx,) * (2 if self.mode == "LSTM" else 1)
        made = []
        for number, state in enumerate(states):
            if state is None:
                state = zeros(x.shape[0], self.hidden_size, dtype=x.dtype)
            elif not batched:
                state = state.unsqueeze(0)
            if state.shape[0] != x.shape[0]:
                raise RuntimeError(f"Input batch size {x.shape[0]} doesn't match hidden{number} "
                                   f"batch size {state.shape[0]}")
            if state.shape[1] != self.hidden_size:
                raise RuntimeError(f"hidden{number} has inconsistent hidden_size: got "
                                   f"{state.shape[1]}, expected {self.hidden_size}")
            made.append(state)
        return x, made, batched

    def forward(self, input: Tensor, hx: Any = None) -> Any:
        x, states, batched = self._states(input, hx)
        h, c = _rnn_step(self.mode, F.linear(x, self.weight_ih, self.bias_ih), states[0],
                         states[1] if self.mode == "LSTM" else None, self.weight_hh, self.bias_hh)
        if not batched:
            h, c = h.squeeze(0), None if c is None else c.squeeze(0)
        return (h, c) if self.mode == "LSTM" else h

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            text += f", bias={self.bias}"
        if getattr(self, "nonlinearity", "tanh") != "tanh":
            text += f", nonlinearity={self.nonlinearity}"
        return text


class RNNCell(RNNCellBase):
    """h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True,
                 nonlinearity: str = "tanh", device: Any = None, dtype: Any = None) -> None:
        self.nonlinearity = nonlinearity  # PyTorch refuses an unknown one when it runs
        super().__init__("RNN_RELU" if nonlinearity == "relu" else "RNN_TANH", input_size,
                         hidden_size, bias, dtype=dtype)

    def forward(self, input: Tensor, hx: Any = None) -> Any:
        if self.nonlinearity not in ("tanh", "relu"):
            raise RuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        return super().forward(input, hx)


class LSTMCell(RNNCellBase):
    """One LSTM step: returns (h', c')."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__("LSTM", input_size, hidden_size, bias, dtype=dtype)


class GRUCell(RNNCellBase):
    """One GRU step: returns h'."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__("GRU", input_size, hidden_size, bias, dtype=dtype)
