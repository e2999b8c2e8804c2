"""minigrad.fidelity: PyTorch's exact numbers, to the last bit. Not needed to understand autograd.

A float operation rounds, so the order in which numbers are added, and how each step rounds,
decides the last bits of a result; a training loop that prints a loss shows them. numpy and
PyTorch's compiled kernels do not add in the same order, and do not draw random numbers the same
way. This folder repeats PyTorch's order and its recipes, so that minigrad prints what PyTorch
prints, digit for digit, and `torch.manual_seed(0)` gives the same random numbers:

- summation.py: sums and means, of a whole tensor or over some dimensions (a bias's
  gradient), added in the order of PyTorch's CPU kernel (`sum_like_torch`, `mean_like_torch`,
  which the ops `sum`, `mean` and broadcasting's backward call instead of numpy's `sum`);
- layout.py: how `clone()` lays its copy out in memory (`copy_like_torch`);
- generator.py: `torch.Generator`, PyTorch's Mersenne Twister and the recipes that turn its
  words into uniform, normal and integer numbers and permutations;
- avx_mathfun.py: the float32 log, sine and cosine of PyTorch's vectorised randn, and `fma`,
  a multiply and an add rounded once, as the compiled code does them;
- ranges.py: `arange` with a float step and `linspace`, value by value as PyTorch's kernels
  round them (and `fma64`, the same fused multiply-add for float64);
- vector_math.py: float32 tanh, sin, cos, exp, log as near as numpy gets to PyTorch's (MKL's,
  whose last bits no published algorithm gives), tanh's backward as PyTorch rounds it, and
  the sqrt of Adam's and RMSprop's steps; SLEEF's float32 exp and log, which PyTorch's
  vectorised sigmoid, softmax and log_softmax take (`sleef_expf`, `sleef_logf`,
  `sigmoid_like_torch`), and the C library's expf for the elements their vector loops leave
  over (`libm_expf`);
- softmax.py: softmax's and log_softmax's exps added, scaled and logged in the steps of
  PyTorch's kernels, and log_softmax's backward (`softmax_like_torch`,
  `log_softmax_like_torch`, `log_softmax_backward_like_torch`), whose bits cross_entropy's
  loss and gradient inherit;
- products.py: matrix products with 2 to 4 terms to add, rounded product by product where
  PyTorch's CPU build does so, and with 1 term, whose -0.0 PyTorch keeps (`matmul_like_torch`,
  which the matrix-product ops call);
- formulas.py: the optimizers' updates (`add_scaled`, `addcmul_`, `lerp_`), binary
  cross-entropy's logs and the default initialisation's bounds, in PyTorch's steps.

Each function returns what its plain numpy counterpart returns, but for the last bits of a
float: read `fidelity.sum_like_torch(x)` as `x.sum()` and skip this folder on a first reading.
Nothing about gradients is decided here."""
from .avx_mathfun import fma
from .layout import copy_like_torch
from .summation import mean_like_torch, sum_like_torch

__all__ = ["copy_like_torch", "fma", "mean_like_torch", "sum_like_torch"]
