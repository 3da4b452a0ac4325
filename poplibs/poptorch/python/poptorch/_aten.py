"""The aten op table: each traced aten op maps onto popxl ops here, and nowhere else. A handler gets
the lowering context and the node's inputs (popxl Tensors for tensors, Python values for the rest)
and returns the node's outputs. Gradients come from popxl's autodiff of what a handler builds, so
a handler only uses differentiable popxl ops on the training path."""
import numpy as np

import popxl
from popxl import ops

# Torch's loss reduction codes (at::Reduction).
_REDUCTION = {0: "none", 1: "mean", 2: "sum"}
ATEN_OPS = {}
# Ops whose output is a loss: the loss of a training model is found downstream of them.
LOSS_OPS = {"aten::nll_loss", "aten::nll_loss_nd", "aten::nll_loss2d", "aten::cross_entropy_loss",
            "aten::mse_loss", "aten::l1_loss", "aten::binary_cross_entropy",
            "aten::binary_cross_entropy_with_logits", "aten::smooth_l1_loss",
            "poptorch::identity_loss"}


def aten(*kinds):
    def register(fn):
        for kind in kinds:
            ATEN_OPS[kind] = fn
        return fn
    return register


def _axis(dim, rank):
    return dim + rank if dim < 0 else dim


def _dims(dims, rank):
    if dims is None:
        return list(range(rank))
    dims = [dims] if isinstance(dims, int) else list(dims)
    return [_axis(d, rank) for d in dims] if dims else list(range(rank))


def _reduce(t, reduction):
    if reduction == "mean":
        return ops.mean(t)
    if reduction == "sum":
        return ops.sum(t)
    return t


# Element-wise.
def _binary(op):
    def lower(c, a, b, alpha=1):
        a, b = c.operand(a), c.operand(b)
        if alpha != 1:
            b = ops.mul(b, c.operand(alpha))
        return op(a, b)
    return lower


aten("aten::add", "aten::add_")(_binary(ops.add))
aten("aten::sub", "aten::sub_")(_binary(ops.sub))
aten("aten::mul", "aten::mul_")(_binary(ops.mul))


@aten("aten::rsub")
def _rsub(c, a, b, alpha=1):
    return _binary(ops.sub)(c, b, a, alpha)


@aten("aten::div", "aten::div_", "aten::true_divide")
def _div(c, a, b, rounding_mode=None):
    if rounding_mode is not None:
        c.unsupported(f"rounding_mode={rounding_mode!r}")
    return ops.div(c.operand(a), c.operand(b))


@aten("aten::pow")
def _pow(c, a, b):
    return ops.pow(c.operand(a), c.operand(b))


for _kind, _op in {"relu": ops.relu, "sigmoid": ops.sigmoid, "tanh": ops.tanh, "exp": ops.exp,
                   "log": ops.log, "sqrt": ops.sqrt, "neg": ops.negate, "abs": ops.abs}.items():
    aten(f"aten::{_kind}", f"aten::{_kind}_")(lambda c, x, _op=_op: _op(c.operand(x)))


@aten("aten::rsqrt")
def _rsqrt(c, x):
    return ops.div(c.operand(1.0), ops.sqrt(x))


@aten("aten::square")
def _square(c, x):
    return ops.mul(x, x)


@aten("aten::gelu")
def _gelu(c, x, approximate="none"):
    return ops.gelu(x)


@aten("aten::silu", "aten::silu_")
def _silu(c, x):
    return ops.mul(x, ops.sigmoid(x))


@aten("aten::leaky_relu", "aten::leaky_relu_")
def _leaky_relu(c, x, slope=0.01):
    return ops.add(ops.relu(x), ops.mul(ops.relu(ops.negate(x)), c.operand(-slope)))


@aten("aten::hardtanh", "aten::hardtanh_", "aten::clamp", "aten::clip")
def _clamp(c, x, lo=None, hi=None):
    return ops.clip(x, lo, hi)


@aten("aten::softmax", "aten::_softmax")
def _softmax(c, x, dim, _dtype=None):
    return c.innermost(x, dim, lambda t: ops.softmax(t, t.rank - 1))


