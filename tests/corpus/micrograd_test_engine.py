# Source: karpathy/micrograd, test/test_engine.py (the PyTorch halves of its tests)
# Edits: micrograd's own Value halves are removed (this corpus runs PyTorch code); instead of
#   asserting against them, the values and gradients PyTorch computes are printed; the two
#   test functions are called at the end.
import torch


def test_sanity_check():

    x = torch.Tensor([-4.0]).double()
    x.requires_grad = True
    z = 2 * x + 2 + x
    q = z.relu() + z * x
    h = (z * z).relu()
    y = h + q + q * x
    y.backward()
    xpt, ypt = x, y

    print(ypt.data.item(), xpt.grad.item())


def test_more_ops():

    a = torch.Tensor([-4.0]).double()
    b = torch.Tensor([2.0]).double()
    a.requires_grad = True
    b.requires_grad = True
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    g.backward()
    apt, bpt, gpt = a, b, g

    print(gpt.data.item(), apt.grad.item(), bpt.grad.item())


def test_unary_tensor_fns():
    def test_unary_tensor_fn(tensor_fn, xs):
        for x in xs:
            xt = torch.Tensor([x]).double()
            xt.requires_grad = True
            yt = tensor_fn(xt)
            yt.backward()
            print(yt.data.item(), xt.grad.item())

    test_unary_tensor_fn(torch.Tensor.tanh, [-1., .123, 2.])
    test_unary_tensor_fn(torch.Tensor.exp, [-1., .123, 2.])


test_sanity_check()
test_more_ops()
test_unary_tensor_fns()
