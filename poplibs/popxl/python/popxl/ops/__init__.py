"""popxl.ops: each op adds one node of libpopxl's op table to the current graph."""
import numpy as np

from .. import context
from ..tensor import Tensor, constant
from . import var_updates  # noqa: F401 (popxl.ops.var_updates)
from .call import call, call_with_info, CallSiteInfo, repeat, repeat_with_info  # noqa: F401
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


def sub(lhs, rhs, name=None):
    return _binary("sub", lhs, rhs, name)


def mul(lhs, rhs, name=None):
    return _binary("mul", lhs, rhs, name)


def div(lhs, rhs, name=None):
    return _binary("div", lhs, rhs, name)


def pow(t, e, name=None):  # noqa: A001 (popxl's name)
    return _binary("pow", t, e, name)


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


def matmul(lhs, rhs, available_memory_proportion=None, serialise_mode=None,
           serialise_factor=1, output_type=None, partials_type=None, name=None):
    attrs = {} if output_type is None else {"output_type": output_type.name}
    return _create("matmul", [lhs, rhs], attrs, name)[0]


def softmax(t, axis, name=None):
    return _create("softmax", [t], {"axis": int(axis)}, name)[0]


def host_load(d2h_stream, name=None):
    return _create("host_load", [], {"stream": d2h_stream._id}, name or d2h_stream.name)[0]


def host_store(d2h_stream, t, name=None):
    _create("host_store", [t], {"stream": d2h_stream._id}, name)


def nll_loss_with_softmax_grad(probs, labels, loss_grad=1, ignore_index=None, reduction="mean",
                               name=None):
    """The negative log-likelihood of `labels` under `probs` (a softmax's output), and its
    gradient by the softmax's input (scaled by `loss_grad`): (loss, dx)."""
    if ignore_index is not None:
        raise ValueError("popxl.ops.nll_loss_with_softmax_grad: ignore_index is not supported "
                         "yet")
    red = reduction if isinstance(reduction, str) else reduction.name.lower()
    loss, dx = _create("nll_loss_with_softmax_grad", [probs, labels],
                       {"reduction": red, "loss_grad": float(loss_grad)}, name)
    return loss, dx
