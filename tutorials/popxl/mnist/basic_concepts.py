"""PopXL and popxl_addons on Fashion-MNIST, structured as Graphcore's PopXL basic-concepts
tutorial: a Net module of Linear modules (784 -> 512 -> 512 -> 512 -> 10, GELU between), one
graph made from it and bound to variables, autodiff, cross-entropy with its gradient, SGD with
scaled_add_; a separate test session gets the trained weights through to_mapping. By default fc2
and fc3 are outlined: two calls of one Linear graph, each bound to its own variables
(--inlined builds all four layers into the Net graph).

    python3 basic_concepts.py [--train-steps N] [--test-steps N] [--batch-size B] [--lr X]
                              [--inlined] [--device cpu|ipu_model] [--data DIR]
"""
import argparse
import gzip
import time
from functools import partial

import numpy as np

import popxl
import popxl.ops as ops
import popxl_addons as addons


def load(data_dir, prefix):
    with gzip.open(f"{data_dir}/{prefix}-images-idx3-ubyte.gz") as f:
        images = np.frombuffer(f.read(), np.uint8, offset=16).reshape(-1, 28, 28)
    with gzip.open(f"{data_dir}/{prefix}-labels-idx1-ubyte.gz") as f:
        labels = np.frombuffer(f.read(), np.uint8, offset=8)
    # The tutorial's normalisation (MNIST's mean and standard deviation), in place in float32:
    # float64 temporaries of the 47 million pixels took seconds of page faults.
    images = images.astype(np.float32)
    images *= np.float32(1 / (255.0 * 0.3081))
    images -= np.float32(0.1307 / 0.3081)
    return images, labels.astype(np.int32)


class Linear(addons.Module):
    def __init__(self, out_features, bias=True):
        super().__init__()
        self.out_features = out_features
        self.bias = bias

    def build(self, x):
        w = self.add_variable_input(
            "weight", partial(np.random.normal, 0, 0.02, (x.shape[-1], self.out_features)),
            x.dtype)
        y = x @ w
        if self.bias:
            b = self.add_variable_input("bias", partial(np.zeros, y.shape[-1]), x.dtype)
            y = y + b
        return y


class Net(addons.Module):
    """The four layers inlined: their ops are in the Net graph, their variables named fc1.*..."""

    def __init__(self):
        super().__init__()
        self.fc1 = Linear(512)
        self.fc2 = Linear(512)
        self.fc3 = Linear(512)
        self.fc4 = Linear(10)

    def build(self, x):
        x = x.reshape((-1, 28 * 28))
        x = ops.gelu(self.fc1(x))
        x = ops.gelu(self.fc2(x))
        x = ops.gelu(self.fc3(x))
        return self.fc4(x)


class NetOutlined(addons.Module):
    """fc2 and fc3 outlined: one Linear graph, bound to the variables of each and called twice
    (autodiff differentiates it once and calls its gradient graph twice)."""

    def __init__(self):
        super().__init__()
        self.fc1 = Linear(512)
        self.fc4 = Linear(10)

    def build(self, x):
        x = x.reshape((-1, 28 * 28))
        x = ops.gelu(self.fc1(x))
        factories, hidden = Linear(512).create_graph(x)
        for name in ("fc2", "fc3"):
            x, = hidden.bind(self.add_variable_inputs(name, factories)).call(x)
            x = ops.gelu(x)
        return self.fc4(x)


def forward_and_gradients(net, batch_size):
    """In the main graph of a new Ir: the image and label streams, the net's variables, its
    forward call and the call of its gradient graph. Returns (ir, streams, loss stream,
    variables, {variable: its gradient})."""
    ir = popxl.Ir()
    with ir.main_graph:
        img_stream = popxl.h2d_stream((batch_size, 28, 28), popxl.float32, "image")
        label_stream = popxl.h2d_stream((batch_size,), popxl.int32, "labels")
        img, labels = ops.host_load(img_stream, "image"), ops.host_load(label_stream, "labels")

        facts, fwd_graph = net.create_graph(img)
        bwd_graph = addons.autodiff(fwd_graph)
        variables = facts.init()
        fwd_info = fwd_graph.bind(variables).call_with_info(img)
        loss, dx = addons.ops.cross_entropy_with_grad(fwd_info.outputs[0], labels)
        activations = bwd_graph.grad_graph_info.inputs_dict(fwd_info)
        bwd_info = bwd_graph.call_with_info(dx, args=activations)
        grads = bwd_graph.grad_graph_info.fwd_parent_ins_to_grad_parent_outs(fwd_info, bwd_info)
        loss_stream = popxl.d2h_stream(loss.shape, loss.dtype, "loss")
        ops.host_store(loss_stream, loss)
    return ir, (img_stream, label_stream), loss_stream, variables, grads


