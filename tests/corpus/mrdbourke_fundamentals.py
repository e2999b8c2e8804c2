# Source: mrdbourke/pytorch-deep-learning 00_pytorch_fundamentals.ipynb at baa27b6 (Zero to Mastery
#   "Learn PyTorch for Deep Learning", chapter 00, PyTorch Fundamentals: creating tensors, dtypes,
#   torch.range's deprecation, arithmetic, matmul and its shape error, nn.Linear, aggregation,
#   reshape/view (a write through a view), stack, squeeze, permute, indexing, NumPy round trips,
#   reproducible randomness, devices)
# Edits: the notebook's code cells in order; a cell's displayed last expression is printed with
#   print(); torch.__version__ is not printed; the shell and %%time lines are removed; the cell
#   whose matmul errors (as the notebook says it will) runs inside try/except that prints the
#   error as Python shows its last line; torch.manual_seed(0) added after the first import (the
#   first random tensors are unseeded).

# In[3]
import torch
torch.manual_seed(0)

# In[7]
# Scalar
scalar = torch.tensor(7)
print(scalar)

# In[9]
print(scalar.ndim)

# In[11]
# Get the Python number within a tensor (only works with one-element tensors)
print(scalar.item())

# In[13]
# Vector
vector = torch.tensor([7, 7])
print(vector)

# In[15]
# Check the number of dimensions of vector
print(vector.ndim)

# In[17]
# Check shape of vector
print(vector.shape)

# In[19]
# Matrix
MATRIX = torch.tensor([[7, 8], 
                       [9, 10]])
print(MATRIX)

# In[21]
# Check number of dimensions
print(MATRIX.ndim)

# In[23]
print(MATRIX.shape)

# In[25]
# Tensor
TENSOR = torch.tensor([[[1, 2, 3],
                        [3, 6, 9],
                        [2, 4, 5]]])
print(TENSOR)

# In[27]
# Check number of dimensions for TENSOR
print(TENSOR.ndim)

# In[29]
# Check shape of TENSOR
print(TENSOR.shape)

# In[32]
# Create a random tensor of size (3, 4)
random_tensor = torch.rand(size=(3, 4))
print((random_tensor, random_tensor.dtype))

# In[34]
# Create a random tensor of size (224, 224, 3)
random_image_size_tensor = torch.rand(size=(224, 224, 3))
print((random_image_size_tensor.shape, random_image_size_tensor.ndim))

# In[36]
# Create a tensor of all zeros
zeros = torch.zeros(size=(3, 4))
print((zeros, zeros.dtype))

# In[38]
# Create a tensor of all ones
ones = torch.ones(size=(3, 4))
print((ones, ones.dtype))

# In[40]
# Use torch.arange(), torch.range() is deprecated 
zero_to_ten_deprecated = torch.range(0, 10) # Note: this may return an error in the future

# Create a range of values 0 to 10
zero_to_ten = torch.arange(start=0, end=10, step=1)
print(zero_to_ten)

# In[42]
# Can also create a tensor of zeros similar to another tensor
ten_zeros = torch.zeros_like(input=zero_to_ten) # will have same shape
print(ten_zeros)

# In[44]
# Default datatype for tensors is float32
float_32_tensor = torch.tensor([3.0, 6.0, 9.0],
                               dtype=None, # defaults to None, which is torch.float32 or whatever datatype is passed
                               device=None, # defaults to None, which uses the default tensor type
                               requires_grad=False) # if True, operations performed on the tensor are recorded 

print((float_32_tensor.shape, float_32_tensor.dtype, float_32_tensor.device))

# In[46]
float_16_tensor = torch.tensor([3.0, 6.0, 9.0],
                               dtype=torch.float16) # torch.half would also work

print(float_16_tensor.dtype)

# In[48]
# Create a tensor
some_tensor = torch.rand(3, 4)

# Find out details about it
print(some_tensor)
print(f"Shape of tensor: {some_tensor.shape}")
print(f"Datatype of tensor: {some_tensor.dtype}")
print(f"Device tensor is stored on: {some_tensor.device}") # will default to CPU

# In[52]
# Create a tensor of values and add a number to it
tensor = torch.tensor([1, 2, 3])
print(tensor + 10)

# In[53]
# Multiply it by 10
print(tensor * 10)

# In[55]
# Tensors don't change unless reassigned
print(tensor)

# In[57]
# Subtract and reassign
tensor = tensor - 10
print(tensor)

# In[58]
# Add and reassign
tensor = tensor + 10
print(tensor)

# In[60]
# Can also use torch functions
print(torch.multiply(tensor, 10))

# In[61]
# Original tensor is still unchanged 
print(tensor)

