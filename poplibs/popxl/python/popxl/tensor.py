"""popxl.Tensor and the functions that make tensors: variable, constant, graph inputs."""
import numpy as np

from . import context
from .dtypes import dtype as _dtype


class TensorSpec(dict):
    """A shape and a dtype (and a meta shape), usable as a mapping and hashable."""

    def __init__(self, shape, dtype, meta_shape=()):
        super().__init__(shape=tuple(shape), dtype=dtype, meta_shape=tuple(meta_shape))

    @property
    def shape(self):
        return self["shape"]

    @property
    def dtype(self):
        return self["dtype"]

    def to_tuple(self):
        return (self.shape, self.dtype, self["meta_shape"])

    def to_dict(self):
        return dict(self)

    def __hash__(self):
        return hash(self.to_tuple())


class Tensor:
    """A tensor of a graph: a variable, a constant, a graph input or an op's result."""

    def __init__(self, graph, tensor_id):
        self._graph = graph
        self._id = tensor_id

    @property
    def _pb(self):
        return self._graph.ir._pb

    @property
    def id(self):
        return self._id

    @property
    def name(self):
        return self._pb.tensor_name(self._id)

    @property
    def ir(self):
        return self._graph.ir

    @property
    def shape(self):
        return tuple(self._pb.tensor_shape(self._id))

    @property
    def dtype(self):
        return _dtype.as_dtype(self._pb.tensor_dtype(self._id))

    @property
    def rank(self):
        return len(self.shape)

    @property
    def nelms(self):
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def spec(self):
        return TensorSpec(self.shape, self.dtype)

    def reshape(self, shape):
        from . import ops
        return ops.reshape(self, shape)

    def flatten(self):
        return self.reshape((self.nelms,))

    def transpose(self, permutation=None):
        from . import ops
        return ops.transpose(self, permutation)

    @property
    def T(self):
        return self.transpose()

    def __getitem__(self, key):
        """numpy basic indexing: ints (the axis is removed), slices (a step other than 1
        subsamples, a negative one reverses) and `...`; an integer Tensor gathers along axis 0,
        a bool Tensor of the same shape selects (zero elsewhere)."""
        from . import ops
        if isinstance(key, Tensor):
            if key.dtype.is_int:
                return ops.gather(self, key)
            if key.dtype.name == "bool":
                return ops.where(key, self, 0)
            raise TypeError(f"popxl: cannot index with a {key.dtype} tensor")
        keys = list(key) if isinstance(key, tuple) else [key]
        if sum(k is Ellipsis for k in keys) > 1:
            raise IndexError("popxl: an index can only have a single ellipsis ('...')")
        if Ellipsis in keys:
            i = keys.index(Ellipsis)
            keys[i:i + 1] = [slice(None)] * (self.rank - len(keys) + 1)
        if len(keys) > self.rank:
            raise IndexError(f"popxl: too many indices for {self} ({len(keys)} for rank "
                             f"{self.rank})")
        starts, stops, steps, axes, squeezed = [], [], [], [], []
        for axis, k in enumerate(keys):
            if isinstance(k, slice):
                if k == slice(None):
                    continue
                starts.append(k.start)
                stops.append(k.stop)
                steps.append(k.step)
            elif isinstance(k, (int, np.integer)) and not isinstance(k, bool):
                dim = self.shape[axis]
                if not -dim <= k < dim:
                    raise IndexError(f"popxl: index {k} is out of bounds for axis {axis} of "
                                     f"{self.shape}")
                k = int(k) % dim
                starts.append(k)
                stops.append(k + 1)
                steps.append(1)
                squeezed.append(axis)
            else:
                raise TypeError(f"popxl: unsupported index {k!r} (ints, slices, ... and "
                                f"Tensors are)")
            axes.append(axis)
        out = self
        if axes:
            out = ops.slice(self, starts, stops, steps, axes)
        if squeezed:
            out = ops.squeeze(out, squeezed)
        return out

    def __len__(self):
        if not self.shape:
            raise TypeError("popxl: len() of a scalar tensor")
        return self.shape[0]

    def __iter__(self):
        raise TypeError("popxl: tensors are not iterable")

    def __contains__(self, item):
        raise TypeError("popxl: tensors do not support `in`")

    # Arithmetic, as popxl defines it (numpy broadcasting; Python numbers become constants of
    # the tensor's dtype).
    def __add__(self, other):
        from . import ops
        return ops.add(self, other)

    def __radd__(self, other):
        from . import ops
        return ops.add(other, self)

    def __sub__(self, other):
        from . import ops
        return ops.sub(self, other)

    def __rsub__(self, other):
        from . import ops
        return ops.sub(other, self)

    def __mul__(self, other):
        from . import ops
        return ops.mul(self, other)

    def __rmul__(self, other):
        from . import ops
        return ops.mul(other, self)

    def __truediv__(self, other):
        from . import ops
        return ops.div(self, other)

    def __rtruediv__(self, other):
        from . import ops
        return ops.div(other, self)

    def __pow__(self, other):
        from . import ops
        return ops.pow(self, other)

    def __iadd__(self, other):
        from . import ops
        return ops.add_(self, other)

    def __mod__(self, other):
        from . import ops
        return ops.fmod(self, other)

    def __matmul__(self, other):
        from . import ops
        return ops.matmul(self, other)

    def __rmatmul__(self, other):
        from . import ops
        return ops.matmul(other, self)

    def __neg__(self):
        from . import ops
        return ops.negate(self)

    def __eq__(self, other):
        return isinstance(other, Tensor) and other._id == self._id and other.ir is self.ir

    def __hash__(self):
        return hash((id(self.ir), self._id))

    def __repr__(self):
        return f"Tensor[{self.name} {self.dtype} {self.shape}]"


