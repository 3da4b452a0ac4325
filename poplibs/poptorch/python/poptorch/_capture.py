"""Graph capture: the model is traced once with torch.jit.trace on the first micro-batch, as
PopTorch's documentation describes (static shapes, the control flow of the first inputs). The
result is the inlined TorchScript graph plus what the lowering needs to read it: which graph inputs
are the user's tensors, which values are parameters or buffers, and how to rebuild the forward's
output structure from its flat tensor outputs."""
import contextlib
import os
import warnings

import torch
from torch.utils import _pytree as pytree

from ._errors import Error

_capturing = False


def is_capturing():
    return _capturing


@contextlib.contextmanager
def _capture_mode():
    global _capturing
    _capturing = True
    try:
        yield
    finally:
        _capturing = False


class InputSpec:
    """How a call's arguments flatten: which leaves are tensors (fed each call) and the rest
    (compiled in as constants, so they must stay equal)."""

    def __init__(self, args, kwargs):
        leaves, self.tree = pytree.tree_flatten((tuple(args), dict(kwargs)))
        self.is_tensor = [isinstance(x, torch.Tensor) for x in leaves]
        self.constants = [None if t else x for x, t in zip(leaves, self.is_tensor)]
        self.tensor_specs = []  # (dtype, shape) of each tensor's micro-batch, set by the caller

    def tensors(self, args, kwargs):
        leaves, tree = pytree.tree_flatten((tuple(args), dict(kwargs)))
        if tree != self.tree:
            raise ValueError("the structure of the inputs changed since the model was compiled "
                             f"({self.tree} then, {tree} now)")
        return [x for x in leaves if isinstance(x, torch.Tensor)], leaves

    def rebuild(self, tensors):
        it = iter(tensors)
        leaves = [next(it) if t else c for t, c in zip(self.is_tensor, self.constants)]
        args, kwargs = pytree.tree_unflatten(leaves, self.tree)
        return args, kwargs


class _Flat(torch.nn.Module):
    """The user's module called with flat tensors and returning flat tensors, which is what
    torch.jit.trace can trace; it remembers how to rebuild the outputs."""

    def __init__(self, model, input_spec):
        super().__init__()
        self.model = model
        self.input_spec = input_spec
        self.output_tree = None
        self.output_leaves = None

    def forward(self, *tensors):
        args, kwargs = self.input_spec.rebuild(tensors)
        out = self.model(*args, **kwargs)
        leaves, self.output_tree = pytree.tree_flatten(out)
        self.output_leaves = [None if isinstance(x, torch.Tensor) else x for x in leaves]
        return tuple(x for x in leaves if isinstance(x, torch.Tensor))


class Captured:
    """The traced forward of a model."""

    def __init__(self, model, input_spec, example_tensors):
        flat = _Flat(model, input_spec)
        # Tracing runs the forward for real: keep what it writes to buffers (batch norm's running
        # statistics) out of the module, whose buffers the device then starts from.
        buffers = [(b, b.clone()) for b in model.buffers()]
        with _capture_mode(), torch.no_grad(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", torch.jit.TracerWarning)
            traced = torch.jit.trace(flat, tuple(example_tensors), check_trace=False, strict=False)
            for b, saved in buffers:
                b.copy_(saved)
        torch_dir = os.path.dirname(torch.__file__)
        for w in caught:
            if issubclass(w.category, torch.jit.TracerWarning) and w.filename.startswith(torch_dir):
                continue  # torch's own code on static shapes: harmless here
            if issubclass(w.category, torch.jit.TracerWarning) and "to a Python" in str(w.message):
                # The user's forward froze a device value into a host constant.
                raise Error(f"poptorch: forward reads a tensor's value on the host "
                            f"({w.filename}:{w.lineno}), which needs a tensor's value on the host "
                            "while the model is compiled (.item(), int(t), bool(t), if t: ...); "
                            "a static graph cannot do that")
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        self.root = flat
        self.graph = traced.inlined_graph
        self.input_spec = input_spec
        self.output_tree = flat.output_tree
        self.output_leaves = flat.output_leaves
        # The module tree's tensors by identity, named as the module names them.
        self.state_names = {}
        for name, t in list(model.named_parameters()) + list(model.named_buffers()):
            self.state_names.setdefault(id(t), name)
        self.module = model

    def graph_inputs(self):
        """The graph's user tensor inputs (the first graph input is the module itself)."""
        return list(self.graph.inputs())[1:]

    def graph_outputs(self):
        """The flat tensor outputs, in order."""
        (out,) = self.graph.outputs()
        node = out.node()
        if node.kind() == "prim::TupleConstruct":
            return list(node.inputs())
        return [out]

    def self_value(self):
        return list(self.graph.inputs())[0]

    def rebuild_outputs(self, tensors):
        it = iter(tensors)
        leaves = [next(it) if x is None else x for x in self.output_leaves]
        return pytree.tree_unflatten(leaves, self.output_tree)
