"""poptorch.Options and its groups: chainable setters, values readable as snake_case attributes,
frozen once a wrapper or DataLoader takes them (PopTorch's rules)."""
import copy
import json
import os

import torch

from . import enums
from ._errors import Error


class _OptionsDict:
    """Values set by setters, read back as attributes; read-only once frozen."""

    def __init__(self, **defaults):
        object.__setattr__(self, "_values", dict(defaults))
        object.__setattr__(self, "_frozen", False)

    def set(self, **values):
        if self._frozen:
            raise AttributeError("Can't modify frozen Options")
        self._values.update(values)
        return self

    def _freeze(self):
        object.__setattr__(self, "_frozen", True)
        for v in self._values.values():
            if isinstance(v, _OptionsDict):
                v._freeze()

    def __getattr__(self, name):
        values = object.__getattribute__(self, "_values")
        if name in values:
            return values[name]
        raise AttributeError(f"{type(self).__name__} has no option '{name}'")

    def __setattr__(self, name, value):
        if self._frozen:
            raise AttributeError("Can't modify frozen Options")
        object.__setattr__(self, name, value)

    def toDict(self):
        return {k: (v.toDict() if isinstance(v, _OptionsDict) else v)
                for k, v in self._values.items()}

    def __repr__(self):
        return f"{type(self).__name__}({self.toDict()})"


class _TrainingOptions(_OptionsDict):
    def __init__(self):
        super().__init__(gradient_accumulation=1,
                         accumulation_and_replication_reduction_type=enums.ReductionType.Mean,
                         mean_accumulation_and_replication_reduction_strategy=(
                             enums.MeanReductionStrategy.Post),
                         automatic_loss_scaling=False, convolution_dithering=False)

    def gradientAccumulation(self, gradient_accumulation):
        if int(gradient_accumulation) < 1:
            raise ValueError("poptorch.Options.Training.gradientAccumulation must be at least 1, "
                             f"got {gradient_accumulation}")
        return self.set(gradient_accumulation=int(gradient_accumulation))

    def accumulationAndReplicationReductionType(self, reduction_type):
        if reduction_type not in (enums.ReductionType.Sum, enums.ReductionType.Mean):
            raise ValueError("Options.Training.accumulationAndReplicationReductionType: "
                             f"{reduction_type} is not supported (Sum or Mean)")
        return self.set(accumulation_and_replication_reduction_type=reduction_type)

    def setMeanAccumulationAndReplicationReductionStrategy(self, strategy):
        return self.set(mean_accumulation_and_replication_reduction_strategy=strategy)

    def setAutomaticLossScaling(self, enabled):
        return self.set(automatic_loss_scaling=bool(enabled))

    def setConvolutionDithering(self, enabled):
        return self.set(convolution_dithering=bool(enabled))


class _PrecisionOptions(_OptionsDict):
    def __init__(self):
        super().__init__(partials_type=torch.float, floating_point_exceptions=False,
                         stochastic_rounding=False)

    def setPartialsType(self, dtype):
        if dtype not in (torch.float, torch.half):
            raise ValueError(f"Options.Precision.setPartialsType: {dtype} is not supported "
                             "(torch.float or torch.half)")
        return self.set(partials_type=dtype)

    def enableFloatingPointExceptions(self, enabled):
        return self.set(floating_point_exceptions=bool(enabled))

    def enableStochasticRounding(self, enabled):
        return self.set(stochastic_rounding=bool(enabled))

    def halfFloatCasting(self, *_):
        return self  # deprecated no-op in PopTorch 3.x

    def runningStatisticsAlwaysFloat(self, *_):
        return self  # deprecated no-op in PopTorch 3.x


class _JitOptions(_OptionsDict):
    def traceModel(self, trace_model):
        if trace_model:
            raise ValueError("Options.Jit.traceModel(True) is no longer supported")
        return self


class _DistributedOptions(_OptionsDict):
    def __init__(self):
        super().__init__(processId=0, numProcesses=1)

    def configureProcessId(self, process_id, num_processes):
        return self.set(processId=process_id, numProcesses=num_processes)

    def setEnvVarNames(self, *_):
        return self

    def disable(self):
        return self.set(processId=0, numProcesses=1)


