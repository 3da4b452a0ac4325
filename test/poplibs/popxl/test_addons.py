"""popxl_addons: a Module with submodules made into one graph, variables from its factories,
autodiff, cross-entropy with its gradient and SGD, as the PopXL MNIST tutorial builds it."""
from functools import partial

import numpy as np

import popxl
import popxl.ops as ops
import popxl_addons as addons


class Linear(addons.Module):
    def __init__(self, out_features, bias=True):
        super().__init__()
        self.out_features = out_features
        self.bias = bias

    def build(self, x):
        w = self.add_variable_input(
            "weight", partial(np.random.normal, 0, 0.1, (x.shape[-1], self.out_features)), x.dtype)
        y = x @ w
        if self.bias:
            y = y + self.add_variable_input("bias", partial(np.zeros, y.shape[-1]), x.dtype)
        return y


class Net(addons.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = Linear(16)
        self.fc2 = Linear(3)

    def build(self, x):
        x = x.reshape((-1, 8))
        return self.fc2(ops.gelu(self.fc1(x)))


def test_named_tensors_and_factories():
    tree = addons.NamedTensors.from_dict({"fc1.weight": 1, "fc1.bias": 2, "fc2.weight": 3})
    assert tree.fc1.weight == 1 and tree["fc2.weight"] == 3
    assert tree.keys_flat() == ["fc1.weight", "fc1.bias", "fc2.weight"]
    other = addons.NamedTensors.from_dict({"fc1.weight": "a", "fc2.weight": "b"})
    assert tree.to_mapping(other) == {1: "a", 3: "b"}


def test_module_training_with_autodiff():
    np.random.seed(0)
    rng = np.random.default_rng(3)
    batch = 32
    x = rng.normal(0, 1, (batch, 2, 4)).astype(np.float32)
    labels = (x.reshape(batch, 8) @ rng.normal(0, 1, (8, 3))).argmax(-1).astype(np.int32)

    ir = popxl.Ir()
    with ir.main_graph:
        img_stream = popxl.h2d_stream((batch, 2, 4), popxl.float32, "image")
        label_stream = popxl.h2d_stream((batch,), popxl.int32, "labels")
        img, lab = ops.host_load(img_stream), ops.host_load(label_stream)
        facts, fwd_graph = Net().create_graph(popxl.TensorSpec((batch, 2, 4), popxl.float32))
        assert sorted(facts.keys_flat()) == ["fc1.bias", "fc1.weight", "fc2.bias", "fc2.weight"]
        bwd_graph = addons.autodiff(fwd_graph)
        variables = facts.init()
        fwd_info = fwd_graph.bind(variables).call_with_info(img)
        logits = fwd_info.parent_output(0)
        loss, dx = addons.ops.cross_entropy_with_grad(logits, lab)
        bwd_vars = bwd_graph.grad_graph_info.inputs_dict(fwd_info)
        bwd_info = bwd_graph.call_with_info(dx, args=bwd_vars)
        grads = bwd_graph.grad_graph_info.fwd_parent_ins_to_grad_parent_outs(fwd_info, bwd_info)
        for v in variables.tensors:
            ops.scaled_add_(v, grads[v], b=-0.5)
        loss_stream = popxl.d2h_stream(loss.shape, loss.dtype, "loss")
        ops.host_store(loss_stream, loss)

    session = popxl.Session(ir, "cpu")
    with session:
        losses = [float(session.run({img_stream: x, label_stream: labels})[loss_stream])
                  for _ in range(30)]
        trained = session.get_tensors_data(variables.tensors)
    assert losses[-1] < 0.5 * losses[0], losses
    assert set(trained) == set(variables.tensors)


class Scale(addons.Module):
    def __init__(self, factor):
        super().__init__(cache=True)
        self.factor = factor

    def build(self, x):
        return x * self.factor


def test_graph_cache_reuses_graphs_of_equal_specs():
    ir = popxl.Ir()
    with ir.main_graph:
        cache = addons.GraphCache()
        a = cache.create_graph(lambda x: x + 1.0, popxl.TensorSpec((2,), popxl.float32))
        fn = lambda x: x * 2.0  # noqa: E731
        b = cache.create_graph(fn, popxl.TensorSpec((2,), popxl.float32))
        c = cache.create_graph(fn, popxl.constant(np.zeros(2, np.float32)))
        d = cache.create_graph(fn, popxl.TensorSpec((3,), popxl.float32))
        assert b is c and a is not b and d is not b
        module = Scale(2.0)
        _, g1 = module.create_graph(popxl.TensorSpec((2,), popxl.float32))
        _, g2 = module.create_graph(popxl.TensorSpec((2,), popxl.float32))
        module.factor = 3.0
        _, g3 = module.create_graph(popxl.TensorSpec((2,), popxl.float32))
        assert g1 is g2 and g3 is not g1


def test_print_schedule_lists_the_ops_in_order():
    ir = popxl.Ir()
    with ir.main_graph:
        _, graph = Linear(4).create_graph(popxl.TensorSpec((2, 3), popxl.float32))
    text = graph.print_schedule()
    lines = text.splitlines()
    assert lines[0].startswith("Graph : ")
    assert [line.split()[0] for line in lines[1:]] == ["matmul", "add"]
    assert "[(2, 3) float32]" in lines[1]