@aten("aten::log_softmax", "aten::_log_softmax")
def _log_softmax(c, x, dim, _dtype=None):
    return c.innermost(x, dim, lambda t: ops.log_softmax(t, t.rank - 1))


@aten("aten::dropout", "aten::dropout_", "aten::feature_dropout")
def _dropout(c, x, p, train):
    if not (train and c.training) or p == 0:
        return x
    return ops.dropout(x, c.seed(), p)


@aten("aten::contiguous", "aten::clone", "aten::detach", "aten::alias", "poptorch::nop",
      "aten::to", "aten::type_as")
def _identity(c, x, *_):
    return c.cast_to_output(x)


@aten("poptorch::ipu_print_tensor")
def _print(c, x, title, print_gradient):
    return ops.print_tensor(x, title or None, print_gradient=print_gradient)


@aten("aten::reciprocal")
def _reciprocal(c, x):
    return ops.div(c.operand(1.0), x)


@aten("aten::log1p")
def _log1p(c, x):
    return ops.log(ops.add(x, c.operand(1.0)))


@aten("aten::expm1")
def _expm1(c, x):
    return ops.sub(ops.exp(x), c.operand(1.0))


@aten("aten::softplus")
def _softplus(c, x, beta=1, threshold=20):
    bx = ops.mul(x, c.operand(beta))
    soft = ops.div(ops.log(ops.add(ops.exp(ops.minimum(bx, c.operand(threshold))),
                                   c.operand(1.0))), c.operand(beta))
    return ops.where(ops.greater(bx, c.operand(threshold)), x, soft)


@aten("aten::elu", "aten::elu_")
def _elu(c, x, alpha=1.0, scale=1.0, input_scale=1.0):
    negative = ops.mul(ops.sub(ops.exp(ops.mul(ops.minimum(x, c.operand(0.0)),
                                               c.operand(input_scale))), c.operand(1.0)),
                       c.operand(alpha))
    return ops.mul(ops.where(ops.greater(x, c.operand(0.0)), x, negative), c.operand(scale))


@aten("aten::hardsigmoid", "aten::hardsigmoid_")
def _hardsigmoid(c, x):
    return ops.clip(ops.add(ops.div(x, c.operand(6.0)), c.operand(0.5)), 0.0, 1.0)


@aten("aten::hardswish", "aten::hardswish_")
def _hardswish(c, x):
    return ops.mul(x, _hardsigmoid(c, x))


@aten("aten::maximum", "aten::minimum")
def _maximum(c, a, b):
    op = ops.maximum if c.kind in ("aten::maximum", "aten::max") else ops.minimum
    return op(c.operand(a), c.operand(b))


for _kind, _op in {"eq": ops.equal, "ne": ops.not_equal, "gt": ops.greater,
                   "ge": ops.greater_equal, "lt": ops.less, "le": ops.less_equal,
                   "logical_and": ops.logical_and, "logical_or": ops.logical_or}.items():
    aten(f"aten::{_kind}")(lambda c, a, b, _op=_op: _op(a, b) if isinstance(b, popxl.Tensor)
                           else _op(a, popxl.constant(np.asarray(b, a.dtype.as_numpy()))))


@aten("aten::logical_not")
def _logical_not(c, x):
    return ops.logical_not(x)


@aten("aten::masked_fill", "aten::masked_fill_")
def _masked_fill(c, x, mask, value):
    return ops.where(mask, c.operand(value), x)


# Tensor factories: values known when the model is compiled become constants; random ones draw
# from the device's generator.
@aten("aten::zeros", "aten::ones", "aten::full", "aten::zeros_like", "aten::ones_like",
      "aten::full_like", "aten::new_zeros", "aten::new_ones", "aten::new_full", "aten::scalar_tensor")
def _filled(c, *args):
    if c.kind.endswith("zeros") or c.kind.endswith("zeros_like"):
        value = 0
    elif c.kind.endswith("ones") or c.kind.endswith("ones_like"):
        value = 1
    elif c.kind == "aten::scalar_tensor":
        value = args[0]
    else:
        value = args[1]  # full(size, value), full_like(x, value), new_full(x, size, value)
        if c.kind == "aten::new_full":
            value = args[2]
    return c.operand(np.full(c.out_shape, value))


