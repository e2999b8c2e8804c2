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
]
