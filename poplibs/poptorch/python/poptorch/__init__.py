"""poptorch: PyTorch models on the simulated IPU, source-compatible with Graphcore's PopTorch 3.x.
A wrapped model is traced on its first call, lowered onto the popxl IR (forward, autodiff gradient,
optimizer update) and run by a popxl Session."""
import logging

import torch

from . import optim  # noqa: F401
from ._capture import is_capturing
from ._dataloader import AsynchronousDataAccessor, DataLoader  # noqa: F401
from ._errors import Error, RecoverableError, UnrecoverableError  # noqa: F401
from ._executor import PoplarExecutor, load  # noqa: F401
from .enums import *  # noqa: F401,F403
from .enums import OutputMode
from .ops import *  # noqa: F401,F403
from .options import Options, TensorLocationSettings  # noqa: F401

__version__ = "3.4.0+sim"
logger = logging.getLogger("poptorch::python")


def _prepare(model, options, what):
    if isinstance(model, PoplarExecutor):
        model = model.model
    if options is None:
        options = Options()
    if not isinstance(options, Options):
        raise Error(f"poptorch.{what}: options must be a poptorch.Options, got "
                    f"{type(options).__name__}")
    options._freeze()
    return model, options.clone()


def trainingModel(model, options=None, optimizer=None):
    """Wraps `model` so that each call runs forward, backward and the optimizer's step on the
    device; the forward must return its loss."""
    model, options = _prepare(model, options, "trainingModel")
    if options.defaultOutputMode():
        options.outputMode(OutputMode.Final)
    if optimizer is None:
        optimizer = optim.SGD(model.parameters(), lr=0.01)
    options._freeze()
    return PoplarExecutor(model, options, training=True, optimizer=optimizer)


def inferenceModel(model, options=None):
    """Wraps `model` so that each call runs its forward on the device."""
    model, options = _prepare(model, options, "inferenceModel")
    if options.Training.gradient_accumulation != 1:
        raise Error("poptorch.inferenceModel: gradientAccumulation must be 1 for inference "
                    f"(got {options.Training.gradient_accumulation}); use deviceIterations")
    if options.defaultOutputMode():
        options.outputMode(OutputMode.All)
    options._freeze()
    return PoplarExecutor(model, options, training=False)


def isRunningOnIpu():
    """True while a model is being captured for the IPU."""
    return is_capturing()


def ipuHardwareIsAvailable(num_ipus=1):
    return False


def ipuHardwareVersion():
    return "ipu2"


_LOG_LEVELS = {"TRACE": logging.DEBUG, "TRACE_ALL": logging.DEBUG, "DEBUG": logging.DEBUG,
               "INFO": logging.INFO, "WARN": logging.WARNING, "ERR": logging.ERROR,
               "OFF": logging.CRITICAL + 1}


def setLogLevel(level):
    if isinstance(level, int):
        level = list(_LOG_LEVELS)[min(max(level, 0), len(_LOG_LEVELS) - 1)]
    if level not in _LOG_LEVELS:
        raise ValueError(f"poptorch.setLogLevel: unknown level {level!r} "
                         f"(one of {', '.join(_LOG_LEVELS)})")
    logger.setLevel(_LOG_LEVELS[level])


def registerPreCompileHook(fn):
    raise Error("poptorch.registerPreCompileHook is not supported yet")
