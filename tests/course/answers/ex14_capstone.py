"""The answers learners write, right and wrong, for the checks of exercise 14 and of
lesson 14's builds (minigrad_course/checks/capstone.py);
rows as answers/__init__.py says."""
from __future__ import annotations

from .feedback_words import FAIL, PASS

ROWS = [
    # 14 train: the check's expected losses, a model of its own, no reset at all
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    lr = optimizer.param_groups[0]["lr"]
    return check._descent(model, xs, ys, lr, steps)[0]""",
     FAIL("the check's own _descent()", "write the answer yourself", never=("zero_grad()",))),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    model = check.make_model()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses""",
     FAIL("the check's own make_model()", "write the answer yourself", never=("zero_grad()",))),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        model.zero_grad(set_to_none=False)
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(float(loss))
    return losses""", PASS),
    # 14 train: the buggy loop's forward pass still outside the loop (the reset moved, or
    # retain_graph dropped); the forward moved in, retain_graph left: right, if needless
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    loss = loss_fn(model(xs), ys)
    losses = []
    for step in range(steps):
        loss.backward(retain_graph=True)
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses""",
     FAIL("modified by an inplace operation", "which graph can give this step's gradient",
          never=("inside the loop", "model(xs)"))),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    loss = loss_fn(model(xs), ys)
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses""",
     FAIL("backward through the graph a second time", "which graph should each step go back",
          never=("inside the loop", "model(xs)"))),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(xs), ys)
        loss.backward(retain_graph=True)
        optimizer.step()
        losses.append(loss.item())
    return losses""", PASS),
    # 14 prediction
    ("capstone.frozen", "frozen_prints = [None, [1.0], False]",
     FAIL("a frozen layer gets no .grad", never=("4.0",))),
    ("capstone.frozen", "frozen_prints = [None, [4], False]", PASS),
    ("capstone.frozen", "frozen_prints = ['None', 'tensor([4.])', 'False']",
     FAIL("model[0].weight.grad: you wrote the text 'None': write None without quotes",
          "model[2].bias.grad: you wrote the text", "a number, or a list of numbers",
          never=("[4.0]",))),
    # 14 accuracy: recording left off, the graph built anyway, a number written in; dropout
    # left on, or eval() never undone
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    model.eval()
    torch.set_grad_enabled(False)
    predicted = model(xs).argmax(dim=1)
    model.train()
    return (predicted == ys).float().mean().item()""",
     FAIL("gradients are still off after accuracy() returned",
          "a `with` block turns recording back on", never=("no_grad()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    model.eval()
    predicted = model(xs).detach().argmax(dim=1)
    model.train()
    return (predicted == ys).float().mean().item()""",
     FAIL("the model ran with gradients enabled", "which block turns recording off",
          never=("no_grad()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    model.eval()
    model.requires_grad_(False)  # nothing recorded, and the model frozen for good
    right = (model(xs).argmax(dim=1) == ys).float().mean().item()
    model.train()
    return right""",
     FAIL("some of the model's parameters no longer require grad",
          "switch recording off for the evaluation, not the parameters", never=("no_grad()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    model.eval()
    with torch.no_grad():
        right = (model(xs).argmax(dim=1) == ys).float().mean()
    model.train()
    return right""",
     FAIL("it should return a Python float, not a tensor", ".item()", never=("no_grad()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    model.eval()
    with torch.no_grad():
        model(xs)
    model.train()
    return 0.5""",
     FAIL("not the fraction of points whose highest score is their label", never=("no_grad()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):  # notebook 14's evaluation, dropout left on
    with torch.no_grad():
        predicted = model(xs).argmax(dim=1)
    return (predicted == ys).float().mean().item()""",
     FAIL("the model ran in training mode", "which method of a module switches dropout off",
          never=("eval()",))),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    model.eval()
    with torch.no_grad():
        predicted = model(xs).argmax(dim=1)
    return (predicted == ys).float().mean().item()""",
     FAIL("still in evaluation mode", "put it back as you found it", never=("train()",))),
    ("capstone.accuracy", """\
@torch.no_grad()
def accuracy(model, xs, ys):
    was_training = model.training
    model.eval()
    right = (model(xs).argmax(dim=1) == ys).sum().item()
    model.train(was_training)
    return right / len(ys)""", PASS),
    ("capstone.accuracy", """\
def accuracy(model, xs, ys):
    model.train(False)
    with torch.set_grad_enabled(False):
        predicted = model(xs).argmax(dim=1)
    model.train(True)
    return float((predicted == ys).float().mean())""", PASS),
    # 14 train: zero_grad() after step() resets before the next backward(): right.
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        losses.append(loss.item())
    return losses""", PASS),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
    return losses""",
     FAIL("the losses differ from those of the usual loop",
          "what should .grad hold when step() runs", never=("zero_grad()",))),
    # 14 train: an update by hand beside the optimizer given (right only at the notebook's lr),
    # the losses kept as tensors (the other checks would compare dicts and say nothing true)
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(xs), ys)
        loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= 0.5 * p.grad
        losses.append(loss.item())
    return losses""",
     FAIL("optimizer.step() ran 0 times", "the optimizer given does the update",
          never=("optimizer.step()\n",))),
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    for step in range(steps):
        optimizer.zero_grad()
        loss = loss_fn(model(xs), ys)
        loss.backward()
        optimizer.step()
        losses.append(loss)
    return losses""",
     FAIL("each loss should be a Python float", never=("raised TypeError", "did not go down",
                                                         "differ from"))),
    # 14 train: one gradient, taken before the loop, for every step
    ("capstone.train", """\
def train(model, optimizer, xs, ys, steps):
    loss_fn = torch.nn.CrossEntropyLoss()
    losses = []
    optimizer.zero_grad()
    loss_fn(model(xs), ys).backward()
    for step in range(steps):
        optimizer.step()
        losses.append(loss_fn(model(xs), ys).item())
    return losses""",
     FAIL("backward() ran once; once per step is asked", never=("1 times",))),
    # 14 lesson build, the training step: zero_grad() first; a reset after step() leaves
    # .grad None, none at all accumulates, a reset between backward() and step() never moves.
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    optimizer.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss.item()""", PASS),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss.item()""",
     FAIL(".grad holds other numbers, not this step's gradient", "reset first, then backward()",
          never=("zero_grad()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()""",
     FAIL("some .grad is None, not this step's gradient", "reset first, then backward()",
          never=("zero_grad()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad(set_to_none=False)
    return loss.item()""",
     FAIL("every .grad is zeros, not this step's gradient", "reset first, then backward()",
          never=("zero_grad()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
    return loss.item()""",
     FAIL("some .grad is None, not this step's gradient", "reset first, then backward()",
          never=("zero_grad()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):  # an optimizer of its own, lr written in
    mine = torch.optim.SGD(model.parameters(), lr=0.5)
    mine.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    mine.step()
    return loss.item()""",
     FAIL("the optimizer given took 0 steps", "the one the loop below goes on with",
          never=("optimizer.step()",))),
    ("capstone.train_step", """\
def train_step(model, optimizer, loss_fn, xs, ys):
    optimizer.zero_grad()
    loss = loss_fn(model(xs), ys)
    loss.backward()
    optimizer.step()
    return loss""", FAIL("as a Python float (loss.item())", never=("zero_grad()",))),
    # 14 lesson build, the freeze: an optimizer over the trained parameters only; the old
    # optimizer's parameters, or every parameter, are not.
    ("capstone.freeze", """\
def freeze(model, index, lr):
    model[index].requires_grad_(False)
    for param in model[index].parameters():
        param.grad = None
    trained = [param for param in model.parameters() if param.requires_grad]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)""", PASS),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    for param in model[index].parameters():
        param.requires_grad = False
        param.grad = None
    trained = [p for i, layer in enumerate(model) if i != index for p in layer.parameters()]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)""", PASS),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    model[index].requires_grad_(False)
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)""",
     FAIL("still hold their old .grad", "filter model.parameters() by requires_grad",
          never=("p.grad = None",))),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    model[index].requires_grad_(False)
    for param in model[index].parameters():
        param.grad = None
    return torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9)""",
     FAIL("should hold exactly the 2 parameters still trained",
          "filter model.parameters() by requires_grad", never=("p.grad = None",))),
    ("capstone.freeze", """\
def freeze(model, index, lr):
    for param in model[index].parameters():
        param.grad = None
    trained = [p for i, layer in enumerate(model) if i != index for p in layer.parameters()]
    return torch.optim.SGD(trained, lr=lr, momentum=0.9)  # still requires grad""",
     FAIL("only model[0]'s parameters should stop requiring grad",
          never=("requires_grad_(False)",))),
    # 14 clipping: the worked one written otherwise passes (PyTorch's 1e-6, gradients
    # replaced rather than scaled in place); clipping each parameter by its own norm, the norm
    # after clipping returned, scaling when under the limit, a tensor returned, None .grad
    # not skipped, and the ready-made clip_grad_norm_ fail.
    ("capstone.clip_gradients", """\
def clip_gradients(model, max_norm):
    with torch.no_grad():
        present = [p for p in model.parameters() if p.grad is not None]
        total = torch.cat([p.grad.flatten() for p in present]).norm().item()
        factor = min(1.0, max_norm / (total + 1e-6))
        for p in present:
            p.grad = p.grad * factor
    return total""", PASS),
    ("capstone.clip_gradients", """\
def clip_gradients(model, max_norm):
    norms = []
    for p in model.parameters():
        if p.grad is not None:
            norm = p.grad.norm().item()
            norms.append(norm)
            if norm > max_norm:
                p.grad.mul_(max_norm / norm)
    return sum(norms)""",
     FAIL("not the gradients' joint norm", "all parameters together",
          "every gradient is scaled by the same factor", never=("** 0.5",))),
    ("capstone.clip_gradients", """\
def clip_gradients(model, max_norm):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    total = sum((g ** 2).sum().item() for g in grads) ** 0.5
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / total)
        return max_norm
    return total""",
     FAIL("not the gradients' joint norm before clipping", "taken before any scaling",
          never=("** 0.5",))),
    ("capstone.clip_gradients", """\
def clip_gradients(model, max_norm):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    total = sum((g ** 2).sum().item() for g in grads) ** 0.5
    for g in grads:
        g.mul_(max_norm / total)
    return total""",
     FAIL("is not what clipping leaves", "only when the total is above max_norm",
          never=("** 0.5",))),
    ("capstone.clip_gradients", """\
def clip_gradients(model, max_norm):
    grads = [p.grad for p in model.parameters() if p.grad is not None]
    total = sum((g ** 2).sum() for g in grads).sqrt()
    if total > max_norm:
        for g in grads:
            g.mul_(max_norm / total)
    return total""",
     FAIL("it returned a tensor", ".item()", never=("** 0.5",))),
    ("capstone.clip_gradients", """\
def clip_gradients(model, max_norm):
    total = sum((p.grad ** 2).sum().item() for p in model.parameters()) ** 0.5
    if total > max_norm:
        for p in model.parameters():
            p.grad.mul_(max_norm / total)
    return total""",
     FAIL("raised TypeError", never=("is not None",))),
    ("capstone.clip_gradients", """\
def clip_gradients(model, max_norm):
    return torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm).item()""",
     FAIL("it calls torch.nn.utils.clip_grad_norm_", "write the norm and the scaling yourself",
          never=("** 0.5",))),
]
