"""PyTorch's CPU random numbers, bit for bit: the engine behind torch.Generator.

PyTorch draws from a Mersenne Twister (mt19937) seeded the standard way, and turns its 32-bit
words into numbers with a few fixed recipes. numpy has the same Mersenne Twister, so minigrad
seeds numpy's with PyTorch's seeding and applies PyTorch's recipes: `torch.manual_seed(0)`
followed by `torch.randn(3)` gives the same three numbers here as in PyTorch, and so does the
default initialisation of `nn.Linear`. `minigrad.random` (torch.rand, randn, randint, randperm,
normal) asks a Generator for its numbers and makes tensors of them; it also gives the Generator
its torch face (a device, a state as a tensor). This module works on numpy arrays only."""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from . import avx_mathfun

DEFAULT_SEED = 67280421310721  # the seed PyTorch's default CPU generator starts from

_FLOAT_BITS, _DOUBLE_BITS = 24, 53  # mantissa digits: how many random bits a float takes


def _mt19937_state(seed: int) -> np.ndarray:
    """The 624 words of a Mersenne Twister seeded with `seed` (the reference init_genrand)."""
    key = np.empty(624, dtype=np.uint32)
    value = seed & 0xFFFFFFFF
    for i in range(624):
        key[i] = value
        value = (1812433253 * (value ^ (value >> 30)) + i + 1) & 0xFFFFFFFF
    return key


class MersenneTwister:
    """PyTorch's CPU generator: a Mersenne Twister with PyTorch's seeding and recipes."""

    def __init__(self) -> None:
        self._bits = np.random.MT19937()
        self.manual_seed(DEFAULT_SEED)

    def manual_seed(self, seed: int) -> MersenneTwister:
        seed = int(seed)
        self._seed = seed
        self._bits.state = {"bit_generator": "MT19937",
                            "state": {"key": _mt19937_state(seed), "pos": 624}}
        self._next_normal: float | None = None  # Box-Muller makes two numbers, keeps one
        return self

    def get_state(self) -> np.ndarray:
        """The whole state as uint8 values, for set_state (its bytes are minigrad's own layout:
        the 624 words, the position, the kept normal number and the seed)."""
        state = self._bits.state["state"]
        kept = np.nan if self._next_normal is None else self._next_normal
        parts = [state["key"].astype(np.uint32).tobytes(), np.int64(state["pos"]).tobytes(),
                 np.float64(kept).tobytes(), np.uint64(self._seed & (2**64 - 1)).tobytes()]
        return np.frombuffer(b"".join(parts), dtype=np.uint8).copy()

    def set_state(self, new_state: np.ndarray) -> MersenneTwister:
        raw = new_state.astype(np.uint8).tobytes()
        if len(raw) != 624 * 4 + 24:
            raise RuntimeError("Expected a state made by get_state()")
        key = np.frombuffer(raw[:2496], dtype=np.uint32).copy()
        pos, kept, seed = (np.frombuffer(raw[2496 + 8 * i:2504 + 8 * i], dtype=t)[0]
                           for i, t in enumerate((np.int64, np.float64, np.uint64)))
        self._bits.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": int(pos)}}
        self._next_normal = None if np.isnan(kept) else float(kept)
        self._seed = int(seed)
        return self

    def initial_seed(self) -> int:
        return self._seed

    def seed(self) -> int:
        """Reseeds from the operating system's entropy, as PyTorch does, and returns the seed."""
        seed = int(np.random.SeedSequence().entropy) & 0xFFFFFFFFFFFFFFFF
        self.manual_seed(seed)
        return seed

    # ---- 32- and 64-bit words, and PyTorch's recipes that turn them into numbers --------

    def _words(self, n: int) -> np.ndarray:
        return self._bits.random_raw(n).astype(np.uint64)

    def _uniform01(self, n: int, numpy_dtype: Any) -> np.ndarray:
        """[0, 1) from the top bits PyTorch keeps: 24 random bits for a float (one word),
        53 for a double (two words, the first the high half)."""
        if np.dtype(numpy_dtype) == np.float64:
            words = self._words(2 * n).reshape(n, 2)
            bits = ((words[:, 0] << np.uint64(32)) | words[:, 1]) & np.uint64((1 << 53) - 1)
            return bits.astype(np.float64) / float(1 << _DOUBLE_BITS)
        bits = self._words(n) & np.uint64((1 << _FLOAT_BITS) - 1)
        return bits.astype(np.float64) / float(1 << _FLOAT_BITS)

    def uniform(self, shape: tuple, low: float, high: float, numpy_dtype: Any) -> np.ndarray:
        """`tensor.uniform_(low, high)`: PyTorch rounds both ends to the tensor's dtype first."""
        low, high = np.asarray(low, numpy_dtype), np.asarray(high, numpy_dtype)
        n = math.prod(shape)
        x = self._uniform01(n, numpy_dtype)
        width = np.float64(high - low)  # the difference is taken in the tensor's dtype
        return (x * width + np.float64(low)).astype(numpy_dtype).reshape(shape)

    def normal(self, shape: tuple, mean: float, std: float, numpy_dtype: Any) -> np.ndarray:
        """`tensor.normal_(mean, std)`: 16 or more numbers are made 16 at a time (Box-Muller
        on 8 pairs), fewer one at a time in double precision."""
        n = math.prod(shape)
        if n >= 16:
            return self._normal_fill(n, mean, std, np.dtype(numpy_dtype)).reshape(shape)
        out = np.array([self._one_normal() * std + mean for _ in range(n)], dtype=np.float64)
        return out.astype(numpy_dtype).reshape(shape)

    def exponential(self, shape: tuple, rate: float, numpy_dtype: Any) -> np.ndarray:
        """`tensor.exponential_(rate)`: -log1p(-u) / rate from a double u (two words), in double
        precision with the C library's log1p, then rounded to the tensor's dtype."""
        u = self._uniform01(math.prod(shape), np.float64)
        values = np.frompyfunc(math.log1p, 1, 1)(-u).astype(np.float64) * (-1.0 / rate)
        return values.astype(numpy_dtype).reshape(shape)

    def integers(self, count: int, low: int, high: int) -> np.ndarray:
        """PyTorch's random_from_to: a 32-bit word modulo the range (a 64-bit one past 2**32)."""
        span = high - low
        if span >= 1 << 32:
            words = self._words(2 * count).reshape(count, 2)
            values = (words[:, 0] << np.uint64(32)) | words[:, 1]
        else:
            values = self._words(count)
        return (values % np.uint64(span)).astype(np.int64) + low

    def random_int64(self) -> int:
        """`torch.empty((), dtype=torch.int64).random_()`: a 64-bit word (two 32-bit ones, the
        first the high half) modulo 2**63. The DataLoader draws its seeds this way."""
        high, low = self._words(2)
        return int(((high << np.uint64(32)) | low) % np.uint64(1 << 63))

    def permutation(self, n: int) -> np.ndarray:
        """PyTorch's Fisher-Yates shuffle: position i swaps with i + (a word modulo n - i)."""
        order = np.arange(n, dtype=np.int64)
        if n > 1:
            words = self._words(n - 1)
            for i in range(n - 1):
                z = i + int(words[i] % np.uint64(n - i))
                order[i], order[z] = order[z], order[i]
        return order

    def _one_normal(self) -> float:
        if self._next_normal is not None:
            value, self._next_normal = self._next_normal, None
            return value
        u1, u2 = self._uniform01(2, np.float64)
        radius = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self._next_normal = radius * math.sin(theta)
        return radius * math.cos(theta)

    def _normal_fill(self, n: int, mean: float, std: float, dtype: np.dtype) -> np.ndarray:
        data = self._uniform01(n, dtype).astype(dtype)
        whole = n - n % 16  # PyTorch loops over blocks of 16; each block is independent
        data[:whole] = _box_muller_16(data[:whole].reshape(-1, 16), mean, std, dtype).ravel()
        if n % 16:  # the last 16 are drawn again and replace what the loop left there
            tail = self._uniform01(16, dtype).astype(dtype).reshape(1, 16)
            data[n - 16:] = _box_muller_16(tail, mean, std, dtype).ravel()
        return data


