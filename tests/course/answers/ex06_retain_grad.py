"""The answers learners write, right and wrong, for the checks of exercise 06 and of
lesson 06's builds (minigrad_course/checks/retain_grad.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 06 predictions
    ("retain_grad.retained", "retained_prints = [15.0, 6.0, None, True]",
     FAIL("keeps a non-leaf's gradient, and only that", never=("False",))),
    ("retain_grad.retained", "retained_prints = [15, 6, None, False]", PASS),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 6.0]",
     FAIL("a request for the next backward()", never=("None",))),
    # retain_grad() called after backward(): too late (issue 30)
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    out = (hidden @ w2).sum()
    out.backward()
    hidden.retain_grad()
    return hidden.grad""", FAIL("retain_grad()", "after backward()", never=("before backward",))),
    # 06 hidden: the network cut by detach(), the gradient by hand, the ReLU's mask
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1).detach().requires_grad_()
    out = (hidden @ w2).sum()
    out.backward()
    return hidden.grad""",
     FAIL("the fix cut the network", "keep the graph from x to out whole",
          never=("retain_grad() before",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    return check._expected_gradients(x, w1, w2)[0]""",
     FAIL("the check's own _expected_gradients()", "write the answer yourself",
          never=("retain_grad()",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    return torch.ones(len(x), 1, dtype=w2.dtype) @ w2.detach().T""",
     FAIL("no backward pass ran", "not one worked out by hand", never=("retain_grad()",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    pre = x @ w1
    pre.retain_grad()
    (torch.relu(pre) @ w2).sum().backward()
    return pre.grad  # the gradient before the ReLU, not of hidden""",
     FAIL("the result is not d(out)/d(hidden)", "it has hidden's shape", never=("retain_grad()",))),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    seen = {}
    hidden.register_hook(lambda grad: seen.update(grad=grad))
    (hidden @ w2).sum().backward()
    return seen["grad"]""", PASS),
    # 06 lesson build, gradients along a chain: retain_grad() or hooks, one backward; calling
    # retain_grad() after backward(), or one autograd.grad per layer, is not.
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        h.retain_grad()
        layers.append(h)
    h.backward()
    return [layer.grad for layer in layers]""", PASS),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, caught = x, []
    for k, w in enumerate(weights):
        h = torch.tanh(w * h)
        caught.append(None)
        h.register_hook(lambda grad, k=k: caught.__setitem__(k, grad))
    h.backward()
    return caught""", PASS),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        layers.append(h)
    h.backward()
    for layer in layers:
        layer.retain_grad()  # too late
    return [layer.grad for layer in layers]""",
     FAIL("some gradients are None", "before or after backward()",
          never=("retain_grad() before",))),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        layers.append(h)
    return [torch.autograd.grad(h, layer, retain_graph=True)[0] for layer in layers]""",
     FAIL("it ran 5 backward passes", "one backward() on the output computes every gradient",
          never=("retain_grad() before",))),
    ("retain_grad.chain_gradients", """\
def chain_gradients(x, weights):
    h, layers = x, []
    for w in weights:
        h = torch.tanh(w * h)
        h.retain_grad()
        layers.append(h)
    h.backward()
    return [layer.grad for layer in layers[:-1]]  # the output's own gradient left out""",
     FAIL("a list of 5 gradients, one per layer", never=("retain_grad() before",))),
    # 06 too late: numbers may be ints, and "error" is not what h.grad prints; retain_grad()
    # after backward() marks h but leaves h.grad None, and a leaf is never marked.
    ("retain_grad.too_late", "late_prints = [False, 12, True, None]", PASS),
    ("retain_grad.too_late", "late_prints = (False, 12.0, True, None)", PASS),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 2.0]",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [False, 12.0, False, None]",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [True, 12.0, True, None]",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [False, 12.0, True, 'error']",
     FAIL("a request for the next backward()", never=("None]",))),
    ("retain_grad.too_late", "late_prints = [0, 12.0, 1, None]",
     FAIL("a request for the next backward()", never=("None]",))),
    # 06 hidden gradient: any way of getting d(out)/d(hidden) is right.
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    out = (hidden @ w2).sum()
    return torch.autograd.grad(out, hidden)[0]""", PASS),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    caught = []
    hidden.register_hook(caught.append)
    (hidden @ w2).sum().backward()
    return caught[0]""", PASS),
    ("retain_grad.hidden_gradient", """\
def hidden_gradient(x, w1, w2):
    hidden = torch.relu(x @ w1)
    hidden.retain_grad()
    (hidden @ w2).sum().backward()
    return w1.grad""",
     FAIL("the result is not d(out)/d(hidden) (got numbers of shape (3, 5))",
          "it has hidden's shape", never=("retain_grad()",))),
]
