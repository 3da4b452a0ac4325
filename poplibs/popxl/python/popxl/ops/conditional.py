"""ops.conditional: runs one of two graphs, chosen on the device by a one-element condition."""
from .call import _arguments


def conditional(cond, then_branch, else_branch, then_inputs=None, else_inputs=None,
                then_inputs_dict=None, else_inputs_dict=None):
    """then_branch's outputs when `cond` (a bool or integer tensor of one element) is true or
    nonzero, else_branch's otherwise. Each branch takes its own inputs (positional, then by
    graph input in the dict); both must return as many outputs, of the same shapes and dtypes."""
    from .. import context
    from ..tensor import Tensor
    if not isinstance(cond, Tensor):
        raise TypeError(f"popxl.ops.conditional: cond must be a Tensor, got {type(cond).__name__}")
    then_args = _arguments(then_branch, then_inputs or (), then_inputs_dict, "conditional")
    else_args = _arguments(else_branch, else_inputs or (), else_inputs_dict, "conditional")
    caller = context.gcg()
    outs = caller.ir._pb.create_op(caller.id, "conditional",
                                   [t.id for t in [cond] + then_args + else_args],
                                   {"then_inputs": len(then_args)},
                                   f"conditional({then_branch.name}, {else_branch.name})",
                                   [then_branch.id, else_branch.id])
    return tuple(Tensor(caller, o) for o in outs)
