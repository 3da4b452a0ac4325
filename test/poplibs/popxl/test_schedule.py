"""Scheduling from Python: popxl.in_sequence orders ops that data does not, in-place writes keep
the reads around them in place (results checked on the device), and a cycle is a ValueError
naming its ops."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops


def names(graph):
    return [name for _, name, _, _ in graph._schedule()]


def two_independent_ops(sequenced):
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(np.ones(4, np.float32), name="x")
        if sequenced:
            with popxl.in_sequence():
                ops.add(x, x, name="first")
                ops.mul(x, x, name="second")
        else:
            ops.add(x, x, name="first")
            ops.mul(x, x, name="second")
    return names(ir.main_graph)


def test_in_sequence_changes_the_order_where_data_does_not_decide():
    assert two_independent_ops(False) == ["second", "first"]
    assert two_independent_ops(True) == ["first", "second"]


def test_in_sequence_as_a_decorator_and_disabled():
    ir = popxl.Ir()

    @popxl.in_sequence()
    def body(x):
        ops.add(x, x, name="a")
        with popxl.in_sequence(False):
            ops.mul(x, x, name="b1")
            ops.sub(x, x, name="b2")
        ops.div(x, x, name="c")

    with ir.main_graph:
        body(popxl.variable(np.ones(4, np.float32), name="x"))
    order = names(ir.main_graph)
    for b in ("b1", "b2"):
        assert order.index("a") < order.index(b) < order.index("c")


def test_in_sequence_needs_a_graph():
    with pytest.raises(RuntimeError, match="in_sequence: no current graph"):
        with popxl.in_sequence():
            pass


def test_reads_before_and_after_an_in_place_update():
    w0 = np.arange(4, dtype=np.float32)
    ir = popxl.Ir()
    with ir.main_graph:
        w = popxl.variable(w0, name="w")
        view = w.reshape((2, 2))
        before = w * 2.0
        ops.var_updates.accumulate_(w, popxl.constant(np.ones(4, np.float32)))
        after = w * 2.0
        through_view = view * 2.0
        streams = []
        for t in (before, after, through_view):
            streams.append(popxl.d2h_stream(t.shape, t.dtype))
            ops.host_store(streams[-1], t)
    session = popxl.Session(ir, "cpu")
    with session:
        out = session.run()
    np.testing.assert_array_equal(out[streams[0]], w0 * 2)
    np.testing.assert_array_equal(out[streams[1]], (w0 + 1) * 2)
    np.testing.assert_array_equal(out[streams[2]], ((w0 + 1) * 2).reshape(2, 2))


def test_cycle_is_an_error_naming_the_ops():
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(np.ones(4, np.float32), name="x")
        a = ops.add(x, x, name="a")
        b = ops.exp(a, name="b")
    ir._pb.add_topo_con(ir._pb.tensor_producer(b.id), ir._pb.tensor_producer(a.id))
    with pytest.raises(ValueError, match="graph 'main_graph' cannot be ordered.*"
                                         "add 'a' -> exp 'b' -> add 'a'"):
        popxl.Session(ir, "cpu")
