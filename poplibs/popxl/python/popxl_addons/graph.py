"""GraphWithNamedArgs and BoundGraph: a graph with its variable inputs named, and the same graph
with those inputs bound to the caller's tensors."""
import popxl.ops as ops

from .named_tensors import NamedTensors


class BoundGraph:
    def __init__(self, graph, args):
        self.graph = graph
        self.args = dict(args)

    def call_with_info(self, *targs, args=None):
        return ops.call_with_info(self.graph, *targs, inputs_dict={**self.args, **(args or {})})

    def call(self, *targs, args=None):
        return self.call_with_info(*targs, args=args).outputs

    def bind(self, args):
        return BoundGraph(self.graph, {**self.args, **dict(args)})


class GraphWithNamedArgs:
    def __init__(self, graph, args=None, grad_graph_info=None):
        self.graph = graph
        self.args = args if args is not None else NamedTensors()
        self.grad_graph_info = grad_graph_info
        self._differentiated = False

    def bind(self, args):
        """`args`: NamedTensors (matched to this graph's named inputs by key) or a mapping."""
        if isinstance(args, NamedTensors):
            return BoundGraph(self.graph, self.args.to_mapping(args))
        return BoundGraph(self.graph, args)

    def call_with_info(self, *targs, args=None):
        return ops.call_with_info(self.graph, *targs, inputs_dict=args or {})

    def call(self, *targs, args=None):
        return self.call_with_info(*targs, args=args).outputs

    def autodiff(self, grads_provided=None, grads_required=None, called_graphs_grad_info=None,
                 **kwargs):
        from .transforms import autodiff
        return autodiff(self, grads_provided, grads_required, called_graphs_grad_info)

    def print_schedule(self):
        """The graph's ops in the order they run, one a line with their inputs and outputs (a
        string, as Graphcore's returns it: print it)."""
        def tensors(ts):
            return ", ".join(f"{t.name} [{t.shape} {t.dtype}]" for t in ts)
        lines = [f"Graph : {self.graph.name}"]
        for op_type, name, inputs, outputs in self.graph._schedule():
            lines.append(f"  {op_type} {name} ({tensors(inputs)}) -> ({tensors(outputs)})")
        return "\n".join(lines)
