"""Shared checks of the poptorch tests: an op's forward through an inference model, and its
gradient through one SGD step of a training model, both against torch on the CPU."""
import copy

import torch

import poptorch


class OpModel(torch.nn.Module):
    """fn(x + p, *rest): the parameter p (zeros, the shape of x) makes the gradient by x observable
    as p's change after one SGD step of lr 1. The loss weights each output element differently, so
    a wrong gradient layout cannot pass."""

    def __init__(self, fn, x_shape, out_shape):
        super().__init__()
        self.fn = fn
        self.p = torch.nn.Parameter(torch.zeros(x_shape))
        n = torch.Size(out_shape).numel()
        self.register_buffer("w", torch.arange(n, dtype=torch.float32).reshape(out_shape) / n + 0.5)

    def forward(self, x, *rest):
        out = self.fn(x + self.p, *rest)
        return out, poptorch.identity_loss((out * self.w).sum(), "sum")


def check_op(fn, *inputs, grad=True, atol=1e-5, rtol=1e-4):
    """Runs fn on the device (forward, then one training step when `grad`) and on the CPU."""
    x = inputs[0]
    model = OpModel(fn, x.shape, fn(*inputs).shape)
    reference = copy.deepcopy(model)
    out, _ = poptorch.inferenceModel(model)(*inputs)
    want, loss = reference(*inputs)
    torch.testing.assert_close(out, want.detach(), atol=atol, rtol=rtol)
    if not grad:
        return
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=1.0))
    training(*inputs)
    loss.backward()
    torch.testing.assert_close(model.p.detach(), -reference.p.grad, atol=atol, rtol=rtol)
    training.destroy()
