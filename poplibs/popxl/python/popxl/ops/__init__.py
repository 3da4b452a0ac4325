"""popxl.ops: each op adds one node of libpopxl's op table to the current graph."""
import builtins
import enum

import numpy as np

from .. import context
from ..tensor import Tensor, constant
from . import var_updates  # noqa: F401 (popxl.ops.var_updates)
from .call import call, call_with_info, CallSiteInfo, repeat, repeat_with_info  # noqa: F401
from .conditional import conditional  # noqa: F401
from .nn import (conv, PadType, max_pool, average_pool, group_norm, layer_norm,  # noqa: F401
                 batch_norm_inference)
from .var_updates import scaled_add_  # noqa: F401 (also popxl.ops.scaled_add_)


def _create(op_type, inputs, attrs=None, name=None):
    graph = context.gcg()
    ids = []
    for t in inputs:
        if t.ir is not graph.ir:
            raise ValueError(f"popxl.ops.{op_type}: input {t} belongs to another Ir")
        ids.append(t.id)
    outs = graph.ir._pb.create_op(graph.id, op_type, ids, attrs or {}, name or op_type)
    return [Tensor(graph, o) for o in outs]


def _ensure_tensor(value, like):
    """A Python number or numpy array as a constant of `like`'s dtype (popxl's rule)."""
    if isinstance(value, Tensor):
        return value
    return constant(np.asarray(value), like.dtype)


def _binary(op_type, lhs, rhs, name):
    if not isinstance(lhs, Tensor) and not isinstance(rhs, Tensor):
        raise TypeError(f"popxl.ops.{op_type}: one operand must be a Tensor")
    lhs = _ensure_tensor(lhs, rhs if isinstance(rhs, Tensor) else lhs)
    rhs = _ensure_tensor(rhs, lhs)
    return _create(op_type, [lhs, rhs], name=name)[0]


def add(lhs, rhs, name=None):
    return _binary("add", lhs, rhs, name)


def add_(lhs, rhs, name=None):
    """lhs += rhs in place (rhs broadcasts to lhs); returns lhs's new value."""
    if not isinstance(rhs, Tensor):
        rhs = _ensure_tensor(rhs, lhs)
    return _create("add_", [lhs, rhs], name=name)[0]


def sub(lhs, rhs, name=None):
    return _binary("sub", lhs, rhs, name)


def mul(lhs, rhs, name=None):
    return _binary("mul", lhs, rhs, name)


def div(lhs, rhs, name=None):
    return _binary("div", lhs, rhs, name)


def pow(t, e, name=None):  # noqa: A001 (popxl's name)
    return _binary("pow", t, e, name)


def fmod(lhs, rhs, name=None):
    """The remainder of lhs / rhs with the sign of lhs (C's fmod)."""
    return _binary("fmod", lhs, rhs, name)


def maximum(*ts, name=None):
    out = ts[0]
    for t in ts[1:]:
        out = _binary("maximum", out, t, name)
    return out


def minimum(*ts, name=None):
    out = ts[0]
    for t in ts[1:]:
        out = _binary("minimum", out, t, name)
    return out


def _unary(op_type):
    def op(t, name=None):
        return _create(op_type, [t], name=name)[0]
    op.__name__ = op_type
    return op


negate = _unary("neg")
abs = _unary("abs")  # noqa: A001 (popxl's name)
exp = _unary("exp")
log = _unary("log")
sqrt = _unary("sqrt")
relu = _unary("relu")
gelu = _unary("gelu")
sigmoid = _unary("sigmoid")
tanh = _unary("tanh")
exp_ = _unary("exp_")
relu_ = _unary("relu_")
gelu_ = _unary("gelu_")
log2 = _unary("log2")
sin = _unary("sin")
cos = _unary("cos")
sign = _unary("sign")
ceil = _unary("ceil")
floor = _unary("floor")
isnan = _unary("isnan")
isinf = _unary("isinf")
isfinite = _unary("isfinite")


def reshape(t, shape, name=None):
    return _create("reshape", [t], {"shape": [int(s) for s in shape]}, name)[0]


def flatten(t, name=None):
    return reshape(t, (t.nelms,), name)


def transpose(t, permutation=None, name=None):
    return _create("transpose", [t], {"permutation": [int(p) for p in (permutation or [])]},
                   name)[0]


def cast(t, data_type, name=None):
    return _create("cast", [t], {"dtype": data_type.name}, name)[0]


def _reduce(op_type):
    def op(t, axis=None, keepdims=False, name=None):
        axes = [] if axis is None else ([axis] if isinstance(axis, int) else list(axis))
        return _create(op_type, [t], {"axis": [int(a) for a in axes],
                                      "keepdims": int(bool(keepdims))}, name)[0]
    op.__name__ = op_type
    return op


