"""A custom optimiser in PopXL, in the style of Graphcore's PopXL custom-optimiser tutorial:
Adam written as an addons.Module whose state (the moments and the step count) are variables of
its own, updated in place with popxl.ops.var_updates. It is tried on one variable (a float and a
Tensor learning rate, checked against numpy), then trains the MLP of basic_concepts.py on
Fashion-MNIST, one cached optimiser graph per variable shape.

    python3 custom_optimiser.py [--train-steps N] [--test-steps N] [--lr X] [--inlined] ...
"""
from functools import partial

import numpy as np

import popxl
import popxl.ops as ops
import popxl_addons as addons
from basic_concepts import (Net, NetOutlined, arguments, forward_and_gradients, load,
                            test_accuracy, train)


class Adam(addons.Module):
    # The updates below are in place: in_sequence keeps them in the order they are written,
    # whatever the scheduler would otherwise choose.
    @popxl.in_sequence()
    def build(self, weight: popxl.TensorByRef, grad: popxl.Tensor, *, lr, beta1=0.9,
              beta2=0.999, eps=1e-5, weight_decay=0.0, first_order_dtype=popxl.float16,
              bias_correction=True):
        """One Adam step of `weight` (passed by reference: the caller's variable is updated).
        A number hyperparameter is fixed in the graph; a Tensor (or TensorSpec) one is an input
        of it, read when the program runs."""
        zeros = partial(np.zeros, weight.shape)
        # The moving averages of the gradient and of its square.
        first = self.add_variable_input("first_order", zeros, first_order_dtype, by_ref=True)
        ops.var_updates.accumulate_moving_average_(first, grad, f=beta1)
        second = self.add_variable_input("second_order", zeros, popxl.float32, by_ref=True)
        ops.var_updates.accumulate_moving_average_square_(second, grad, f=beta2)
        # adam_updater increments the step count, which corrects the averages' bias.
        step = (self.add_variable_input("step", partial(np.zeros, ()), popxl.float32, by_ref=True)
                if bias_correction else None)
        update = ops.var_updates.adam_updater(first, second, weight=weight,
                                              weight_decay=weight_decay, time_step=step,
                                              beta1=beta1, beta2=beta2, epsilon=eps)
        ops.scaled_add_(weight, update, b=-lr)


def numpy_adam_step(weight, grad, lr, eps=1e-5):
    """The first Adam step from zero moments: bias-corrected, the moments are grad and grad^2."""
    return weight - lr * grad / (np.abs(grad) + eps)


def try_on_one_variable(device):
    """The optimiser graph with a float and with a Tensor learning rate, one step each."""
    ir = popxl.Ir()
    with ir.main_graph:
        var = popxl.variable(np.ones((2, 2)), popxl.float32, name="var")
        var_lr = popxl.variable(np.ones((2, 2)), popxl.float32, name="var_lr")
        grad = popxl.constant(np.full((2, 2), 0.1), popxl.float32, name="grad")
        facts, adam = Adam().create_graph(var, var.spec, lr=1e-3)
        facts_lr, adam_lr = Adam().create_graph(
            var_lr, var_lr.spec, lr=popxl.TensorSpec((), popxl.float32))
        print("Adam with a float learning rate:\n" + adam.print_schedule())
        print("Adam with a Tensor learning rate (an input of the graph):\n" +
              adam_lr.print_schedule())
        state = facts.init("adam")
        adam.bind(state).call(var, grad)
        adam_lr.bind(facts_lr.init("adam_lr")).call(var_lr, grad,
                                                     popxl.constant(1e-3, popxl.float32))
    session = popxl.Session(ir, device)
    with session:
        session.run()
    after = session.get_tensors_data([var, var_lr])
    want = numpy_adam_step(np.ones((2, 2)), 0.1, 1e-3)
    print("Adam state after one step:",
          {t.name: v.tolist() for t, v in session.get_tensors_data(state.tensors).items()})
    # Within 1% of the step: the first moment is float16 (0.01 is held as 0.010009...).
    print("Adam step matches numpy:",
          all(np.allclose(after[v], want, rtol=0, atol=1e-5) for v in (var, var_lr)))


def optimiser_step(variables, grads, optimiser, lr):
    """An optimiser graph per variable (the optimiser's GraphCache gives variables of one shape
    one graph), each with its own state variables, called on the variable and its gradient."""
    graphs = set()
    for var in variables.tensors:
        facts, graph = optimiser.create_graph(var, var.spec, lr=lr, bias_correction=False)
        graph.bind(facts.init()).call(var, grads[var])
        graphs.add(graph.graph)
    print(f"{len(variables.tensors)} variables updated by {len(graphs)} optimiser graphs")


def main():
    args = arguments(1e-3, "PopXL custom optimiser: the MLP trained with an Adam Module")
    np.random.seed(42)
    try_on_one_variable(args.device)
    train_data, test_data = load(args.data, "train"), load(args.data, "t10k")
    model = Net if args.inlined else NetOutlined
    ir, streams, loss_stream, train_vars, grads = forward_and_gradients(model(), args.batch_size)
    with ir.main_graph:
        optimiser_step(train_vars, grads, Adam(cache=True), args.lr)
    trained = train(ir, streams, loss_stream, train_vars, train_data, args)
    accuracy = test_accuracy(model(), train_vars, trained, test_data, args)
    print(f"Accuracy on test set: {accuracy:.2f}%")


if __name__ == "__main__":
    main()
