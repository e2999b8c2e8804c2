# Source: pytorch/pytorch docs/source/notes/serialization.md (the documentation's note
#   "Serialization semantics"): saving and loading tensors and dicts of tensors, views keeping
#   their shared storage through a save, a view saving its whole storage (and a clone only its
#   own values), a BatchNorm1d's parameters, buffers and state_dict, and a custom module's
#   state_dict saved and loaded.
# Edits: torch.manual_seed(0) added (the note draws unseeded); each `>>> expression` whose
#   value the note shows is printed; the files are written into a fresh temporary directory.
import os
import tempfile

import torch

torch.manual_seed(0)
os.chdir(tempfile.mkdtemp())

t = torch.tensor([1., 2.])
torch.save(t, 'tensor.pt')
print(torch.load('tensor.pt'))

d = {'a': torch.tensor([1., 2.]), 'b': torch.tensor([3., 4.])}
torch.save(d, 'tensor_dict.pt')
print(torch.load('tensor_dict.pt'))

numbers = torch.arange(1, 10)
evens = numbers[1::2]
torch.save([numbers, evens], 'tensors.pt')
loaded_numbers, loaded_evens = torch.load('tensors.pt')
loaded_evens *= 2
print(loaded_numbers)

large = torch.arange(1, 1000)
small = large[0:5]
torch.save(small, 'small.pt')
loaded_small = torch.load('small.pt')
print(loaded_small.storage().size())

large = torch.arange(1, 1000)
small = large[0:5]
torch.save(small.clone(), 'small.pt')  # saves a clone of small
loaded_small = torch.load('small.pt')
print(loaded_small.storage().size())

bn = torch.nn.BatchNorm1d(3, track_running_stats=True)
print(list(bn.named_parameters()))

print(list(bn.named_buffers()))

print(bn.state_dict())

torch.save(bn.state_dict(), 'bn.pt')
bn_state_dict = torch.load('bn.pt')
new_bn = torch.nn.BatchNorm1d(3, track_running_stats=True)
print(new_bn.load_state_dict(bn_state_dict))

# A module with two linear layers
class MyModule(torch.nn.Module):
      def __init__(self):
        super().__init__()
        self.l0 = torch.nn.Linear(4, 2)
        self.l1 = torch.nn.Linear(2, 1)

      def forward(self, input):
        out0 = self.l0(input)
        out0_relu = torch.nn.functional.relu(out0)
        return self.l1(out0_relu)

m = MyModule()
print(m.state_dict())

torch.save(m.state_dict(), 'mymodule.pt')
m_state_dict = torch.load('mymodule.pt')
new_m = MyModule()
print(new_m.load_state_dict(m_state_dict))