class TensorByRef(Tensor):
    """A type hint for Ir.create_graph: the parameter is passed by reference, so what the graph
    writes to it in place (var_updates) is copied back to the caller's tensor."""


class Variable(Tensor):
    """A tensor of the main graph with a host value, live for the whole program."""


class Constant(Tensor):
    """A tensor with a value fixed when the graph is built."""


def _host_array(data, dtype, what):
    array = np.asarray(data)
    if dtype is None:
        dtype = _dtype.as_dtype(array.dtype if array.dtype != np.float64 else np.float32)
    dtype = _dtype.as_dtype(dtype)
    # np.array, not np.ascontiguousarray, which makes a 0-d array 1-d
    return np.array(array, dtype=dtype.as_numpy(), order="C"), dtype


def variable(data, dtype=None, name=None, downcast=True, replica_grouping=None,
             retrieval_mode=None):
    """A variable of the main graph initialised from `data` (a numpy array or a number)."""
    graph = context.gcg()
    array, dtype = _host_array(data, dtype, "variable")
    try:
        tid = graph.ir._pb.add_variable(graph.id, name or "variable", list(array.shape),
                                        dtype.name, array)
    except ValueError as e:
        raise ValueError(str(e)) from None
    return Variable(graph, tid)


def constant(data, dtype=None, name=None, downcast=True):
    """A constant of the current graph."""
    graph = context.gcg()
    array, dtype = _host_array(data, dtype, "constant")
    tid = graph.ir._pb.add_constant(graph.id, name or "constant", list(array.shape), dtype.name,
                                    array)
    return Constant(graph, tid)


def graph_input(shape, dtype, name=None, by_ref=False, meta_shape=None):
    """An input of the current graph."""
    graph = context.gcg()
    tid = graph.ir._pb.add_graph_input(graph.id, name or "input", list(shape),
                                       _dtype.as_dtype(dtype).name, bool(by_ref))
    return Tensor(graph, tid)


def graph_output(t):
    graph = context.gcg()
    graph.ir._pb.add_graph_output(graph.id, t.id)