@aten("aten::arange")
def _arange(c, *args):
    numbers = args[:{5: 1, 6: 2, 7: 3}.get(len(args), 1)]
    return c.operand(np.arange(*numbers))


@aten("aten::rand", "aten::rand_like", "aten::randn", "aten::randn_like")
def _random(c, *_):
    dtype = c.out_dtype
    if c.kind.startswith("aten::randn"):
        return ops.random_normal(c.seed(), c.out_shape, 0.0, 1.0, dtype)
    return ops.random_uniform(c.seed(), c.out_shape, 0.0, 1.0, dtype)


@aten("aten::broadcast_tensors")
def _broadcast_tensors(c, ts):
    shape = list(np.broadcast_shapes(*[t.shape for t in ts]))
    return [t if list(t.shape) == shape else
            ops.add(t, popxl.constant(np.zeros(shape, t.dtype.as_numpy()))) for t in ts]


# Shapes and views.
@aten("aten::view", "aten::reshape", "aten::_reshape_alias", "aten::view_as", "aten::reshape_as")
def _reshape(c, x, shape, *_):
    return ops.reshape(x, list(c.out_shape))


@aten("aten::flatten")
def _flatten(c, x, start=0, end=-1):
    return ops.reshape(x, list(c.out_shape))


@aten("aten::unsqueeze", "aten::squeeze")
def _unsqueeze(c, x, *_):
    return ops.reshape(x, list(c.out_shape))


@aten("aten::expand", "aten::expand_as")
def _expand(c, x, *_):
    return ops.add(x, c.operand(np.zeros(c.out_shape, x.dtype.as_numpy())))


@aten("aten::t", "aten::numpy_T")
def _t(c, x):
    return ops.transpose(x) if x.rank == 2 else x


@aten("aten::transpose", "aten::transpose_")
def _transpose(c, x, d0, d1):
    perm = list(range(x.rank))
    d0, d1 = _axis(d0, x.rank), _axis(d1, x.rank)
    perm[d0], perm[d1] = perm[d1], perm[d0]
    return ops.transpose(x, perm)


@aten("aten::permute")
def _permute(c, x, dims):
    return ops.transpose(x, _dims(dims, x.rank))


@aten("aten::size")
def _size(c, x, dim=None):
    return list(x.shape) if dim is None else x.shape[_axis(dim, x.rank)]


@aten("aten::slice")
def _slice(c, x, dim=0, start=None, end=None, step=1):
    return ops.slice(x, start, None if end is None or end >= 2**62 else end, step,
                     _axis(dim, x.rank))


@aten("aten::flip")
def _flip(c, x, dims):
    for d in _dims(dims, x.rank):
        x = ops.slice(x, None, None, -1, d)
    return x


@aten("aten::select")
def _select(c, x, dim, index):
    axis = _axis(dim, x.rank)
    index = index + x.shape[axis] if index < 0 else index
    return ops.squeeze(ops.slice(x, index, index + 1, 1, axis), [axis])


@aten("aten::cat", "aten::concat")
def _cat(c, ts, dim=0):
    return ops.concat([c.cast_to_output(t) for t in ts], _axis(dim, ts[0].rank))


@aten("aten::stack")
def _stack(c, ts, dim=0):
    axis = _axis(dim, ts[0].rank + 1)
    return ops.concat([ops.unsqueeze(t, [axis]) for t in ts], axis)


def _pieces(x, sizes, axis):
    out, offset = [], 0
    for n in sizes:
        out.append(ops.slice(x, offset, offset + n, 1, axis))
        offset += n
    return out