# In[63]
# Element-wise multiplication (each element multiplies its equivalent, index 0->0, 1->1, 2->2)
print(tensor, "*", tensor)
print("Equals:", tensor * tensor)

# In[65]
import torch
tensor = torch.tensor([1, 2, 3])
print(tensor.shape)

# In[67]
# Element-wise matrix multiplication
print(tensor * tensor)

# In[68]
# Matrix multiplication
print(torch.matmul(tensor, tensor))

# In[69]
# Can also use the "@" symbol for matrix multiplication, though not recommended
print(tensor @ tensor)

# In[71]
# Matrix multiplication by hand 
# (avoid doing operations with for loops at all cost, they are computationally expensive)
value = 0
for i in range(len(tensor)):
  value += tensor[i] * tensor[i]
print(value)

# In[72]
print(torch.matmul(tensor, tensor))

# In[74]
# Shapes need to be in the right way  
tensor_A = torch.tensor([[1, 2],
                         [3, 4],
                         [5, 6]], dtype=torch.float32)

tensor_B = torch.tensor([[7, 10],
                         [8, 11], 
                         [9, 12]], dtype=torch.float32)

try:
    print(torch.matmul(tensor_A, tensor_B)) # (this will error)
except RuntimeError as error:
    print(f"RuntimeError: {error}")

# In[76]
# View tensor_A and tensor_B
print(tensor_A)
print(tensor_B)

# In[77]
# View tensor_A and tensor_B.T
print(tensor_A)
print(tensor_B.T)

# In[78]
# The operation works when tensor_B is transposed
print(f"Original shapes: tensor_A = {tensor_A.shape}, tensor_B = {tensor_B.shape}\n")
print(f"New shapes: tensor_A = {tensor_A.shape} (same as above), tensor_B.T = {tensor_B.T.shape}\n")
print(f"Multiplying: {tensor_A.shape} * {tensor_B.T.shape} <- inner dimensions match\n")
print("Output:\n")
output = torch.matmul(tensor_A, tensor_B.T)
print(output) 
print(f"\nOutput shape: {output.shape}")

# In[80]
# torch.mm is a shortcut for matmul
print(torch.mm(tensor_A, tensor_B.T))

# In[83]
# Since the linear layer starts with a random weights matrix, let's make it reproducible (more on this later)
torch.manual_seed(42)
# This uses matrix multiplication
linear = torch.nn.Linear(in_features=2, # in_features = matches inner dimension of input 
                         out_features=6) # out_features = describes outer value 
x = tensor_A
output = linear(x)
print(f"Input shape: {x.shape}\n")
print(f"Output:\n{output}\n\nOutput shape: {output.shape}")

# In[87]
# Create a tensor
x = torch.arange(0, 100, 10)
print(x)

# In[89]
print(f"Minimum: {x.min()}")
print(f"Maximum: {x.max()}")
# print(f"Mean: {x.mean()}") # this will error
print(f"Mean: {x.type(torch.float32).mean()}") # won't work without float datatype
print(f"Sum: {x.sum()}")

# In[91]
print((torch.max(x), torch.min(x), torch.mean(x.type(torch.float32)), torch.sum(x)))

# In[93]
# Create a tensor
tensor = torch.arange(10, 100, 10)
print(f"Tensor: {tensor}")

# Returns index of max and min values
print(f"Index where max value occurs: {tensor.argmax()}")
print(f"Index where min value occurs: {tensor.argmin()}")

# In[95]
# Create a tensor and check its datatype
tensor = torch.arange(10., 100., 10.)
print(tensor.dtype)

# In[97]
# Create a float16 tensor
tensor_float16 = tensor.type(torch.float16)
print(tensor_float16)

# In[99]
# Create an int8 tensor
tensor_int8 = tensor.type(torch.int8)
print(tensor_int8)

# In[102]
# Create a tensor
import torch
x = torch.arange(1., 8.)
print((x, x.shape))

# In[104]
# Add an extra dimension
x_reshaped = x.reshape(1, 7)
print((x_reshaped, x_reshaped.shape))

# In[106]
# Change view (keeps same data as original but changes view)
# See more: https://stackoverflow.com/a/54507446/7900723
z = x.view(1, 7)
print((z, z.shape))

# In[108]
# Changing z changes x
z[:, 0] = 5
print((z, x))

# In[110]
# Stack tensors on top of each other
x_stacked = torch.stack([x, x, x, x], dim=0) # try changing dim to dim=1 and see what happens
print(x_stacked)

# In[112]
print(f"Previous tensor: {x_reshaped}")
print(f"Previous shape: {x_reshaped.shape}")

# Remove extra dimension from x_reshaped
x_squeezed = x_reshaped.squeeze()
print(f"\nNew tensor: {x_squeezed}")
print(f"New shape: {x_squeezed.shape}")

