"""Lowers a captured TorchScript graph into a popxl graph (the model's forward): prim nodes are
resolved here (constants, lists, the module's attributes, static sizes), aten nodes go through the
op table in _aten.py. Parameters and buffers the forward reads become graph inputs, as do the user's
tensors; what the forward writes to buffers (batch norm's running statistics) become outputs."""
import numpy as np
import torch

import popxl
from popxl import ops

from ._aten import ATEN_OPS, LOSS_OPS
from ._errors import Error

_DTYPES = {torch.float32: popxl.float32, torch.float64: popxl.float32,
           torch.bfloat16: popxl.float32, torch.float16: popxl.float16, torch.int64: popxl.int32,
           torch.int32: popxl.int32, torch.int16: popxl.int32, torch.int8: popxl.int32,
           torch.uint8: popxl.int32, torch.bool: popxl.bool}
# Nodes that only move Python values around (resolved at lowering, no popxl op).
_PRIM = {"prim::Constant", "prim::GetAttr", "prim::ListConstruct", "prim::TupleConstruct",
         "prim::ListUnpack", "prim::TupleUnpack", "prim::NumToTensor", "aten::Int", "aten::Float",
         "aten::ScalarImplicit", "prim::TupleIndex", "aten::__getitem__", "prim::device",
         "prim::dtype"}


def popxl_dtype(torch_dtype, what):
    if torch_dtype not in _DTYPES:
        raise Error(f"{what}: tensors of {torch_dtype} are not supported")
    return _DTYPES[torch_dtype]


def device_array(t, what="poptorch"):
    """A torch tensor as the device holds it: int64 as int32, float64 as float32 (PopTorch's rule)."""
    dtype = popxl_dtype(t.dtype, what)
    if t.dtype == torch.bfloat16:
        t = t.float()
    return np.array(t.detach().cpu().numpy(), dtype.as_numpy(), order="C")


def _where(node):
    """The module path a node was traced in (the trace wraps the model as attribute `model`)."""
    scope = node.scopeName().split("/")[-1].replace("__module.", "").replace("__module", "")
    path = scope[len("model."):] if scope.startswith("model.") else ""
    return f"module '{path or '<top>'}'"


class _NodeContext:
    """What an aten handler may ask about the node it lowers."""

    def __init__(self, forward, node):
        self._forward = forward
        self.node = node
        self.kind = node.kind()
        self.training = forward.training
        ttype = list(node.outputs())[0].type()
        sizes = ttype.sizes() if isinstance(ttype, torch._C.TensorType) else None
        dtype = ttype.dtype() if isinstance(ttype, torch._C.TensorType) else None
        self.out_shape = tuple(sizes) if sizes is not None else None
        self.out_dtype = _DTYPES.get(dtype, popxl.float32) if dtype is not None else None

    def unsupported(self, what):
        raise Error(f"{self.kind} with {what} is not supported (traced in {_where(self.node)})")

    def operand(self, value):
        """A number or array as a constant of the node's type; a tensor cast to it."""
        dtype = self.out_dtype or popxl.float32
        if isinstance(value, popxl.Tensor):
            return self.cast_to_output(value)
        return popxl.constant(np.asarray(value, dtype.as_numpy()), dtype)

    def cast_to_output(self, t):
        if self.out_dtype is not None and t.dtype != self.out_dtype:
            return ops.cast(t, self.out_dtype)
        return t

    def indices(self, t):
        return t if t.dtype == popxl.int32 else ops.cast(t, popxl.int32)

    def innermost(self, x, dim, fn):
        """fn applied along axis `dim` of x, which popxl's softmaxes want innermost."""
        axis = dim + x.rank if dim < 0 else dim
        if axis == x.rank - 1:
            return fn(x)
        perm = [a for a in range(x.rank) if a != axis] + [axis]
        inverse = list(np.argsort(perm))
        return ops.transpose(fn(ops.transpose(x, perm)), inverse)

    def seed(self):
        return self._forward.seed()

    def update_state(self, state, new):
        self._forward.update_state(state, new)


