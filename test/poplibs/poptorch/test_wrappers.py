"""The wrappers' contract: weights synchronised as PopTorch does, outputs shaped by OutputMode,
inputs checked, options and DataLoader batching, and clear errors."""
import copy

import pytest
import torch

import poptorch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(5, 4)

    def forward(self, x, y=None):
        out = self.fc(x)
        if y is None:
            return out
        return out, torch.nn.functional.mse_loss(out, y)


def _batch(n, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.randn(n, 5, generator=g), torch.randn(n, 4, generator=g)


def test_trained_weights_reach_the_module_and_an_inference_model():
    model = Net()
    before = model.fc.weight.detach().clone()
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1))
    x, y = _batch(3)
    training(x, y)
    # Reading the parameters syncs them from the device.
    assert not torch.equal(model.fc.weight.detach(), before)
    state = model.state_dict()
    assert set(state) == {"fc.weight", "fc.bias"}
    inference = poptorch.inferenceModel(model)
    torch.testing.assert_close(inference(x), model.fc(x).detach())
    # Train again: the inference model pulls the newer weights before its next run.
    training(x, y)
    torch.testing.assert_close(inference(x), Net.forward(model, x).detach())


def test_detach_attach_and_copy_weights():
    model = Net()
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1))
    x, y = _batch(3)
    with pytest.raises(poptorch.Error, match="not been compiled"):
        training.detachFromDevice()
    training(x, y)
    assert training.isAttachedToDevice()
    training.detachFromDevice()
    assert not training.isAttachedToDevice()
    with pytest.raises(poptorch.Error, match="not attached"):
        training.detachFromDevice()
    trained = model.fc.weight.detach().clone()
    with torch.no_grad():
        model.fc.weight.zero_()
    training.copyWeightsToDevice()  # detached: uploaded at the next attach
    training.attachToDevice()
    training.copyWeightsToHost()
    assert torch.count_nonzero(model.fc.weight.detach()) == 0
    assert not torch.equal(trained, model.fc.weight.detach())


def test_destroy_restores_the_module_class_and_allows_a_new_wrapper():
    model = Net()
    training = poptorch.trainingModel(model)
    assert type(model).__name__ == "PoptorchNet"
    with pytest.raises(RuntimeError, match="already been wrapped"):
        poptorch.trainingModel(model)
    training(*_batch(2))
    training.destroy()
    assert type(model) is Net
    poptorch.trainingModel(model)


def test_default_optimizer_is_sgd_lr_001():
    model = Net()
    reference = copy.deepcopy(model)
    x, y = _batch(4)
    poptorch.trainingModel(model)(x, y)
    sgd = torch.optim.SGD(reference.parameters(), lr=0.01)
    reference(x, y)[1].backward()
    sgd.step()
    torch.testing.assert_close(model.fc.weight.detach(), reference.fc.weight.detach())


@pytest.mark.parametrize("mode,period,rows", [(poptorch.OutputMode.All, None, 10),
                                              (poptorch.OutputMode.EveryN, 5, 2),
                                              (poptorch.OutputMode.Final, None, 1),
                                              (poptorch.OutputMode.Sum, None, 1)])
def test_output_modes(mode, period, rows):
    model = Net()
    opts = poptorch.Options().deviceIterations(10).outputMode(mode, period)
    x = torch.randn(10, 5)
    out = poptorch.inferenceModel(model, opts)(x)
    full = model(x).detach()
    assert out.shape == (rows, 4)
    if mode == poptorch.OutputMode.All:
        torch.testing.assert_close(out, full)
    elif mode == poptorch.OutputMode.EveryN:
        torch.testing.assert_close(out, full[[4, 9]])
    elif mode == poptorch.OutputMode.Final:
        torch.testing.assert_close(out, full[9:])
    else:
        torch.testing.assert_close(out, full.sum(0, keepdim=True))


def test_training_losses_per_iteration_with_output_mode_all():
    model = Net()
    opts = poptorch.Options().deviceIterations(6).outputMode(poptorch.OutputMode.All)
    x, y = _batch(2)  # the same batch six times: its loss falls at each step
    out, loss = poptorch.trainingModel(model, opts)(x.repeat(6, 1), y.repeat(6, 1))
    assert out.shape == (12, 4) and loss.shape == (6,)
    assert all(loss[1:] < loss[:-1])


