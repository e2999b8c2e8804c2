"""The answers learners write, right and wrong, for the checks of exercise 07 and of
lesson 07's builds (minigrad_course/checks/hooks.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 07 prediction
    ("hooks.hook_changes_gradient", "hooked_grad = 21.0",
     FAIL("the hook's return value replaces h's gradient", never=("24",))),
    ("hooks.hook_changes_gradient", "hooked_grad = 24", PASS),
    # 07 watch: retain_grad, a late-bound name, gradients read at registration
    ("hooks.watch", """\
def watch(tensors):
    seen = {}
    for name, tensor in tensors.items():
        tensor.register_hook(lambda grad: seen.__setitem__(name, grad))
    return seen""",
     FAIL("the gradient stored under 'w' is not the one that reached it", "remember its own name",
          never=("functools.partial", "name=name"))),
    ("hooks.watch", """\
class Seen(dict):
    def __init__(self, tensors):
        super().__init__()
        self.tensors = tensors
        for t in tensors.values():
            t.retain_grad()
    def get(self, name, default=None):
        return self.tensors[name].grad
    def keys(self):
        return self.tensors.keys()
def watch(tensors):
    return Seen(tensors)""",
     FAIL("it should return a dict (to be filled later)", never=("register_hook",))),
    ("hooks.watch", """\
import functools
def _store(seen, name, grad):
    seen[name] = grad
def watch(tensors):
    seen = {}
    for name, tensor in tensors.items():
        tensor.register_hook(functools.partial(_store, seen, name))
    return seen""", PASS),
    # 07 clip: max_norm = 1 written in, a hook on the wrong tensor, scaling small ones up
    # issue 30: scaled in place and None returned: the tensor is shared with another input of
    # an Add, whose gradient changes too
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        if norm > max_norm:
            grad.mul_(max_norm / norm)
    t.register_hook(clip)""", FAIL("in place", "new tensor", never=("clone()",))),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        return grad / norm if norm > 1 else grad
    t.register_hook(clip)""",
     FAIL("is not 2 × the clipped gradient", "when the norm is larger",
          never=("vector_norm", "clamp"))),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    t.register_hook(lambda grad: grad * (max_norm / (grad ** 2).sum().sqrt()))""",
     FAIL("with a gradient of norm 0.5", "is not 2 × the clipped gradient",
          "the gradient as it is otherwise", never=("vector_norm", "clamp"))),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        scale = torch.clamp(max_norm / torch.linalg.vector_norm(grad), max=1.0)
        return grad * scale
    t.register_hook(clip)""", PASS),
    # 07 clip: any correct Euclidean norm; the L1 norm or clamping each entry is wrong.
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = (grad ** 2).sum().sqrt()
        return grad * (max_norm / norm) if norm > max_norm else grad
    t.register_hook(clip)""", PASS),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = grad.norm()
        return grad * (max_norm / norm) if norm > max_norm else None
    t.register_hook(clip)""", PASS),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    def clip(grad):
        norm = grad.abs().sum()
        return grad * (max_norm / norm) if norm > max_norm else None
    t.register_hook(clip)""",
     FAIL("is not 2 × the clipped gradient", "when the norm is larger", never=("vector_norm",),
          shows_got=True)),
    ("hooks.clip", """\
def clip_gradient(t, max_norm):
    t.register_hook(lambda grad: grad.clamp(-max_norm, max_norm))""",
     FAIL("is not 2 × the clipped gradient", "same direction", never=("vector_norm",),
          shows_got=True)),
    # 07 lesson build, a tensor's hooks run in turn: each handed the gradient as it stands, a
    # returned tensor replacing it. The stub, the lesson's x10 hard-coded, None taken as a
    # gradient, every hook handed the first gradient, stopping at the first replacement, and
    # backward or the engine's own call_tensor_hooks doing it all fail.
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    for hook in hooks:
        result = hook(grad)
        if result is not None:
            grad = result
    return grad""", PASS),
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    for hook in hooks:
        grad = hook(grad) or grad  # None is falsy; a one-element tensor need not be
    return grad""",
     FAIL("raised RuntimeError", "ask whether the hook returned None",
          never=("is not None",))),
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    # YOUR CODE HERE
    raise NotImplementedError()""",
     FAIL("still raises NotImplementedError", never=("is not None",))),
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    return grad * 10  # the lesson's second hook""",
     FAIL("the hooks were called in the order []", "every hook runs", never=("is not None",))),
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    for hook in hooks:
        grad = hook(grad)  # a looking hook's None taken as the gradient
    return grad""",
     FAIL("was not handed the gradient as it stood", "one that returns None leaves it as it is",
          never=("is not None",))),
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    out = grad
    for hook in hooks:
        result = hook(grad)  # each handed the first gradient
        if result is not None:
            out = result
    return out""",
     FAIL("was not handed the gradient as it stood", "replaces the gradient for the hooks after",
          never=("is not None",))),
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    for hook in hooks:
        result = hook(grad)
        if result is not None:
            return result  # the hooks after it never run""",
     FAIL("not each once in the order given", "every hook runs", never=("is not None",))),
    ("hooks.hooks_in_turn", """\
def run_hooks(hooks, grad):
    t = torch.zeros_like(grad, requires_grad=True)
    for hook in hooks:
        t.register_hook(hook)
    t.backward(grad)
    return t.grad""",
     FAIL("ran a backward pass", "call each hook yourself", never=("is not None",))),
]