class _TensorLocationOptions(_OptionsDict):
    """Accepted on one IPU; where tensors live does not change results."""

    def numIOTiles(self, n):
        return self.set(num_io_tiles=n)

    def __getattr__(self, name):
        if name.startswith("set") and name.endswith("Location"):
            return lambda *_: self
        return super().__getattr__(name)


class _PopartOptions(_OptionsDict):
    def __init__(self):
        super().__init__(options={}, engine_options={}, patterns={})

    def set(self, key=None, value=None, **kwargs):  # PopART's raw option setter
        if key is None:
            return super().set(**kwargs)
        self.options[key] = value
        return self

    def setEngineOptions(self, engine_options):
        self.engine_options.update(engine_options)
        return self

    def setPatterns(self, patterns, level=2):
        self.patterns.update(patterns)
        return self


class TensorLocationSettings(_OptionsDict):
    def __getattr__(self, name):
        if name.startswith("use") or name.startswith("min"):
            return lambda *_: self
        return super().__getattr__(name)


class Options(_OptionsDict):
    """Options of a PopTorch model (`deviceIterations`, `replicationFactor`, `outputMode`, ...)."""

    def __init__(self):
        super().__init__(device_iterations=1, replication_factor=1, input_group_size=1,
                         output_mode=enums.OutputMode.Default, output_return_period=1,
                         connection_type=enums.ConnectionType.Always,
                         sync_pattern=enums.SyncPattern.Full, use_ipu_model=None,
                         executable_cache_dir=None, log_dir=".", model_name=None,
                         log_cycle_count=False, available_memory_proportion={},
                         synthetic_data=False, stable_norm=False, auto_round_num_ipus=False)
        object.__setattr__(self, "Training", _TrainingOptions())
        object.__setattr__(self, "Precision", _PrecisionOptions())
        object.__setattr__(self, "Jit", _JitOptions())
        object.__setattr__(self, "Distributed", _DistributedOptions())
        object.__setattr__(self, "TensorLocations", _TensorLocationOptions())
        object.__setattr__(self, "_Popart", _PopartOptions())
        if os.environ.get("POPTORCH_CACHE_DIR"):
            self.enableExecutableCaching(os.environ["POPTORCH_CACHE_DIR"])
        if os.environ.get("POPTORCH_DEFAULT_OPTIONS"):
            self.from_json(os.environ["POPTORCH_DEFAULT_OPTIONS"])

    def _groups(self):
        return [self.Training, self.Precision, self.Jit, self.Distributed, self.TensorLocations,
                self._Popart]

    def _freeze(self):
        super()._freeze()
        for g in self._groups():
            g._freeze()

    def deviceIterations(self, device_iterations):
        if int(device_iterations) < 1:
            raise ValueError("poptorch.Options.deviceIterations must be at least 1, got "
                             f"{device_iterations}")
        return self.set(device_iterations=int(device_iterations))

    def replicationFactor(self, replication_factor):
        if int(replication_factor) < 1:
            raise ValueError("poptorch.Options.replicationFactor must be at least 1, got "
                             f"{replication_factor}")
        return self.set(replication_factor=int(replication_factor))

    def inputReplicaGrouping(self, input_group_size, input_group_type=enums.CommGroupType.Consecutive):
        if self.replication_factor % input_group_size:
            raise ValueError(f"Options.inputReplicaGrouping: group size {input_group_size} does "
                             f"not divide the replication factor {self.replication_factor}")
        return self.set(input_group_size=int(input_group_size))

    def outputMode(self, output_mode, output_return_period=None):
        if output_mode == enums.OutputMode.EveryN:
            if output_return_period is None or output_return_period < 1:
                raise ValueError("Options.outputMode(OutputMode.EveryN) needs a positive "
                                 f"output_return_period, got {output_return_period}")
            return self.set(output_mode=output_mode, output_return_period=output_return_period)
        return self.set(output_mode=enums.OutputMode(output_mode), output_return_period=1)

    def defaultOutputMode(self):
        return self.output_mode == enums.OutputMode.Default

    def randomSeed(self, random_seed):
        torch.manual_seed(random_seed)
        return self.set(random_seed=int(random_seed))

    def useIpuModel(self, use_model):
        return self.set(use_ipu_model=bool(use_model))

    def useOfflineIpuTarget(self, ipu_version=2):
        return self.set(connection_type=enums.ConnectionType.Never, ipu_version=ipu_version)

    def useIpuId(self, ipu_id):
        return self.set(ipu_id=int(ipu_id))

    def connectionType(self, connection_type):
        return self.set(connection_type=connection_type)

    def syncPattern(self, sync_pattern):
        return self.set(sync_pattern=sync_pattern)

    def autoRoundNumIPUs(self, auto_round=True):
        return self.set(auto_round_num_ipus=bool(auto_round))

    def enableExecutableCaching(self, path):
        return self.set(executable_cache_dir=path)

    def enableSyntheticData(self, enabled):
        return self.set(synthetic_data=bool(enabled))

    def enableStableNorm(self, enabled):
        return self.set(stable_norm=bool(enabled))

    def setAvailableMemoryProportion(self, proportions):
        return self.set(available_memory_proportion=dict(proportions))

    def setExecutionStrategy(self, strategy):
        return self.set(execution_strategy=strategy)

    def broadcastBuffers(self, broadcast=True):
        return self.set(broadcast_buffers=bool(broadcast))

    def logDir(self, log_dir):
        return self.set(log_dir=log_dir)

    def modelName(self, name):
        return self.set(model_name=name)

    def logCycleCount(self, enabled):
        return self.set(log_cycle_count=bool(enabled))

    def enableProfiling(self, profile_dir=None):
        return self.set(profile_dir=profile_dir or ".")

    def maxRepeatLogs(self, n):
        return self.set(max_repeat_logs=n)

    def showCompilationProgressBar(self, show=True):
        return self.set(show_compilation_progress_bar=bool(show))

    def relaxOptimizerAttributesChecks(self, relax=True):
        return self.set(relax_optimizer_attributes_checks=bool(relax))

    def updatableNamedBuffers(self, names):
        return self.set(updatable_named_buffers=list(names))

    def disableModuleNamescope(self):
        return self

    def sourceLocationExcludes(self, excludes):
        return self

    def appendToLocationExcludes(self, *excludes):
        return self

    def anchorTensor(self, short_name, long_name, output_mode=None, output_return_period=1):
        raise Error("poptorch.Options.anchorTensor: anchoring internal tensors is not supported "
                    f"(asked for '{long_name}')")

    def clone(self):
        clone = copy.deepcopy(self)
        clone._unfreeze()
        return clone

    def _unfreeze(self):
        object.__setattr__(self, "_frozen", False)
        for g in self._groups():
            object.__setattr__(g, "_frozen", False)

    def from_json(self, string):
        """Calls one setter per key ("Training.gradientAccumulation": 4); enum names such as
        "OutputMode.All" are parsed."""
        for key, value in json.loads(string).items():
            self._call_dotted(key, value if isinstance(value, list) else [value])
        return self

    def loadFromFile(self, filepath):
        """One setter call per line, without "options.": "Training.gradientAccumulation(4)"."""
        with open(filepath) as f:
            for line in f:
                line = line.strip()
                if line and not line.startswith("#"):
                    name, _, rest = line.partition("(")
                    args = eval(f"({rest[:-1]},)", dict(vars(enums)))  # noqa: S307 (the user's file)
                    self._call_dotted(name, list(args))
        return self

    def _call_dotted(self, key, args):
        obj = self
        *groups, setter = key.split(".")
        for g in groups:
            obj = getattr(obj, g)
        parsed = []
        for a in args:
            if isinstance(a, str) and "." in a and a.split(".")[0] in vars(enums):
                enum_name, member = a.split(".", 1)
                a = getattr(getattr(enums, enum_name), member)
            parsed.append(a)
        getattr(obj, setter)(*parsed)
