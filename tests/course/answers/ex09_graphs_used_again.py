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
    ("graphs_used_again.named_inputs", "inputs_prints = [5.0, 3.0, 5.0, 3.0]",
     FAIL("fills the .grad of the tensors named", never=("None",))),
    ("graphs_used_again.named_inputs", "inputs_prints = [5, None, 5, 3]", PASS),
    # 09 gradients at intermediates: one call with a list passes; a pass per tensor,
    # retain_grad() and backward(), leaves only (an intermediate's .grad is None) fail.
    ("graphs_used_again.gradients_at", """\
def gradients_at(loss, tensors):
    found = torch.autograd.grad([loss], list(tensors.values()))
    return {name: g for name, g in zip(tensors.keys(), found)}""", PASS),
    ("graphs_used_again.gradients_at", """\
def gradients_at(loss, tensors):
    return {name: torch.autograd.grad(loss, t, retain_graph=True)[0]
            for name, t in tensors.items()}""",
     FAIL("one pass from loss gives every gradient at once", never=("list of inputs",))),
    ("graphs_used_again.gradients_at", """\
def gradients_at(loss, tensors):
    for t in tensors.values():
        t.retain_grad()
    loss.backward()
    return {name: t.grad for name, t in tensors.items()}""",
     FAIL("retain_grad() asked for", "leaves .grad alone", never=("list of inputs",))),
    ("graphs_used_again.gradients_at", """\
def gradients_at(loss, tensors):
    leaves = {name: t for name, t in tensors.items() if t.is_leaf}
    found = torch.autograd.grad(loss, list(leaves.values()))
    return dict(zip(leaves, found))""",
     FAIL("does not map each name to the gradient", "intermediates as well as leaves",
          never=("retain_grad",))),
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
