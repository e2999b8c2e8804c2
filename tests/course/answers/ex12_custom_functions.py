"""The answers learners write, right and wrong, for the checks of exercise 12 and of
lesson 12's builds (minigrad_course/checks/custom_functions.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS


def mul_and_pow(mul_grads: str = "grad_output * b, grad_output * a",
                pow_grads: str = "grad_output * ctx.n * x ** (ctx.n - 1), None") -> str:
    """Exercise 12-2's answer, with what each backward returns."""
    return f"""\
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        a, b = ctx.saved_tensors
        return {mul_grads}


class Pow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x ** n

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return {pow_grads}"""


ROWS = [
    # 12 Cube: not a Function, ctx.x instead of save_for_backward, apply replaced
    ("custom_functions.cube", """\
class Cube:
    @staticmethod
    def apply(x):
        return x ** 3""",
     FAIL("should be a class that subclasses torch.autograd.Function",
          never=("save_for_backward(x)",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * 3 * ctx.x ** 2""",
     FAIL("forward keeps tensors as attributes of ctx", "ctx.save_for_backward", never=("3 * x",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    apply = staticmethod(lambda x: x ** 3)""",
     FAIL("defines its own apply", "let torch.autograd.Function's apply connect them",
          never=("3 * x",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        with torch.enable_grad():
            x = x.detach().requires_grad_()
            return torch.autograd.grad(x ** 3, x, grad_output)[0]""",
     FAIL("backward runs a backward pass of its own",
          "write the derivative with tensor operations", never=("3 * x",))),
    ("custom_functions.cube", """\
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.pow(x, 3)

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return 3 * x * x * grad_output""", PASS),
    # 12 Mul and Pow: a Mul that keeps a and b on ctx
    ("custom_functions.mul_and_pow", """\
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.a, ctx.b = a, b
        return a * b

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.b, grad_output * ctx.a


class Pow(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, n):
        ctx.save_for_backward(x)
        ctx.n = n
        return x ** n

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * ctx.n * x ** (ctx.n - 1), None""",
     FAIL("forward keeps tensors as attributes of ctx (a, b)", "ctx.save_for_backward",
          never=("grad_output * b",))),
    # 12 Softplus: not a Function, grad_output still ignored, the ops' own backward
    ("custom_functions.softplus", """\
class Softplus:
    @staticmethod
    def apply(x):
        return (1 + x.exp()).log()""",
     FAIL("should be a class that subclasses torch.autograd.Function", never=("sigmoid",))),
    ("custom_functions.softplus", """\
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (1 + x.exp()).log()

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return torch.sigmoid(x) * grad_output.sum() / grad_output.numel()""",
     FAIL("with an upstream gradient v that is not all ones", "what does the chain rule do",
          never=("sigmoid",))),
    ("custom_functions.softplus", """\
class Softplus(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return torch.log(torch.exp(x) + 1)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output / (1 + torch.exp(-x))""", PASS),
    # 12 Mul and Pow: the worked answer, and ** written as torch.pow.
    ("custom_functions.mul_and_pow", mul_and_pow(), PASS),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * torch.pow(x, ctx.n - 1), None"), PASS),
    # grad_output forgotten (sum() would hide it), the factors swapped, the exponent not
    # lowered, no None for the number n.
    ("custom_functions.mul_and_pow", mul_and_pow(mul_grads="b, a"),
     FAIL("leave out grad_output", "the chain rule multiplies",
          never=("grad_output * b", "times b"))),
    ("custom_functions.mul_and_pow",
     mul_and_pow(mul_grads="grad_output * a, grad_output * b"),
     FAIL("swapped", "how much does a * b move when a alone moves",
          never=("grad_output * b", "times b"))),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * x ** ctx.n, None"),
     FAIL("Pow's gradient is wrong", "which power of x", never=("n - 1",))),
    ("custom_functions.mul_and_pow",
     mul_and_pow(pow_grads="grad_output * ctx.n * x ** (ctx.n - 1)"),
     FAIL("one entry per input of forward", "None for the number n", never=("n - 1",))),
    ("custom_functions.mul_and_pow",  # zeros for n: PyTorch's error alone does not say why
     mul_and_pow(pow_grads="grad_output * ctx.n * x ** (ctx.n - 1), torch.zeros(())"),
     FAIL("different than None at position 2", "n is a plain number", never=("n - 1",))),
]
