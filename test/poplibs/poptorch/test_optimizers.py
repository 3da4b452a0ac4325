"""A few training steps of a small model give the weights torch gives on the CPU, for each
optimizer and its options."""
import copy

import pytest
import torch

import poptorch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(6, 8)
        self.fc2 = torch.nn.Linear(8, 3)
        self.loss = torch.nn.CrossEntropyLoss()

    def forward(self, x, y):
        out = self.fc2(torch.tanh(self.fc1(x)))
        return out, self.loss(out, y)


def _data(steps, batch):
    g = torch.Generator().manual_seed(1)
    return [(torch.randn(batch, 6, generator=g), torch.randint(0, 3, (batch,), generator=g))
            for _ in range(steps)]


def _train_on_cpu(model, optimizer, data):
    for x, y in data:
        optimizer.zero_grad()
        model(x, y)[1].backward()
        optimizer.step()


OPTIMIZERS = {
    "sgd": lambda p: torch.optim.SGD(p, lr=0.1),
    "sgd_momentum": lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, weight_decay=0.01),
    "sgd_nesterov": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, nesterov=True),
    "sgd_dampening": lambda p: torch.optim.SGD(p, lr=0.05, momentum=0.8, dampening=0.3),
    "poptorch_sgd": lambda p: poptorch.optim.SGD(p, lr=0.1, momentum=0.5, loss_scaling=4.0),
    "adam": lambda p: torch.optim.Adam(p, lr=0.01),
    "adam_wd": lambda p: poptorch.optim.Adam(p, lr=0.01, weight_decay=0.1, betas=(0.8, 0.99)),
    "adamw": lambda p: torch.optim.AdamW(p, lr=0.01),
    "rmsprop": lambda p: torch.optim.RMSprop(p, lr=0.01),
    "rmsprop_centered": lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5, centered=True),
    "lamb": lambda p: poptorch.optim.LAMB(p, lr=0.01),
}


@pytest.mark.parametrize("name", sorted(OPTIMIZERS))
def test_optimizer_matches_torch(name):
    torch.manual_seed(0)
    model = Net()
    reference = copy.deepcopy(model)
    data = _data(4, 5)
    training = poptorch.trainingModel(model, optimizer=OPTIMIZERS[name](model.parameters()))
    for x, y in data:
        training(x, y)
    _train_on_cpu(reference, OPTIMIZERS[name](reference.parameters()), data)
    for (n, p), q in zip(model.named_parameters(), reference.parameters()):
        torch.testing.assert_close(p.detach(), q.detach(), atol=2e-5, rtol=1e-4, msg=n)


def test_gradient_accumulation_and_device_iterations():
    """deviceIterations(2) × gradientAccumulation(3): each device iteration updates once from the
    mean gradient of three micro-batches, as torch does with the mean over the combined batch."""
    torch.manual_seed(0)
    model = Net()
    reference = copy.deepcopy(model)
    opts = poptorch.Options().deviceIterations(2)
    opts.Training.gradientAccumulation(3)
    data = _data(2 * 3, 4)
    x = torch.cat([d[0] for d in data])
    y = torch.cat([d[1] for d in data])
    training = poptorch.trainingModel(model, opts, torch.optim.SGD(model.parameters(), lr=0.1))
    out, loss = training(x, y)
    assert out.shape == (4, 3) and loss.shape == ()  # Final: the last micro-batch
    sgd = torch.optim.SGD(reference.parameters(), lr=0.1)
    for i in range(2):
        sgd.zero_grad()
        xs, ys = x[i * 12:(i + 1) * 12], y[i * 12:(i + 1) * 12]
        reference(xs, ys)[1].backward()
        sgd.step()
    for p, q in zip(model.parameters(), reference.parameters()):
        torch.testing.assert_close(p.detach(), q.detach(), atol=2e-5, rtol=1e-4)


def _change_between_steps(make_optimizer, attr, before, after):
    """Two training steps with `attr` at `before`, then at `after` through setOptimizer: the
    device (without recompiling) and torch on the CPU give the same weights."""
    torch.manual_seed(0)
    model = Net()
    reference = copy.deepcopy(model)
    data = _data(2, 5)
    optimizer = make_optimizer(model.parameters())
    optimizer.param_groups[0][attr] = before
    training = poptorch.trainingModel(model, optimizer=optimizer)
    training(*data[0])
    session = training._session
    optimizer.param_groups[0][attr] = after
    training.setOptimizer(optimizer)
    training(*data[1])
    assert training._session is session
    cpu_optimizer = make_optimizer(reference.parameters())
    for value, (x, y) in zip((before, after), data):
        cpu_optimizer.param_groups[0][attr] = value
        cpu_optimizer.zero_grad()
        reference(x, y)[1].backward()
        cpu_optimizer.step()
    for p, q in zip(model.parameters(), reference.parameters()):
        torch.testing.assert_close(p.detach(), q.detach(), atol=2e-5, rtol=1e-4)


def test_set_optimizer_changes_the_learning_rate_without_recompiling():
    _change_between_steps(lambda p: torch.optim.SGD(p, lr=0.1), "lr", 0.1, 0.5)


def test_set_optimizer_rejects_a_changed_constant():
    model = Net()
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1,
                                                                       momentum=0.9))
    training(*_data(1, 5)[0])
    with pytest.raises(poptorch.Error, match="nesterov"):
        training.setOptimizer(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9,
                                              nesterov=True))
    with pytest.raises(poptorch.Error, match="kind"):
        training.setOptimizer(torch.optim.Adam(model.parameters()))
    # torch.optim: an attribute at its default is compiled in (PopTorch's rule).
    with pytest.raises(poptorch.Error, match="weight_decay"):
        training.setOptimizer(torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9,
                                              weight_decay=0.01))


def test_poptorch_optimizer_attributes_given_or_marked_are_variable():
    def make(params):
        optimizer = poptorch.optim.SGD(params, lr=0.1, weight_decay=0.0)
        assert optimizer.variable_attrs.isConstant("momentum")
        assert not optimizer.variable_attrs.isConstant("weight_decay")
        optimizer.variable_attrs.markAsVariable("momentum")
        return optimizer

    _change_between_steps(make, "momentum", 0.9, 0.5)
    _change_between_steps(make, "weight_decay", 0.0, 0.1)


def test_unsupported_optimizer():
    model = Net()
    with pytest.raises(poptorch.Error, match="Unsupported optimizer type Adagrad"):
        poptorch.trainingModel(model, optimizer=torch.optim.Adagrad(model.parameters()))(
            *_data(1, 5)[0])
