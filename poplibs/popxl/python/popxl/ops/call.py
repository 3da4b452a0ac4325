"""ops.call / ops.call_with_info: run a graph made by Ir.create_graph from the current graph."""


class CallSiteInfo:
    """How a call connects the called graph's inputs and outputs to the caller's tensors. The
    outputs are read from the op, since autodiff may add some (forward values its gradient
    graph needs) after the call was made."""

    def __init__(self, called_graph, caller, op_id, inputs):
        self.called_graph = called_graph
        self._caller = caller
        self._op = op_id
        self.inputs = tuple(inputs)

    @property
    def outputs(self):
        from ..tensor import Tensor
        _, outs = self._caller.ir._pb.op_io(self._op)
        return tuple(Tensor(self._caller, t) for t in outs)

    def parent_input(self, i):
        return self.inputs[i]

    def parent_output(self, i):
        return self.outputs[i]

    def graph_to_parent(self, t):
        """The caller's tensor of a called graph's input or output."""
        for sub, parent in zip(self.called_graph.inputs, self.inputs):
            if sub == t:
                return parent
        for sub, parent in zip(self.called_graph.outputs, self.outputs):
            if sub == t:
                return parent
        raise ValueError(f"popxl: {t} is neither an input nor an output of "
                         f"{self.called_graph}")

    def parent_to_graph(self, t):
        for sub, parent in zip(self.called_graph.inputs, self.inputs):
            if parent == t:
                return sub
        for sub, parent in zip(self.called_graph.outputs, self.outputs):
            if parent == t:
                return sub
        raise ValueError(f"popxl: {t} is not connected to this call")


def _arguments(graph, inputs, inputs_dict, what):
    """The caller's tensors for each input of `graph`, positional first, then by name."""
    graph_inputs = graph.inputs
    args = list(inputs)
    if inputs_dict:
        args = args + [None] * (len(graph_inputs) - len(args))
        for i, sub in enumerate(graph_inputs):
            if sub in inputs_dict:
                if args[i] is not None:
                    raise ValueError(f"popxl.ops.{what}: input {sub} given twice")
                args[i] = inputs_dict[sub]
    if len(args) != len(graph_inputs) or any(a is None for a in args):
        raise ValueError(f"popxl.ops.{what}: {graph} has {len(graph_inputs)} inputs, "
                         f"{len([a for a in args if a is not None])} given")
    return args


def _call_op(op_type, graph, args, attrs):
    from .. import context
    caller = context.gcg()
    caller.ir._pb.create_op(caller.id, op_type, [a.id for a in args], attrs,
                            f"{op_type}({graph.name})", [graph.id])
    return CallSiteInfo(graph, caller, caller.ir._pb.num_ops - 1, args)


def call_with_info(graph, *inputs, inputs_dict=None, check_inputs=True):
    return _call_op("call", graph, _arguments(graph, inputs, inputs_dict, "call"), {})


def call(graph, *inputs, inputs_dict=None):
    return call_with_info(graph, *inputs, inputs_dict=inputs_dict).outputs


def repeat_with_info(graph, repeat_count, *inputs, inputs_dict=None, check_inputs=True):
    """Calls `graph` repeat_count times; after each iteration its N outputs are copied onto its
    first N inputs (loop-carried), the other inputs keep their values."""
    return _call_op("repeat", graph, _arguments(graph, inputs, inputs_dict, "repeat"),
                    {"repeat_count": int(repeat_count)})


def repeat(graph, repeat_count, *inputs, inputs_dict=None):
    return repeat_with_info(graph, repeat_count, *inputs, inputs_dict=inputs_dict).outputs
