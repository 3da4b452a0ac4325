"""Losses, selection, comparisons, clipping, random ops and the extra var_updates against
numpy, with gradients through autodiff."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops
from opcheck import run, value_and_grads

RNG = np.random.default_rng(11)


def np_log_softmax(x):
    z = x - x.max(-1, keepdims=True)
    return z - np.log(np.exp(z).sum(-1, keepdims=True))


def test_log_softmax_and_gradient():
    x = RNG.normal(0, 2, (3, 5)).astype(np.float32)
    dy = RNG.normal(0, 1, (3, 5)).astype(np.float32)
    y, (dx,) = value_and_grads(lambda t: ops.log_softmax(t, axis=-1), [x], [0], dy)
    p = np.exp(np_log_softmax(x))
    np.testing.assert_allclose(y, np_log_softmax(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dx, dy - p * dy.sum(-1, keepdims=True), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
def test_nll_loss_with_ignore_index_and_gradient(reduction):
    logits = RNG.normal(0, 1, (6, 4)).astype(np.float32)
    probs = np.exp(np_log_softmax(logits)).astype(np.float32)
    labels = np.array([1, 3, 0, 2, 3, 1], np.int32)
    keep = labels != 3
    rows = np.where(keep, -np.log(probs[np.arange(6), labels]), 0).astype(np.float32)
    want = {"mean": rows.sum() / keep.sum(), "sum": rows.sum(), "none": rows}[reduction]
    dy = np.asarray(RNG.normal(0, 1, np.shape(want)), np.float32)
    y, (dp,) = value_and_grads(
        lambda p, l: ops.nll_loss(p, l, ignore_index=3, reduction=reduction), [probs, labels],
        [0], dy)
    np.testing.assert_allclose(y, want, rtol=1e-5)
    scale = {"mean": dy / keep.sum(), "sum": dy, "none": dy}[reduction]
    want_dp = np.zeros_like(probs)
    want_dp[np.arange(6), labels] = -np.broadcast_to(scale, (6,)) / probs[np.arange(6), labels]
    want_dp[~keep] = 0
    np.testing.assert_allclose(dp, want_dp, rtol=1e-4, atol=1e-6)


def test_nll_loss_on_log_probs_trains_through_log_softmax():
    logits = RNG.normal(0, 1, (5, 3)).astype(np.float32)
    labels = np.array([0, 2, 1, 1, 0], np.int32)
    y, (dz,) = value_and_grads(
        lambda z, l: ops.nll_loss(ops.log_softmax(z), l, log_prob=True,
                                  reduction=ops.ReductionType.Mean), [logits, labels], [0],
        np.float32(1.0))
    p = np.exp(np_log_softmax(logits))
    np.testing.assert_allclose(y, -np.log(p[np.arange(5), labels]).mean(), rtol=1e-5)
    np.testing.assert_allclose(dz, (p - np.eye(3)[labels]) / 5, rtol=1e-4, atol=1e-6)


def test_where_comparisons_and_logic():
    a = np.array([[1, 5, 3], [4, 2, 6]], np.float32)
    b = np.array([3, 2, 3], np.float32)

    def build():
        ta, tb = popxl.variable(a), popxl.variable(b)
        gt, eq, lt = ops.greater(ta, tb), ops.equal(ta, tb), ops.less(ta, 3.0)
        return {"gt": gt, "eq": eq, "lt": lt, "ge": ops.greater_equal(ta, tb),
                "ne": ops.not_equal(ta, tb), "le": ops.less_equal(ta, tb),
                "and": ops.logical_and(gt, ops.logical_not(lt)), "or": ops.logical_or(eq, lt),
                "where": ops.where(gt, ta, tb), "where_num": ops.where(eq, -1.0, ta),
                "masked": ta[gt],
                "ieq": ops.equal(popxl.constant(np.array([1, 2, 3], np.int32)), 2)}

    got = run(build)
    np.testing.assert_array_equal(got["gt"], a > b)
    np.testing.assert_array_equal(got["eq"], a == b)
    np.testing.assert_array_equal(got["lt"], a < 3)
    np.testing.assert_array_equal(got["ge"], a >= b)
    np.testing.assert_array_equal(got["ne"], a != b)
    np.testing.assert_array_equal(got["le"], a <= b)
    np.testing.assert_array_equal(got["and"], (a > b) & ~(a < 3))
    np.testing.assert_array_equal(got["or"], (a == b) | (a < 3))
    np.testing.assert_array_equal(got["where"], np.where(a > b, a, b))
    np.testing.assert_array_equal(got["where_num"], np.where(a == b, -1.0, a))
    np.testing.assert_array_equal(got["masked"], np.where(a > b, a, 0))
    np.testing.assert_array_equal(got["ieq"], [False, True, False])
    assert got["gt"].dtype == np.bool_


def test_where_and_clip_gradients():
    a = RNG.normal(0, 1, (3, 4)).astype(np.float32)
    b = RNG.normal(0, 1, (4,)).astype(np.float32)
    cond = a > 0
    dy = RNG.normal(0, 1, (3, 4)).astype(np.float32)
    y, (da, db) = value_and_grads(lambda c, s, t: ops.where(c, s, t), [cond, a, b], [1, 2], dy)
    np.testing.assert_array_equal(y, np.where(cond, a, b))
    np.testing.assert_allclose(da, np.where(cond, dy, 0))
    np.testing.assert_allclose(db, np.where(cond, 0, dy).sum(0), rtol=1e-5, atol=1e-6)
    y, (dx,) = value_and_grads(lambda t: ops.clip(t, -0.5, 0.7), [a], [0], dy)
    np.testing.assert_allclose(y, np.clip(a, -0.5, 0.7))
    np.testing.assert_allclose(dx, np.where((a >= -0.5) & (a <= 0.7), dy, 0))


def test_clip_one_sided():
    x = np.array([-2, -0.5, 0.5, 3], np.float32)
    got = run(lambda: {"lo": ops.clip(popxl.variable(x), min=0.0),
                       "hi": ops.clip(popxl.variable(x), max=1.0),
                       "none": ops.clip(popxl.variable(x))})
    np.testing.assert_array_equal(got["lo"], np.clip(x, 0, None))
    np.testing.assert_array_equal(got["hi"], np.clip(x, None, 1))
    np.testing.assert_array_equal(got["none"], x)


def test_random_ops_follow_their_seed():
    seed_a = np.array([1234, 5], np.uint32)
    seed_b = np.array([99, 7], np.uint32)
    x = np.ones((64, 64), np.float32)

    def build():
        sa = popxl.variable(seed_a, popxl.uint32)
        sb = popxl.variable(seed_b, popxl.uint32)
        tx = popxl.variable(x)
        return {"d1": ops.dropout(tx, sa, 0.25), "d2": ops.dropout(tx, sa, 0.25),
                "d3": ops.dropout(tx, sb, 0.25),
                "u": ops.random_uniform(sa, (64, 64), low=-1.0, high=3.0),
                "n": ops.random_normal(sa, (64, 64), mean=2.0, std=0.5),
                "n2": ops.random_normal(sb, (64, 64), mean=2.0, std=0.5)}

    got = run(build)
    d1 = got["d1"]
    assert set(np.unique(d1)) <= {0.0, np.float32(1 / 0.75)}
    assert abs((d1 == 0).mean() - 0.25) < 0.03
    np.testing.assert_array_equal(d1, got["d2"])
    assert (d1 != got["d3"]).any()
    u = got["u"]
    assert u.min() >= -1.0 and u.max() <= 3.0 and abs(u.mean() - 1.0) < 0.1
    n = got["n"]
    assert abs(n.mean() - 2.0) < 0.05 and abs(n.std() - 0.5) < 0.05
    assert (n != got["n2"]).any()


def test_dropout_gradient_uses_the_forward_mask():
    x = RNG.normal(0, 1, (16, 16)).astype(np.float32)
    seed = np.array([3, 4], np.uint32)
    dy = RNG.normal(0, 1, (16, 16)).astype(np.float32)
    y, (dx,) = value_and_grads(lambda t, s: ops.dropout(t, s, 0.5), [x, seed], [0], dy)
    kept = y != 0
    assert 0.3 < kept.mean() < 0.7
    np.testing.assert_allclose(y, np.where(kept, 2 * x, 0), rtol=1e-6)
    np.testing.assert_allclose(dx, np.where(kept, 2 * dy, 0), rtol=1e-6)


def test_var_updates_and_in_sequence():
    t0 = np.array([1.0, 2.0, -1.0], np.float32)
    x = np.array([0.5, -2.0, 4.0], np.float32)

    @popxl.in_sequence()
    def build():
        ts = [popxl.variable(t0) for _ in range(3)]
        tx = popxl.variable(x)
        with popxl.in_sequence(True):
            a = ops.var_updates.accumulate_square_(ts[0], tx, f=0.5)
            m = ops.var_updates.accumulate_moving_average_(ts[1], tx, f=0.9)
            s = ops.var_updates.accumulate_moving_average_square_(ts[2], tx, f=0.75)
        return {"a": a, "m": m, "s": s}

    got = run(build)
    np.testing.assert_allclose(got["a"], t0 + 0.5 * x * x, rtol=1e-6)
    np.testing.assert_allclose(got["m"], 0.9 * t0 + 0.1 * x, rtol=1e-6)
    np.testing.assert_allclose(got["s"], 0.75 * t0 + 0.25 * x * x, rtol=1e-6)


@pytest.mark.parametrize("name,fn,dfn", [
    ("log2", np.log2, lambda x: 1 / (x * np.log(2))),
    ("sin", np.sin, np.cos),
    ("cos", np.cos, lambda x: -np.sin(x)),
])
def test_trig_and_log2_and_gradients(name, fn, dfn):
    x = RNG.uniform(0.2, 3.0, (3, 4)).astype(np.float32)
    dy = RNG.normal(0, 1, (3, 4)).astype(np.float32)
    y, (dx,) = value_and_grads(getattr(ops, name), [x], [0], dy)
    np.testing.assert_allclose(y, fn(x), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(dx, dy * dfn(x), rtol=1e-4, atol=1e-6)


def test_fmod_and_its_gradients_follow_c_fmod():
    a = np.array([[5.5, -5.5, 7.0], [2.25, -0.75, 9.0]], np.float32)
    b = np.array([2.0, 2.0, -4.0], np.float32)
    dy = RNG.normal(0, 1, (2, 3)).astype(np.float32)
    y, (da, db) = value_and_grads(lambda s, t: s % t, [a, b], [0, 1], dy)
    np.testing.assert_allclose(y, np.fmod(a, b), rtol=1e-6)
    np.testing.assert_allclose(da, dy, rtol=1e-6)
    np.testing.assert_allclose(db, (-dy * np.trunc(a / b)).sum(0), rtol=1e-5)


def test_sign_ceil_floor_and_float_predicates():
    x = np.array([-2.5, -0.5, 0.0, 0.5, 2.5, np.nan, np.inf, -np.inf], np.float32)

    def build():
        t = popxl.variable(x)
        return {"sign": ops.sign(t), "ceil": ops.ceil(t), "floor": ops.floor(t),
                "isnan": ops.isnan(t), "isinf": ops.isinf(t), "isfinite": ops.isfinite(t)}

    got = run(build)
    finite = np.isfinite(x)
    np.testing.assert_array_equal(got["sign"][finite], np.sign(x)[finite])
    np.testing.assert_array_equal(got["ceil"][finite], np.ceil(x)[finite])
    np.testing.assert_array_equal(got["floor"][finite], np.floor(x)[finite])
    for name in ("isnan", "isinf", "isfinite"):
        assert got[name].dtype == np.bool_
        np.testing.assert_array_equal(got[name], getattr(np, name)(x), err_msg=name)


def np_gelu(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def test_in_place_forms_update_their_first_operand():
    x = RNG.normal(0, 1, (2, 3)).astype(np.float32)
    b = RNG.normal(0, 1, (3,)).astype(np.float32)

    def build():
        t = {k: popxl.variable(x, name=k) for k in ("add", "iadd", "exp", "relu", "gelu")}
        iadd = t["iadd"]
        iadd += 1.5
        return {"add": ops.add_(t["add"], popxl.variable(b)), "iadd": iadd,
                "exp": ops.exp_(t["exp"]), "relu": ops.relu_(t["relu"]),
                "gelu": ops.gelu_(t["gelu"])}

    got = run(build)
    np.testing.assert_allclose(got["add"], x + b, rtol=1e-6)
    np.testing.assert_allclose(got["iadd"], x + 1.5, rtol=1e-6)
    np.testing.assert_allclose(got["exp"], np.exp(x), rtol=1e-5)
    np.testing.assert_allclose(got["relu"], np.maximum(x, 0), rtol=1e-6)
    np.testing.assert_allclose(got["gelu"], np_gelu(x), rtol=1e-3, atol=1e-4)


def test_in_place_gradients_are_the_out_of_place_ones():
    a = RNG.normal(0, 1, (2, 3)).astype(np.float32)
    b = RNG.normal(0, 1, (3,)).astype(np.float32)
    dy = RNG.normal(0, 1, (2, 3)).astype(np.float32)
    y, (da, db) = value_and_grads(lambda s, t: ops.relu_(ops.add_(s * 1.0, t)), [a, b],
                                  [0, 1], dy)
    want = np.maximum(a + b, 0)
    np.testing.assert_allclose(y, want, rtol=1e-6)
    np.testing.assert_allclose(da, dy * (a + b > 0), rtol=1e-6)
    np.testing.assert_allclose(db, (dy * (a + b > 0)).sum(0), rtol=1e-5, atol=1e-6)
    y, (da,) = value_and_grads(lambda s: ops.exp_(s * 1.0), [a], [0], dy)
    np.testing.assert_allclose(da, dy * np.exp(a), rtol=1e-5)
    with pytest.raises(ValueError, match=r"gelu_.*no gradient"):
        value_and_grads(lambda s: ops.gelu_(s * 1.0), [a], [0], dy)
    # relu_'s gradient reads its output, which exp_ then overwrites: an error, not a wrong value.
    with pytest.raises(ValueError, match=r"gradient needs .*relu_.*exp_.*overwrites in place"):
        value_and_grads(lambda s: ops.exp_(ops.relu_(s * 1.0)), [a], [0], dy)


def test_math_op_errors_name_op_and_values():
    ir = popxl.Ir()
    with ir.main_graph:
        p = popxl.variable(np.ones((4, 3), np.float32))
        labels = popxl.variable(np.zeros((4,), np.int32), popxl.int32)
        with pytest.raises(ValueError, match=r"nll_loss.*\(4, 3\) and \(3,\)"):
            ops.nll_loss(p, labels[:3])
        with pytest.raises(ValueError, match=r"nll_loss.*reduction must be"):
            ops.nll_loss(p, labels, reduction="max")
        with pytest.raises(ValueError, match=r"where.*condition must be bool, got float32"):
            ops.where(p, p, p)
        with pytest.raises(ValueError, match=r"logical_and.*must be bool, got int32"):
            ops.logical_and(labels, labels)
        with pytest.raises(ValueError, match=r"dropout.*seed_tensor must be uint32 of shape"):
            ops.dropout(p, labels, 0.1)
        seed = popxl.variable(np.zeros(2, np.uint32), popxl.uint32)
        with pytest.raises(ValueError, match=r"dropout.*p must be in \[0, 1\), got 1"):
            ops.dropout(p, seed, 1.0)
        with pytest.raises(ValueError, match=r"clip.*min 2.* is above max 1"):
            ops.clip(p, 2.0, 1.0)
        with pytest.raises(ValueError, match=r"log_softmax.*innermost axis only"):
            ops.log_softmax(p, axis=0)
        with pytest.raises(ValueError, match=r"isnan.*must be float32 or float16, got int32"):
            ops.isnan(labels)
        with pytest.raises(ValueError, match=r"add_.*\(4, 3\).*does not broadcast to.*\(3,\)"):
            ops.add_(p[0], p)
