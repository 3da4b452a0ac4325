"""Helpers of the op tests: run a main graph on the simulated IPU and read tensors back, and
differentiate a function through create_graph / autodiff / call."""
import numpy as np

import popxl
import popxl.ops as ops
from popxl.transforms import autodiff


def _store_and_run(ir, outs):
    """Host-stores each tensor of `outs` (name -> Tensor, in the main graph), runs the Ir once
    on the "cpu" device and returns the values by name."""
    with ir.main_graph:
        streams = {}
        for key, t in outs.items():
            streams[key] = popxl.d2h_stream(t.shape, t.dtype, key)
            ops.host_store(streams[key], t)
    session = popxl.Session(ir, "cpu")
    with session:
        got = session.run({})
    return {key: got[s] for key, s in streams.items()}


def run(build):
    """Builds the main graph with `build()` (a dict of name -> Tensor) and runs it once."""
    ir = popxl.Ir()
    with ir.main_graph:
        outs = build()
    return _store_and_run(ir, outs)


def value_and_grads(fn, args, wrt, dy):
    """fn(*args) and its gradients by args[i] for i in wrt, given the output gradient dy."""
    ir = popxl.Ir()
    with ir.main_graph:
        ts = [popxl.variable(a, popxl.dtype.as_dtype(a.dtype), name=f"a{i}")
              for i, a in enumerate(args)]
        graph = ir.create_graph(fn, *ts)
        info = autodiff(graph, grads_required=[graph.inputs[i] for i in wrt])
        call_info = ops.call_with_info(graph, *ts)
        y = call_info.outputs[0]
        grads = ops.call(info.graph, popxl.constant(dy, y.dtype),
                         inputs_dict=info.inputs_dict(call_info))
        outs = {"y": y}
        outs.update({f"d{i}": g for i, g in zip(wrt, grads)})
    got = _store_and_run(ir, outs)
    return got["y"], [got[f"d{i}"] for i in wrt]


def numeric_grads(fn, args, wrt, dy, eps=1e-3):
    """Central finite differences of sum(fn(*args) * dy) by args[i] for i in wrt, in float64
    (fn: numpy)."""
    args = [np.asarray(a, np.float64) if np.asarray(a).dtype.kind == "f" else a for a in args]
    grads = []
    for i in wrt:
        grad = np.zeros_like(args[i])
        for pos in np.ndindex(*args[i].shape):
            values = []
            for step in (eps, -eps):
                shifted = list(args)
                shifted[i] = args[i].copy()
                shifted[i][pos] += step
                values.append(float((fn(*shifted) * dy).sum()))
            grad[pos] = (values[0] - values[1]) / (2 * eps)
        grads.append(grad)
    return grads
