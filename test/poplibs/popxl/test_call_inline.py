"""A graph called once is lowered inline (CallInline.cpp): no copies in or out, so no exchange
cycles for them, and the results of a call by value, with copies only where memory is shared."""
import numpy as np

import popxl
import popxl.ops as ops

X = np.array([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], np.float32)


def cycles_and_output(build):
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(X, name="x")
        y = build(ir, x)
        out = popxl.d2h_stream(y.shape, y.dtype, "y")
        ops.host_store(out, y)
    session = popxl.Session(ir, "cpu")
    with session:
        got = session.run({})[out]
        return session.last_run_cycles, got


def test_a_graph_called_once_costs_what_its_ops_cost_in_the_caller():
    def body(t):
        return ops.relu(t) * 2.0

    direct = cycles_and_output(lambda ir, x: body(x))
    called = cycles_and_output(lambda ir, x: ops.call(ir.create_graph(body, x), x)[0])
    np.testing.assert_array_equal(called[1], np.maximum(X, 0) * 2)
    np.testing.assert_array_equal(called[1], direct[1])
    assert called[0] == direct[0]


def test_a_graph_called_twice_stays_outlined_and_pays_its_copies():
    def body(t):
        return ops.relu(t) * 2.0

    def twice(ir, x):
        g = ir.create_graph(body, x)
        return ops.call(g, ops.call(g, x)[0])[0]

    direct = cycles_and_output(lambda ir, x: body(body(x)))
    called = cycles_and_output(twice)
    np.testing.assert_array_equal(called[1], direct[1])
    assert called[0] > direct[0]


def test_an_output_that_is_an_input_does_not_see_the_callers_later_writes():
    ir = popxl.Ir()
    with ir.main_graph:
        a = popxl.variable(np.array([1.0, 2.0], np.float32), name="a")
        same, view = ops.call(ir.create_graph(lambda t: (t, t.reshape((2, 1))), a), a)
        ops.var_updates.accumulate_(a, popxl.constant(np.array([10.0, 10.0], np.float32)))
        streams = [popxl.d2h_stream(t.shape, t.dtype, n) for t, n in ((same, "s"), (view, "v"))]
        for s, t in zip(streams, (same, view)):
            ops.host_store(s, t)
    session = popxl.Session(ir, "cpu")
    with session:
        out = session.run({})
        np.testing.assert_array_equal(out[streams[0]], [1.0, 2.0])
        np.testing.assert_array_equal(out[streams[1]], [[1.0], [2.0]])
        np.testing.assert_array_equal(session.get_tensor_data(a), [11.0, 12.0])


def test_an_output_that_is_a_constant_keeps_the_constant_from_the_callers_writes():
    ir = popxl.Ir()
    with ir.main_graph:
        a = popxl.variable(np.array([1.0, 2.0], np.float32), name="a")
        g = ir.create_graph(lambda t: popxl.constant(np.array([3.0, 4.0], np.float32)), a)
        c, = ops.call(g, a)
        ops.var_updates.accumulate_(c, a)
        out = popxl.d2h_stream((2,), popxl.float32, "c")
        ops.host_store(out, c)
    session = popxl.Session(ir, "cpu")
    with session:
        np.testing.assert_array_equal(session.run({})[out], [4.0, 6.0])
        np.testing.assert_array_equal(session.run({})[out], [4.0, 6.0])


def test_a_tensor_passed_by_reference_and_by_value_reads_its_value_before_the_call():
    def update(w: popxl.TensorByRef, x: popxl.Tensor):
        ops.var_updates.accumulate_(w, x)
        return x * 1.0

    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(np.array([1.0, 2.0], np.float32), name="w")
        y, = ops.call(ir.create_graph(update, w, w), w, w)
        out = popxl.d2h_stream((2,), popxl.float32, "y")
        ops.host_store(out, y)
    session = popxl.Session(ir, "cpu")
    with session:
        np.testing.assert_array_equal(session.run({})[out], [1.0, 2.0])
        np.testing.assert_array_equal(session.get_tensor_data(w), [2.0, 4.0])
