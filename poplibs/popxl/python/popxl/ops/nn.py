"""Convolution, pooling and normalisation ops of popxl.ops, on [batch, channels, spatial...]."""
import math
import typing

PadType = typing.Literal["not_set", "same_upper", "same_lower", "valid"]
_PAD_TYPES = typing.get_args(PadType)


def _create(op_type, inputs, attrs, name):
    from . import _create
    return _create(op_type, inputs, attrs, name)


def _ints(op, what, values, n):
    values = [int(v) for v in values]
    if len(values) != n:
        raise ValueError(f"popxl.ops.{op}: {what} {values} needs {n} values")
    return values


def _padding(op, t, kernel, stride, dilation, padding, pad_type):
    """Explicit padding [begins..., ends...]: `padding`, or what `pad_type` asks for. 'same_*'
    pads so that each output size is ceil(input / stride), the odd element at the end (upper)
    or the beginning (lower); 'valid' does not pad."""
    dims = len(kernel)
    if pad_type not in _PAD_TYPES:
        raise ValueError(f"popxl.ops.{op}: pad type {pad_type!r} is not valid, must be one of "
                         f"{', '.join(_PAD_TYPES)}")
    if pad_type == "not_set":
        return _ints(op, "padding", padding if padding is not None else [0] * 2 * dims, 2 * dims)
    if pad_type == "valid":
        return [0] * 2 * dims
    begins, ends = [], []
    for d in range(dims):
        size = t.shape[2 + d]
        out = math.ceil(size / stride[d])
        total = max((out - 1) * stride[d] + (kernel[d] - 1) * dilation[d] + 1 - size, 0)
        small, large = total // 2, total - total // 2
        begins.append(small if pad_type == "same_upper" else large)
        ends.append(large if pad_type == "same_upper" else small)
    return begins + ends


def conv(t, weight, stride=(1, 1), padding=(0, 0, 0, 0), dilation=(1, 1), groups=1,
         pad_type="not_set", available_memory_proportions=None, partials_types=None,
         enable_conv_dithering=None, name=None):
    """The convolution of `t` [N, C, spatial...] by `weight` [M, C / groups, kernel...]:
    [N, M, out...]. `padding` is [begins..., ends...] per spatial dimension (or computed by
    `pad_type`). Add a bias separately."""
    dims = t.rank - 2
    if dims < 1:
        raise ValueError(f"popxl.ops.conv: needs an input [batch, channels, spatial...], got "
                         f"{t.shape}")
    kernel = list(weight.shape[2:])
    stride = _ints("conv", "stride", stride, dims)
    dilation = _ints("conv", "dilation", dilation, dims)
    attrs = {"stride": stride, "dilation": dilation, "groups": int(groups),
             "padding": _padding("conv", t, kernel, stride, dilation, padding, pad_type)}
    return _create("conv", [t, weight], attrs, name)[0]


def _pool(op_type, t, kernel_size, stride, padding, out_pads, dilation, in_dilations, auto_pad,
          ceil_mode, name):
    dims = t.rank - 2
    if dims < 1:
        raise ValueError(f"popxl.ops.{op_type}: needs an input [batch, channels, spatial...], "
                         f"got {t.shape}")
    for what, value in (("out_pads", out_pads), ("in_dilations", in_dilations)):
        if value is not None and any(int(v) != (0 if what == "out_pads" else 1) for v in value):
            raise ValueError(f"popxl.ops.{op_type}: {what} {list(value)} is not supported")
    if ceil_mode:
        raise ValueError(f"popxl.ops.{op_type}: ceil_mode is not supported (only floor)")
    kernel = _ints(op_type, "kernel_size", kernel_size, dims)
    stride = _ints(op_type, "stride", stride if stride is not None else [1] * dims, dims)
    dil = _ints(op_type, "dilation", dilation if dilation is not None else [1] * dims, dims)
    attrs = {"kernel": kernel, "stride": stride, "dilation": dil,
             "padding": _padding(op_type, t, kernel, stride, dil, padding, auto_pad)}
    return _create(op_type, [t], attrs, name)[0]


def max_pool(t, kernel_size, stride=None, padding=None, out_pads=None, dilation=None,
             in_dilations=None, auto_pad="not_set", ceil_mode=None, storage_order=None,
             name=None):
    """The maximum of each window of `t` [N, C, spatial...] (padding never wins)."""
    return _pool("max_pool", t, kernel_size, stride, padding, out_pads, dilation, in_dilations,
                 auto_pad, ceil_mode, name)


def average_pool(t, kernel_size, stride=None, padding=None, out_pads=None, dilation=None,
                 in_dilations=None, auto_pad="not_set", ceil_mode=None, name=None):
    """The mean of each window of `t` [N, C, spatial...] over the input elements it covers
    (padding left out of the count)."""
    return _pool("average_pool", t, kernel_size, stride, padding, out_pads, dilation,
                 in_dilations, auto_pad, ceil_mode, name)


def group_norm(t, weight, bias, num_groups, eps=1e-5, name=None):
    """`t` [N, C, ...] normalised per sample over each of `num_groups` groups of consecutive
    channels, then scaled by `weight` [C] and shifted by `bias` [C]."""
    return _create("group_norm", [t, weight, bias],
                   {"num_groups": int(num_groups), "eps": float(eps)}, name)[0]


def layer_norm(t, weight, bias, eps=1e-5, name=None):
    """`t` [N, C, ...] normalised per sample over all its other elements (group_norm with one
    group), then scaled by `weight` [C] and shifted by `bias` [C]."""
    return group_norm(t, weight, bias, 1, eps, name or "layer_norm")


def batch_norm_inference(t, scale, bias, mean, var, epsilon=1e-5, momentum=0.9, name=None):
    """(t - mean) / sqrt(var + epsilon) * scale + bias, per channel (dimension 1 of `t`) with
    the given statistics; `momentum` is not used at inference."""
    return _create("batch_norm_inference", [t, scale, bias, mean, var],
                   {"epsilon": float(epsilon)}, name)[0]