sum = _reduce("reduce_sum")  # noqa: A001 (popxl's name)
mean = _reduce("reduce_mean")
max = _reduce("reduce_max")  # noqa: A001 (popxl's name)
min = _reduce("reduce_min")  # noqa: A001 (popxl's name)
prod = _reduce("reduce_prod")


def argmax(t, dim=0, keepdim=False, name=None):
    """The index (int32) of the first maximum of `t` along `dim`."""
    return _create("argmax", [t], {"dim": int(dim), "keepdim": int(bool(keepdim))}, name)[0]


def argmin(t, dim=0, keepdim=False, name=None):
    """The index (int32) of the first minimum of `t` along `dim`."""
    return _create("argmin", [t], {"dim": int(dim), "keepdim": int(bool(keepdim))}, name)[0]


def matmul(lhs, rhs, available_memory_proportion=None, serialise_mode=None,
           serialise_factor=1, output_type=None, partials_type=None, name=None):
    attrs = {} if output_type is None else {"output_type": output_type.name}
    return _create("matmul", [lhs, rhs], attrs, name)[0]


def softmax(t, axis, name=None):
    return _create("softmax", [t], {"axis": int(axis)}, name)[0]


def host_load(d2h_stream, name=None):
    return _create("host_load", [], {"stream": d2h_stream._id}, name or d2h_stream.name)[0]


def print_tensor(t, title=None, print_self=True, print_gradient=False, summarise_threshold=1000,
                 edge_items=3, max_line_width=75, digits=8, float_format="auto", separator=" ",
                 open_bracket="[", close_bracket="]", name=None):
    """`t`, printed under `title` (its name by default) to the host's output when the program
    runs; with `print_gradient` its gradient is printed too. The formatting arguments are
    accepted; the layout is Poplar's PrintTensor's."""
    attrs = {"title": str(title if title is not None else t.name),
             "print_self": int(bool(print_self)), "print_gradient": int(bool(print_gradient))}
    return _create("print_tensor", [t], attrs, name)[0]


def host_store(d2h_stream, t, name=None):
    _create("host_store", [t], {"stream": d2h_stream._id}, name)


class ReductionType(enum.Enum):
    """How a loss reduces its per-sample values: ``Mean``, ``Sum`` or ``NoReduction``."""
    Mean = "mean"
    Sum = "sum"
    NoReduction = "none"


def _reduction(op_type, reduction):
    if isinstance(reduction, ReductionType):
        return reduction.value
    red = str(reduction).lower()
    if red not in ("mean", "sum", "none"):
        raise ValueError(f"popxl.ops.{op_type}: reduction must be 'mean', 'sum' or 'none' "
                         f"(or a ReductionType), got {reduction!r}")
    return red


def nll_loss_with_softmax_grad(probs, labels, loss_grad=1, ignore_index=None, reduction="mean",
                               name=None):
    """The negative log-likelihood of `labels` under `probs` (a softmax's output), and its
    gradient by the softmax's input (scaled by `loss_grad`): (loss, dx)."""
    if ignore_index is not None:
        raise ValueError("popxl.ops.nll_loss_with_softmax_grad: ignore_index is not supported "
                         "yet")
    red = _reduction("nll_loss_with_softmax_grad", reduction)
    loss, dx = _create("nll_loss_with_softmax_grad", [probs, labels],
                       {"reduction": red, "loss_grad": float(loss_grad)}, name)
    return loss, dx


def nll_loss(probs, labels, ignore_index=None, reduction=ReductionType.Mean, log_prob=False,
             name=None):
    """The negative log-likelihood of `labels` ([...], int32/uint32) under `probs` ([...,
    classes]): -log(probs[label]) per sample (-probs[label] when `log_prob`, for log-softmax
    inputs); samples labelled `ignore_index` count 0 and are left out of the mean."""
    attrs = {"reduction": _reduction("nll_loss", reduction), "log_prob": int(bool(log_prob))}
    if ignore_index is not None:
        attrs["ignore_index"] = int(ignore_index)
    return _create("nll_loss", [probs, labels], attrs, name)[0]


def log_softmax(t, axis=-1, name=None):
    """log(softmax(t)) over `axis` (the innermost), computed stably."""
    return _create("log_softmax", [t], {"axis": int(axis)}, name)[0]


# Slicing, joining, indexing.
_BIG = 2**62


def _as_list(v, n=None):
    if v is None:
        return [None] * (n if n is not None else 0)
    if isinstance(v, (list, tuple)):
        return list(v)
    return [v]


