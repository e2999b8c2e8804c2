"""Embedding: a lookup table of vectors, one row of `weight` per index. Reading rows is
indexing; the gradient of each row read is added back into that row (rows at padding_idx
get none), as PyTorch's EmbeddingBackward0 does."""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import _grad_mode
from ..autograd.function import Function
from ..creation import empty
from ..ops.indexing import Index
from ..tensor import Tensor, tensor_of
from .module import Module
from .parameter import Parameter


class EmbeddingLookup(Function):
    """weight[indices]: d weight = the gradients of the rows read, added up per row"""
    node_name = "EmbeddingBackward0"

    @staticmethod
    def forward(ctx, weight, indices, padding_idx):
        ctx.shape, ctx.indices, ctx.padding_idx = weight.shape, indices, padding_idx
        return tensor_of(weight._data[indices])

    @staticmethod
    def backward(ctx, grad):
        return EmbeddingDenseBackward.apply(grad, ctx.indices, ctx.shape, ctx.padding_idx), \
            None, None


class EmbeddingDenseBackward(Function):
    """embedding's backward as an op of its own (PyTorch's embedding_dense_backward): the rows'
    gradients added up per row read, none for the padding row; differentiated again, the rows
    of gg read back (0 for the padding row)"""
    node_name = "EmbeddingDenseBackwardBackward0"

    @staticmethod
    def forward(ctx, grad, indices, shape, padding_idx):
        ctx.indices, ctx.padding_idx = indices, padding_idx
        rows = grad._data
        if padding_idx is not None:  # the padding row learns nothing
            rows = rows * (indices != padding_idx)[..., None].astype(rows.dtype)
        out = np.zeros(shape, dtype=rows.dtype)
        np.add.at(out, indices, rows)
        return tensor_of(out)

    @staticmethod
    def backward(ctx, gg):
        rows = Index.apply(gg, (ctx.indices,))
        if ctx.padding_idx is not None:
            rows = rows.masked_fill(tensor_of((ctx.indices == ctx.padding_idx)[..., None]), 0)
        return rows, None, None, None


def embedding(input: Tensor, weight: Tensor, padding_idx: int | None = None,
              max_norm: float | None = None, norm_type: float = 2.0,
              scale_grad_by_freq: bool = False, sparse: bool = False) -> Tensor:
    if input.dtype.name not in ("int64", "int32"):
        raise RuntimeError("Expected tensor for argument #1 'indices' to have one of the following "
                           f"scalar types: Long, Int; but got torch.{input.dtype.tensor_type} "
                           "instead (while checking arguments for embedding)")
    if max_norm is not None or scale_grad_by_freq or sparse:
        raise NotImplementedError("minigrad is a subset of PyTorch: embedding's max_norm, "
                                  "scale_grad_by_freq and sparse are not implemented")
    indices = input._data
    if indices.size and (indices.min() < 0 or indices.max() >= weight.shape[0]):
        raise IndexError("index out of range in self")
    if padding_idx is not None and padding_idx < 0:
        padding_idx += weight.shape[0]
    return EmbeddingLookup.apply(weight, indices.astype(np.int64), padding_idx)


class Embedding(Module):
    """`num_embeddings` vectors of size `embedding_dim`, drawn from N(0, 1) (the row at
    padding_idx zero); calling it with indices gives their vectors."""

    def __init__(self, num_embeddings: int, embedding_dim: int, padding_idx: int | None = None,
                 max_norm: float | None = None, norm_type: float = 2.0,
                 scale_grad_by_freq: bool = False, sparse: bool = False,
                 _weight: Tensor | None = None, _freeze: bool = False, device: Any = None,
                 dtype: Any = None) -> None:
        super().__init__()
        self.num_embeddings, self.embedding_dim = num_embeddings, embedding_dim
        if padding_idx is not None:
            if not -num_embeddings <= padding_idx < num_embeddings:
                raise AssertionError("Padding_idx must be within num_embeddings")
            padding_idx %= num_embeddings
        self.padding_idx, self.max_norm, self.norm_type = padding_idx, max_norm, norm_type
        self.scale_grad_by_freq, self.sparse = scale_grad_by_freq, sparse
        if _weight is None:
            self.weight = Parameter(empty(num_embeddings, embedding_dim, dtype=dtype),
                                    requires_grad=not _freeze)
            self.reset_parameters()
        else:
            self.weight = Parameter(_weight, requires_grad=not _freeze)

    def reset_parameters(self) -> None:
        with _grad_mode.no_grad():
            self.weight.normal_()
            if self.padding_idx is not None:
                self.weight[self.padding_idx].fill_(0)

    def forward(self, input: Tensor) -> Tensor:
        return embedding(input, self.weight, self.padding_idx, self.max_norm, self.norm_type,
                         self.scale_grad_by_freq, self.sparse)

    def extra_repr(self) -> str:
        text = f"{self.num_embeddings}, {self.embedding_dim}"
        if self.padding_idx is not None:
            text += f", padding_idx={self.padding_idx}"
        return text

    @classmethod
    def from_pretrained(cls, embeddings: Tensor, freeze: bool = True,
                        padding_idx: int | None = None, **kwargs: Any) -> Embedding:
        """An Embedding whose weight is `embeddings` (not trained, unless freeze=False)."""
        if embeddings.dim() != 2:
            raise AssertionError("Embeddings parameter is expected to be 2-dimensional")
        rows, cols = embeddings.shape
        return cls(rows, cols, padding_idx, _weight=embeddings, _freeze=freeze, **kwargs)
