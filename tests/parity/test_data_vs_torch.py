"""torch.utils.data against real PyTorch: TensorDataset, DataLoader (batches, default_collate,
drop_last, len) and shuffle=True's order under torch.manual_seed, bit for bit, for several
seeds, sizes and batch sizes, with the default generator left where PyTorch leaves it (the
numbers drawn after the loop match too). Skipped without PyTorch."""
from __future__ import annotations

import importlib
import warnings

import pytest

import minigrad as mg


def _data(lib):
    return importlib.import_module(f"{lib.__name__}.utils.data")


@pytest.mark.parametrize("seed,n,batch_size,drop_last", [
    (0, 10, 3, False), (1, 100, 16, True), (42, 7, 7, False), (3, 1000, 64, False),
    (5, 1, 1, False), (2024, 33, 5, True), (7, 50, 100, False)])
def test_shuffled_batches_match_torch(torch, seed, n, batch_size, drop_last):
    seen = []
    for lib in (mg, torch):
        lib.manual_seed(seed)
        X = lib.arange(n * 2, dtype=lib.float32).reshape(n, 2)
        y = lib.arange(n)
        loader = _data(lib).DataLoader(_data(lib).TensorDataset(X, y), batch_size=batch_size,
                                       shuffle=True, drop_last=drop_last)
        epochs = [[(xb.tolist(), yb.tolist()) for xb, yb in loader] for _ in range(3)]
        seen.append((epochs, len(loader), lib.randn(4).tolist()))
    assert seen[0] == seen[1]


def test_unshuffled_loader_draws_its_seed_as_torch(torch):
    """Even without shuffling, each pass draws a worker seed from the default generator."""
    seen = []
    for lib in (mg, torch):
        lib.manual_seed(0)
        loader = _data(lib).DataLoader(list(range(10)), batch_size=4)
        seen.append(([b.tolist() for b in loader], len(loader), lib.rand(3).tolist()))
    assert seen[0] == seen[1]


def test_pin_memory_warns_at_each_pass_as_torch(torch):
    """UvA DL's tutorial 3 trains with pin_memory=True: on a machine without an accelerator
    PyTorch warns each time an iterator is made (not when the loader is)."""
    seen = []
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loader = _data(lib).DataLoader(list(range(4)), batch_size=2, pin_memory=True)
            made = len(caught)
            batches = [[b.tolist() for b in loader] for _ in range(2)]
            device = _data(lib).DataLoader([1], pin_memory=True, pin_memory_device="cpu")
            list(device)
        seen.append((made, batches, [(w.category, str(w.message)) for w in caught]))
    assert seen[0] == seen[1]


def test_own_generator_random_split_and_replacement(torch):
    seen = []
    for lib in (mg, torch):
        data = _data(lib)
        g = lib.Generator().manual_seed(7)
        loader = data.DataLoader(list(range(9)), batch_size=4, shuffle=True, generator=g)
        out = [[b.tolist() for b in loader], lib.randn(2).tolist()]
        lib.manual_seed(0)
        train, test = data.random_split(data.TensorDataset(lib.arange(10)), [0.7, 0.3])
        out += [list(train.indices), list(test.indices), len(train)]
        parts = data.random_split(range(11), [5, 6], generator=lib.Generator().manual_seed(1))
        out += [list(p) for p in parts]
        lib.manual_seed(0)
        out.append(list(data.RandomSampler(range(40), replacement=True)))
        out.append(list(data.SubsetRandomSampler([3, 5, 9])))
        seen.append(out)
    assert seen[0] == seen[1]


BATCHES = {
    "dicts of floats and tuples": [{"a": 1.5, "b": ("ones", 3)}] * 3,
    "tuples of int, float, str": [(1, 2.0, "s"), (4, 5.5, "t"), (7, 8.0, "u")],
    "lists": [[1, 2], [3, 4], [5, 6]],
    "bools": [True, False, True],
}


@pytest.mark.parametrize("name", BATCHES)
def test_default_collate_prints_as_torch(torch, name):
    seen = []
    for lib in (mg, torch):
        samples = [
            {k: (lib.ones(2), v[1]) if isinstance(v, tuple) else v for k, v in s.items()}
            if isinstance(s, dict) else s for s in BATCHES[name]]
        loader = _data(lib).DataLoader(samples, batch_size=2)
        seen.append([repr(b) for b in loader])
    assert seen[0] == seen[1]


def test_tensor_dataset_and_errors(torch):
    seen = []
    for lib in (mg, torch):
        data = _data(lib)
        ds = data.TensorDataset(lib.arange(6).reshape(3, 2), lib.tensor([0.5, 1.5, 2.5]))
        out = [repr(ds[1]), len(ds), len(data.DataLoader(ds, batch_size=2)),
               len(data.DataLoader(ds, batch_size=2, drop_last=True)), repr(ds[1:])]
        bad_calls = [(data.TensorDataset, (lib.ones(2), lib.ones(3)), {}),
                     (data.DataLoader, (ds,), {"batch_size": 0}),
                     (data.DataLoader, (ds,), {"sampler": [0], "shuffle": True}),
                     (lambda d: next(iter(d)), (data.DataLoader([object()], batch_size=1),), {})]
        for call, args, kwargs in bad_calls:
            with pytest.raises(Exception) as error:
                call(*args, **kwargs)
            out.append((error.type.__name__, str(error.value).split(" <class")[0]))
        seen.append(out)
    assert seen[0] == seen[1]


def test_samplers_datasets_and_the_loader_live_in_their_modules_as_in_torch(torch):
    """CS231n's notebook (tests/corpus/cs231n_pytorch.py) imports `sampler` from
    torch.utils.data and splits one dataset into train and val with SubsetRandomSampler;
    dvgodoy's chapter 2 imports random_split from torch.utils.data.dataset."""
    seen = []
    for lib in (mg, torch):
        sampler = importlib.import_module(f"{lib.__name__}.utils.data.sampler")
        assert sampler is _data(lib).sampler
        dataset = importlib.import_module(f"{lib.__name__}.utils.data.dataset")
        dataloader = importlib.import_module(f"{lib.__name__}.utils.data.dataloader")
        assert dataset.random_split is _data(lib).random_split
        assert dataset.TensorDataset is _data(lib).TensorDataset
        assert dataloader.DataLoader is _data(lib).DataLoader
        lib.manual_seed(3)
        loader = _data(lib).DataLoader(list(range(20)), batch_size=4,
                                       sampler=sampler.SubsetRandomSampler(range(5, 17)))
        seen.append(([b.tolist() for b in loader], len(loader),
                     sorted(name for name in ("Sampler", "SequentialSampler", "RandomSampler",
                                              "SubsetRandomSampler", "BatchSampler")
                            if hasattr(sampler, name))))
    assert seen[0] == seen[1]
