"""PopXL and popxl_addons on Fashion-MNIST, structured as Graphcore's PopXL basic-concepts
tutorial: a Net module of Linear modules (784 -> 512 -> 512 -> 512 -> 10, GELU between), one
graph made from it and bound to variables, autodiff, cross-entropy with its gradient, SGD with
scaled_add_; a separate test session gets the trained weights through to_mapping.

    python3 mnist.py [--train-steps N] [--test-steps N] [--batch-size B] [--lr X]
                     [--device cpu|ipu_model] [--data DIR]
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
    # The tutorial's normalisation (MNIST's mean and standard deviation).
    return ((images / 255.0 - 0.1307) / 0.3081).astype(np.float32), labels.astype(np.int32)


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


def train_program(batch_size, lr):
    ir = popxl.Ir()
    with ir.main_graph:
        img_spec = popxl.TensorSpec((batch_size, 28, 28), popxl.float32)
        img_stream = popxl.h2d_stream(img_spec.shape, popxl.float32, "image")
        label_stream = popxl.h2d_stream((batch_size,), popxl.int32, "labels")
        img, labels = ops.host_load(img_stream, "image"), ops.host_load(label_stream, "labels")

        facts, fwd_graph = Net().create_graph(img_spec)
        bwd_graph = addons.autodiff(fwd_graph)
        variables = facts.init()
        fwd_info = fwd_graph.bind(variables).call_with_info(img)
        logits = fwd_info.parent_output(0)
        loss, dx = addons.ops.cross_entropy_with_grad(logits, labels)
        bwd_info = bwd_graph.call_with_info(dx, args=bwd_graph.grad_graph_info.inputs_dict(fwd_info))
        grads = bwd_graph.grad_graph_info.fwd_parent_ins_to_grad_parent_outs(fwd_info, bwd_info)
        for v in variables.tensors:
            ops.scaled_add_(v, grads[v], b=-lr)
        loss_stream = popxl.d2h_stream(loss.shape, loss.dtype, "loss")
        ops.host_store(loss_stream, loss)
    return ir, (img_stream, label_stream), loss_stream, variables


def test_program(batch_size):
    ir = popxl.Ir()
    with ir.main_graph:
        img_stream = popxl.h2d_stream((batch_size, 28, 28), popxl.float32, "image")
        img = ops.host_load(img_stream, "image")
        facts, graph = Net().create_graph(img)
        variables = facts.init()
        logits, = graph.bind(variables).call(img)
        out_stream = popxl.d2h_stream(logits.shape, logits.dtype, "logits")
        ops.host_store(out_stream, logits)
    return ir, img_stream, out_stream, variables


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--train-steps", type=int, default=7500)
    parser.add_argument("--test-steps", type=int, default=125)
    parser.add_argument("--batch-size", type=int, default=8)
    parser.add_argument("--test-batch-size", type=int, default=80)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--data", default="/usr/share/datasets/fashion-mnist")
    args = parser.parse_args()
    np.random.seed(42)
    train_x, train_y = load(args.data, "train")
    test_x, test_y = load(args.data, "t10k")

    ir, (img_stream, label_stream), loss_stream, train_vars = train_program(args.batch_size,
                                                                            args.lr)
    start = time.time()
    session = popxl.Session(ir, args.device)
    print(f"Compiled the training program in {time.time() - start:.1f} s")
    order = np.random.permutation(len(train_x))
    b = args.batch_size
    start = time.time()
    with session:
        for step in range(args.train_steps):
            idx = order[(step * b) % len(order):][:b]
            if len(idx) < b:
                idx = order[:b]
            loss = session.run({img_stream: train_x[idx], label_stream: train_y[idx]})[loss_stream]
            if step % 500 == 0 or step == args.train_steps - 1:
                print(f"step {step}: Loss:{float(loss):.4f} ({time.time() - start:.1f} s)",
                      flush=True)
        trained = session.get_tensors_data(train_vars.tensors)
    print(f"Trained {args.train_steps} steps in {time.time() - start:.1f} s")

    ir, img_stream, out_stream, test_vars = test_program(args.test_batch_size)
    session = popxl.Session(ir, args.device)
    session.write_variables_data({test_vars_t: trained[train_t] for train_t, test_vars_t in
                                  train_vars.to_mapping(test_vars).items()})
    correct = 0
    tb = args.test_batch_size
    with session:
        for step in range(args.test_steps):
            logits = session.run({img_stream: test_x[step * tb:(step + 1) * tb]})[out_stream]
            correct += int((logits.argmax(-1) == test_y[step * tb:(step + 1) * tb]).sum())
    print(f"Accuracy on test set: {100.0 * correct / (args.test_steps * tb):.2f}%")


if __name__ == "__main__":
    main()
