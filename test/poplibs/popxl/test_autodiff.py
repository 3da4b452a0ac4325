"""Subgraph calls and autodiff: gradients of a small network against numpy's, and SGD training
through call / autodiff / call of the gradient graph on the simulated IPU."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops
from popxl.transforms import autodiff, ExpectedConnectionType


def mlp(x, w1, b1, w2):
    h = ops.relu(x @ w1 + b1)
    return ops.softmax(h @ w2, axis=-1)


def numpy_mlp_grads(x, w1, b1, w2, labels):
    z1 = x @ w1 + b1
    h = np.maximum(z1, 0)
    z2 = h @ w2
    e = np.exp(z2 - z2.max(-1, keepdims=True))
    p = e / e.sum(-1, keepdims=True)
    onehot = np.eye(p.shape[1], dtype=np.float32)[labels]
    loss = -np.log(p[np.arange(len(labels)), labels]).mean()
    dz2 = (p - onehot) / len(labels)
    dw2 = h.T @ dz2
    dz1 = (dz2 @ w2.T) * (z1 > 0)
    return loss, x.T @ dz1, dz1.sum(0), dw2


def test_call_copies_inputs_and_outputs():
    ir = popxl.Ir()
    with ir.main_graph:
        a = popxl.variable(np.array([1.0, 2.0], np.float32))
        g = ir.create_graph(lambda t: (t * 3.0, t + 1.0), a)
        y, z = ops.call(g, a)
        y2, = ops.call(ir.create_graph(lambda t: t * t, y), y)
        streams = [popxl.d2h_stream((2,), popxl.float32, n) for n in "yzw"]
        for s, t in zip(streams, (y, z, y2)):
            ops.host_store(s, t)
    session = popxl.Session(ir, "cpu")
    with session:
        out = session.run({})
    np.testing.assert_allclose(out[streams[0]], [3, 6])
    np.testing.assert_allclose(out[streams[1]], [2, 3])
    np.testing.assert_allclose(out[streams[2]], [9, 36])


def test_autodiff_gradients_match_numpy():
    rng = np.random.default_rng(1)
    x = rng.normal(0, 1, (6, 5)).astype(np.float32)
    w1 = rng.normal(0, 0.5, (5, 4)).astype(np.float32)
    b1 = rng.normal(0, 0.1, (4,)).astype(np.float32)
    w2 = rng.normal(0, 0.5, (4, 3)).astype(np.float32)
    labels = np.array([0, 2, 1, 1, 0, 2], np.int32)
    ir = popxl.Ir()
    with ir.main_graph:
        tx = popxl.variable(x, name="x")
        params = [popxl.variable(v, name=n) for v, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"))]
        tl = popxl.variable(labels, popxl.int32, name="labels")
        fwd = ir.create_graph(mlp, tx, *params)
        info = autodiff(fwd, grads_required=fwd.inputs[1:])
        assert [c.connection_type for c in info.expected_inputs][0] == ExpectedConnectionType.FwdGrad
        call_info = ops.call_with_info(fwd, tx, *params)
        probs = call_info.outputs[0]
        loss, dprobs_input = ops.nll_loss_with_softmax_grad(probs, tl)
        # The loss gives the gradient by the softmax's input; the graph's output is the softmax,
        # so feed the gradient graph dL/dp = dL/dz through the softmax's own gradient instead:
        # here we differentiate w.r.t. the softmax output with the probability-space gradient.
        onehot = popxl.constant(np.eye(3, dtype=np.float32)[labels])
        dprobs = ops.div(ops.negate(onehot), probs * float(len(labels)))
        grads = ops.call(info.graph, dprobs, inputs_dict=info.inputs_dict(call_info))
        streams = {}
        for name, t in (("loss", loss), ("dw1", grads[0]), ("db1", grads[1]), ("dw2", grads[2])):
            streams[name] = popxl.d2h_stream(t.shape, t.dtype, name)
            ops.host_store(streams[name], t)
    session = popxl.Session(ir, "cpu")
    with session:
        out = session.run({})
    want_loss, dw1, db1, dw2 = numpy_mlp_grads(x, w1, b1, w2, labels)
    np.testing.assert_allclose(out[streams["loss"]], want_loss, rtol=1e-5)
    np.testing.assert_allclose(out[streams["dw1"]], dw1, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(out[streams["db1"]], db1, rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(out[streams["dw2"]], dw2, rtol=1e-4, atol=1e-6)


def test_sgd_training_reduces_the_loss():
    rng = np.random.default_rng(2)
    x = rng.normal(0, 1, (32, 8)).astype(np.float32)
    true_w = rng.normal(0, 1, (8, 3)).astype(np.float32)
    labels = (x @ true_w).argmax(-1).astype(np.int32)
    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(np.zeros((8, 3), np.float32), name="w")
        x_in = popxl.h2d_stream((32, 8), popxl.float32, "x")
        l_in = popxl.h2d_stream((32,), popxl.int32, "labels")
        loss_out = popxl.d2h_stream((), popxl.float32, "loss")
        linear = ir.create_graph(lambda a, b: a @ b, popxl.TensorSpec((32, 8), popxl.float32), w)
        info = autodiff(linear, grads_required=[linear.inputs[1]])
        xt, lt = ops.host_load(x_in), ops.host_load(l_in)
        call_info = ops.call_with_info(linear, xt, w)
        logits = call_info.outputs[0]
        loss, dlogits = ops.nll_loss_with_softmax_grad(ops.softmax(logits, axis=-1), lt)
        dw, = ops.call(info.graph, dlogits, inputs_dict=info.inputs_dict(call_info))
        ops.var_updates.accumulate_(w, dw, f=-1.0)
        ops.host_store(loss_out, loss)
    session = popxl.Session(ir, "cpu")
    losses = []
    with session:
        for _ in range(20):
            losses.append(float(session.run({x_in: x, l_in: labels})[loss_out]))
        w_trained = session.get_tensor_data(w)
    assert losses[0] == pytest.approx(np.log(3), rel=1e-5)
    assert losses[-1] < 0.5 * losses[0]
    assert ((x @ w_trained).argmax(-1) == labels).mean() > 0.9


def test_autodiff_errors():
    ir = popxl.Ir()
    with pytest.raises(ValueError, match="main graph"):
        autodiff(ir.main_graph)
    with ir.main_graph:
        g = ir.create_graph(lambda t: ops.var_updates.accumulate_(t * 2.0, t),
                            popxl.TensorSpec((3, 2), popxl.float32))
    with pytest.raises(ValueError, match="accumulate_.*no gradient"):
        autodiff(g)


def test_repeat_carries_outputs_to_inputs():
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(np.array([1.0, 2.0], np.float32), name="x")
        step = popxl.variable(np.array([0.5, 0.5], np.float32), name="step")
        body = ir.create_graph(lambda a, s: a * 2.0 + s, x, step)
        y, = ops.repeat(body, 3, x, step)
        out = popxl.d2h_stream((2,), popxl.float32, "y")
        ops.host_store(out, y)
        with pytest.raises(ValueError, match="repeat_count must be at least 1"):
            ops.repeat(body, 0, x, step)
    session = popxl.Session(ir, "cpu")
    with session:
        got = session.run({})[out]
    want = np.array([1.0, 2.0])
    for _ in range(3):
        want = want * 2 + 0.5
    np.testing.assert_allclose(got, want)


def test_tensor_by_ref_updates_reach_the_caller():
    def sgd(w: popxl.TensorByRef, g: popxl.Tensor):
        ops.var_updates.accumulate_(w, g, f=-0.5)

    def by_value(w: popxl.Tensor, g: popxl.Tensor):
        ops.var_updates.accumulate_(w, g, f=-0.5)

    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(np.array([1.0, 2.0], np.float32), name="w")
        v = popxl.variable(np.array([1.0, 2.0], np.float32), name="v")
        g = popxl.constant(np.array([2.0, 2.0], np.float32))
        ops.call(ir.create_graph(sgd, w, g), w, g)
        ops.call(ir.create_graph(by_value, v, g), v, g)
    session = popxl.Session(ir, "cpu")
    with session:
        session.run({})
        np.testing.assert_allclose(session.get_tensor_data(w), [0.0, 1.0])
        np.testing.assert_allclose(session.get_tensor_data(v), [1.0, 2.0])
