"""popxl programs built in Python and run on the simulated IPU, checked against numpy."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops


def run(ir, inputs, device="cpu"):
    session = popxl.Session(ir, device)
    with session:
        return session, session.run(inputs)


def test_matmul_relu_sum_and_variable_update():
    w0 = np.arange(6, dtype=np.float32).reshape(2, 3)
    x = np.array([[1, -2], [0.5, 1], [3, 0], [-1, -1]], np.float32)
    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(w0, popxl.float32, name="w")
        x_h2d = popxl.h2d_stream((4, 2), popxl.float32, name="x")
        y = ops.relu(ops.host_load(x_h2d, "x") @ w + 1.0)
        y_d2h = popxl.d2h_stream(y.shape, y.dtype, name="y")
        s_d2h = popxl.d2h_stream((3,), popxl.float32, name="s")
        ops.host_store(y_d2h, y)
        ops.host_store(s_d2h, ops.sum(y, axis=0))
        ops.var_updates.accumulate_(w, popxl.constant(np.ones((2, 3), np.float32)), f=0.5)
    session, out = run(ir, {x_h2d: x}, "ipu_model")
    want = np.maximum(x @ w0 + 1, 0)
    np.testing.assert_allclose(out[y_d2h], want, rtol=1e-6)
    np.testing.assert_allclose(out[s_d2h], want.sum(0), rtol=1e-6)
    with session:
        np.testing.assert_allclose(session.get_tensor_data(w), w0 + 0.5)
    assert session.last_run_cycles > 0


@pytest.mark.parametrize("op, ref", [
    (ops.exp, np.exp), (ops.log, np.log), (ops.sqrt, np.sqrt), (ops.negate, np.negative),
    (ops.abs, np.abs), (ops.tanh, np.tanh), (ops.sigmoid, lambda v: 1 / (1 + np.exp(-v))),
])
def test_unary_ops(op, ref):
    x = np.linspace(0.25, 3, 12, dtype=np.float32).reshape(3, 4)
    ir = popxl.Ir()
    with ir.main_graph:
        t = popxl.constant(x)
        d2h = popxl.d2h_stream(t.shape, t.dtype, "out")
        ops.host_store(d2h, op(t))
    _, out = run(ir, {})
    np.testing.assert_allclose(out[d2h], ref(x), rtol=2e-5, atol=1e-6)


def test_broadcasting_reductions_reshape_transpose_cast_softmax():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    b = np.array([1.0, -1.0, 2.0, 0.5], np.float32)
    ir = popxl.Ir()
    with ir.main_graph:
        ta, tb = popxl.variable(a, name="a"), popxl.variable(b, name="b")
        outs = {
            "bcast": ta * tb - 1,
            "mean": ops.mean(ta, axis=(0, 2), keepdims=True),
            "max": ops.max(ta, axis=-1),
            "reshaped": ops.reshape(ta, (4, -1)).T,
            "cast": ops.cast(ta * 10, popxl.int32),
            "softmax": ops.softmax(ta, axis=-1),
        }
        streams = {}
        for name, t in outs.items():
            streams[name] = popxl.d2h_stream(t.shape, t.dtype, name)
            ops.host_store(streams[name], t)
    _, out = run(ir, {})
    e = np.exp(a - a.max(-1, keepdims=True))
    want = {
        "bcast": a * b - 1, "mean": a.mean(axis=(0, 2), keepdims=True), "max": a.max(-1),
        "reshaped": a.reshape(4, -1).T, "cast": (a * 10).astype(np.int32),
        "softmax": e / e.sum(-1, keepdims=True),
    }
    for name, s in streams.items():
        np.testing.assert_allclose(out[s], want[name], rtol=1e-5, atol=1e-6, err_msg=name)


def test_num_host_transfers_stream_shapes():
    ir = popxl.Ir()
    with ir.main_graph:
        h2d = popxl.h2d_stream((2,), popxl.float32, "x")
        d2h = popxl.d2h_stream((2,), popxl.float32, "y")
        ops.host_store(d2h, ops.host_load(h2d) * 2.0)
        ops.host_store(d2h, ops.host_load(h2d) + 1.0)
    ir.num_host_transfers = 2
    x = np.array([[1, 2], [3, 4]], np.float32)
    _, out = run(ir, {h2d: x})
    np.testing.assert_allclose(out[d2h], [[2, 4], [4, 5]])


def test_half_and_batched_matmul():
    a = (np.arange(2 * 3 * 4).reshape(2, 3, 4) % 5).astype(np.float16)
    b = (np.arange(2 * 4 * 5).reshape(2, 4, 5) % 3).astype(np.float16)
    ir = popxl.Ir()
    with ir.main_graph:
        c = ops.matmul(popxl.constant(a), popxl.constant(b), output_type=popxl.float32)
        d2h = popxl.d2h_stream(c.shape, c.dtype, "c")
        ops.host_store(d2h, c)
    _, out = run(ir, {})
    assert out[d2h].dtype == np.float32
    np.testing.assert_allclose(out[d2h], a.astype(np.float32) @ b.astype(np.float32))


def test_print_tensor_prints_when_the_program_runs_and_passes_the_tensor_through(capfd):
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(np.array([1.5, -2.0], np.float32), name="x")
        y = ops.print_tensor(x * 2.0, "doubled")
        out = popxl.d2h_stream(y.shape, y.dtype, name="y")
        ops.host_store(out, y + 1.0)
    session, result = run(ir, {})
    np.testing.assert_allclose(result[out], [4.0, -3.0])
    printed = capfd.readouterr().out
    assert "doubled" in printed and "3" in printed and "-4" in printed


def test_host_copy_of_the_variables_outside_the_session_context():
    """Detached, get_tensor_data gives the host copy: the initial value, then the device's as
    of the last exit (weights_to_host); a write while detached reaches the device."""
    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(np.zeros(3, np.float32), name="w")
        ops.var_updates.accumulate_(w, popxl.constant(np.ones(3, np.float32)))
    session = popxl.Session(ir, "cpu")
    np.testing.assert_array_equal(session.get_tensor_data(w), [0, 0, 0])
    with session:
        session.run()
        np.testing.assert_array_equal(session.get_tensor_data(w), [1, 1, 1])
        session.run()
    np.testing.assert_array_equal(session.get_tensor_data(w), [2, 2, 2])
    session.write_variable_data(w, np.full(3, 5, np.float32))
    np.testing.assert_array_equal(session.get_tensor_data(w), [5, 5, 5])
    with session:
        session.run()
    np.testing.assert_array_equal(session.get_tensor_data(w), [6, 6, 6])
    with pytest.raises(ValueError, match="Must be attached"):
        session.weights_to_host()


def test_without_weights_to_host_on_exit_the_host_copy_stays():
    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(np.zeros(2, np.float32), name="w")
        ops.var_updates.accumulate_(w, popxl.constant(np.ones(2, np.float32)))
    session = popxl.Session(ir, "cpu", weights_to_host_on_exit=False)
    with session:
        session.run()
    np.testing.assert_array_equal(session.get_tensor_data(w), [0, 0])
    with session:  # attaching writes the host copy to the device (weights_from_host)
        session.run()
        session.weights_to_host()
    np.testing.assert_array_equal(session.get_tensor_data(w), [1, 1])
