"""Each op of the aten table, forward and gradient, against torch on the CPU."""
import pytest
import torch
import torch.nn.functional as F

import poptorch
from ptcheck import OpModel, check_op

torch.manual_seed(0)
X = torch.randn(3, 4)
X4 = torch.randn(2, 3, 4, 5)
UNARY = {
    "relu": torch.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "exp": torch.exp,
    "gelu": lambda x: F.gelu(x, approximate="tanh"), "silu": F.silu, "neg": torch.neg, "abs": torch.abs,
    "leaky_relu": lambda x: F.leaky_relu(x, 0.2), "hardtanh": F.hardtanh,
    "clamp": lambda x: torch.clamp(x, -0.5, 0.5), "square": torch.square,
    "log": lambda x: torch.log(x * x + 1), "sqrt": lambda x: torch.sqrt(x * x + 1),
    "rsqrt": lambda x: torch.rsqrt(x * x + 1),
    "softmax": lambda x: F.softmax(x, 1), "softmax0": lambda x: F.softmax(x, 0),
    "log_softmax": lambda x: F.log_softmax(x, -1),
    "scalar_ops": lambda x: (2 - x) * 3 / 4 + 1,
    "pow": lambda x: x ** 2, "pow_tensor": lambda x: torch.pow(x * x + 1, x),
    "elu": F.elu, "softplus": F.softplus, "hardsigmoid": F.hardsigmoid,
    "hardswish": F.hardswish, "log1p": lambda x: torch.log1p(x * x),
    "expm1": torch.expm1, "reciprocal": lambda x: torch.reciprocal(x * x + 1),
    "gelu_exact": F.gelu,
    "where": lambda x: torch.where(x > 0, x, x * 3),
    "masked_fill": lambda x: x.masked_fill(x < 0.2, 0.5),
    "maximum": lambda x: torch.maximum(x, x.flip(0)),
    "compare_cast": lambda x: (x >= 0).float() * x + (x != x.abs()).float(),
    "factories": lambda x: x * torch.ones(3, 4) + torch.full((4,), 2.0) + torch.arange(4.0),
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary(name):
    check_op(UNARY[name], X, atol=1e-3 if name == "gelu_exact" else 1e-5)


@pytest.mark.parametrize("op", [torch.add, torch.sub, torch.mul, torch.div])
def test_binary_broadcast(op):
    y = torch.rand(1, 4) + 0.5
    check_op(lambda x: op(x, y), X)
    check_op(lambda x: op(y, x * x + 1), X)


SHAPE = {
    "view": lambda x: x.view(2, 6, 5, 2), "reshape": lambda x: x.reshape(-1, 20),
    "flatten": lambda x: torch.flatten(x, 1), "permute": lambda x: x.permute(0, 2, 3, 1),
    "transpose": lambda x: x.transpose(1, 3), "t": lambda x: x[0, 0].t(),
    "unsqueeze": lambda x: x.unsqueeze(2), "squeeze": lambda x: x[:, :1].squeeze(1),
    "slice": lambda x: x[:, 1:3, ::2], "select": lambda x: x[:, -1],
    "cat": lambda x: torch.cat([x, x * 2], 1), "stack": lambda x: torch.stack([x, x], 0),
    "chunk": lambda x: torch.chunk(x, 2, 3)[1], "split": lambda x: torch.split(x, [1, 2], 1)[1],
    "unbind": lambda x: torch.unbind(x, 1)[2], "expand": lambda x: x[:, :1].expand(2, 3, 4, 5),
    "contiguous": lambda x: x.transpose(0, 1).contiguous(),
}


@pytest.mark.parametrize("name", sorted(SHAPE))
def test_shape(name):
    check_op(SHAPE[name], X4)


REDUCE = {
    "sum": lambda x: x.sum(), "sum_dims": lambda x: x.sum((1, 3), keepdim=True),
    "mean": lambda x: x.mean(2), "amax": lambda x: torch.amax(x, 1),
    "var": lambda x: x.var(1), "std": lambda x: x.std((2, 3)),
    "max_dim": lambda x: torch.max(x, 2, keepdim=True)[0], "min_dim": lambda x: x.min(-1)[0],
}


@pytest.mark.parametrize("name", sorted(REDUCE))
def test_reduce(name):
    check_op(REDUCE[name], X4)


def test_matmuls():
    w = torch.randn(4, 6)
    check_op(lambda x: x @ w, X)
    b, c, bias, lw, lb = (torch.randn(2, 3, 5, 2), torch.randn(3, 5, 2), torch.rand(6),
                          torch.randn(7, 5), torch.randn(7))
    check_op(lambda x: torch.matmul(x, b), X4)
    check_op(lambda x: torch.bmm(x[0], c), X4)
    check_op(lambda x: torch.addmm(bias, x, w, beta=0.5, alpha=2), X)
    check_op(lambda x: F.linear(x, lw, lb), X4)


def test_embedding_and_gather():
    table = torch.randn(10, 4)
    idx = torch.tensor([[1, 3], [9, 0]])
    check_op(lambda t, i: F.embedding(i, t), table, idx)
    check_op(lambda t, i: torch.index_select(t, 0, i), table, torch.tensor([2, 2, 7]))


LOSSES = {
    "cross_entropy": lambda x, y: F.cross_entropy(x, y),
    "cross_entropy_sum": lambda x, y: F.cross_entropy(x, y, reduction="sum"),
    "nll_loss": lambda x, y: F.nll_loss(F.log_softmax(x, 1), y),
    "nll_loss_ignore": lambda x, y: F.nll_loss(F.log_softmax(x, 1), y, ignore_index=2),
    "mse_loss": lambda x, y: F.mse_loss(x, torch.ones_like(x) * 0.5),
    "l1_loss": lambda x, y: F.l1_loss(x, torch.zeros(3, 4)),
    "bce": lambda x, y: F.binary_cross_entropy(torch.sigmoid(x), torch.full((3, 4), 0.3)),
}


@pytest.mark.parametrize("name", sorted(LOSSES))
def test_loss(name):
    check_op(LOSSES[name], X, torch.tensor([0, 2, 3]))


C3, C3B, C45, C45B = torch.rand(3) + 0.5, torch.rand(3), torch.rand(4, 5), torch.rand(4, 5)
NORMS = {
    "group_norm": lambda x: F.group_norm(x, 3, C3, C3B),
    "layer_norm": lambda x: F.layer_norm(x, (4, 5), C45, C45B),
    "batch_norm_eval": lambda x: F.batch_norm(x, C3B, C3, C3, C3B, training=False),
    "batch_norm_train": lambda x: F.batch_norm(x, None, None, C3B.clone(), C3.clone(),
                                               training=True),
}


@pytest.mark.parametrize("name", sorted(NORMS))
def test_norm(name):
    check_op(NORMS[name], X4, atol=1e-4)


IMG = torch.randn(2, 4, 7, 6)
W3, B3, WG = torch.randn(6, 4, 3, 3), torch.randn(6), torch.randn(8, 2, 2, 3)
CONV_POOL = {
    "conv2d": lambda x: F.conv2d(x, W3, B3),
    "conv2d_stride_pad": lambda x: F.conv2d(x, W3, None, stride=2, padding=1),
    "conv2d_dilation_groups": lambda x: F.conv2d(x, WG, None, padding=(1, 0), dilation=2,
                                                 groups=2),
    "conv2d_same": lambda x: F.conv2d(x, W3, B3, padding="same"),
    "conv1d": lambda x: F.conv1d(x[:, :, 0], W3[:, :, 0], B3, padding=1),
    "max_pool2d": lambda x: F.max_pool2d(x, 2),
    "max_pool2d_pad": lambda x: F.max_pool2d(x, 3, stride=2, padding=1),
    "avg_pool2d": lambda x: F.avg_pool2d(x, (3, 2), stride=1),
    "avg_pool2d_pad": lambda x: F.avg_pool2d(x, 3, stride=2, padding=1),
    "avg_pool2d_pad_excluded": lambda x: F.avg_pool2d(x, 3, padding=1, count_include_pad=False),
    "adaptive_avg_pool2d": lambda x: F.adaptive_avg_pool2d(x[:, :, :6], (2, 3)),
}


@pytest.mark.parametrize("name", sorted(CONV_POOL))
def test_conv_pool(name):
    check_op(CONV_POOL[name], IMG, atol=1e-4)


@pytest.mark.parametrize("fn", [lambda x: torch.argmax(x, 1), lambda x: x.argmin(-1, True),
                                lambda x: torch.argmax(x), lambda x: torch.max(x, 3)[1]])
def test_arg_extremes(fn):
    class Arg(torch.nn.Module):
        def forward(self, x):
            return fn(x)
    out = poptorch.inferenceModel(Arg())(X4)
    assert out.dtype == torch.int32
    torch.testing.assert_close(out, fn(X4).int())


def test_dropout_is_an_identity_in_inference():
    model = OpModel(lambda x: F.dropout(x * 2, 0.5, training=True), X.shape, X.shape)
    out, _ = poptorch.inferenceModel(model)(X)
    torch.testing.assert_close(out, X * 2)