def train_program(net, batch_size, lr):
    ir, streams, loss_stream, variables, grads = forward_and_gradients(net, batch_size)
    with ir.main_graph:
        for v in variables.tensors:
            ops.scaled_add_(v, grads[v], b=-lr)  # SGD
    return ir, streams, loss_stream, variables


def train(ir, streams, loss_stream, variables, data, args):
    """Runs args.train_steps steps of the training program on shuffled batches; returns the
    trained variables' values."""
    start = time.time()
    session = popxl.Session(ir, args.device)
    print(f"Compiled the training program in {time.time() - start:.1f} s")
    images, labels = data
    order = np.random.permutation(len(images))
    b = args.batch_size
    start = time.time()
    with session:
        for step in range(args.train_steps):
            idx = order[(step * b) % len(order):][:b]
            if len(idx) < b:
                idx = order[:b]
            loss = session.run(dict(zip(streams, (images[idx], labels[idx]))))[loss_stream]
            if step % 500 == 0 or step == args.train_steps - 1:
                print(f"step {step}: Loss:{float(loss):.4f} ({time.time() - start:.1f} s)",
                      flush=True)
    print(f"Trained {args.train_steps} steps in {time.time() - start:.1f} s")
    return session.get_tensors_data(variables.tensors)  # the host copy, detached


def test_accuracy(net, train_vars, trained, data, args):
    """The accuracy (%) of `net` with the trained weights, in a test program of its own that
    gets them through to_mapping."""
    tb = args.test_batch_size
    ir = popxl.Ir()
    with ir.main_graph:
        img_stream = popxl.h2d_stream((tb, 28, 28), popxl.float32, "image")
        img = ops.host_load(img_stream, "image")
        facts, graph = net.create_graph(img)
        test_vars = facts.init()
        logits, = graph.bind(test_vars).call(img)
        out_stream = popxl.d2h_stream(logits.shape, logits.dtype, "logits")
        ops.host_store(out_stream, logits)
    session = popxl.Session(ir, args.device)
    session.write_variables_data({test_v: trained[train_v] for train_v, test_v in
                                  train_vars.to_mapping(test_vars).items()})
    images, labels = data
    correct = 0
    with session:
        for step in range(args.test_steps):
            batch = slice(step * tb, (step + 1) * tb)
            logits = session.run({img_stream: images[batch]})[out_stream]
            correct += int((logits.argmax(-1) == labels[batch]).sum())
    return 100.0 * correct / (args.test_steps * tb)


def arguments(lr, description):
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--train-steps", type=int, default=7500)  # one epoch of batch 8
    parser.add_argument("--test-steps", type=int, default=125)  # the 10,000 test images
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--test-batch-size", type=int, default=80)
    parser.add_argument("--lr", type=float, default=lr)
    parser.add_argument("--inlined", action="store_true", help="no outlined layers")
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    return parser.parse_args()


def main():
    args = arguments(0.05, "PopXL basic concepts: an MLP trained with SGD on Fashion-MNIST")
    np.random.seed(42)
    train_data, test_data = load(args.data, "train"), load(args.data, "t10k")
    model = Net if args.inlined else NetOutlined
    ir, streams, loss_stream, train_vars = train_program(model(), args.batch_size, args.lr)
    trained = train(ir, streams, loss_stream, train_vars, train_data, args)
    accuracy = test_accuracy(model(), train_vars, trained, test_data, args)
    print(f"Accuracy on test set: {accuracy:.2f}%")


if __name__ == "__main__":
    main()
