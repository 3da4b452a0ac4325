"""Slicing, indexing, joining and splitting ops against numpy, with their gradients."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops
from opcheck import run, value_and_grads

RNG = np.random.default_rng(7)
X = RNG.normal(0, 1, (4, 5, 6)).astype(np.float32)


def test_slice_and_getitem_match_numpy():
    keys = [np.s_[1], np.s_[-1, 2:5], np.s_[:, ::2], np.s_[::-1, 1:-1, ::-3], np.s_[..., 3],
            np.s_[1:3, -2], np.s_[2:100, :, -100:2]]

    def build():
        x = popxl.variable(X)
        out = {f"k{i}": x[k] for i, k in enumerate(keys)}
        out["slice"] = ops.slice(x, start=[1, 4], stop=[3, None], step=[1, -2], axis=[0, 2])
        out["slice_int"] = ops.slice(x, 1, 4, axis=1)
        out["subsample"] = ops.subsample(x, [2, 1, 3])
        return out

    got = run(build)
    for i, k in enumerate(keys):
        np.testing.assert_array_equal(got[f"k{i}"], X[k], err_msg=str(k))
    np.testing.assert_array_equal(got["slice"], X[1:3, :, 4::-2])
    np.testing.assert_array_equal(got["slice_int"], X[:, 1:4])
    np.testing.assert_array_equal(got["subsample"], X[::2, :, ::3])


def test_slice_gradient_scatters_into_zeros():
    key = np.s_[1:4, ::-2, 2]
    dy = RNG.normal(0, 1, X[key].shape).astype(np.float32)
    y, (dx,) = value_and_grads(lambda t: t[key] * 2.0, [X], [0], dy)
    want = np.zeros_like(X)
    want[key] = 2 * dy
    np.testing.assert_allclose(y, 2 * X[key], rtol=1e-6)
    np.testing.assert_allclose(dx, want, rtol=1e-6)


def test_concat_split_squeeze_unsqueeze():
    a = X[:, :2]
    b = RNG.normal(0, 1, (4, 3, 6)).astype(np.float32)

    def build():
        ta, tb = popxl.variable(a), popxl.variable(b)
        c = ops.concat([ta, tb, ta], axis=1)
        parts = ops.split(c, [2, 3, 2], axis=1)
        halves = ops.split(tb, 2, axis=2)
        return {"c": c, "p0": parts[0], "p1": parts[1], "p2": parts[2], "h1": halves[1],
                "sq": ops.squeeze(tb[:, 1:2, 3:4]), "sq1": ops.squeeze(tb[:, :1], [1]),
                "unsq": ops.unsqueeze(ta, [0, -1])}

    got = run(build)
    c = np.concatenate([a, b, a], axis=1)
    np.testing.assert_array_equal(got["c"], c)
    np.testing.assert_array_equal(got["p0"], a)
    np.testing.assert_array_equal(got["p1"], b)
    np.testing.assert_array_equal(got["p2"], a)
    np.testing.assert_array_equal(got["h1"], b[:, :, 3:])
    np.testing.assert_array_equal(got["sq"], b[:, 1, 3])
    np.testing.assert_array_equal(got["sq1"], b[:, 0])
    np.testing.assert_array_equal(got["unsq"], a[None, :, :, :, None])


def test_concat_and_split_gradients():
    a = RNG.normal(0, 1, (3, 2)).astype(np.float32)
    b = RNG.normal(0, 1, (3, 4)).astype(np.float32)
    dy = RNG.normal(0, 1, (3, 6)).astype(np.float32)
    y, (da, db) = value_and_grads(lambda s, t: ops.concat([s, t], axis=-1) * 3.0, [a, b], [0, 1],
                                  dy)
    np.testing.assert_allclose(y, 3 * np.concatenate([a, b], -1), rtol=1e-6)
    np.testing.assert_allclose(da, 3 * dy[:, :2], rtol=1e-6)
    np.testing.assert_allclose(db, 3 * dy[:, 2:], rtol=1e-6)
    # split: each part's gradient lands in its place; an unused part gets zeros
    dy2 = RNG.normal(0, 1, (3, 1)).astype(np.float32)
    y, (db2,) = value_and_grads(lambda t: ops.split(t, [1, 3], axis=1)[0] * 2.0, [b], [0], dy2)
    want = np.zeros_like(b)
    want[:, :1] = 2 * dy2
    np.testing.assert_allclose(db2, want, rtol=1e-6)


def test_gather_and_its_gradient():
    table = RNG.normal(0, 1, (6, 3)).astype(np.float32)
    idx = np.array([[4, 0], [4, 5], [1, 4]], np.int32)

    def build():
        t, i = popxl.variable(table), popxl.variable(idx, popxl.int32)
        t3 = popxl.variable(X)
        return {"g0": ops.gather(t, i), "g1": ops.gather(t3, popxl.constant(np.array([5, 0], np.uint32)), axis=2),
                "item": t[popxl.constant(np.array([2, 2], np.int32))]}

    got = run(build)
    np.testing.assert_array_equal(got["g0"], table[idx])
    np.testing.assert_array_equal(got["g1"], X[:, :, [5, 0]])
    np.testing.assert_array_equal(got["item"], table[[2, 2]])
    dy = RNG.normal(0, 1, (3, 2, 3)).astype(np.float32)
    y, (dt,) = value_and_grads(lambda t, i: ops.gather(t, i), [table, idx], [0], dy)
    want = np.zeros_like(table)
    np.add.at(want, idx, dy)
    np.testing.assert_allclose(y, table[idx])
    np.testing.assert_allclose(dt, want, rtol=1e-6, atol=1e-6)


def test_dynamic_slice_and_update():
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    upd = -np.ones((2, 3), np.float32)

    def build():
        t = popxl.variable(base)
        index = popxl.variable(np.array([1, 2], np.uint32), popxl.uint32)
        s = ops.dynamic_slice(t, index, axes=[0, 1], sizes=[2, 3])
        s_row = ops.dynamic_slice(t, popxl.constant(np.array([3], np.uint32)), [0], [1])
        u = ops.dynamic_update_(t, index, popxl.constant(upd), axes=[0, 1], sizes=[2, 3])
        return {"s": s * 1.0, "row": s_row * 1.0, "u": u}

    got = run(build)
    np.testing.assert_array_equal(got["s"], base[1:3, 2:5])
    np.testing.assert_array_equal(got["row"], base[3:4])
    want = base.copy()
    want[1:3, 2:5] = upd
    np.testing.assert_array_equal(got["u"], want)
    dy = RNG.normal(0, 1, (2, 3)).astype(np.float32)
    y, (dt,) = value_and_grads(
        lambda t, i: ops.dynamic_slice(t, i, axes=[0, 1], sizes=[2, 3]),
        [base, np.array([2, 1], np.uint32)], [0], dy)
    want = np.zeros_like(base)
    want[2:4, 1:4] = dy
    np.testing.assert_array_equal(y, base[2:4, 1:4])
    np.testing.assert_allclose(dt, want)


def test_onehot():
    labels = np.array([[2, 0], [3, 1]], np.int32)

    def build():
        t = popxl.variable(labels, popxl.int32)
        values = popxl.constant(np.array([0.5, 3.0], np.float32))
        return {"last": ops.onehot(t, popxl.constant(np.array(4, np.int32)), values),
                "first": ops.onehot(t, 5, values, axis=0)}

    got = run(build)
    eye = np.where(np.eye(4)[labels] > 0, 3.0, 0.5)
    np.testing.assert_array_equal(got["last"], eye)
    np.testing.assert_array_equal(got["first"],
                                  np.moveaxis(np.where(np.eye(5)[labels] > 0, 3.0, 0.5), -1, 0))


def test_shape_op_errors_name_op_and_values():
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(X)
        with pytest.raises(ValueError, match=r"slice.*step of axis 1 is 0"):
            ops.slice(x, 0, 2, 0, axis=1)
        with pytest.raises(ValueError, match=r"slice.*axis 3 is out of range for rank 3"):
            ops.slice(x, 0, 2, axis=3)
        with pytest.raises(IndexError, match=r"index 4 is out of bounds for axis 0"):
            x[4]
        with pytest.raises(ValueError, match=r"concat.*input 1 \(5, 6\).*\(4, 5, 6\).*outside axis 0"):
            ops.concat([x, x[0]], axis=0)
        with pytest.raises(ValueError, match=r"split.*dimension 5.*into 2 equal parts"):
            ops.split(x, 2, axis=1)
        with pytest.raises(ValueError, match=r"split: sizes \[2, 2\] do not add up to dimension 5"):
            ops.split(x, [2, 2], axis=1)
        with pytest.raises(ValueError, match=r"split: axis 3 is out of range.*\(4, 5, 6\)"):
            ops.split(x, 2, axis=3)
        with pytest.raises(TypeError, match=r"split: splits must be an int or a list of ints"):
            ops.split(x, [2.5, 2.5], axis=1)
        with pytest.raises(ValueError, match=r"squeeze: axis 1 of \(4, 5, 6\) is not of size 1"):
            ops.squeeze(x, [1])
        with pytest.raises(ValueError, match=r"gather.*indices must be int32 or uint32"):
            ops.gather(x, x)
        idx = popxl.constant(np.array([0], np.uint32))
        with pytest.raises(ValueError, match=r"dynamic_slice.*size 7 of axis 1 does not fit"):
            ops.dynamic_slice(x, idx, [1], [7])
        with pytest.raises(ValueError, match=r"dynamic_slice.*need one offset each"):
            ops.dynamic_slice(x, idx, [0, 1], [1, 1])