class Forward:
    """The popxl graph of a captured forward, and how its inputs and outputs map to the model's."""

    def __init__(self, ir, captured, training):
        self.captured = captured
        self.training = training
        self.graph = ir.create_empty_graph("forward")
        self.data_inputs = []      # graph inputs of the user's tensors, in order
        self.state_inputs = {}     # parameter/buffer name -> graph input
        self.state_updates = {}    # buffer name -> graph tensor of its new value
        self.seed_input = None
        self.loss = None
        self._env = {}
        self._loss_derived = set()
        self._marked_losses = set()  # ids of the tensors identity_loss gave
        with self.graph:
            self._lower()

    def seed(self):
        if self.seed_input is None:
            self.seed_input = popxl.graph_input((2,), popxl.uint32, "random_seed")
        return self.seed_input

    def update_state(self, state, new):
        name = next((n for n, t in self.state_inputs.items() if t is state), None)
        if name is None:
            raise Error("poptorch: a buffer update does not write to a buffer of the model")
        self.state_updates[name] = new

    def _lower(self):
        graph = self.captured.graph
        unsupported = sorted({n.kind() for n in graph.nodes()
                              if n.kind() not in ATEN_OPS and n.kind() not in _PRIM})
        if unsupported:
            where = {k: _where(n) for n in graph.nodes() for k in [n.kind()] if k in unsupported}
            raise Error("Unsupported ops found in compiled model: [" +
                        ", ".join(f"{k} (traced in {where[k]})" for k in unsupported) + "]")
        self._env[self.captured.self_value().unique()] = self.captured.root
        for i, (value, (dtype, shape)) in enumerate(zip(self.captured.graph_inputs(),
                                                        self.captured.input_spec.tensor_specs)):
            t = popxl.graph_input(shape, popxl_dtype(dtype, f"poptorch: input {i}"),
                                  value.debugName() or f"input{i}")
            self.data_inputs.append(t)
            self._env[value.unique()] = t
        for node in graph.nodes():
            self._lower_node(node)
        self.outputs = [self._value(v) for v in self.captured.graph_outputs()]
        for i, t in enumerate(self.outputs):
            if not isinstance(t, popxl.Tensor):
                raise Error(f"poptorch: output {i} of the model is not a tensor computed on the "
                            "device")
        if self.training:
            self._find_loss()
        self.output_list = list(self.outputs) + ([self.loss] if self.loss is not None else []) + \
            list(self.state_updates.values())
        for t in self.output_list:
            popxl.graph_output(t)

    def _find_loss(self):
        graph_outs = self.captured.graph_outputs()
        marked = [v for v in graph_outs if v.unique() in self._loss_derived
                  and isinstance(self._value(v), popxl.Tensor) and self._value(v).rank == 0]
        # A loss marked with identity_loss is the final one (inner losses collapse into it).
        explicit = [v for v in marked if self._value(v).id in self._marked_losses]
        marked = explicit or marked
        if not marked:
            raise Error("Couldn't find a loss in graph! The forward of a training model must "
                        "return its loss: a torch loss or one wrapped in poptorch.identity_loss")
        if len({v.unique() for v in marked}) > 1:
            raise Error("Multiple independent losses found in graph: wrap the final loss in "
                        "poptorch.identity_loss")
        self.loss = self._value(marked[0])

    def _value(self, v):
        return self._env[v.unique()]

    def _state(self, name, tensor):
        if name not in self.state_inputs:
            dtype = popxl_dtype(tensor.dtype, f"poptorch: parameter or buffer '{name}'")
            self.state_inputs[name] = popxl.graph_input(tuple(tensor.shape), dtype, name)
        return self.state_inputs[name]

    def _lower_node(self, node):
        kind = node.kind()
        ins = list(node.inputs())
        outs = list(node.outputs())
        if kind in LOSS_OPS or any(v.unique() in self._loss_derived for v in ins):
            self._loss_derived.update(o.unique() for o in outs)
        args = [self._env.get(v.unique()) for v in ins]
        if kind == "prim::Constant":
            self._env[outs[0].unique()] = _constant(outs[0])
            return
        if kind == "prim::GetAttr":
            obj = getattr(args[0], node.s("name"))
            if isinstance(obj, torch.Tensor):
                name = self.captured.state_names.get(id(obj))
                if name is None:
                    raise Error(f"poptorch: attribute '{node.s('name')}' (in {_where(node)}) is a "
                                "tensor that is neither a parameter nor a buffer")
                obj = self._state(name, obj)
            self._env[outs[0].unique()] = obj
            return
        if kind in ("prim::ListConstruct", "prim::TupleConstruct"):
            self._env[outs[0].unique()] = list(args)
            return
        if kind in ("prim::ListUnpack", "prim::TupleUnpack"):
            for o, a in zip(outs, args[0]):
                self._env[o.unique()] = a
            return
        if kind in ("prim::TupleIndex", "aten::__getitem__"):
            self._env[outs[0].unique()] = args[0][args[1]]
            return
        if kind in ("prim::NumToTensor", "aten::Int", "aten::Float", "aten::ScalarImplicit"):
            if isinstance(args[0], popxl.Tensor):
                raise Error(f"poptorch: {kind} in {_where(node)} needs a tensor's value on the "
                            "host while the model is compiled (e.g. .item() or int(tensor)); "
                            "a static graph cannot do that")
            self._env[outs[0].unique()] = _host_scalar(args[0])
            return
        if kind in ("prim::device", "prim::dtype"):
            self._env[outs[0].unique()] = None
            return
        ctx = _NodeContext(self, node)
        args = [popxl.constant(_constant_array(a)) if isinstance(a, np.ndarray) else a
                for a in args]
        try:
            result = ATEN_OPS[kind](ctx, *args)
        except Error:
            raise
        except (ValueError, TypeError) as e:
            raise Error(f"poptorch: lowering {kind} (traced in {_where(node)}) failed: {e}") \
                from e
        results = result if isinstance(result, (list, tuple)) and len(outs) > 1 else [result]
        for o, r in zip(outs, results):
            self._check_shape(node, o, r)
            self._env[o.unique()] = r
            if kind == "poptorch::identity_loss":
                self._marked_losses.add(r.id)
        if kind.endswith("_") and isinstance(args[0], popxl.Tensor) and \
                any(args[0] is t for t in self.state_inputs.values()):
            self.update_state(args[0], results[0])

    def _check_shape(self, node, value, result):
        ttype = value.type()
        if not isinstance(ttype, torch._C.TensorType) or not isinstance(result, popxl.Tensor):
            return
        sizes = ttype.sizes()
        if sizes is not None and tuple(sizes) != tuple(result.shape):
            raise Error(f"poptorch: the lowering of {node.kind()} (traced in {_where(node)}) gave "
                        f"shape {tuple(result.shape)} where torch traced {tuple(sizes)}")


def _constant(value):
    v = value.toIValue()
    if isinstance(v, torch.Tensor):
        return v.detach().numpy().copy() if v.dim() else v.item()
    return v


def _host_scalar(v):
    return v.item() if isinstance(v, np.ndarray) else v


def _constant_array(a):
    if a.dtype == np.float64:
        return a.astype(np.float32)
    if a.dtype == np.int64 or a.dtype.kind in "iu" and a.dtype != np.uint32:
        return a.astype(np.int32)
    return a
