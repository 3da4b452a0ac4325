"""popxl.Graph: a graph of an Ir, entered with ``with`` to create ops in it."""
from . import context


class Graph:
    def __init__(self, ir, graph_id):
        self._ir = ir
        self._id = graph_id

    @property
    def ir(self):
        return self._ir

    @property
    def id(self):
        return self._id

    @property
    def name(self):
        return self._ir._pb.graph_name(self._id)

    @property
    def main_graph(self):
        return self._ir.main_graph

    @property
    def inputs(self):
        from .tensor import Tensor
        return tuple(Tensor(self, t) for t in self._ir._pb.graph_inputs(self._id))

    @property
    def outputs(self):
        from .tensor import Tensor
        return tuple(Tensor(self, t) for t in self._ir._pb.graph_outputs(self._id))

    def _schedule(self):
        """The graph's ops in the order they run: (type, name, input Tensors, output Tensors)
        each."""
        from .tensor import Tensor
        ops = []
        for op_id, op_type, name in self._ir._pb.graph_schedule(self._id):
            ins, outs = self._ir._pb.op_io(op_id)
            ops.append((op_type, name, [Tensor(self, t) for t in ins],
                        [Tensor(self, t) for t in outs]))
        return ops

    def __enter__(self):
        context._push(self)
        return self

    def __exit__(self, *exc):
        context._pop()
        return False

    def __eq__(self, other):
        return isinstance(other, Graph) and other._ir is self._ir and other._id == self._id

    def __hash__(self):
        return hash((id(self._ir), self._id))

    def __repr__(self):
        return f"Graph[{self.name}]"
