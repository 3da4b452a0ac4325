"""PopTorch's annotations and helper ops. The ops are `torch.ops.poptorch.*` custom ops, so a trace
records them by name; on the CPU they compute what PopTorch documents (identities, or the loss's
reduction). Block annotations only matter on several IPUs, and one IPU is what we simulate."""
import torch

from ._errors import Error

_library = torch.library.Library("poptorch", "DEF")
# Reductions of identity_loss, in PopTorch's encoding.
_LOSS_REDUCTIONS = {"sum": 0, "mean": 1, "none": 2}


def _define(schema, cpu_impl):
    _library.define(schema)
    _library.impl(schema.split("(")[0], cpu_impl, "CompositeExplicitAutograd")


def _identity_loss_cpu(x, reduction):
    return {0: torch.sum, 1: torch.mean}.get(reduction, torch.clone)(x)


_define("identity_loss(Tensor x, int reduction) -> Tensor", _identity_loss_cpu)
_define("ipu_print_tensor(Tensor x, str title, bool print_gradient) -> Tensor",
        lambda x, title, print_gradient: x.clone())
_define("nop(Tensor x) -> Tensor", lambda x: x.clone())


def identity_loss(x, reduction):
    """Marks `x` as the model's final loss, reduced by "sum", "mean" or "none"."""
    if reduction not in _LOSS_REDUCTIONS:
        raise Error(f"poptorch.identity_loss: reduction must be 'sum', 'mean' or 'none', got "
                    f"{reduction!r}")
    return torch.ops.poptorch.identity_loss(x, _LOSS_REDUCTIONS[reduction])


def ipu_print_tensor(tensor, title="", print_gradient=True, summarise_threshold=1000,
                     edge_items=3, max_line_width=80, digits=4, float_format="auto",
                     separator=", ", open_bracket="(", close_bracket=")"):
    """Prints `tensor` (and with `print_gradient` its gradient) when the program runs on the
    device; returns it (use the result). The formatting arguments are accepted."""
    return torch.ops.poptorch.ipu_print_tensor(tensor, title, print_gradient)


def nop(tensor):
    return torch.ops.poptorch.nop(tensor)


def set_available_memory(tensor, available_memory_proportion):
    """The temporary-memory proportion for the op producing `tensor`; accepted, planner default."""
    if not 0 < available_memory_proportion <= 1:
        raise ValueError("poptorch.set_available_memory: the proportion must be in (0, 1], got "
                         f"{available_memory_proportion}")
    return tensor


def recomputationCheckpoint(*tensors):
    """Activations to keep rather than recompute; every activation is kept, so an identity."""
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tuple(tensors[0])
    return tensors[0] if len(tensors) == 1 else tensors


class Block:
    """Places the ops traced inside it on an IPU; with one IPU, every block is on IPU 0."""

    def __init__(self, user_id=None, ipu_id=None):
        if ipu_id not in (None, 0):
            raise Error(f"poptorch.Block: ipu_id {ipu_id} needs several IPUs; the simulated "
                        "device has one")
        self.user_id = user_id
        self.ipu_id = ipu_id

    @staticmethod
    def useAutoId():
        return None

    @staticmethod
    def start(user_id=None, ipu_id=None):
        Block(user_id, ipu_id)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def BeginBlock(layer_to_call, user_id=None, ipu_id=None):
    """Annotates a module as the start of a block; returns the module."""
    Block(user_id, ipu_id)
    if getattr(layer_to_call, "_poptorch_block", None) is not None:
        raise Error(f"poptorch.BeginBlock: {type(layer_to_call).__name__} is already annotated")
    layer_to_call._poptorch_block = (user_id, ipu_id)
    return layer_to_call


def BlockFunction(user_id=None, ipu_id=None):
    Block(user_id, ipu_id)
    return lambda fn: fn


def removeBlocks(module):
    for m in module.modules():
        if hasattr(m, "_poptorch_block"):
            del m._poptorch_block
