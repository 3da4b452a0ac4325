"""Optimiser updates against numpy: var_updates with number and Tensor hyperparameters,
adam_updater (bias correction, weight decay, its step counter), adam_var_update, and
popxl_addons' AdamOptimizerStep run for several steps."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops
import popxl_addons as addons
from opcheck import run

RNG = np.random.default_rng(17)


def test_var_updates_take_tensor_hyperparameters_and_other_dtypes():
    t0 = RNG.normal(0, 1, (3, 4)).astype(np.float32)
    x = RNG.normal(0, 1, (3, 4)).astype(np.float32)

    @popxl.in_sequence()
    def build():
        ts = [popxl.variable(t0, name=f"t{i}") for i in range(5)]
        half = popxl.variable(t0.astype(np.float16), popxl.float16, name="half")
        tx = popxl.variable(x)
        lr = popxl.variable(np.float32(0.25), name="lr")
        return {
            "sa": ops.scaled_add_(ts[0], tx, a=0.5, b=-lr),
            "acc": ops.var_updates.accumulate_(ts[1], tx, f=lr),
            "mean": ops.var_updates.accumulate_mean_(ts[2], tx, 3.0),
            "scale": ops.var_updates.accumulator_scale_(ts[3], lr),
            "zero": ops.var_updates.accumulator_zero_(ts[4]),
            "half": ops.var_updates.accumulate_moving_average_(half, tx, f=0.9)}

    got = run(build)
    np.testing.assert_allclose(got["sa"], 0.5 * t0 - 0.25 * x, rtol=1e-6)
    np.testing.assert_allclose(got["acc"], t0 + 0.25 * x, rtol=1e-6)
    np.testing.assert_allclose(got["mean"], 0.75 * t0 + 0.25 * x, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(got["scale"], 0.25 * t0, rtol=1e-6)
    np.testing.assert_array_equal(got["zero"], np.zeros_like(t0))
    assert got["half"].dtype == np.float16
    np.testing.assert_allclose(got["half"], 0.9 * t0 + 0.1 * x, rtol=2e-3, atol=2e-3)


def np_adam_update(m, v, w, step, wd, b1, b2, eps):
    mc, vc = m / (1 - b1 ** step), v / (1 - b2 ** step)
    return mc / (np.sqrt(vc) + eps) + wd * w


def test_adam_updater_counts_its_steps():
    m = RNG.normal(0, 0.1, (5,)).astype(np.float32)
    v = RNG.uniform(0.01, 0.1, (5,)).astype(np.float32)
    w = RNG.normal(0, 1, (5,)).astype(np.float32)
    ir = popxl.Ir()
    with ir.main_graph, popxl.in_sequence():
        tm, tv, tw = popxl.variable(m), popxl.variable(v), popxl.variable(w)
        step = popxl.variable(np.float32(2), name="step")
        beta2 = popxl.variable(np.float32(0.99), name="beta2")
        upd = ops.var_updates.adam_updater(tm, tv, weight=tw, time_step=step, weight_decay=0.1,
                                           beta1=0.9, beta2=beta2, epsilon=1e-6)
        plain = ops.var_updates.adam_updater(tm, tv, epsilon=1e-6)
        outs = {n: popxl.d2h_stream(t.shape, t.dtype, n) for n, t in (("upd", upd),
                                                                     ("plain", plain))}
        ops.host_store(outs["upd"], upd)
        ops.host_store(outs["plain"], plain)
    session = popxl.Session(ir, "cpu")
    with session:
        first = session.run({})
        second = session.run({})
        assert float(session.get_tensor_data(step)) == 4.0
    np.testing.assert_allclose(first[outs["upd"]],
                               np_adam_update(m, v, w, 3, 0.1, 0.9, 0.99, 1e-6), rtol=1e-5)
    np.testing.assert_allclose(second[outs["upd"]],
                               np_adam_update(m, v, w, 4, 0.1, 0.9, 0.99, 1e-6), rtol=1e-5)
    np.testing.assert_allclose(first[outs["plain"]], m / (np.sqrt(v) + 1e-6), rtol=1e-5)


def test_adam_updater_of_a_float16_moment_corrects_in_float32():
    """A float16 first moment gives a float16 update, but the bias corrections 1 - beta^t are
    computed in float32 (0.999 in float16 is 0.99902: 1 - beta2 would be 2% off)."""
    m = np.full(4, 0.01, np.float16)
    v = np.full(4, 1e-5, np.float32)
    ir = popxl.Ir()
    with ir.main_graph:
        step = popxl.variable(np.float32(0), name="step")
        upd = ops.var_updates.adam_updater(popxl.variable(m, popxl.float16), popxl.variable(v),
                                           time_step=step, beta1=0.9, beta2=0.999, epsilon=1e-5)
        out = popxl.d2h_stream(upd.shape, upd.dtype, "upd")
        ops.host_store(out, upd)
    session = popxl.Session(ir, "cpu")
    with session:
        got = session.run({})[out]
    assert got.dtype == np.float16
    want = np_adam_update(m.astype(np.float64), v, 0, 1, 0, 0.9, 0.999, 1e-5)
    np.testing.assert_allclose(got, want, rtol=2e-3)


def test_adam_var_update_applies_the_trust_ratio():
    w = RNG.normal(0, 1, (6,)).astype(np.float32)
    x = RNG.normal(0, 1, (6,)).astype(np.float32)
    r1, r2 = np.float32((w * w).sum()), np.float32((x * x).sum())

    def build():
        vs = [popxl.variable(w, name=f"w{i}") for i in range(3)]
        tr1, tr2 = popxl.variable(r1), popxl.variable(r2)
        zero = popxl.variable(np.float32(0))
        tx = popxl.variable(x)
        return {"lamb": ops.var_updates.adam_var_update(vs[0], tx, tr1, tr2, 0.1, 1.5),
                "plain": ops.var_updates.adam_var_update(vs[1], tx, zero, tr2, 0.1, 1.5),
                "free": ops.var_updates.adam_var_update(vs[2], tx, tr1, tr2,
                                                        learning_rate=popxl.variable(
                                                            np.float32(0.1)))}

    got = run(build)
    ratio = min(np.sqrt(r1), 1.5) / np.sqrt(r2)
    np.testing.assert_allclose(got["lamb"], w - 0.1 * ratio * x, rtol=1e-5)
    np.testing.assert_allclose(got["plain"], w - 0.1 * x, rtol=1e-6)
    np.testing.assert_allclose(got["free"], w - 0.1 * np.sqrt(r1 / r2) * x, rtol=1e-5)


def test_adam_optimizer_step_matches_numpy_adamw():
    w0 = RNG.normal(0, 1, (4, 3)).astype(np.float32)
    grads = [RNG.normal(0, 1, (4, 3)).astype(np.float32) for _ in range(3)]
    lr, b1, b2, eps, wd = 0.01, 0.9, 0.999, 1e-5, 0.01
    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(w0, name="w")
        g_in = popxl.h2d_stream(w0.shape, popxl.float32, "grad")
        g = ops.host_load(g_in)
        facts, graph = addons.optimizers.AdamOptimizerStep().create_graph(
            w, g.spec, lr=lr, beta1=b1, beta2=b2, eps=eps, weight_decay=wd,
            first_order_dtype=popxl.float32)
        assert sorted(facts.keys_flat()) == ["first_order", "second_order", "step"]
        state = facts.init("adam")
        graph.bind(state).call(w, g)
    session = popxl.Session(ir, "cpu")
    with session:
        for grad in grads:
            session.run({g_in: grad})
        got = session.get_tensor_data(w)
    want, m, v = w0.astype(np.float64), 0.0, 0.0
    for step, grad in enumerate(grads, 1):
        m = b1 * m + (1 - b1) * grad
        v = b2 * v + (1 - b2) * grad * grad
        want = want - lr * np_adam_update(m, v, want, step, wd, b1, b2, eps)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_sparse_accumulate_adds_gathered_rows_at_their_indices():
    t0 = RNG.normal(0, 1, (5, 3)).astype(np.float32)
    idx = np.array([4, 0, 4], np.int32)  # a repeated index adds up
    rows = RNG.normal(0, 1, (3, 3)).astype(np.float32)
    cols = RNG.normal(0, 1, (5, 2)).astype(np.float16)  # axis 1, another dtype
    col_idx = np.array([2, 1], np.uint32)

    @popxl.in_sequence()
    def build():
        a, b, c = (popxl.variable(t0, name=n) for n in "abc")
        lr = popxl.variable(np.float32(0.5), name="lr")
        return {"rows": ops.var_updates.sparse_accumulate_(a, popxl.constant(rows),
                                                           popxl.constant(idx), f=0.5),
                "tensor_f": ops.var_updates.sparse_accumulate_(b, popxl.constant(rows),
                                                               popxl.constant(idx), f=lr),
                "cols": ops.var_updates.sparse_accumulate_(
                    c, popxl.constant(cols, popxl.float16), popxl.constant(col_idx), axis=1)}

    got = run(build)
    want = t0.copy()
    np.add.at(want, idx, 0.5 * rows)
    np.testing.assert_allclose(got["rows"], want, rtol=1e-6)
    np.testing.assert_allclose(got["tensor_f"], want, rtol=1e-6)
    want_cols = t0.copy()
    want_cols[:, col_idx] += cols.astype(np.float32)
    np.testing.assert_allclose(got["cols"], want_cols, rtol=1e-6)


def test_optimiser_errors_name_the_op():
    ir = popxl.Ir()
    with ir.main_graph:
        t = popxl.variable(np.zeros((2, 2), np.float32))
        with pytest.raises(ValueError, match="weight decay requires weight"):
            ops.var_updates.adam_updater(t, t, weight_decay=0.1)
        with pytest.raises(ValueError, match="bias correction requires both beta1 and beta2"):
            ops.var_updates.adam_updater(t, t, time_step=popxl.variable(np.float32(0)))
        with pytest.raises(ValueError, match=r"accumulate_.*one float element, got \(2,\)"):
            ops.var_updates.accumulate_(t, t, f=popxl.variable(np.zeros(2, np.float32)))
        with pytest.raises(ValueError, match=r"scaled_add_.*the update \(3,\) float32 should"):
            ops.scaled_add_(t, popxl.variable(np.zeros(3, np.float32)))
        with pytest.raises(ValueError, match=r"sparse_accumulate_.*the update \(a gather of t "
                                             r"at the indices\) \(2, 2\) float32 should be "
                                             r"float of shape \(3, 2\)"):
            ops.var_updates.sparse_accumulate_(t, t, popxl.constant(np.zeros(3, np.int32)))
