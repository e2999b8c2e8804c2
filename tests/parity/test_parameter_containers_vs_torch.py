"""nn.ParameterList and nn.ParameterDict (the "Modules" note registers parameters with them:
tests/corpus/pytorch_modules_note.py) against real PyTorch: their reprs (a list's dtypes as
torch.float32, a dict's as torch.FloatTensor), a plain tensor made a Parameter, a dict's keys
sorted and an OrderedDict's kept, their names in named_parameters and state_dict, slicing,
+=, pop, IndexError, and gradients reaching them. Skipped without PyTorch."""
from __future__ import annotations

from collections import OrderedDict

import minigrad as mg


def _behaviour(lib) -> list:
    nn = lib.nn
    lib.manual_seed(0)
    pl = nn.ParameterList([nn.Parameter(lib.randn(2)) for _ in range(3)])
    pd = nn.ParameterDict({"foo": nn.Parameter(lib.randn(3)), "bar": nn.Parameter(lib.randn(4))})
    seen = [repr(pl), repr(pd), list(pd.keys()), "foo" in pd, len(pd)]
    pl.append(lib.ones(2))
    seen += [type(pl[3]).__name__, pl[3].requires_grad, len(pl), pl[-1].tolist()]
    pl += [lib.zeros(1)]
    seen += [len(pl), [list(p.shape) for p in pl[1:3]]]

    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.p, self.d = pl, pd

    m = M()
    seen += [repr(m), [n for n, _ in m.named_parameters()], list(m.state_dict())]
    sum(p.sum() for p in m.parameters()).backward()
    seen += [pl[0].grad.tolist(), pd["bar"].grad.tolist()]
    pd["baz"] = lib.ones(1)
    seen += [type(pd["baz"]).__name__, list(pd.keys()), list(pd.pop("foo").shape), list(pd)]
    ordered = OrderedDict([("z", nn.Parameter(lib.ones(1))), ("a", nn.Parameter(lib.ones(1)))])
    seen.append(list(nn.ParameterDict(ordered).keys()))
    try:
        pl[10]
    except IndexError as error:
        seen.append(str(error))
    return seen


def test_parameter_list_and_dict_as_torch(torch):
    assert _behaviour(mg) == _behaviour(torch)
