# Source: pytorch/pytorch, docs/source/notes/extending.rst ("Extending PyTorch", the
#   documentation's note: Extending torch.autograd and Adding a Module)
# Edits: torch.manual_seed(0) added (unseeded); the note defines its classes without using
#   them beyond gradcheck, so they are applied to small tensors and their outputs, gradients and
#   grad_fn printed; the second MulConstant (set_materialize_grads(False)) is named
#   MulConstantNoMaterialize so that both can be used; gradcheck's inputs are 4x5 and 3x5
#   rather than 20x20 and 30x20.
import torch
import torch.nn as nn
from torch.autograd import Function

# Inherit from Function
class LinearFunction(Function):

    # Note that both forward and backward are @staticmethods
    @staticmethod
    # bias is an optional argument
    def forward(ctx, input, weight, bias=None):
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    # This function has only a single output, so it gets only one gradient
    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None

        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias

linear = LinearFunction.apply

class MulConstant(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        # ctx is a context object that can be used to stash information
        # for backward computation
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None

class MulConstantNoMaterialize(Function):
    @staticmethod
    def forward(ctx, tensor, constant):
        ctx.set_materialize_grads(False)
        ctx.constant = constant
        return tensor * constant

    @staticmethod
    def backward(ctx, grad_output):
        # Here we must handle None grad_output tensor. In this case we
        # can skip unnecessary computations and just return None.
        if grad_output is None:
            return None, None

        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None

torch.manual_seed(0)

x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
w = torch.tensor([[0.5, -1.0, 0.25], [2.0, 0.0, -0.5]], requires_grad=True)
b = torch.tensor([0.1, -0.2], requires_grad=True)
out = linear(x, w, b)
print(out)
print(out.grad_fn, out.grad_fn.next_functions)
out.sum().backward()
print(x.grad, w.grad, b.grad, sep='\n')

x.grad = None
w.grad = None
out = linear(x, w)
print(out)
(out * out).sum().backward()
print(x.grad, w.grad, sep='\n')

frozen = torch.tensor([[1.0, 1.0, 1.0]])
out = linear(frozen, w, b)
out.backward(torch.tensor([[1.0, 2.0]]))
print(frozen.grad, w.grad, b.grad, sep='\n')

a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = MulConstant.apply(a, 5)
print(y, y.grad_fn)
y.sum().backward()
print(a.grad)
try:
    MulConstant.apply(a, 5).sum().backward(create_graph=True)
    print(a.grad)
except RuntimeError as e:
    print(e)

a = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
y = MulConstantNoMaterialize.apply(a, 0.5)
print(y)
y.backward(torch.ones(3))
print(a.grad)

from torch.autograd import gradcheck

input = (torch.randn(4,5,dtype=torch.double,requires_grad=True), torch.randn(3,5,dtype=torch.double,requires_grad=True))
test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
print(test)
print(gradcheck(MulConstant.apply, (torch.randn(3, dtype=torch.double, requires_grad=True), 2.0)))

class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super(Linear, self).__init__()
        self.input_features = input_features
        self.output_features = output_features

        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            # You should always register all possible parameters, but the
            # optional ones can be None if you want.
            self.register_parameter('bias', None)

        # Not a very smart way to initialize weights
        self.weight.data.uniform_(-0.1, 0.1)
        if self.bias is not None:
            self.bias.data.uniform_(-0.1, 0.1)

    def forward(self, input):
        # See the autograd section for explanation of what happens here.
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        # (Optional)Set the extra information about this module. You can test
        # it by printing an object of this class.
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None
        )

layer = Linear(3, 2)
print(layer)
print(Linear(3, 2, bias=False))
print(list(name for name, _ in layer.named_parameters()))
print(layer.weight)
print(layer.bias)
out = layer(torch.tensor([[1.0, 0.0, -1.0]]))
print(out)
out.sum().backward()
print(layer.weight.grad, layer.bias.grad, sep='\n')
print(Linear(3, 2, bias=False)(torch.ones(1, 3)).grad_fn)
