# Source: vahidk/EffectivePyTorch, README.md (Vahid Kazemi, "Effective PyTorch", Part I:
#   PyTorch basics, automatic differentiation with `torch.autograd.grad`, curve fitting with
#   Adam, encapsulating a model in Modules, broadcasting the good and the ugly, the overloaded
#   operators, numerical stability of softmax and cross entropy, and its gradient)
# Edits: the listings in order as one program; torch.manual_seed(0) and np.random.seed(0) added
#   (unseeded); `import numpy as np` moved to the top (the page uses np before importing it);
#   `d = torch.rand([2, 2, 2])` and the results the page states in comments are printed; the
#   page's "add two vectors" (`z = x + y` of a 3x5 and a 5x4 matrix, which raises) runs inside
#   try/except that prints the error as Python shows its last line; the 10,000 SGD steps of the
#   Module example are 1,000; the timing print of the slicing example is left out (time varies)
#   and its three reductions are printed; for the list of overloaded operators, x and y are two
#   integer tensors written here (the page has none in scope there) and each z is printed; the
#   TorchScript, data-loader and mixed-precision sections are left out (they need a GPU, files
#   or torch.jit).
# Waits because: `print(z.numpy())` of `x @ y` (3x5 by 5x4, float32) prints numpy's shortest
#   digits of each value, and five of the twelve differ from PyTorch's in the last bit (MKL's
#   sgemm adds the five products in an order of its own; minigrad repeats PyTorch's order for
#   2 to 4 terms only: fidelity/products.py), so the printed digits and the columns' widths
#   differ; and the Adam-fitted coefficients printed the same way differ in their last digit.
#   (`torch.sum(x, dim=0)` of 500 rows prints PyTorch's 249.7440 since partial sums took
#   PyTorch's order.)
import numpy as np
import torch

torch.manual_seed(0)
np.random.seed(0)

a = torch.tensor(3)
print(a)  # tensor(3)

b = torch.tensor([1, 2])
print(b)  # tensor([1, 2])

c = torch.zeros([2, 2])
print(c)  # tensor([[0., 0.], [0., 0.]])

d = torch.rand([2, 2, 2])
print(d)

x = torch.randn([3, 5])
y = torch.randn([5, 4])
z = x @ y

print(z)

try:
    z = x + y
except RuntimeError as error:
    print(f"RuntimeError: {error}")

print(z.numpy())

x = torch.tensor(np.random.normal([3, 5]))
print(x)

# Automatic differentiation
x = torch.tensor(1.0, requires_grad=True)

def u(x):
  return x * x

def g(u):
  return -u

dgdx = torch.autograd.grad(g(u(x)), x)[0]
print(dgdx)  # tensor(-2.)

# Curve fitting

# Assuming we know that the desired function is a polynomial of 2nd degree, we
# allocate a vector of size 3 to hold the coefficients and initialize it with
# random noise.
w = torch.tensor(torch.randn([3, 1]), requires_grad=True)

# We use the Adam optimizer with learning rate set to 0.1 to minimize the loss.
opt = torch.optim.Adam([w], 0.1)

def model(x):
    # We define yhat to be our estimate of y.
    f = torch.stack([x * x, x, torch.ones_like(x)], 1)
    yhat = torch.squeeze(f @ w, 1)
    return yhat

def compute_loss(y, yhat):
    # The loss is defined to be the mean squared error distance between our
    # estimate of y and its true value.
    loss = torch.nn.functional.mse_loss(yhat, y)
    return loss

def generate_data():
    # Generate some training data based on the true function
    x = torch.rand(100) * 20 - 10
    y = 5 * x * x + 3
    return x, y

def train_step():
    x, y = generate_data()

    yhat = model(x)
    loss = compute_loss(y, yhat)

    opt.zero_grad()
    loss.backward()
    opt.step()

for _ in range(1000):
    train_step()

print(w.detach().numpy())

# Encapsulate your model with Modules
class Net(torch.nn.Module):

  def __init__(self):
    super().__init__()
    self.a = torch.nn.Parameter(torch.rand(1))
    self.b = torch.nn.Parameter(torch.rand(1))

  def forward(self, x):
    yhat = self.a * x + self.b
    return yhat

x = torch.arange(100, dtype=torch.float32)

net = Net()
y = net(x)

for p in net.parameters():
    print(p)

x = torch.arange(100, dtype=torch.float32) / 100
y = 5 * x + 3 + torch.rand(100) * 0.3

criterion = torch.nn.MSELoss()
optimizer = torch.optim.SGD(net.parameters(), lr=0.01)

for i in range(1000):
  net.zero_grad()
  yhat = net(x)
  loss = criterion(yhat, y)
  loss.backward()
  optimizer.step()

print(net.a, net.b) # Should be close to 5 and 3

class Net(torch.nn.Module):

  def __init__(self):
    super().__init__()
    self.linear = torch.nn.Linear(1, 1)

  def forward(self, x):
    yhat = self.linear(x.unsqueeze(1)).squeeze(1)
    return yhat

net = Net()
for p in net.parameters():
    print(p)

model = torch.nn.Sequential(
    torch.nn.Linear(64, 32),
    torch.nn.ReLU(),
    torch.nn.Linear(32, 10),
)
print(model)