def test_input_checks():
    model = Net()
    opts = poptorch.Options().deviceIterations(4)
    inference = poptorch.inferenceModel(model, opts)
    with pytest.raises(poptorch.Error, match=r"dim 0 of input 0 \(6\) is not a multiple"):
        inference(torch.randn(6, 5))
    inference(torch.randn(8, 5))
    with pytest.raises(poptorch.Error, match="input 0 mismatch"):
        inference(torch.randn(12, 5))
    with pytest.raises(poptorch.Error, match="input 0 mismatch"):
        inference(torch.randn(8, 5, dtype=torch.float64))


def test_int64_and_float64_inputs_are_narrowed():
    class Embed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.e = torch.nn.Embedding(10, 3)

        def forward(self, idx, scale):
            return self.e(idx) * scale

    model = Embed()
    idx = torch.tensor([[1, 2], [9, 0]])
    scale = torch.tensor([[[2.0]], [[3.0]]], dtype=torch.float64)
    out = poptorch.inferenceModel(model)(idx, scale)
    assert out.dtype == torch.float32
    torch.testing.assert_close(out, model(idx, scale.float()).detach())


def test_unsupported_op_names_op_and_module():
    class Sorting(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.inner = torch.nn.Sequential(torch.nn.Linear(3, 3))

        def forward(self, x):
            return torch.sort(self.inner(x), 1)[0]

    with pytest.raises(poptorch.Error, match=r"Unsupported ops found in compiled model: "
                                             r"\[aten::sort \(traced in module '<top>'\)\]"):
        poptorch.inferenceModel(Sorting())(torch.randn(2, 3))


def test_host_value_in_forward_is_an_error():
    class ItemUser(torch.nn.Module):
        def forward(self, x):
            return x * int(x.sum())

    with pytest.raises(poptorch.Error, match="needs a tensor's value on the host"):
        poptorch.inferenceModel(ItemUser())(torch.ones(2))


def test_training_model_needs_a_loss():
    with pytest.raises(poptorch.Error, match="Couldn't find a loss"):
        poptorch.trainingModel(Net())(torch.randn(2, 5))


def test_options():
    opts = poptorch.Options().deviceIterations(3).randomSeed(7)
    opts.Training.gradientAccumulation(2)
    assert opts.device_iterations == 3 and opts.random_seed == 7
    assert opts.Training.gradient_accumulation == 2
    loader = poptorch.DataLoader(opts, torch.utils.data.TensorDataset(torch.arange(40.0)),
                                 batch_size=2)
    assert loader.combinedBatchSize == 12 and len(loader) == 3
    with pytest.raises(AttributeError, match="frozen"):
        opts.deviceIterations(2)
    clone = opts.clone().deviceIterations(2)
    assert clone.device_iterations == 2
    with pytest.raises(ValueError, match="EveryN"):
        poptorch.Options().outputMode(poptorch.OutputMode.EveryN)
    from_json = poptorch.Options().from_json('{"deviceIterations": 5, '
                                             '"outputMode": "OutputMode.All"}')
    assert from_json.device_iterations == 5 and from_json.output_mode == poptorch.OutputMode.All
    with pytest.raises(poptorch.Error, match="gradientAccumulation must be 1"):
        poptorch.inferenceModel(Net(), _accumulating())


def test_options_from_a_file(tmp_path):
    path = tmp_path / "options.txt"
    path.write_text("deviceIterations(4)\nTraining.gradientAccumulation(2)\n"
                    "outputMode(OutputMode.EveryN, 2)\n")
    opts = poptorch.Options().loadFromFile(str(path))
    assert opts.device_iterations == 4 and opts.Training.gradient_accumulation == 2
    assert opts.output_mode == poptorch.OutputMode.EveryN and opts.output_return_period == 2


def _accumulating():
    opts = poptorch.Options()
    opts.Training.gradientAccumulation(2)
    return opts


def test_replication_is_a_clear_error_when_run():
    opts = poptorch.Options().replicationFactor(2)
    model = poptorch.inferenceModel(Net(), opts)
    with pytest.raises(poptorch.Error, match="replicationFactor"):
        model(torch.randn(2, 5))


def test_annotations_are_accepted():
    class Blocks(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.a = poptorch.BeginBlock(torch.nn.Linear(4, 4), "a", ipu_id=0)
            self.b = torch.nn.Linear(4, 2)

        def forward(self, x):
            with poptorch.Block("b"):
                h = poptorch.recomputationCheckpoint(self.a(x))
            h = poptorch.set_available_memory(h, 0.3)
            return self.b(poptorch.ipu_print_tensor(h))

    model = Blocks()
    x = torch.randn(3, 4)
    torch.testing.assert_close(poptorch.inferenceModel(model)(x), model(x).detach())


def test_executable_cache_hit_on_the_second_wrapper(tmp_path):
    x, y = _batch(3)
    results = []
    for _ in range(2):
        torch.manual_seed(0)
        opts = poptorch.Options().enableExecutableCaching(str(tmp_path))
        training = poptorch.trainingModel(Net(), opts)
        results.append(training(x, y)[1])
        hit = training._session.loaded_from_cache
        training.destroy()
    assert hit and len(list(tmp_path.iterdir())) == 1
    torch.testing.assert_close(results[0], results[1])


def test_batch_norm_running_statistics_follow_torch():
    """Regression: tracing ran the forward once on the module, and its batch norm counted that
    run in the running statistics the device started from."""
    class Normed(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bn = torch.nn.BatchNorm1d(5)
            self.fc = torch.nn.Linear(5, 4)

        def forward(self, x, y):
            out = self.fc(self.bn(x))
            return out, torch.nn.functional.mse_loss(out, y)

    torch.manual_seed(0)
    model = Normed()
    reference = copy.deepcopy(model)
    x, y = _batch(12)
    opts = poptorch.Options().deviceIterations(3)
    poptorch.trainingModel(model, opts, torch.optim.SGD(model.parameters(), lr=0.1))(x, y)
    sgd = torch.optim.SGD(reference.parameters(), lr=0.1)
    for i in range(3):
        sgd.zero_grad()
        reference(x[4 * i:4 * i + 4], y[4 * i:4 * i + 4])[1].backward()
        sgd.step()
    for name, b in reference.bn.named_buffers():
        torch.testing.assert_close(getattr(model.bn, name), b, msg=name)


def test_ipu_print_tensor_prints_the_tensor_and_its_gradient(capfd):
    class Printing(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(5, 4)

        def forward(self, x, y):
            out = poptorch.ipu_print_tensor(self.fc(x), "fc_out")
            return out, torch.nn.functional.mse_loss(out, y)

    poptorch.trainingModel(Printing())(*_batch(2))
    printed = capfd.readouterr().out
    assert "fc_out" in printed and "Gradient of fc_out" in printed


def test_save_and_load_a_training_executable(tmp_path):
    path = str(tmp_path / "model.poptorch")
    model = Net()
    x, y = _batch(3)
    training = poptorch.trainingModel(model, optimizer=torch.optim.SGD(model.parameters(), lr=0.1))
    training.compileAndExport(path, x, y)
    first_step = training(x, y)[1]
    loaded = poptorch.load(path)
    assert loaded._session.loaded_from_cache
    torch.testing.assert_close(loaded(x, y)[1], first_step)  # the weights saved, the same step


def test_load_executable_into_a_new_wrapper_of_the_same_model(tmp_path):
    path = str(tmp_path / "inference.poptorch")
    x = torch.randn(2, 5)
    poptorch.inferenceModel(Net()).compileAndExport(path, x, export_model=False)
    other = Net()
    inference = poptorch.inferenceModel(other)
    inference.loadExecutable(path)
    assert inference._session.loaded_from_cache
    torch.testing.assert_close(inference(x), other(x).detach())
    with pytest.raises(poptorch.Error, match="export_model=False"):
        poptorch.load(path)

    class Wider(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.fc = torch.nn.Linear(5, 6)

        def forward(self, x):
            return self.fc(x)

    with pytest.raises(poptorch.Error, match="compiled for another model"):
        poptorch.inferenceModel(Wider()).loadExecutable(path)