def _box_muller_16(u: np.ndarray, mean: float, std: float, dtype: np.dtype) -> np.ndarray:
    """Each row of 16 uniforms gives 16 normals, as PyTorch's normal_fill_16: its first 8 give
    the radii, its last 8 the angles. float32 goes through PyTorch's AVX2 code (x86), whose log
    and sincos are emulated in avx_mathfun; other dtypes through the C library's functions, in
    double precision (numpy's sin and cos agree with the C library's; its log does not:
    _libm_log)."""
    f = dtype.type
    if dtype == np.float32:
        radius = np.sqrt(f(-2) * avx_mathfun.log(f(1) - u[:, :8]))
        sin, cos = avx_mathfun.sincos(f(2.0 * math.pi) * u[:, 8:])
        both = np.concatenate([radius * cos, radius * sin], axis=1)  # each product rounded
        return (both.astype(np.float64) * float(f(std)) + float(f(mean))).astype(dtype)
    u1, u2 = f(1) - u[:, :8], u[:, 8:]
    radius = np.sqrt(f(-2) * _libm_log(u1))
    theta = f(2.0 * math.pi) * u2
    return np.concatenate([radius * np.cos(theta) * f(std) + f(mean),
                           radius * np.sin(theta) * f(std) + f(mean)], axis=1)


def _libm_log(x: np.ndarray) -> np.ndarray:
    """The C library's log, which PyTorch calls: numpy's own float64 log (vectorised, on a CPU
    with AVX-512) differs from it in the last bit for about one value in 300, and a float64
    randn would show it. Python's math.log is the C library's."""
    return np.frompyfunc(math.log, 1, 1)(x).astype(x.dtype)