# Broadcasting the good and the ugly
a = torch.tensor([[1., 2.], [3., 4.]])
b = torch.tensor([[1.], [2.]])
# c = a + b.repeat([1, 2])
c = a + b

print(c)

a = torch.rand([5, 3, 5])
b = torch.rand([5, 1, 6])

linear = torch.nn.Linear(11, 10)

# concat a and b and apply nonlinearity
tiled_b = b.repeat([1, 3, 1])
c = torch.cat([a, tiled_b], 2)
d = torch.nn.functional.relu(linear(c))

print(d.shape)  # torch.Size([5, 3, 10])

a = torch.rand([5, 3, 5])
b = torch.rand([5, 1, 6])

linear1 = torch.nn.Linear(5, 10)
linear2 = torch.nn.Linear(6, 10)

pa = linear1(a)
pb = linear2(b)
d = torch.nn.functional.relu(pa + pb)

print(d.shape)  # torch.Size([5, 3, 10])

class Merge(torch.nn.Module):
    def __init__(self, in_features1, in_features2, out_features, activation=None):
        super().__init__()
        self.linear1 = torch.nn.Linear(in_features1, out_features)
        self.linear2 = torch.nn.Linear(in_features2, out_features)
        self.activation = activation

    def forward(self, a, b):
        pa = self.linear1(a)
        pb = self.linear2(b)
        c = pa + pb
        if self.activation is not None:
            c = self.activation(c)
        return c

a = torch.tensor([[1.], [2.]])
b = torch.tensor([1., 2.])
c = torch.sum(a + b)

print(c)

a = torch.tensor([[1.], [2.]])
b = torch.tensor([1., 2.])
c = torch.sum(a + b, 0)

print(c)

# Take advantage of the overloaded operators
x = torch.rand([500, 10])

z = torch.zeros([10])

for i in range(500):
    z += x[i]
print(z)

z = torch.zeros([10])
for x_i in torch.unbind(x):
    z += x_i
print(z)

z = torch.sum(x, dim=0)
print(z)

x = torch.tensor([[-7, 5], [6, -3]])
y = torch.tensor([[2, -3], [4, 5]])

z = -x      # z = torch.neg(x)
print(z)
z = x + y   # z = torch.add(x, y)
print(z)
z = x - y   # z = torch.sub(x, y)
print(z)
z = x * y   # z = torch.mul(x, y)
print(z)
z = x / y   # z = torch.div(x, y)
print(z)
z = x // y  # z = torch.floor_divide(x, y)
print(z)
z = x % y   # z = torch.remainder(x, y)
print(z)
z = x ** y.abs()  # z = torch.pow(x, y)
print(z)
z = x @ y   # z = torch.matmul(x, y)
print(z)
z = x > y   # z = torch.gt(x, y)
print(z)
z = x >= y  # z = torch.ge(x, y)
print(z)
z = x < y   # z = torch.lt(x, y)
print(z)
z = x <= y  # z = torch.le(x, y)
print(z)
z = abs(x)  # z = torch.abs(x)
print(z)
z = x & y   # z = torch.bitwise_and(x, y)
print(z)
z = x | y   # z = torch.bitwise_or(x, y)
print(z)
z = x ^ y   # z = torch.bitwise_xor(x, y)
print(z)
z = ~x      # z = torch.bitwise_not(x)
print(z)
z = x == y  # z = torch.eq(x, y)
print(z)
z = x != y  # z = torch.ne(x, y)
print(z)

x += y
x **= 2
print(x)

# Numerical stability in PyTorch
x = np.float32(1)

y = np.float32(1e-50)  # y would be stored as zero
z = x * y / y

print(z)  # prints nan

y = np.float32(1e39)  # y would be stored as inf
z = x * y / y

print(z)  # prints nan

print(np.nextafter(np.float32(0), np.float32(1)))  # prints 1.4013e-45
print(np.finfo(np.float32).max)  # print 3.40282e+38

def unstable_softmax(logits):
    exp = torch.exp(logits)
    return exp / torch.sum(exp)

print(unstable_softmax(torch.tensor([1000., 0.])).numpy())  # prints [ nan, 0.]

def softmax(logits):
    exp = torch.exp(logits - torch.max(logits))
    return exp / torch.sum(exp)

print(softmax(torch.tensor([1000., 0.])).numpy())  # prints [ 1., 0.]

def unstable_softmax_cross_entropy(labels, logits):
    logits = torch.log(softmax(logits))
    return -torch.sum(labels * logits)

labels = torch.tensor([0.5, 0.5])
logits = torch.tensor([1000., 0.])

xe = unstable_softmax_cross_entropy(labels, logits)

print(xe.numpy())  # prints inf

def softmax_cross_entropy(labels, logits, dim=-1):
    scaled_logits = logits - torch.max(logits)
    normalized_logits = scaled_logits - torch.logsumexp(scaled_logits, dim)
    return -torch.sum(labels * normalized_logits)

labels = torch.tensor([0.5, 0.5])
logits = torch.tensor([1000., 0.])

xe = softmax_cross_entropy(labels, logits)

print(xe.numpy())  # prints 500.0

logits.requires_grad_(True)
xe = softmax_cross_entropy(labels, logits)
g = torch.autograd.grad(xe, logits)[0]
print(g.numpy())  # prints [0.5, -0.5]
