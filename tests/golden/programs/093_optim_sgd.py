# torch.optim.SGD: plain, with momentum, with weight decay.
import torch


def run(**kwargs):
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    opt = torch.optim.SGD([w], **kwargs)
    target = torch.tensor([0.5, 0.5])
    for step in range(3):
        opt.zero_grad()
        loss = ((w - target) ** 2).sum()
        loss.backward()
        opt.step()
        print(f"  step {step}: loss={loss.item():.5f} w={w.detach()}")
    return w


for kwargs in [dict(lr=0.1), dict(lr=0.1, momentum=0.9), dict(lr=0.1, weight_decay=0.5), dict(lr=0.05, momentum=0.5, weight_decay=0.25)]:
    print(kwargs)
    w = run(**kwargs)
    print("  leaf:", w.is_leaf, "grad:", w.grad)
