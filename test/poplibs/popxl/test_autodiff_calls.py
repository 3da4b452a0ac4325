"""Autodiff through calls: a graph calling others is differentiated recursively (each called
graph once, its gradient graph called from the caller's), so outlined and inlined models give the
same gradients; autodiff after the call (stitched outputs added to the existing call); gradient
graphs reused through called_graphs_grad_info; repeat is an error."""
from functools import partial

import numpy as np
import pytest

import popxl
import popxl.ops as ops
import popxl_addons as addons
from popxl.transforms import autodiff

BATCH, FEATURES, HIDDEN, CLASSES = 6, 8, 16, 3


class Linear(addons.Module):
    def __init__(self, out_features):
        super().__init__()
        self.out_features = out_features

    def build(self, x):
        w = self.add_variable_input(
            "weight", partial(np.zeros, (x.shape[-1], self.out_features)), x.dtype)
        b = self.add_variable_input("bias", partial(np.zeros, self.out_features), x.dtype)
        return x @ w + b


class InlinedNet(addons.Module):
    def __init__(self):
        super().__init__()
        self.fc1, self.fc2, self.fc3, self.fc4 = (Linear(HIDDEN), Linear(HIDDEN), Linear(HIDDEN),
                                                  Linear(CLASSES))

    def build(self, x):
        x = ops.gelu(self.fc1(x))
        x = ops.gelu(self.fc2(x))
        x = ops.gelu(self.fc3(x))
        return self.fc4(x)


class OutlinedNet(InlinedNet):
    """fc2 and fc3 are two calls of one Linear graph, each bound to its own variables."""

    def build(self, x):
        x = ops.gelu(self.fc1(x))
        facts, graph = Linear(HIDDEN).create_graph(x)
        for name in ("fc2", "fc3"):
            x, = graph.bind(self.add_variable_inputs(name, facts)).call(x)
            x = ops.gelu(x)
        return self.fc4(x)


def gradients(net, weights, x, labels):
    """The loss and each variable's gradient from one forward and backward pass of `net`."""
    ir = popxl.Ir()
    with ir.main_graph:
        x_t = popxl.constant(x, name="x")
        facts, fwd = net.create_graph(x_t)
        bwd = addons.autodiff(fwd)
        variables = facts.init()
        fwd_info = fwd.bind(variables).call_with_info(x_t)
        loss, dx = addons.ops.cross_entropy_with_grad(fwd_info.outputs[0],
                                                      popxl.constant(labels, name="labels"))
        bwd_info = bwd.call_with_info(dx, args=bwd.grad_graph_info.inputs_dict(fwd_info))
        grads = bwd.grad_graph_info.fwd_parent_ins_to_grad_parent_outs(fwd_info, bwd_info)
        streams = {}
        for key, v in variables.to_dict().items():
            streams[key] = popxl.d2h_stream(v.shape, v.dtype, key)
            ops.host_store(streams[key], grads[v])
        loss_stream = popxl.d2h_stream(loss.shape, loss.dtype, "loss")
        ops.host_store(loss_stream, loss)
    session = popxl.Session(ir, "cpu")
    session.write_variables_data({v: weights[k] for k, v in variables.to_dict().items()})
    with session:
        out = session.run()
    return float(out[loss_stream]), {k: out[s] for k, s in streams.items()}, ir


