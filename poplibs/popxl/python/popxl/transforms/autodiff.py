"""popxl.transforms.autodiff: the gradient graph of a graph (libpopxl's op gradient rules)."""
import enum

from ..graph import Graph
from ..tensor import Tensor


class ExpectedConnectionType(enum.Enum):
    Fwd = "Fwd"
    FwdGrad = "FwdGrad"


class ExpectedConnection:
    """A gradient-graph input or output: forward tensor `fwd_tensor`'s value (Fwd) or gradient
    (FwdGrad)."""

    def __init__(self, fwd_tensor, connection_type):
        self.fwd_tensor = fwd_tensor
        self.connection_type = connection_type

    def __repr__(self):
        return f"({self.fwd_tensor}, {self.connection_type.name})"


class GradGraphInfo:
    def __init__(self, graph, forward_graph, expected_inputs, expected_outputs):
        self.graph = graph
        self.forward_graph = forward_graph
        self.expected_inputs = expected_inputs
        self.expected_outputs = expected_outputs

    @property
    def inputs(self):
        return self.graph.inputs

    @property
    def outputs(self):
        return self.graph.outputs

    def inputs_dict(self, fwd_call_info):
        """{gradient-graph input: caller tensor} for the forward values (Fwd) the gradient graph
        takes, from the call site of the forward graph."""
        result = {}
        for sub, conn in zip(self.graph.inputs, self.expected_inputs):
            if conn.connection_type == ExpectedConnectionType.Fwd:
                result[sub] = fwd_call_info.graph_to_parent(conn.fwd_tensor)
        return result

    def fwd_graph_ins_to_grad_parent_outs(self, grad_call_info):
        """{forward graph input: its gradient at the gradient call site}."""
        return {conn.fwd_tensor: grad_call_info.parent_output(i)
                for i, conn in enumerate(self.expected_outputs)}

    def fwd_parent_ins_to_grad_parent_outs(self, fwd_call_info, grad_call_info):
        """{caller's input of the forward call: its gradient at the gradient call site}."""
        return {fwd_call_info.graph_to_parent(conn.fwd_tensor): grad_call_info.parent_output(i)
                for i, conn in enumerate(self.expected_outputs)}


def autodiff(graph, grads_provided=None, grads_required=None, called_graphs_grad_info=None,
             return_all_grad_graphs=False):
    """The gradient graph of `graph`. Graphs it calls are differentiated too (once each, or
    taken from `called_graphs_grad_info`, {forward Graph: GradGraphInfo}) and their gradient
    graphs called from it. With `return_all_grad_graphs`, {forward Graph: GradGraphInfo} of
    `graph` and of every graph it calls."""
    ir = graph.ir
    provided = [t.id for t in (grads_provided or [])]
    required = [t.id for t in (grads_required or [])]
    known = [(info.forward_graph.id, info.graph.id,
              [(c.fwd_tensor.id, c.connection_type == ExpectedConnectionType.FwdGrad)
               for c in info.expected_inputs],
              [(c.fwd_tensor.id, True) for c in info.expected_outputs])
             for info in (called_graphs_grad_info or {}).values()]
    infos = {}
    for fwd_id, grad_id, inputs, outputs in ir._pb.autodiff(graph.id, provided, required, known):
        fwd = graph if fwd_id == graph.id else Graph(ir, fwd_id)

        def connection(pair, fwd=fwd):
            tid, is_grad = pair
            kind = ExpectedConnectionType.FwdGrad if is_grad else ExpectedConnectionType.Fwd
            return ExpectedConnection(Tensor(fwd, tid), kind)

        infos[fwd] = GradGraphInfo(Graph(ir, grad_id), fwd, [connection(p) for p in inputs],
                                   [connection(p) for p in outputs])
    return infos if return_all_grad_graphs else infos[graph]
