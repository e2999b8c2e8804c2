# Only leaves that require grad are populated (plus tensors that retain_grad()).
import torch
import warnings

leaf = torch.tensor([0.25, 0.5, 1.0], requires_grad=True)
const = torch.tensor([2.0, 2.0, 2.0])
mid = leaf * const
top = mid.exp().sum()
print("leaf:", leaf.is_leaf, leaf.requires_grad)
print("const:", const.is_leaf, const.requires_grad)
print("mid:", mid.is_leaf, mid.requires_grad)
print("top:", top.is_leaf, top.requires_grad)
top.backward()
print("leaf.grad:", leaf.grad)
print("const.grad:", const.grad)
with warnings.catch_warnings(record=True):
    warnings.simplefilter("ignore")
    print("mid.grad:", mid.grad)
    print("top.grad:", top.grad)
