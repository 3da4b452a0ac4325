"""VariableFactory: how to make a module's variable (its host data and dtype), used both for the
graph input a module's graph takes and for the main-graph variable bound to it."""
import itertools

import numpy as np

import popxl

from .named_tensors import DotTree, NamedTensors


def _data_iterator(data_iter):
    """(an endless iterator of the values, the first value): a callable is called once per
    value (it is test-called for the first), an iterator is read."""
    if callable(data_iter):
        first = data_iter()

        def values():
            yield first
            while True:
                yield data_iter()
        return values(), first
    it = iter(data_iter)
    first = next(it)
    return itertools.chain([first], it), first


class VariableFactory:
    def __init__(self, data_iter, dtype=None, name=None, by_ref=False, replica_grouping=None,
                 shard_over=1):
        self._data, first = _data_iterator(data_iter)
        first = np.asarray(first)
        self.dtype = popxl.dtype.as_dtype(dtype if dtype is not None else
                                          (first.dtype if first.dtype != np.float64
                                           else np.float32))
        self.shape = tuple(first.shape)
        self.name = name
        self.by_ref = by_ref

    def next_data(self):
        return np.asarray(next(self._data), dtype=self.dtype.as_numpy())

    def create_input(self, prefix=None):
        return popxl.graph_input(self.shape, self.dtype, prefix or self.name)

    def create_tensor(self, name=None):
        return popxl.variable(self.next_data(), self.dtype, name or self.name)


class NamedVariableFactories(DotTree):
    def init(self, prefix=None):
        """Main-graph variables, made in alphabetical key order (deterministic initialisation)."""
        out = NamedTensors()
        for key, factory in sorted(self.to_dict().items()):
            name = f"{prefix}.{key}" if prefix else key
            out.insert(key, factory.create_tensor(name))
        return out
