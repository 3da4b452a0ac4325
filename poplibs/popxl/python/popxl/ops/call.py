"""ops.call / ops.call_with_info: run a graph made by Ir.create_graph from the current graph."""


class CallSiteInfo:
    """How a call connects the called graph's inputs and outputs to the caller's tensors."""

    def __init__(self, called_graph, inputs, outputs):
        self.called_graph = called_graph
        self.inputs = tuple(inputs)
        self.outputs = tuple(outputs)

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


def call_with_info(graph, *inputs, inputs_dict=None, check_inputs=True):
    from . import _create
    graph_inputs = graph.inputs
    args = list(inputs)
    if inputs_dict:
        by_sub = {sub: parent for sub, parent in inputs_dict.items()}
        args = args + [None] * (len(graph_inputs) - len(args))
        for i, sub in enumerate(graph_inputs):
            if sub in by_sub:
                if args[i] is not None:
                    raise ValueError(f"popxl.ops.call: input {sub} given twice")
                args[i] = by_sub[sub]
    if len(args) != len(graph_inputs) or any(a is None for a in args):
        raise ValueError(f"popxl.ops.call: {graph} has {len(graph_inputs)} inputs, "
                         f"{len([a for a in args if a is not None])} given")
    from .. import context
    caller = context.gcg()
    outs = caller.ir._pb.create_op(caller.id, "call", [a.id for a in args], {},
                                   f"call({graph.name})", [graph.id])
    from ..tensor import Tensor
    return CallSiteInfo(graph, args, [Tensor(caller, o) for o in outs])


def call(graph, *inputs, inputs_dict=None):
    return call_with_info(graph, *inputs, inputs_dict=inputs_dict).outputs