def slice(t, start=None, stop=None, step=None, axis=None, name=None):  # noqa: A001
    """t[start:stop:step] along each of `axis` (numpy's rules: negative values count from the
    end, out-of-range values are clipped, a step other than 1 subsamples, a negative one
    reverses). Each of start/stop/step/axis is an int or a list (None entries mean the
    default); `axis` defaults to the first len(start) axes."""
    lists = [_as_list(v) for v in (start, stop, step)]
    if axis is None:
        axes = list(range(builtins.max(len(x) for x in lists)))
    else:
        axes = [int(a) for a in _as_list(axis)]
    lists = [x if x else [None] * len(axes) for x in lists]
    if builtins.any(len(x) != len(axes) for x in lists):
        raise ValueError(f"popxl.ops.slice: start {start}, stop {stop}, step {step} and axis "
                         f"{axis} must have the same length")
    starts, stops, steps = lists
    attrs = {"start": [], "stop": [], "step": [], "axis": [int(a) for a in axes]}
    for b, e, s in zip(starts, stops, steps):
        s = 1 if s is None else int(s)
        attrs["step"].append(s)
        attrs["start"].append((0 if s > 0 else _BIG) if b is None else int(b))
        attrs["stop"].append((_BIG if s > 0 else -_BIG) if e is None else int(e))
    return _create("slice", [t], attrs, name)[0]


def subsample(t, strides, name=None):
    """Every strides[i]-th element along axis i, from the first."""
    strides = [int(s) for s in strides]
    if len(strides) != t.rank or builtins.any(s < 1 for s in strides):
        raise ValueError(f"popxl.ops.subsample: strides {strides} need one positive stride per "
                         f"axis of {t.shape}")
    return slice(t, [None] * t.rank, [None] * t.rank, strides, list(range(t.rank)), name)


def concat(ts, axis=0, name=None):
    """The tensors joined along `axis` (they agree on every other dimension and the dtype)."""
    ts = list(ts)
    return _create("concat", ts, {"axis": int(axis)}, name)[0]


