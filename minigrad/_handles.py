"""`RemovableHandle`, what every `register_hook` returns (PyTorch's `torch.utils.hooks`, which
names it too: minigrad/utils/hooks.py), and `seen`, whether any node has had a hook. It sits
below Tensor and the graph, which both hand these out."""
from __future__ import annotations

import itertools
from typing import Any


class RemovableHandle:
    """What `register_hook` returns: `remove()` takes the hook out again."""

    _next_id = itertools.count()

    def __init__(self, hooks: dict) -> None:
        self.hooks = hooks  # a plain dict cannot be weakly referenced; it holds only the hooks
        self.id = next(RemovableHandle._next_id)

    def remove(self) -> None:
        self.hooks.pop(self.id, None)

    def __enter__(self) -> RemovableHandle:
        return self

    def __exit__(self, *exc_info: Any) -> None:
        self.remove()


class _Seen:
    """Whether any node of this process has had more than its formula to run at its turn (a
    hook, a retained .grad, a leaf's post-accumulate-grad hook, no input to compute for). Until
    one has, a backward pass asks no node whether it has (engine.GraphTask.run_node): one test
    per pass rather than one per node. Set, never reset, wherever `Node._has_hooks` is set."""
    hooks = False


seen = _Seen()  # (an instance: its field is set without touching a class)
