# Source: deep-learning-with-pytorch/dlwpt-code p1ch3/1_tensors.ipynb at d6c0210 (Stevens, Antiga
#   and Viehmann, "Deep Learning with PyTorch", chapter 3: indexing, `storage()` (PyTorch 2.13's
#   TypedStorage and its deprecation warning), `storage_offset()`, `stride()`, a view written
#   through, `t()` and `transpose` sharing storage, `is_contiguous()`, `contiguous()`, dtypes and
#   `to`, slicing, numpy round trips, `torch.save`/`torch.load` through a path and a file)
# Edits: a cell's displayed last expression is printed with print(); the files are saved in
#   the working directory instead of ../data/p1ch3/; the h5py and CUDA cells are left out;
#   torch.manual_seed(0) added after the first `import torch` (`torch.rand` is unseeded).
a = [1.0, 2.0, 1.0]

print(a[0])

a[2] = 3.0
print(a)

import torch # <1>
torch.manual_seed(0)
a = torch.ones(3) # <2>
print(a)

print(a[1])

print(float(a[1]))

a[2] = 2.0
print(a)

points = torch.zeros(6) # <1>
points[0] = 4.0 # <2>
points[1] = 1.0
points[2] = 5.0
points[3] = 3.0
points[4] = 2.0
points[5] = 1.0

points = torch.tensor([4.0, 1.0, 5.0, 3.0, 2.0, 1.0])
print(points)

print(float(points[0]), float(points[1]))

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
print(points)

print(points.shape)

points = torch.zeros(3, 2)
print(points)

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
print(points)

print(points[0, 1])

print(points[0])

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
print(points.storage())

points_storage = points.storage()
print(points_storage[0])

print(points.storage()[1])

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points_storage = points.storage()
points_storage[0] = 2.0
print(points)

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1]
print(second_point.storage_offset())

print(second_point.size())

print(second_point.shape)

print(points.stride())

second_point = points[1]
print(second_point.size())

print(second_point.storage_offset())

print(second_point.stride())

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1]
second_point[0] = 10.0
print(points)

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
second_point = points[1].clone()
second_point[0] = 10.0
print(points)

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
print(points)

points_t = points.t()
print(points_t)

print(id(points.storage()) == id(points_t.storage()))

print(points.stride())

print(points_t.stride())

some_t = torch.ones(3, 4, 5)
transpose_t = some_t.transpose(0, 2)
print(some_t.shape)

print(transpose_t.shape)

print(some_t.stride())

print(transpose_t.stride())

print(points.is_contiguous())

print(points_t.is_contiguous())

points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])
points_t = points.t()
print(points_t)

print(points_t.storage())

print(points_t.stride())

points_t_cont = points_t.contiguous()
print(points_t_cont)

print(points_t_cont.stride())

print(points_t_cont.storage())

double_points = torch.ones(10, 2, dtype=torch.double)
short_points = torch.tensor([[1, 2], [3, 4]], dtype=torch.short)

print(short_points.dtype)

double_points = torch.zeros(10, 2).double()
short_points = torch.ones(10, 2).short()

double_points = torch.zeros(10, 2).to(torch.double)
short_points = torch.ones(10, 2).to(dtype=torch.short)

points_64 = torch.rand(5, dtype=torch.double)  # <1>
points_short = points_64.to(torch.short)
print(points_64 * points_short)  # works from PyTorch 1.3 onwards

# reset points back to original value
points = torch.tensor([[4.0, 1.0], [5.0, 3.0], [2.0, 1.0]])

some_list = list(range(6))
some_list[:]     # <1>
some_list[1:4]   # <2>
some_list[1:]    # <3>
some_list[:4]    # <4>
some_list[:-1]   # <5>
print(some_list[1:4:2])  # <6>

points[1:]       # <1>
points[1:, :]    # <2>
points[1:, 0]    # <3>
print(points[None])  # <4>

points = torch.ones(3, 4)
points_np = points.numpy()
print(points_np)

points = torch.from_numpy(points_np)

print(torch.save(points, 'ourpoints.t'))

with open('ourpoints.t','wb') as f:
   torch.save(points, f)

points = torch.load('ourpoints.t')

with open('ourpoints.t','rb') as f:
   points = torch.load(f)

a = torch.ones(3, 2)
a_t = torch.transpose(a, 0, 1)

print(a.shape, a_t.shape)

a = torch.ones(3, 2)
a_t = a.transpose(0, 1)

print(a.shape, a_t.shape)

a = torch.ones(3, 2)

a.zero_()
print(a)