@aten("aten::chunk")
def _chunk(c, x, chunks, dim=0):
    axis = _axis(dim, x.rank)
    step = -(-x.shape[axis] // chunks)
    return _pieces(x, [min(step, x.shape[axis] - o) for o in range(0, x.shape[axis], step)], axis)


@aten("aten::split", "aten::split_with_sizes")
def _split(c, x, size, dim=0):
    axis = _axis(dim, x.rank)
    n = x.shape[axis]
    sizes = list(size) if isinstance(size, (list, tuple)) else [
        min(size, n - o) for o in range(0, n, size)]
    return _pieces(x, sizes, axis)


@aten("aten::unbind")
def _unbind(c, x, dim=0):
    axis = _axis(dim, x.rank)
    return [ops.squeeze(t, [axis]) for t in _pieces(x, [1] * x.shape[axis], axis)]


# Reductions.
@aten("aten::sum", "aten::mean")
def _sum_mean(c, x, dims=None, keepdim=False, _dtype=None):
    reduce = ops.sum if c.kind == "aten::sum" else ops.mean
    return reduce(c.cast_to_output(x), _dims(dims, x.rank), bool(keepdim))


@aten("aten::max", "aten::min")
def _max_all(c, x, *rest):
    if rest and isinstance(rest[0], popxl.Tensor):  # max(a, b): element-wise
        return _maximum(c, x, rest[0])
    reduce = ops.max if c.kind == "aten::max" else ops.min
    if not rest:
        return reduce(x)
    dim, keepdim = _axis(rest[0], x.rank), bool(rest[1]) if len(rest) > 1 else False
    return reduce(x, [dim], keepdim), _argmax(c, x, dim, keepdim)


@aten("aten::argmax", "aten::argmin")
def _argmax(c, x, dim=None, keepdim=False):
    arg = ops.argmax if c.kind in ("aten::argmax", "aten::max") else ops.argmin
    if dim is None:
        return arg(ops.reshape(x, [-1]), 0, False)
    return arg(x, _axis(dim, x.rank), bool(keepdim))


@aten("aten::amax", "aten::amin")
def _amax(c, x, dims=(), keepdim=False):
    reduce = ops.max if c.kind == "aten::amax" else ops.min
    return reduce(x, _dims(dims, x.rank), bool(keepdim))


@aten("aten::var", "aten::std")
def _var(c, x, dims=None, unbiased=True, keepdim=False):
    axes = _dims(dims, x.rank)
    n = int(np.prod([x.shape[a] for a in axes]))
    centred = ops.sub(x, ops.mean(x, axes, True))
    var = ops.mul(ops.sum(ops.mul(centred, centred), axes, bool(keepdim)),
                  c.operand(1.0 / max(n - 1 if unbiased else n, 1)))
    return ops.sqrt(var) if c.kind == "aten::std" else var


# Linear algebra.
def _matmul(a, b):
    """numpy's matmul over popxl's, which needs equal batch dimensions."""
    if a.rank == 1:
        return ops.squeeze(_matmul(ops.unsqueeze(a, [0]), b), [-2])
    if b.rank == 1:
        return ops.squeeze(_matmul(a, ops.unsqueeze(b, [1])), [-1])
    if b.rank == 2 and a.rank > 2:
        flat = ops.reshape(a, [-1, a.shape[-1]])
        return ops.reshape(ops.matmul(flat, b), list(a.shape[:-1]) + [b.shape[-1]])
    if a.rank != b.rank or a.shape[:-2] != b.shape[:-2]:
        batch = list(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))
        zeros_a = np.zeros(batch + list(a.shape[-2:]), a.dtype.as_numpy())
        zeros_b = np.zeros(batch + list(b.shape[-2:]), b.dtype.as_numpy())
        a = ops.add(a, popxl.constant(zeros_a))
        b = ops.add(b, popxl.constant(zeros_b))
    return ops.matmul(a, b)


@aten("aten::matmul", "aten::mm", "aten::bmm")
def _matmul_op(c, a, b):
    return _matmul(a, b)


@aten("aten::linear")
def _linear(c, x, w, b=None):
    y = _matmul(x, ops.transpose(w))
    return y if b is None else ops.add(y, b)


@aten("aten::addmm")
def _addmm(c, bias, a, b, beta=1, alpha=1):
    y = _matmul(a, b)
    if alpha != 1:
        y = ops.mul(y, c.operand(alpha))
    return ops.add(y, bias if beta == 1 else ops.mul(bias, c.operand(beta)))


