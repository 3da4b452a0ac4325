"""popxl misuses raise Python exceptions whose messages name the op and the values."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops


def test_shape_mismatch_names_op_and_shapes():
    ir = popxl.Ir()
    with ir.main_graph:
        a = popxl.variable(np.zeros((2, 3), np.float32))
        b = popxl.variable(np.zeros((4, 5), np.float32))
        with pytest.raises(ValueError, match=r"matmul.*\(2, 3\).*\(4, 5\)"):
            a @ b
        with pytest.raises(ValueError, match=r"add.*\(2, 3\) and \(4, 5\) cannot be broadcast"):
            a + b


def test_dtype_mismatch():
    ir = popxl.Ir()
    with ir.main_graph:
        a = popxl.variable(np.zeros((2,), np.float32))
        b = popxl.variable(np.zeros((2,), np.int32))
        with pytest.raises(ValueError, match="float32 and int32"):
            ops.add(a, b)


def test_variable_outside_main_graph_and_bad_reshape():
    ir = popxl.Ir()
    g = ir.create_empty_graph("sub")
    with g:
        with pytest.raises(ValueError, match="main graph"):
            popxl.variable(np.zeros((2,), np.float32), name="w")
    with ir.main_graph:
        a = popxl.variable(np.zeros((2, 3), np.float32))
        with pytest.raises(ValueError, match=r"cannot reshape \(2, 3\).*\(4, 2\)"):
            ops.reshape(a, (4, 2))


def test_session_checks_inputs_and_attachment():
    ir = popxl.Ir()
    with ir.main_graph:
        h2d = popxl.h2d_stream((2,), popxl.float32, "x")
        d2h = popxl.d2h_stream((2,), popxl.float32, "y")
        ops.host_store(d2h, ops.host_load(h2d))
    session = popxl.Session(ir, "cpu")
    with pytest.raises(ValueError, match="Must be attached"):
        session.run({h2d: np.zeros(2, np.float32)})
    with session:
        with pytest.raises(ValueError, match=r"shape \(3,\), expected \(2,\)"):
            session.run({h2d: np.zeros(3, np.float32)})
        with pytest.raises(ValueError, match="no input for stream 'x'"):
            session.run({})
    with pytest.raises(ValueError, match="device_desc"):
        popxl.Session(ir, "gpu")


def test_unsupported_replication_is_a_clear_error():
    with pytest.raises(ValueError, match="replication 2"):
        popxl.Ir(replication=2)
