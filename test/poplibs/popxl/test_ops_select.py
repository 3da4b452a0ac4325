"""Ops that pick elements: argmax/argmin, scatter, and the gradients of max/min reductions and
of maximum/minimum, against numpy."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops
from opcheck import run, value_and_grads

RNG = np.random.default_rng(23)


def test_argmax_and_argmin():
    x = RNG.normal(0, 1, (3, 5, 4)).astype(np.float32)
    x[1, 2, :] = x[1, 0, :]  # a tie along dim 1: the first wins

    def build():
        t = popxl.variable(x)
        return {"max1": ops.argmax(t, 1), "min2": ops.argmin(t, dim=-1, keepdim=True),
                "max0": ops.argmax(t)}

    got = run(build)
    np.testing.assert_array_equal(got["max1"], x.argmax(1))
    np.testing.assert_array_equal(got["min2"], x.argmin(-1)[..., None])
    np.testing.assert_array_equal(got["max0"], x.argmax(0))
    assert got["max1"].dtype == np.int32


@pytest.mark.parametrize("op, fn", [(ops.max, np.max), (ops.min, np.min)])
def test_reduce_max_min_gradients_go_to_the_extremes(op, fn):
    x = RNG.normal(0, 1, (4, 6)).astype(np.float32)
    x[2, 1] = x[2, 4] = fn(x[2]) + (1 if fn is np.max else -1)  # a tie gets both
    dy = RNG.normal(0, 1, (4,)).astype(np.float32)
    y, (dx,) = value_and_grads(lambda t: op(t, axis=1), [x], [0], dy)
    np.testing.assert_allclose(y, fn(x, axis=1))
    np.testing.assert_allclose(dx, np.where(x == fn(x, axis=1, keepdims=True), dy[:, None], 0))


def test_reduce_prod_and_its_gradient_with_zeros():
    x = RNG.uniform(0.5, 1.5, (5, 4)).astype(np.float32)
    x[1, 2] = 0  # one zero: only it gets a gradient, the product of the others
    x[3, 0] = x[3, 3] = 0  # two zeros: no gradient
    dy = RNG.normal(0, 1, (5,)).astype(np.float32)
    y, (dx,) = value_and_grads(lambda t: ops.prod(t, axis=1), [x], [0], dy)
    np.testing.assert_allclose(y, x.prod(axis=1), rtol=1e-6)
    others = np.stack([np.prod(np.delete(x, j, axis=1), axis=1) for j in range(4)], axis=1)
    np.testing.assert_allclose(dx, dy[:, None] * others, rtol=1e-5)
    assert dx[1, 2] != 0 and not dx[3].any()
    kept, (dkept,) = value_and_grads(lambda t: ops.prod(t, keepdims=True), [x[:2, :3] + 1],
                                     [0], np.ones((1, 1), np.float32))
    np.testing.assert_allclose(kept, (x[:2, :3] + 1).prod(keepdims=True), rtol=1e-5)
    np.testing.assert_allclose(dkept, kept / (x[:2, :3] + 1), rtol=1e-5)


def test_maximum_minimum_gradients():
    a = RNG.normal(0, 1, (3, 4)).astype(np.float32)
    b = RNG.normal(0, 1, (4,)).astype(np.float32)
    dy = RNG.normal(0, 1, (3, 4)).astype(np.float32)
    y, (da, db) = value_and_grads(lambda s, t: ops.maximum(s, t), [a, b], [0, 1], dy)
    np.testing.assert_allclose(y, np.maximum(a, b))
    np.testing.assert_allclose(da, np.where(a >= b, dy, 0))
    np.testing.assert_allclose(db, np.where(a >= b, 0, dy).sum(0), rtol=1e-5, atol=1e-6)
    y, (da, db) = value_and_grads(lambda s, t: ops.minimum(s, t), [a, b], [0, 1], dy)
    np.testing.assert_allclose(y, np.minimum(a, b))
    np.testing.assert_allclose(da, np.where(a <= b, dy, 0))


def np_scatter(t, indices, values, axis):
    out = t.copy()
    for pos in np.ndindex(*indices.shape):
        target = list(pos)
        target[axis] = indices[pos]
        out[tuple(target)] = values[pos]
    return out


@pytest.mark.parametrize("axis", [0, 1, -1])
def test_scatter_and_gradients(axis):
    t = RNG.normal(0, 1, (4, 5)).astype(np.float32)
    ax = axis % 2
    dim = t.shape[ax]
    # three distinct indices along the axis per line across it, one of them negative
    lines = [RNG.permutation(dim)[:3] for _ in range(t.shape[1 - ax])]
    indices = np.stack(lines, axis=1 - ax).astype(np.int32)
    indices[0, 0] -= dim
    ishape = indices.shape
    values = RNG.normal(0, 1, ishape).astype(np.float32)
    want = np_scatter(t, indices % dim, values, axis)
    dy = RNG.normal(0, 1, t.shape).astype(np.float32)
    y, (dt, dv) = value_and_grads(lambda a, i, v: ops.scatter(a, i, v, axis), [t, indices, values],
                                  [0, 2], dy)
    np.testing.assert_array_equal(y, want)
    written = np_scatter(np.zeros_like(t), indices % dim, np.ones_like(values), axis) == 1
    np.testing.assert_array_equal(dt, np.where(written, 0, dy))
    np.testing.assert_array_equal(dv, np.take_along_axis(dy, indices % dim, axis))


def test_scatter_skips_indices_outside_the_axis():
    t = np.zeros((2, 3), np.float32)
    got = run(lambda: {"y": ops.scatter(
        popxl.variable(t), popxl.variable(np.array([[0, 7, 1]], np.uint32), popxl.uint32),
        popxl.variable(np.array([[1, 2, 3]], np.float32)))})["y"]
    np.testing.assert_array_equal(got, [[1, 0, 0], [0, 0, 3]])


def test_select_op_errors_name_op_and_values():
    ir = popxl.Ir()
    with ir.main_graph:
        t = popxl.variable(np.zeros((2, 3), np.float32))
        i = popxl.variable(np.zeros((3, 3), np.int32), popxl.int32)
        with pytest.raises(ValueError, match=r"scatter.*indices \(3, 3\) need the rank of \(2, 3\)"):
            ops.scatter(t, i, popxl.variable(np.zeros((3, 3), np.float32)), axis=1)
        with pytest.raises(ValueError, match=r"argmax.*axis 2 is out of range for rank 2"):
            ops.argmax(t, 2)