# Indexing.
@aten("aten::embedding")
def _embedding(c, weight, indices, padding_idx=-1, scale_grad=False, sparse=False):
    return ops.gather(weight, c.indices(indices), 0)


@aten("aten::index_select")
def _index_select(c, x, dim, indices):
    return ops.gather(x, c.indices(indices), _axis(dim, x.rank))


@aten("aten::one_hot")
def _one_hot(c, x, num_classes=-1):
    return ops.onehot(c.indices(x), c.out_shape[-1], c.operand(np.array([0, 1])))


@aten("aten::where")
def _where(c, cond, a, b):
    return ops.where(cond, c.operand(a), c.operand(b))


# Losses.
@aten("aten::nll_loss", "aten::nll_loss_nd", "aten::nll_loss2d")
def _nll_loss(c, log_probs, target, weight, reduction, ignore_index):
    if weight is not None:
        c.unsupported("class weights")
    if log_probs.rank > 2:  # [N, C, d...] -> [N, d..., C], PopXL's classes-last form
        perm = [0] + list(range(2, log_probs.rank)) + [1]
        log_probs = ops.transpose(log_probs, perm)
    return ops.nll_loss(log_probs, c.indices(target), ignore_index, _REDUCTION[reduction],
                        log_prob=True)


@aten("aten::cross_entropy_loss")
def _cross_entropy(c, x, target, weight, reduction, ignore_index, label_smoothing=0.0):
    if label_smoothing:
        c.unsupported(f"label_smoothing={label_smoothing}")
    log_probs = c.innermost(x, 1, lambda t: ops.log_softmax(t, t.rank - 1))
    return _nll_loss(c, log_probs, target, weight, reduction, ignore_index)


@aten("aten::mse_loss")
def _mse_loss(c, x, y, reduction=1):
    d = ops.sub(x, c.operand(y))
    return _reduce(ops.mul(d, d), _REDUCTION[reduction])


@aten("aten::l1_loss")
def _l1_loss(c, x, y, reduction=1):
    return _reduce(ops.abs(ops.sub(x, c.operand(y))), _REDUCTION[reduction])


@aten("aten::binary_cross_entropy")
def _bce(c, p, y, weight=None, reduction=1):
    if weight is not None:
        c.unsupported("weight")
    one = c.operand(1.0)
    eps = c.operand(1e-12)
    y = c.operand(y)
    loss = ops.negate(ops.add(ops.mul(y, ops.log(ops.add(p, eps))),
                              ops.mul(ops.sub(one, y), ops.log(ops.add(ops.sub(one, p), eps)))))
    return _reduce(loss, _REDUCTION[reduction])


@aten("poptorch::identity_loss")
def _identity_loss(c, x, reduction):
    return _reduce(x, {0: "sum", 1: "mean", 2: "none"}[reduction])


# Convolution and pooling, on [N, C, spatial...].
@aten("aten::_convolution", "aten::convolution", "aten::_convolution_mode", "aten::conv1d",
      "aten::conv2d", "aten::conv3d")
def _conv(c, x, w, b, stride, padding, dilation, *rest):
    if c.kind in ("aten::_convolution", "aten::convolution"):
        transposed, groups = rest[0], rest[2]
    else:
        transposed, groups = False, rest[0]
    if transposed:
        c.unsupported("transposed=True")
    if isinstance(padding, str):  # conv2d(..., padding="same" | "valid")
        y = ops.conv(x, w, stride, None, dilation, groups,
                     pad_type="same_upper" if padding == "same" else "valid")
    else:
        y = ops.conv(x, w, stride, list(padding) * 2, dilation, groups)
    if b is None:
        return y
    return ops.add(y, ops.reshape(b, [1, -1] + [1] * (y.rank - 2)))


def _zero_pad(c, x, padding):
    """x with `padding[d]` zeros before and after each spatial dimension d."""
    for d, p in enumerate(padding):
        if p:
            axis = 2 + d
            shape = list(x.shape)
            shape[axis] = p
            zeros = popxl.constant(np.zeros(shape, x.dtype.as_numpy()))
            x = ops.concat([zeros, x, zeros], axis)
    return x


