"""ops.conditional: one of two graphs runs, chosen on the device by a one-element condition (a
Poplar If), each with its own inputs and both giving outputs of the same specs; results against
numpy for both outcomes, by-reference inputs written only by the branch taken, the errors."""
import numpy as np
import pytest

import popxl
import popxl.ops as ops
from popxl.transforms import autodiff

X = np.array([1.5, -2.0, 3.0], np.float32)
Y = np.array([0.5, 4.0, -1.0], np.float32)
SPEC = popxl.TensorSpec((3,), popxl.float32)


def two_outputs(x):
    return x * 2.0 + 1.0, ops.sum(x)


def two_outputs_of_two_inputs(x, y):
    return x - y, ops.sum(x * y)


def test_each_outcome_gives_its_branchs_outputs_from_its_own_inputs():
    ir = popxl.Ir()
    with ir.main_graph:
        x, y = popxl.variable(X, name="x"), popxl.variable(Y, name="y")
        cond_stream = popxl.h2d_stream((), popxl.bool, "cond")
        then_branch = ir.create_graph(two_outputs, SPEC)
        else_branch = ir.create_graph(two_outputs_of_two_inputs, SPEC, SPEC)
        outs = ops.conditional(ops.host_load(cond_stream), then_branch, else_branch,
                               then_inputs=[x], else_inputs=[x],
                               else_inputs_dict={else_branch.inputs[1]: y})
        streams = [popxl.d2h_stream(t.shape, t.dtype, f"out{i}") for i, t in enumerate(outs)]
        for s, t in zip(streams, outs):
            ops.host_store(s, t)
    session = popxl.Session(ir, "cpu")
    with session:
        taken = session.run({cond_stream: np.array(True)})
        not_taken = session.run({cond_stream: np.array(False)})
    np.testing.assert_allclose(taken[streams[0]], X * 2 + 1)
    np.testing.assert_allclose(taken[streams[1]], X.sum(), rtol=1e-6)
    np.testing.assert_allclose(not_taken[streams[0]], X - Y)
    np.testing.assert_allclose(not_taken[streams[1]], (X * Y).sum(), rtol=1e-6)


def test_an_integer_condition_takes_then_branch_when_nonzero():
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(X, name="x")
        cond = popxl.variable(np.int32(7), name="cond")
        out, = ops.conditional(cond, ir.create_graph(lambda t: ops.exp(t), SPEC),
                               ir.create_graph(lambda t: -t, SPEC), [x], [x])
        stream = popxl.d2h_stream(out.shape, out.dtype, "out")
        ops.host_store(stream, out)
    session = popxl.Session(ir, "cpu")
    with session:
        np.testing.assert_allclose(session.run({})[stream], np.exp(X), rtol=1e-6)
        session.write_variable_data(cond, np.int32(0))
        np.testing.assert_allclose(session.run({})[stream], -X)


def test_only_the_branch_taken_writes_its_by_reference_input():
    def update(w: popxl.TensorByRef, t: popxl.Tensor):
        ops.var_updates.accumulate_(w, t)
        return t * 1.0

    def keep(w: popxl.TensorByRef, t: popxl.Tensor):
        return t * 0.0

    ir = popxl.Ir()
    with ir.main_graph:
        x, w = popxl.variable(X, name="x"), popxl.variable(Y, name="w")
        cond = popxl.variable(np.bool_(True), name="cond")
        then_branch = ir.create_graph(update, w, x)
        else_branch = ir.create_graph(keep, w, x)
        out, = ops.conditional(cond, then_branch, else_branch, [w, x], [w, x])
        stream = popxl.d2h_stream(out.shape, out.dtype, "out")
        ops.host_store(stream, out)
    session = popxl.Session(ir, "cpu")
    with session:
        np.testing.assert_allclose(session.run({})[stream], X)
        np.testing.assert_allclose(session.get_tensor_data(w), Y + X)
        session.write_variable_data(cond, np.bool_(False))
        np.testing.assert_allclose(session.run({})[stream], 0 * X)
        np.testing.assert_allclose(session.get_tensor_data(w), Y + X)


def test_branches_whose_outputs_differ_are_an_error_naming_both():
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(X, name="x")
        cond = popxl.variable(np.bool_(True), name="cond")
        flat = ir.create_graph(lambda t: t * 2.0, SPEC)
        column = ir.create_graph(lambda t: ops.reshape(t, (3, 1)), SPEC)
        with pytest.raises(ValueError, match=r"conditional.*output 0 of then_branch .* is "
                                             r"\(3,\) float32, of else_branch .* \(3, 1\)"):
            ops.conditional(cond, flat, column, [x], [x])
        pair = ir.create_graph(two_outputs, SPEC)
        with pytest.raises(ValueError, match=r"conditional.*then_branch .* returns 1 outputs, "
                                             r"else_branch .* 2"):
            ops.conditional(cond, flat, pair, [x], [x])


def test_a_condition_of_several_elements_or_floats_is_an_error():
    ir = popxl.Ir()
    with ir.main_graph:
        x = popxl.variable(X, name="x")
        branch = ir.create_graph(lambda t: t * 2.0, SPEC)
        for cond in (popxl.variable(np.array([True, False]), name="two"),
                     popxl.variable(np.float32(1), name="float")):
            with pytest.raises(ValueError, match="conditional.*one bool or integer element"):
                ops.conditional(cond, branch, branch, [x], [x])


def test_autodiff_through_a_conditional_is_an_error_naming_it():
    ir = popxl.Ir()
    with ir.main_graph:
        branch = ir.create_graph(lambda t: t * 2.0, SPEC)

        def choose(t):
            cond = popxl.constant(np.bool_(True))
            out, = ops.conditional(cond, branch, branch, [t], [t])
            return out
        graph = ir.create_graph(choose, SPEC)
        with pytest.raises(ValueError, match=r"popxl\.ops\.conditional .*no gradient"):
            autodiff(graph)