# In[114]
print(f"Previous tensor: {x_squeezed}")
print(f"Previous shape: {x_squeezed.shape}")

## Add an extra dimension with unsqueeze
x_unsqueezed = x_squeezed.unsqueeze(dim=0)
print(f"\nNew tensor: {x_unsqueezed}")
print(f"New shape: {x_unsqueezed.shape}")

# In[116]
# Create tensor with specific shape
x_original = torch.rand(size=(224, 224, 3))

# Permute the original tensor to rearrange the axis order
x_permuted = x_original.permute(2, 0, 1) # shifts axis 0->1, 1->2, 2->0

print(f"Previous shape: {x_original.shape}")
print(f"New shape: {x_permuted.shape}")

# In[119]
# Create a tensor 
import torch
x = torch.arange(1, 10).reshape(1, 3, 3)
print((x, x.shape))

# In[121]
# Let's index bracket by bracket
print(f"First square bracket:\n{x[0]}") 
print(f"Second square bracket: {x[0][0]}") 
print(f"Third square bracket: {x[0][0][0]}")

# In[123]
# Get all values of 0th dimension and the 0 index of 1st dimension
print(x[:, 0])

# In[124]
# Get all values of 0th & 1st dimensions but only index 1 of 2nd dimension
print(x[:, :, 1])

# In[125]
# Get all values of the 0 dimension but only the 1 index value of the 1st and 2nd dimension
print(x[:, 1, 1])

# In[126]
# Get index 0 of 0th and 1st dimension and all values of 2nd dimension 
print(x[0, 0, :]) # same as x[0][0]

# In[129]
# NumPy array to tensor
import torch
import numpy as np
array = np.arange(1.0, 8.0)
tensor = torch.from_numpy(array)
print((array, tensor))

# In[131]
# Change the array, keep the tensor
array = array + 1
print((array, tensor))

# In[133]
# Tensor to NumPy array
tensor = torch.ones(7) # create a tensor of ones with dtype=float32
numpy_tensor = tensor.numpy() # will be dtype=float32 unless changed
print((tensor, numpy_tensor))

# In[135]
# Change the tensor, keep the array the same
tensor = tensor + 1
print((tensor, numpy_tensor))

# In[137]
import torch

# Create two random tensors
random_tensor_A = torch.rand(3, 4)
random_tensor_B = torch.rand(3, 4)

print(f"Tensor A:\n{random_tensor_A}\n")
print(f"Tensor B:\n{random_tensor_B}\n")
print(f"Does Tensor A equal Tensor B? (anywhere)")
print(random_tensor_A == random_tensor_B)

# In[139]
import torch
import random

# # Set the random seed
RANDOM_SEED=42 # try changing this to different values and see what happens to the numbers below
torch.manual_seed(seed=RANDOM_SEED) 
random_tensor_C = torch.rand(3, 4)

# Have to reset the seed every time a new rand() is called 
# Without this, tensor_D would be different to tensor_C 
torch.random.manual_seed(seed=RANDOM_SEED) # try commenting this line out and seeing what happens
random_tensor_D = torch.rand(3, 4)

print(f"Tensor C:\n{random_tensor_C}\n")
print(f"Tensor D:\n{random_tensor_D}\n")
print(f"Does Tensor C equal Tensor D? (anywhere)")
print(random_tensor_C == random_tensor_D)

# In[146]
# Check for GPU
import torch
print(torch.cuda.is_available())

# In[148]
# Set device type
device = "cuda" if torch.cuda.is_available() else "cpu"
print(device)

# In[150]
# Count number of devices
print(torch.cuda.device_count())

# In[153]
# Check for Apple Silicon GPU
import torch
print(torch.backends.mps.is_available()) # Note this will print false if you're not running on a Mac

# In[154]
# Set device type
device = "mps" if torch.backends.mps.is_available() else "cpu"
print(device)

# In[156]
if torch.cuda.is_available():
    device = "cuda" # Use NVIDIA GPU (if available)
elif torch.backends.mps.is_available():
    device = "mps" # Use Apple Silicon GPU (if available)
else:
    device = "cpu" # Default to CPU if no GPU is available

# In[158]
# Create tensor (default on CPU)
tensor = torch.tensor([1, 2, 3])

# Tensor not on GPU
print(tensor, tensor.device)

# Move tensor to GPU (if available)
tensor_on_gpu = tensor.to(device)
print(tensor_on_gpu)

# In[161]
# If tensor is on GPU, can't transform it to NumPy (this will error)
print(tensor_on_gpu.numpy())

# In[163]
# Instead, copy the tensor back to cpu
tensor_back_on_cpu = tensor_on_gpu.cpu().numpy()
print(tensor_back_on_cpu)

# In[165]
print(tensor_on_gpu)