def split(t, splits, axis=0, name=None):
    """`t` cut along `axis` into `splits` equal parts (an int) or parts of the given sizes (a
    list summing to the dimension): a list of tensors."""
    if not -t.rank <= axis < t.rank:
        raise ValueError(f"popxl.ops.split: axis {axis} is out of range for {t} of shape "
                         f"{t.shape}")
    dim = t.shape[axis]
    if isinstance(splits, (int, np.integer)):
        if splits < 1 or dim % splits:
            raise ValueError(f"popxl.ops.split: cannot split dimension {dim} (axis {axis} of "
                             f"{t.shape}) into {splits} equal parts")
        sizes = [dim // splits] * splits
    else:
        if not builtins.all(isinstance(s, (int, np.integer)) for s in splits):
            raise TypeError(f"popxl.ops.split: splits must be an int or a list of ints, got "
                            f"{splits!r}")
        sizes = [int(s) for s in splits]
        if builtins.sum(sizes) != dim or builtins.any(s < 0 for s in sizes):
            raise ValueError(f"popxl.ops.split: sizes {sizes} do not add up to dimension {dim} "
                             f"(axis {axis} of {t.shape})")
    out, offset = [], 0
    for i, n in enumerate(sizes):
        out.append(slice(t, offset, offset + n, 1, axis,
                         f"{name or 'split'}/{i}"))
        offset += n
    return out


def squeeze(t, axes=None, name=None):
    """`t` without the given size-1 axes (all of them when `axes` is None)."""
    shape = t.shape
    if axes is None:
        axes = [i for i, d in enumerate(shape) if d == 1]
    axes = sorted({(a + t.rank if a < 0 else a) for a in _as_list(axes)})
    for a in axes:
        if not 0 <= a < t.rank or shape[a] != 1:
            raise ValueError(f"popxl.ops.squeeze: axis {a} of {shape} is not of size 1")
    return reshape(t, [d for i, d in enumerate(shape) if i not in axes], name or "squeeze")


def unsqueeze(t, axes, name=None):
    """`t` with size-1 axes inserted at `axes` (positions in the result)."""
    rank = t.rank + len(_as_list(axes))
    axes = sorted({(a + rank if a < 0 else a) for a in _as_list(axes)})
    if builtins.any(not 0 <= a < rank for a in axes):
        raise ValueError(f"popxl.ops.unsqueeze: axes {axes} are out of range for rank {rank}")
    shape = list(t.shape)
    for a in axes:
        shape.insert(a, 1)
    return reshape(t, shape, name or "unsqueeze")


def gather(t, indices, axis=0, available_memory_proportion=None, zero_OOR=False, name=None):
    """t's slices along `axis` at `indices` (int32/uint32): the shape t.shape[:axis] +
    indices.shape + t.shape[axis+1:]. An index outside the axis gives zeros."""
    return _create("gather", [t, indices], {"axis": int(axis)}, name)[0]


def scatter(t, indices, values, axis=0, available_memory_proportion=None, name=None):
    """A copy of `t` with, for each position i of `indices` (int32/uint32, t's rank), the
    element at i with i[axis] replaced by indices[i] set to values[i] (values: the indices'
    shape); ONNX's Scatter. Negative indices count from the end; others outside the axis write
    nothing."""
    return _create("scatter", [t, indices, values], {"axis": int(axis)}, name)[0]


def dynamic_slice(t, index, axes, sizes, no_overlap=False, name=None):
    """The slice of `t` of `sizes` along `axes` at the offsets in `index` (a uint32 tensor, one
    offset per axis) read when the program runs."""
    return _create("dynamic_slice", [t, index],
                   {"axes": [int(a) for a in axes], "sizes": [int(s) for s in sizes]}, name)[0]


def dynamic_update_(t, index, t_update, axes, sizes, no_overlap=False, name=None):
    """Writes `t_update` into `t` at the offsets in `index` along `axes` (in place)."""
    return _create("dynamic_update_", [t, index, t_update],
                   {"axes": [int(a) for a in axes], "sizes": [int(s) for s in sizes]}, name)[0]


def onehot(t, num_classes, values, axis=-1, name=None):
    """One-hot encoding of the indices `t`: `values` ([off, on], a tensor) give the output's
    values and dtype; `num_classes` is an int or a constant tensor."""
    if isinstance(num_classes, Tensor):
        if t.ir._pb.tensor_kind(num_classes.id) != "constant":
            raise ValueError("popxl.ops.onehot: num_classes must be a constant")
        num_classes = int(np.asarray(t.ir._pb.tensor_data(num_classes.id)).reshape(-1)[0])
    values = _ensure_tensor(values, t) if isinstance(values, Tensor) else constant(
        np.asarray(values, np.float32))
    return _create("onehot", [t, values], {"num_classes": int(num_classes), "axis": int(axis)},
                   name)[0]


# Selection, comparison, logic.
def where(condition, lhs, rhs, name=None):
    """lhs where `condition` (bool) holds, else rhs; numpy broadcasting."""
    like = lhs if isinstance(lhs, Tensor) else rhs
    if not isinstance(like, Tensor):
        raise TypeError("popxl.ops.where: lhs or rhs must be a Tensor")
    return _create("where", [condition, _ensure_tensor(lhs, like), _ensure_tensor(rhs, like)],
                   name=name)[0]


def equal(lhs, rhs, name=None):
    return _binary("equal", lhs, rhs, name)


def not_equal(lhs, rhs, name=None):
    return _binary("not_equal", lhs, rhs, name)


def greater(lhs, rhs, name=None):
    return _binary("greater", lhs, rhs, name)


def greater_equal(lhs, rhs, name=None):
    return _binary("greater_equal", lhs, rhs, name)


def less(lhs, rhs, name=None):
    return _binary("less", lhs, rhs, name)


def less_equal(lhs, rhs, name=None):
    return _binary("less_equal", lhs, rhs, name)


def logical_and(lhs, rhs, name=None):
    return _binary("logical_and", lhs, rhs, name)


def logical_or(lhs, rhs, name=None):
    return _binary("logical_or", lhs, rhs, name)
logical_not = _unary("logical_not")


def clip(t, min=None, max=None, name=None):  # noqa: A002 (popxl's names)
    """t limited to [min, max] (either bound may be None)."""
    attrs = {}
    if min is not None:
        attrs["min"] = float(min)
    if max is not None:
        attrs["max"] = float(max)
    return _create("clip", [t], attrs, name)[0]


clamp = clip


# Random values from a seed tensor (uint32, shape (2,)).
def dropout(t, seed_tensor, p, name=None):
    """Each element of `t` zeroed with probability `p`, the others scaled by 1 / (1 - p); the
    mask depends only on `seed_tensor` and the shape."""
    return _create("dropout", [t, seed_tensor], {"p": float(p)}, name)[0]


def random_uniform(seed_tensor, shape, low=0.0, high=1.0, dtype=None, name=None):
    from .. import dtypes
    dtype = dtypes.float32 if dtype is None else dtype
    return _create("random_uniform", [seed_tensor],
                   {"shape": [int(d) for d in shape], "dtype": dtype.name, "low": float(low),
                    "high": float(high)}, name)[0]


def random_normal(seed_tensor, shape, mean=0.0, std=1.0, dtype=None, name=None):
    from .. import dtypes
    dtype = dtypes.float32 if dtype is None else dtype
    return _create("random_normal", [seed_tensor],
                   {"shape": [int(d) for d in shape], "dtype": dtype.name, "mean": float(mean),
                    "std": float(std)}, name)[0]