def test_outlined_and_inlined_models_give_identical_gradients():
    rng = np.random.default_rng(7)
    shapes = {"fc1": (FEATURES, HIDDEN), "fc2": (HIDDEN, HIDDEN), "fc3": (HIDDEN, HIDDEN),
              "fc4": (HIDDEN, CLASSES)}
    weights = {}
    for layer, shape in shapes.items():
        weights[f"{layer}.weight"] = rng.normal(0, 0.5, shape).astype(np.float32)
        weights[f"{layer}.bias"] = rng.normal(0, 0.1, shape[1]).astype(np.float32)
    x = rng.normal(0, 1, (BATCH, FEATURES)).astype(np.float32)
    labels = rng.integers(0, CLASSES, BATCH).astype(np.int32)

    loss_in, grads_in, _ = gradients(InlinedNet(), weights, x, labels)
    loss_out, grads_out, ir = gradients(OutlinedNet(), weights, x, labels)
    assert sorted(grads_out) == sorted(weights)
    assert loss_out == pytest.approx(loss_in, rel=1e-6)
    for key in weights:
        assert np.abs(grads_in[key]).max() > 0, key
        np.testing.assert_allclose(grads_out[key], grads_in[key], rtol=1e-5, atol=1e-7,
                                   err_msg=key)
    # The shared Linear graph was differentiated once: one gradient graph for the two calls.
    grad_graphs = [g for g in range(ir._pb.num_graphs) if ir._pb.graph_name(g).endswith("_grad")]
    assert len(grad_graphs) == 2, [ir._pb.graph_name(g) for g in grad_graphs]


def scale_graph(ir):
    """inner(x, w) = x * w, called by outer(x, w) = sum(exp(inner(x, w)))."""
    spec = popxl.TensorSpec((4,), popxl.float32)
    inner = ir.create_graph(lambda x, w: x * w, spec, spec)

    def outer_fn(x, w):
        y, = ops.call(inner, x, w)
        return ops.sum(ops.exp(y))
    return inner, ir.create_graph(outer_fn, spec, spec)


def test_autodiff_after_the_call_uses_the_stitched_outputs():
    x0 = np.array([0.5, -1, 2, 0.25], np.float32)
    w0 = np.array([1, 2, -0.5, 3], np.float32)
    ir = popxl.Ir()
    with ir.main_graph:
        x, w = popxl.constant(x0), popxl.variable(w0, name="w")
        _, outer = scale_graph(ir)
        fwd_info = ops.call_with_info(outer, x, w)  # called before it is differentiated
        info = autodiff(outer)
        assert len(fwd_info.outputs) == len(outer.outputs) > 1  # the call gained the outputs
        one = popxl.constant(np.float32(1))
        grad_info = ops.call_with_info(info.graph, one, inputs_dict=info.inputs_dict(fwd_info))
        grads = info.fwd_parent_ins_to_grad_parent_outs(fwd_info, grad_info)
        dx, dw = popxl.d2h_stream((4,), popxl.float32), popxl.d2h_stream((4,), popxl.float32)
        ops.host_store(dx, grads[x])
        ops.host_store(dw, grads[w])
    session = popxl.Session(ir, "cpu")
    with session:
        out = session.run()
    e = np.exp(x0 * w0)
    np.testing.assert_allclose(out[dx], e * w0, rtol=1e-5)
    np.testing.assert_allclose(out[dw], e * x0, rtol=1e-5)


def test_called_graphs_grad_info_is_reused():
    ir = popxl.Ir()
    with ir.main_graph:
        inner, outer = scale_graph(ir)
        infos = autodiff(outer, return_all_grad_graphs=True)
        assert set(infos) == {inner, outer}
        graphs = ir._pb.num_graphs
        spec = popxl.TensorSpec((4,), popxl.float32)

        def other_fn(x, w):
            y, = ops.call(inner, x, w)
            return y * 2.0
        other = ir.create_graph(other_fn, spec, spec)
        again = autodiff(other, called_graphs_grad_info={inner: infos[inner]},
                         return_all_grad_graphs=True)
        assert again[inner].graph == infos[inner].graph
        assert ir._pb.num_graphs == graphs + 2  # `other` and its gradient graph only


def test_repeat_in_a_differentiated_graph_is_an_error():
    ir = popxl.Ir()
    with ir.main_graph:
        spec = popxl.TensorSpec((4,), popxl.float32)
        body = ir.create_graph(lambda x: ops.exp(x), spec)

        def loop(x):
            y, = ops.repeat(body, 2, x)
            return y
        graph = ir.create_graph(loop, spec)
        with pytest.raises(ValueError, match="repeat.*no gradient"):
            autodiff(graph)
