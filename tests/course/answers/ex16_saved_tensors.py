"""The answers learners write, right and wrong, for the checks of exercise 16 and of
lesson 16's build (minigrad_course/checks/saved_tensors.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 16 predictions: x * x keeps x once, or X @ W keeps X too
    ("saved_tensors.kept", "kept_prints = [3, 3, 12, 0]",
     FAIL("an operation keeps what the gradients", never=("twice",))),
    ("saved_tensors.kept", "kept_prints = [6, 3, 18, 0]",
     FAIL("an operation keeps what the gradients", never=("only W",))),
    ("saved_tensors.kept", "kept_prints = [6.0, 3.0, 12.0, 0.0]", PASS),
    ("saved_tensors.block_runs", "runs_prints = [1, 1]",
     FAIL("runs once forward and again when backward needs", never=("twice",))),
    ("saved_tensors.block_runs", "runs_prints = [1.0, 2.0]", PASS),
    # 16 a store for kept tensors: keys by counter or by id pass; the tensor itself returned
    # by pack (the graph keeps it: emptying the store changes nothing), one entry for all,
    # make_loss outside the block, and an unpack that hands back the key fail.
    ("saved_tensors.kept_in_store", """\
def kept_in_store(make_loss):
    store = {}

    def pack(t):
        store[f"t{len(store)}"] = t
        return f"t{len(store) - 1}"

    with torch.autograd.graph.saved_tensors_hooks(pack, store.__getitem__):
        loss = make_loss()
    return loss, store""", PASS),
    ("saved_tensors.kept_in_store", """\
def kept_in_store(make_loss):
    store = {}

    def pack(t):
        store[len(store)] = t
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        loss = make_loss()
    return loss, store""",
     FAIL("backward still ran after the store was emptied", "what pack returns",
          never=("key",))),
    ("saved_tensors.kept_in_store", """\
def kept_in_store(make_loss):
    store = {}

    def pack(t):
        store["last"] = t
        return "last"

    with torch.autograd.graph.saved_tensors_hooks(pack, store.get):
        loss = make_loss()
    return loss, store""",
     FAIL("not one tensor for each tensor kept", never=("len(store)",))),
    ("saved_tensors.kept_in_store", """\
def kept_in_store(make_loss):
    store = {}

    def pack(t):
        store[len(store)] = t
        return len(store) - 1

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda key: key):
        loss = make_loss()
    return loss, store""",
     FAIL("backward did not give the gradients", "unpack receives what pack returned",
          never=("store[key]",))),
    ("saved_tensors.kept_in_store", """\
def kept_in_store(make_loss):
    store = {}
    loss = make_loss()
    return loss, store""",
     FAIL("not one tensor for each tensor kept", never=("len(store)",))),
    # 16 lesson build, counting what a graph keeps. Walking the saved attributes passes; the
    # stub, tensors counted instead of numbers, make_loss run outside the block or twice, and
    # a pack that keeps something else (backward breaks) fail.
    ("saved_tensors.saved_numbers", """\
def saved_numbers(make_loss):
    total = 0

    def pack(t):
        nonlocal total
        total += t.numel()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        make_loss()
    return total""", PASS),
    ("saved_tensors.saved_numbers", """\
def saved_numbers(make_loss):
    # YOUR CODE HERE
    raise NotImplementedError()""", FAIL("still raises NotImplementedError",
                                        never=("numel",))),
    ("saved_tensors.saved_numbers", """\
def saved_numbers(make_loss):
    packed = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: packed.append(t) or t,
                                                   lambda t: t):
        make_loss()
    return len(packed)""",
     FAIL("not how many numbers the graph keeps", "not the number of tensors",
          never=("for 5 graphs",))),
    ("saved_tensors.saved_numbers", """\
def saved_numbers(make_loss):
    sizes = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
                                                   lambda t: t):
        pass
    make_loss()
    return sum(sizes)""",
     FAIL("not how many numbers the graph keeps", never=("for 5 graphs",))),
    ("saved_tensors.saved_numbers", """\
def saved_numbers(make_loss):
    make_loss()
    sizes = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()) or t,
                                                   lambda t: t):
        make_loss()
    return sum(sizes)""", FAIL("make_loss ran 2 times", "call it once", never=("numel",))),
    ("saved_tensors.saved_numbers", """\
def saved_numbers(make_loss):
    sizes = []
    with torch.autograd.graph.saved_tensors_hooks(lambda t: sizes.append(t.numel()),
                                                   lambda t: t):
        make_loss()
    return sum(sizes)""",
     FAIL("backward failed on the graph afterwards", "does pack return the tensor",
          never=("numel",))),
]
