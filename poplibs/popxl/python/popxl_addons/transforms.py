"""addons.autodiff: popxl's autodiff on a GraphWithNamedArgs, giving the gradient graph wrapped
the same way with its GradGraphInfo."""
from popxl.transforms import autodiff as _autodiff

from .graph import GraphWithNamedArgs


def autodiff(graph, grads_provided=None, grads_required=None, called_graphs_grad_info=None):
    fwd = graph.graph if isinstance(graph, GraphWithNamedArgs) else graph
    if isinstance(graph, GraphWithNamedArgs):
        if graph._differentiated:
            raise ValueError("addons.autodiff: this graph was already differentiated (autodiff "
                             "adds outputs to the forward graph)")
        graph._differentiated = True
    info = _autodiff(fwd, grads_provided, grads_required, called_graphs_grad_info)
    return GraphWithNamedArgs(info.graph, grad_graph_info=info)