@aten("aten::max_pool1d", "aten::max_pool2d", "aten::max_pool3d")
def _max_pool(c, x, kernel, stride=(), padding=0, dilation=1, ceil_mode=False):
    if ceil_mode:
        c.unsupported("ceil_mode=True")
    return ops.max_pool(x, kernel, list(stride) or list(kernel), list(padding) * 2,
                        dilation=dilation)


@aten("aten::avg_pool1d", "aten::avg_pool2d", "aten::avg_pool3d")
def _avg_pool(c, x, kernel, stride=(), padding=0, ceil_mode=False, count_include_pad=True,
              divisor_override=None):
    if ceil_mode or divisor_override:
        c.unsupported("ceil_mode=True" if ceil_mode else "divisor_override")
    padding = list(padding)
    if any(padding) and count_include_pad:  # torch counts the padding: pad with real zeros
        x, padding = _zero_pad(c, x, padding), [0] * len(padding)
    return ops.average_pool(x, kernel, list(stride) or list(kernel), padding * 2)


@aten("aten::adaptive_avg_pool1d", "aten::adaptive_avg_pool2d", "aten::adaptive_avg_pool3d")
def _adaptive_avg_pool(c, x, output_size):
    spatial = x.shape[2:]
    if any(s % o for s, o in zip(spatial, output_size)):
        c.unsupported(f"an output size {list(output_size)} that does not divide the input "
                      f"{list(spatial)}")
    kernel = [s // o for s, o in zip(spatial, output_size)]
    return ops.average_pool(x, kernel, kernel)


# Normalisations, composed of differentiable element-wise ops and reductions.
def _normalise(c, x, axes, eps):
    mean = ops.mean(x, axes, True)
    centred = ops.sub(x, mean)
    var = ops.mean(ops.mul(centred, centred), axes, True)
    return ops.div(centred, ops.sqrt(ops.add(var, c.operand(eps)))), mean, var


def _affine(x, weight, bias, channel_axis):
    shape = [1] * x.rank
    for t in (weight, bias):
        if t is not None:
            shape[channel_axis:channel_axis + t.rank] = t.shape
            x = (ops.mul if t is weight else ops.add)(x, ops.reshape(t, shape))
    return x


@aten("aten::group_norm")
def _group_norm(c, x, groups, weight=None, bias=None, eps=1e-5, _cudnn=True):
    channels = x.shape[1]
    weight = weight if weight is not None else c.operand(np.ones(channels))
    bias = bias if bias is not None else c.operand(np.zeros(channels))
    return ops.group_norm(x, weight, bias, groups, eps)


@aten("aten::layer_norm")
def _layer_norm(c, x, normalized_shape, weight=None, bias=None, eps=1e-5, _cudnn=True):
    k = len(normalized_shape)
    y, _, _ = _normalise(c, x, list(range(x.rank - k, x.rank)), eps)
    return _affine(y, weight, bias, x.rank - k)


@aten("aten::batch_norm")
def _batch_norm(c, x, weight, bias, running_mean, running_var, training, momentum, eps,
                _cudnn=True):
    axes = [0] + list(range(2, x.rank))
    shape = [1, x.shape[1]] + [1] * (x.rank - 2)
    # The traced flag decides, as in torch (PopTorch captures the module's mode); only a training
    # executor updates the running statistics.
    if training or running_mean is None:
        y, mean, var = _normalise(c, x, axes, eps)
        if running_mean is not None and c.training:
            n = x.nelms // x.shape[1]
            unbiased = ops.mul(var, c.operand(n / max(n - 1, 1)))
            for state, stat in ((running_mean, mean), (running_var, unbiased)):
                new = ops.add(ops.mul(state, c.operand(1 - momentum)),
                              ops.mul(ops.reshape(stat, list(state.shape)), c.operand(momentum)))
                c.update_state(state, new)
    else:
        y = ops.div(ops.sub(x, ops.reshape(running_mean, shape)),
                    ops.sqrt(ops.add(ops.reshape(running_var, shape), c.operand(eps))))
    return _affine(y, weight, bias, 1)
