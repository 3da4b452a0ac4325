"""PoplarExecutor: what trainingModel and inferenceModel return. The first call traces the model,
builds its device program and compiles it; each call feeds deviceIterations micro-batches, runs,
and returns the outputs as outputMode asks. Weights move between the module and the device as
PopTorch moves them (uploaded on attach; after training the host copy is stale until read)."""
import copy
import datetime
import inspect
import os
import tempfile
import time
import weakref

import numpy as np
import torch

import popxl

from . import enums
from ._capture import Captured, InputSpec
from ._errors import Error
from ._program import Program

# Training executors by the id of the module they train, so that an inference executor of the same
# module can pull newer weights (PopTorch's training -> validation sync).
_training_executors = weakref.WeakValueDictionary()


class PoplarExecutor:
    def __init__(self, model, options, training, optimizer=None):
        self._user_model = model
        self._model = copy.copy(model)
        self._options = options
        self._training = training
        self._optimizer = optimizer
        self._program = None
        self._session = None
        self._attached = False
        self._input_spec = None
        self._captured = None
        self._host_stale = False
        self._weights_version = 0      # training: bumped by each run
        self._uploaded_version = -1    # inference: the training version it last uploaded
        self._compile_time = None
        self._compile_arguments = None
        self._private_cache = None  # a directory of this wrapper's own when Options gives none
        self._last_cycles = None
        seed = getattr(options, "random_seed", None) if "random_seed" in options.toDict() else None
        self._rng = np.random.default_rng(seed)
        if training:
            if id(model) in _training_executors:
                raise RuntimeError("Model has already been wrapped in 'poptorch.trainingModel'. "
                                   "Call destroy() on the previous wrapper first")
            _training_executors[id(model)] = self
            _install_host_sync(model, self)

    # Properties and forwarding.
    @property
    def model(self):
        return self._user_model

    @property
    def options(self):
        return self._options

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._user_model, name)

    def isCompiled(self):
        return self._program is not None

    def isAttachedToDevice(self):
        return self._attached

    def compilationTime(self):
        """How long the first call's trace, lowering and compilation took (a timedelta)."""
        return self._compile_time

    def cycleCount(self):
        if not self._options.log_cycle_count:
            raise Error("poptorch.cycleCount: enable it with Options.logCycleCount(True)")
        if self._last_cycles is None:
            raise Error("poptorch.cycleCount: the model has not run yet")
        return self._last_cycles

    # Compilation.
    def _batch_factor(self):
        o = self._options
        accumulation = o.Training.gradient_accumulation if self._training else 1
        return o.device_iterations * (o.replication_factor // o.input_group_size) * accumulation

    def _bind(self, args, kwargs):
        bound = inspect.signature(self._model.forward).bind(*args, **kwargs)
        bound.apply_defaults()
        return bound.args, bound.kwargs

    def _micro_batches(self, tensors):
        factor = self._batch_factor()
        out = []
        for i, t in enumerate(tensors):
            if t.dim() == 0:
                if factor != 1:
                    raise Error(f"poptorch: input {i} is a 0-d tensor, which needs "
                                f"deviceIterations × replicationFactor × gradientAccumulation "
                                f"= 1, not {factor}")
                out.append(t)
                continue
            if t.shape[0] % factor:
                o = self._options
                raise Error(
                    f"poptorch: dim 0 of input {i} ({t.shape[0]}) is not a multiple of "
                    f"deviceIterations ({o.device_iterations}) × replicationFactor "
                    f"({o.replication_factor}) / inputGroupSize ({o.input_group_size}) × "
                    f"gradientAccumulation ({o.Training.gradient_accumulation if self._training else 1})"
                    f" = {factor}")
            out.append(t[: t.shape[0] // factor])
        return out

    def compile(self, *args, **kwargs):
        if self.isCompiled():
            return
        self._compile(*self._bind(args, kwargs))
        self._attach()

    def _compile(self, args, kwargs):
        if self._options.replication_factor > 1:
            raise Error(f"poptorch: replicationFactor({self._options.replication_factor}) needs "
                        "replicated graphs, which the simulated IPU does not run yet")
        self._sync_from_training_model()
        start = time.time()
        spec = InputSpec(args, kwargs)
        tensors, _ = spec.tensors(args, kwargs)
        micro = [t.detach().contiguous() for t in self._micro_batches(tensors)]
        spec.tensor_specs = [(t.dtype, tuple(t.shape)) for t in micro]
        self._captured = Captured(self._model, spec, micro)
        self._program = Program(self._captured, self._options, self._training, self._optimizer)
        self._session = popxl.Session(self._program.ir, _device_type(), cache_dir=self._cache_dir())
        self._input_spec = spec
        self._compile_arguments = (args, kwargs)
        self._compile_time = datetime.timedelta(seconds=time.time() - start)

    def _cache_dir(self):
        """Where the compiled program is kept: Options' executable cache, else a directory of
        this wrapper's own (so that save() has the executable to write)."""
        if self._options.executable_cache_dir:
            return self._options.executable_cache_dir
        if self._private_cache is None:
            self._private_cache = tempfile.TemporaryDirectory(prefix="poptorch-")
        return self._private_cache.name

    # Saving and loading the executable.
    def compileAndExport(self, filename, *args, export_model=True, **kwargs):
        self.compile(*args, **kwargs)
        self.save(filename, export_model)

    def save(self, filename, export_model=True, save_rng_state=True):
        """Writes the executable, the options and the example inputs (and with `export_model`
        the module and optimizer) to `filename`; poptorch.load or loadExecutable read it."""
        if not self.isCompiled():
            raise Error("Model has not been compiled or has been destroyed.")
        with open(self._session.cache_entry, "rb") as f:
            data = {"poptorch_version": _version(), "training": self._training,
                    "options": self._options, "inputs": self._compile_arguments,
                    "executable": f.read(),
                    "entry": os.path.basename(self._session.cache_entry)}
        if save_rng_state:
            data["rng_state"] = self._rng.bit_generator.state
        if export_model:
            self.copyWeightsToHostIfNeeded()
            data["optimizer"] = self._optimizer
        swapped = type(self._user_model)
        original = swapped.__dict__.get("_poptorch_original_class", swapped)
        self._user_model.__class__ = original  # the module's own class pickles; ours does not
        try:
            if export_model:
                data["model"] = self._user_model
            torch.save(data, filename)
        finally:
            self._user_model.__class__ = swapped

    def loadExecutable(self, filename):
        """Uses the executable `save` wrote for this wrapper's model, instead of compiling."""
        self._load(_read_saved(filename))

    def _load(self, data):
        if self.isCompiled():
            raise Error("poptorch.loadExecutable: the model is already compiled; call destroy() "
                        "or use a new wrapper")
        with open(os.path.join(self._cache_dir(), data["entry"]), "wb") as f:
            f.write(data["executable"])
        if "rng_state" in data:
            self._rng.bit_generator.state = data["rng_state"]
        args, kwargs = data["inputs"]
        try:
            self.compile(*args, **kwargs)
        except TypeError as e:  # the saved inputs do not bind to this forward
            raise Error(f"poptorch.loadExecutable: the saved executable was compiled for another "
                        f"model: its inputs do not fit this model's forward ({e})") from e
        if not self._session.loaded_from_cache:
            raise Error("poptorch.loadExecutable: the saved executable was compiled for another "
                        "model or other options (this wrapper compiled its own instead)")

    # Running.
    def __call__(self, *args, **kwargs):
        args, kwargs = self._bind(args, kwargs)
        if not self.isCompiled():
            self._compile(args, kwargs)
        if not self._attached:
            self._attach()
        self._sync_from_training_model()
        tensors = self._check_inputs(args, kwargs)
        n = self._program.ir.num_host_transfers
        seeds = self._rng.integers(0, 2**32, size=(n, 2), dtype=np.uint32)
        outs = self._session.run(self._program.feeds(tensors, seeds))
        self._last_cycles = self._session.last_run_cycles
        if self._training:
            self._host_stale = True
            self._weights_version += 1
        results = [self._apply_output_mode(outs[s], n) for s in self._program.out_streams]
        return self._captured.rebuild_outputs(results)

    def _check_inputs(self, args, kwargs):
        spec = self._input_spec
        try:
            tensors, leaves = spec.tensors(args, kwargs)
        except ValueError as e:
            raise Error(f"poptorch: {e}; create a new wrapper or call destroy()") from e
        factor = self._batch_factor()
        for i, (t, (dtype, shape)) in enumerate(zip(tensors, spec.tensor_specs)):
            want = (shape[0] * factor,) + tuple(shape[1:]) if shape else ()
            if tuple(t.shape) != want or t.dtype != dtype:
                raise Error(f"poptorch: input {i} mismatch: the model was compiled for "
                            f"{dtype} {list(want)}, the call gives {t.dtype} {list(t.shape)}; "
                            "create a new wrapper or call destroy()")
        for i, (leaf, is_tensor, const) in enumerate(zip(leaves, spec.is_tensor, spec.constants)):
            if not is_tensor and leaf != const:
                raise Error(f"poptorch: argument {i} was {const!r} when the model was compiled "
                            f"and is {leaf!r} now; non-tensor arguments are compiled in")
        return tensors

    def _apply_output_mode(self, arr, n):
        mode = self._options.output_mode
        if mode == enums.OutputMode.Default:
            mode = enums.OutputMode.Final if self._training else enums.OutputMode.All
        per_iteration = arr if n > 1 else arr[np.newaxis]
        if mode == enums.OutputMode.Final:
            out = per_iteration[-1]
        elif mode == enums.OutputMode.Sum:
            out = per_iteration.sum(axis=0)
        else:
            if mode == enums.OutputMode.EveryN:
                per_iteration = per_iteration[self._options.output_return_period - 1::
                                              self._options.output_return_period]
            if per_iteration.shape[0] == 1:  # M = 1: the traced shape, unchanged
                out = per_iteration[0]
            elif per_iteration.ndim == 1:  # 0-d outputs become [M]
                out = per_iteration
            else:
                out = per_iteration.reshape((-1,) + per_iteration.shape[2:])
        return torch.from_numpy(np.array(out, order="C"))

    # Weights.
    def _state(self):
        return self._program.named_state, self._program.variables

    def copyWeightsToHost(self):
        if not self.isCompiled():
            raise Error("Model has not been compiled or has been destroyed.")
        named, variables = self._state()
        data = self._session.get_tensors_data(list(variables.values()))
        with torch.no_grad():
            for name, v in variables.items():
                named[name].copy_(torch.from_numpy(np.asarray(data[v])).to(named[name].dtype))
        self._host_stale = False

    def copyWeightsToHostIfNeeded(self):
        if self._host_stale and self.isCompiled():
            self.copyWeightsToHost()
            return True
        return False

    def copyWeightsToDevice(self):
        if not self.isCompiled():
            raise Error("Model has not been compiled or has been destroyed.")
        if self._attached:
            self._session.write_variables_data(self._program.state_arrays())
        self._host_stale = False

    def load_state_dict(self, state_dict, strict=True):
        result = self._user_model.load_state_dict(state_dict, strict)
        if self.isCompiled() and self._attached:
            self.copyWeightsToDevice()
        return result

    def _sync_from_training_model(self):
        trainer = _training_executors.get(id(self._user_model))
        if self._training or trainer is None or not trainer.isCompiled():
            return
        if trainer._weights_version != self._uploaded_version:
            trainer.copyWeightsToHostIfNeeded()
            if self.isCompiled() and self._attached:
                self.copyWeightsToDevice()
            self._uploaded_version = trainer._weights_version

    # Optimizer.
    def setOptimizer(self, optimizer):
        if not self._training:
            raise Error("poptorch.setOptimizer: only a training model has an optimizer")
        if self.isCompiled():
            self._program.optimizer.host_values(optimizer)  # checks before it replaces
        self._optimizer = optimizer
        if self.isCompiled() and self._attached:
            self._write_optimizer()

    def _write_optimizer(self):
        self._session.write_variables_data(self._program.optimizer.host_values(self._optimizer))

    # Device attachment.
    def _attach(self):
        self._session.__enter__()
        self._attached = True
        self._session.write_variables_data(self._program.state_arrays())
        if self._training:
            self._write_optimizer()

    def attachToDevice(self):
        if not self.isCompiled():
            raise Error("Model has not been compiled or has been destroyed.")
        if self._attached:
            raise Error("Device is already attached")
        self._attach()

    def detachFromDevice(self):
        if not self.isCompiled():
            raise Error("Model has not been compiled or has been destroyed.")
        if not self._attached:
            raise Error("Device is not attached")
        if self._training:
            self.copyWeightsToHostIfNeeded()
        self._session.__exit__(None, None, None)
        self._attached = False

    def destroy(self):
        if self.isCompiled():
            if self._training and self._attached:
                self.copyWeightsToHostIfNeeded()
            if self._attached:
                self._session.__exit__(None, None, None)
        self._attached = False
        self._program = self._session = None
        if self._training:
            _remove_host_sync(self._user_model)
            if _training_executors.get(id(self._user_model)) is self:
                del _training_executors[id(self._user_model)]

    def __del__(self):
        # As PopTorch's: a dropped wrapper leaves its trained weights in the module.
        try:
            self.destroy()
        except Exception:  # noqa: BLE001 (interpreter shutdown)
            pass


def _version():
    from . import __version__
    return __version__


def _read_saved(filename):
    data = torch.load(filename)
    if not isinstance(data, dict) or "executable" not in data:
        raise Error(f"poptorch: '{filename}' is not a file PopTorch's save() wrote")
    if data["poptorch_version"] != _version():
        raise Error(f"poptorch: '{filename}' was saved by PopTorch {data['poptorch_version']}, "
                    f"this is {_version()}")
    return data


def load(filename, edit_opts_fn=None):
    """The wrapper save(export_model=True) wrote to `filename`, with its executable loaded.
    `edit_opts_fn(options)` may change the options before the wrapper is made."""
    data = _read_saved(filename)
    if "model" not in data:
        raise Error(f"poptorch.load: '{filename}' was saved with export_model=False; make the "
                    "wrapper and call loadExecutable")
    options = data["options"].clone()
    if edit_opts_fn is not None:
        edit_opts_fn(options)
    options._freeze()
    wrapper = PoplarExecutor(data["model"], options, data["training"], data.get("optimizer"))
    wrapper._load(data)
    return wrapper


def _device_type():
    """The simulated device: a full ipu2 model, or the small 256-tile one when
    POPTORCH_SMALL_IPU_MODEL is set (quicker to compile)."""
    return "cpu" if os.environ.get("POPTORCH_SMALL_IPU_MODEL") else "ipu_model"


# Lazy device -> host weight sync for a trained module: its class is swapped for a subclass whose
# readers of parameters and buffers first fetch them if the device has newer values.
_SYNCED_READERS = ("parameters", "named_parameters", "buffers", "named_buffers", "state_dict",
                   "forward", "__call__", "__getattr__")


def _install_host_sync(model, executor):
    ref = weakref.ref(executor)
    original = type(model)

    def reader(name):
        def read(self, *args, **kwargs):
            ex = ref()
            if ex is not None:
                ex.copyWeightsToHostIfNeeded()
            return getattr(original, name)(self, *args, **kwargs)
        return read

    attrs = {name: reader(name) for name in _SYNCED_READERS}
    attrs["_poptorch_original_class"] = original
    model.__class__ = type(f"Poptorch{original.__name__}", (original,), attrs)


def _remove_host_sync(model):
    original = type(model).__dict__.get("_poptorch_original_class")
    if original is not None:
        model.__class__ = original
