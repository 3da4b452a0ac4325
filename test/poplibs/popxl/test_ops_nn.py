"""conv, pooling and the normalisations against numpy references, with their gradients through
autodiff checked against finite differences of the references."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops
from opcheck import numeric_grads, run, value_and_grads

RNG = np.random.default_rng(5)


def windows(x, kernel, stride, dilation, pad, value):
    """Per kernel position: the strided view of x (padded with `value`) each output reads."""
    dims = len(kernel)
    xp = np.pad(x, [(0, 0), (0, 0)] + [(pad[d], pad[dims + d]) for d in range(dims)],
                constant_values=value)
    out = [(xp.shape[2 + d] - (kernel[d] - 1) * dilation[d] - 1) // stride[d] + 1
           for d in range(dims)]
    for k in np.ndindex(*kernel):
        yield k, xp[(slice(None), slice(None)) + tuple(
            slice(k[d] * dilation[d], k[d] * dilation[d] + (out[d] - 1) * stride[d] + 1,
                  stride[d]) for d in range(dims))]


def np_conv(x, w, stride, pad, dilation, groups):
    m, cg = w.shape[:2]
    mg = m // groups
    y = 0
    for k, patch in windows(x, w.shape[2:], stride, dilation, pad, 0):
        parts = [np.einsum("nc...,mc->nm...", patch[:, g * cg:(g + 1) * cg],
                           w[(slice(g * mg, (g + 1) * mg), slice(None)) + k])
                 for g in range(groups)]
        y = y + np.concatenate(parts, axis=1)
    return y


CONVS = [  # input shape, weight shape, stride, padding, dilation, groups
    ((2, 3, 7, 6), (4, 3, 3, 3), (1, 1), (1, 1, 1, 1), (1, 1), 1),
    ((1, 4, 8, 7), (6, 2, 3, 2), (2, 2), (1, 0, 2, 1), (1, 1), 2),
    ((2, 2, 9, 9), (3, 2, 3, 3), (2, 1), (0, 0, 0, 0), (2, 2), 1),
    ((2, 3, 10), (4, 3, 3), (3,), (2, 1), (1,), 1),
]


@pytest.mark.parametrize("xs, ws, stride, pad, dil, groups", CONVS)
def test_conv_and_gradients(xs, ws, stride, pad, dil, groups):
    x = RNG.normal(0, 1, xs).astype(np.float32)
    w = RNG.normal(0, 0.5, ws).astype(np.float32)
    want = np_conv(x, w, stride, pad, dil, groups)
    dy = RNG.normal(0, 1, want.shape).astype(np.float32)
    y, (dx, dw) = value_and_grads(
        lambda t, k: ops.conv(t, k, stride, pad, dil, groups), [x, w], [0, 1], dy)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)
    fx, fw = numeric_grads(lambda a, b: np_conv(a, b, stride, pad, dil, groups), [x, w], [0, 1],
                           dy)
    np.testing.assert_allclose(dx, fx, rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(dw, fw, rtol=1e-3, atol=1e-3)


def test_conv_same_padding_keeps_the_size():
    x = RNG.normal(0, 1, (1, 2, 6, 5)).astype(np.float32)
    w = RNG.normal(0, 1, (3, 2, 3, 2)).astype(np.float32)
    got = run(lambda: {"y": ops.conv(popxl.variable(x), popxl.variable(w),
                                     pad_type="same_upper")})["y"]
    assert got.shape == (1, 3, 6, 5)
    np.testing.assert_allclose(got, np_conv(x, w, (1, 1), (1, 0, 1, 1), (1, 1), 1), rtol=1e-4,
                               atol=1e-4)


def np_pool(x, kernel, stride, pad, kind):
    if kind == "max":
        return np.max([p for _, p in windows(x, kernel, stride, [1] * len(kernel), pad,
                                             -np.inf)], axis=0)
    total = sum(p for _, p in windows(x, kernel, stride, [1] * len(kernel), pad, 0))
    count = sum(p for _, p in windows(np.ones_like(x), kernel, stride, [1] * len(kernel), pad,
                                      0))
    return total / count


POOLS = [((2, 3, 6, 6), (2, 2), (2, 2), (0, 0, 0, 0)),
         ((1, 2, 7, 5), (3, 3), (2, 1), (1, 1, 1, 1)),
         ((2, 2, 9), (3,), (2,), (1, 0))]


@pytest.mark.parametrize("kind", ["max", "average"])
@pytest.mark.parametrize("xs, kernel, stride, pad", POOLS)
def test_pooling_and_gradient(kind, xs, kernel, stride, pad):
    x = RNG.normal(0, 1, xs).astype(np.float32)
    want = np_pool(x, kernel, stride, pad, kind)
    dy = RNG.normal(0, 1, want.shape).astype(np.float32)
    op = ops.max_pool if kind == "max" else ops.average_pool
    y, (dx,) = value_and_grads(lambda t: op(t, kernel, stride, pad), [x], [0], dy)
    np.testing.assert_allclose(y, want, rtol=1e-5, atol=1e-6)
    fx, = numeric_grads(lambda a: np_pool(a, kernel, stride, pad, kind), [x], [0], dy)
    np.testing.assert_allclose(dx, fx, rtol=1e-3, atol=1e-3)


def np_group_norm(x, w, b, groups, eps):
    n, c = x.shape[:2]
    g = x.reshape(n, groups, -1)
    xhat = ((g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps))
    shape = (1, c) + (1,) * (x.ndim - 2)
    return xhat.reshape(x.shape) * w.reshape(shape) + b.reshape(shape)


@pytest.mark.parametrize("xs, groups", [((2, 4, 3, 3), 2), ((3, 6), 1), ((2, 6, 5), 3)])
def test_group_norm_and_gradients(xs, groups):
    x = RNG.normal(1, 2, xs).astype(np.float32)
    w = RNG.normal(1, 0.5, xs[1]).astype(np.float32)
    b = RNG.normal(0, 0.5, xs[1]).astype(np.float32)
    want = np_group_norm(x, w, b, groups, 1e-5)
    dy = RNG.normal(0, 1, xs).astype(np.float32)
    fn = (lambda t, s, c: ops.layer_norm(t, s, c)) if groups == 1 else (
        lambda t, s, c: ops.group_norm(t, s, c, groups))
    y, grads = value_and_grads(fn, [x, w, b], [0, 1, 2], dy)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-4)
    refs = numeric_grads(lambda *a: np_group_norm(*a, groups, 1e-5), [x, w, b], [0, 1, 2], dy)
    for got, ref in zip(grads, refs):
        np.testing.assert_allclose(got, ref, rtol=2e-3, atol=2e-3)


def np_batch_norm(x, scale, bias, mean, var, eps):
    shape = (1, -1) + (1,) * (x.ndim - 2)
    r = lambda v: v.reshape(shape)  # noqa: E731
    return (x - r(mean)) / np.sqrt(r(var) + eps) * r(scale) + r(bias)


def test_batch_norm_inference_and_gradients():
    x = RNG.normal(0, 2, (2, 3, 4, 2)).astype(np.float32)
    scale, bias, mean = (RNG.normal(0, 1, 3).astype(np.float32) for _ in range(3))
    var = RNG.uniform(0.5, 2, 3).astype(np.float32)
    args = [x, scale, bias, mean, var]
    want = np_batch_norm(*args, 1e-3)
    dy = RNG.normal(0, 1, x.shape).astype(np.float32)
    y, grads = value_and_grads(
        lambda *t: ops.batch_norm_inference(*t, epsilon=1e-3), args, [0, 1, 2, 3, 4], dy)
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)
    refs = numeric_grads(lambda *a: np_batch_norm(*a, 1e-3), args, [0, 1, 2, 3, 4], dy)
    for got, ref in zip(grads, refs):
        np.testing.assert_allclose(got, ref, rtol=1e-3, atol=1e-3)


def test_nn_op_errors_name_op_and_values():
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(np.zeros((2, 4, 5, 5), np.float32))
        with pytest.raises(ValueError, match=r"conv.*do not fit 3 groups"):
            ops.conv(x, popxl.variable(np.zeros((3, 2, 3, 3), np.float32)), groups=3)
        with pytest.raises(ValueError, match=r"conv.*smaller than the kernel's reach 7"):
            ops.conv(x, popxl.variable(np.zeros((3, 4, 4, 4), np.float32)), dilation=(2, 2))
        with pytest.raises(ValueError, match=r"max_pool.*stride \(0, 1\) has a value below 1"):
            ops.max_pool(x, (2, 2), stride=(0, 1))
        with pytest.raises(ValueError, match=r"average_pool.*ceil_mode"):
            ops.average_pool(x, (2, 2), ceil_mode=True)
        with pytest.raises(ValueError, match=r"conv.*pad type 'same' is not valid"):
            ops.conv(x, popxl.variable(np.zeros((3, 4, 3, 3), np.float32)), pad_type="same")
        w = popxl.variable(np.ones(4, np.float32))
        with pytest.raises(ValueError, match=r"group_norm.*num_groups 3 does not divide the 4"):
            ops.group_norm(x, w, w, 3)
        with pytest.raises(ValueError, match=r"batch_norm_inference.*var .*should be"):
            ops.batch_norm_inference(x, w, w, w, popxl.variable(np.ones(3, np.float32)))


def test_half_conv_pool_and_mean_gradients():
    x = RNG.normal(0, 1, (2, 2, 6, 6)).astype(np.float16)
    w = RNG.normal(0, 0.5, (3, 2, 3, 3)).astype(np.float16)
    ref = lambda a, b: np_pool(np_conv(a, b, (1, 1), (1, 1, 1, 1), (1, 1), 1),  # noqa: E731
                               (2, 2), (2, 2), (0, 0, 0, 0), "average").mean(axis=(2, 3))
    dy = RNG.normal(0, 1, (2, 3)).astype(np.float16)
    y, (dx, dw) = value_and_grads(
        lambda t, k: ops.mean(ops.average_pool(ops.conv(t, k, padding=(1, 1, 1, 1)), (2, 2),
                                               (2, 2)), axis=(2, 3)), [x, w], [0, 1], dy)
    assert y.dtype == dx.dtype == dw.dtype == np.float16
    want = ref(x.astype(np.float64), w.astype(np.float64))
    np.testing.assert_allclose(y, want, rtol=2e-2, atol=2e-2)
    fx, fw = numeric_grads(ref, [x, w], [0, 1], dy.astype(np.float64))
    np.testing.assert_allclose(dx, fx, rtol=2e-2, atol=2e-2)
    np.testing.assert_allclose(dw, fw, rtol=2e-2, atol=5e-2)


def test_autodiff_skips_gradients_nothing_needs():
    def op_count(required):
        ir = popxl.Ir()
        with ir.main_graph:
            x = popxl.variable(np.zeros((1, 2, 5, 5), np.float32))
            w = popxl.variable(np.zeros((3, 2, 3, 3), np.float32))
            graph = ir.create_graph(lambda a, b: ops.relu(ops.conv(a, b)), x, w)
            info = popxl.transforms.autodiff(graph, grads_required=[graph.inputs[i]
                                                                    for i in required])
            return ir._pb.graph_ops(info.graph.id)

    # the weight's gradient alone leaves out conv_input_grad
    assert op_count([1]) == op_count([0]) == op_count([0, 1]) - 1
