"""The answers learners write, right and wrong, for the checks of exercise 09 and of
lesson 09's builds (minigrad_course/checks/graphs_used_again.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 09 predictions
    ("graphs_used_again.twice", "twice_prints = [24.0, 'error', 12.0, 12.0]",
     FAIL("retain_graph keeps the graph", "autograd.grad leaves .grad alone", never=("None",))),
    ("graphs_used_again.twice", "twice_prints = [24, 'ERROR', 12, None]", PASS),
    ("graphs_used_again.second_order", "second_order_prints = [4.0, 12.0, 12.0]",
     FAIL("create_graph makes the gradient differentiable", never=("None",))),
    # 09 second derivative: finite differences, backward(), the first grad without a graph
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    h = 1e-4
    with torch.no_grad():
        return (f(x + h) - 2 * f(x) + f(x - h)) / h ** 2""",
     FAIL("it is not f''(x)", "did not differentiate twice with autograd.grad",
          never=("create_graph",))),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    h = 1e-3
    def first(v):
        v = v.detach().requires_grad_()
        return torch.autograd.grad(f(v), v)[0]
    return (first(x + h) - first(x - h)) / (2 * h)""",
     FAIL("did not differentiate twice with autograd.grad",
          "the second pass should start from the first one's result", never=("create_graph",))),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    (first,) = torch.autograd.grad(f(x), x, create_graph=True)
    first.backward()
    result = x.grad
    x.grad = None
    return result""",
     FAIL("backward() ran (or x.grad was filled)", "torch.autograd.grad for both derivatives",
          never=("create_graph",))),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    first = torch.autograd.grad(f(x), [x], create_graph=True)[0]
    return torch.autograd.grad(first.sum(), [x])[0].item()""", PASS),
    # the first gradient taken without a graph of its own (issue 30: a raw error before)
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    (first,) = torch.autograd.grad(f(x), x)
    (second,) = torch.autograd.grad(first, x)
    return second""", FAIL("no graph of its own", "which argument of autograd.grad",
                          never=("create_graph=True",))),
    # ready-made second derivatives: torch's hessian, or its jacobian of a first autograd.grad
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    return torch.autograd.functional.hessian(f, x)""",
     FAIL("it calls torch.autograd.functional.hessian", "write both torch.autograd.grad passes",
          never=("create_graph",))),
    ("graphs_used_again.second_derivative", """\
def second_derivative(f, x):
    def first(v):
        return torch.autograd.grad(f(v), v, create_graph=True)[0]
    return torch.autograd.functional.jacobian(first, x)""",
     FAIL("it calls torch.autograd.functional.jacobian", "through the first one's result",
          never=("create_graph",))),
    # 09 lesson build, a gradient for each loss: one autograd.grad pass per loss, the graph
    # kept for all but the last. The stub, passes that free the graph at once or never, one
    # pass for the summed losses, backward() into .grad, the lesson's numbers hard-coded and a
    # batched single pass fail.
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    gradients = []
    for number, loss in enumerate(losses):
        (gradient,) = torch.autograd.grad(loss, x, retain_graph=number < len(losses) - 1)
        gradients.append(gradient)
    return gradients""", PASS),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    return [torch.autograd.grad(loss, [x], retain_graph=loss is not losses[-1])[0]
            for loss in losses]""", PASS),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    # YOUR CODE HERE
    raise NotImplementedError()""", FAIL("still raises NotImplementedError",
                                        never=("retain_graph",))),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    return [torch.autograd.grad(loss, x)[0] for loss in losses]""",
     FAIL("backward through the graph a second time", "which argument keeps it",
          never=("len(losses) - 1", "losses[-1]"))),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    return [torch.autograd.grad(loss, x, retain_graph=True)[0] for loss in losses]""",
     FAIL("the graph is still kept after the last pass", "only the passes that another pass",
          never=("len(losses) - 1", "losses[-1]"))),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    return [torch.autograd.grad(loss, x, create_graph=True)[0] for loss in losses]""",
     FAIL("the graph is still kept after the last pass", never=("len(losses) - 1",))),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    (total,) = torch.autograd.grad(losses, x)  # one pass: the gradients added up
    return [total] * len(losses)""",
     FAIL("not each loss's own gradient", "one pass per loss", never=("retain_graph",))),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    gradients = []
    for number, loss in enumerate(losses):
        loss.backward(retain_graph=number < len(losses) - 1)
        gradients.append(x.grad.clone())
        x.grad = None
    return gradients""",
     FAIL("backward() ran", "torch.autograd.grad hands the gradients back",
          never=("retain_graph",))),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    angles = x.detach()  # the lesson's example, sin x then sin² x
    return [angles.cos(), (2 * angles).sin()]""",
     FAIL("not each loss's own gradient", never=("retain_graph",))),
    ("graphs_used_again.one_pass_each", """\
def each_gradient(losses, x):
    rows = torch.eye(len(losses))  # every loss in one batched pass
    (jacobian,) = torch.autograd.grad(torch.stack(losses), x, rows, is_grads_batched=True)
    return list(jacobian)""",
     FAIL("did not run one pass per loss", never=("retain_graph",))),
]
