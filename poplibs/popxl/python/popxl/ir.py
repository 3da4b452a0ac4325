"""popxl.Ir: the intermediate representation a Session compiles."""
from . import _popxl
from .graph import Graph


class Ir:
    def __init__(self, replication=1):
        self._pb = _popxl.Ir()
        if replication != 1:
            raise ValueError(
                f"popxl.Ir: replication {replication} is not supported yet (only 1)")
        self._main = Graph(self, self._pb.main_graph)

    @property
    def main_graph(self):
        return self._main

    @property
    def num_host_transfers(self):
        return self._pb.num_host_transfers

    @num_host_transfers.setter
    def num_host_transfers(self, value):
        if value < 1:
            raise ValueError(f"popxl.Ir.num_host_transfers must be at least 1, got {value}")
        self._pb.num_host_transfers = value

    @property
    def replication_factor(self):
        return self._pb.replication_factor

    def create_empty_graph(self, name="graph"):
        return Graph(self, self._pb.create_graph(name))

    def create_graph(self, fn, *args, **kwargs):
        """A new graph made by calling `fn` inside it: each Tensor or TensorSpec argument becomes
        an input of the graph (in order), and what `fn` returns (a Tensor, a tuple of them or
        None) its outputs."""
        import inspect
        import typing
        from .tensor import Tensor, TensorByRef, TensorSpec, graph_input, graph_output
        name = getattr(fn, "__qualname__", "graph") + "_subgraph"
        graph = self.create_empty_graph(name)
        # Parameters hinted TensorByRef (or List[TensorByRef]) are passed by reference.
        try:
            params = list(inspect.signature(fn).parameters.values())
            hints = typing.get_type_hints(fn)
        except (TypeError, ValueError, NameError):
            params, hints = [], {}

        def by_ref(index, key):
            pname = key if key is not None else (params[index].name if index < len(params)
                                                 else None)
            hint = hints.get(pname)
            return hint is TensorByRef or TensorByRef in getattr(hint, "__args__", ())

        def as_input(value, name, ref):
            if isinstance(value, (Tensor, TensorSpec)):
                return graph_input(value.shape, value.dtype, name, by_ref=ref)
            if isinstance(value, (list, tuple)) and all(
                    isinstance(v, (Tensor, TensorSpec)) for v in value):
                return type(value)(as_input(v, f"{name}_{i}", ref) for i, v in enumerate(value))
            return value

        with graph:
            inputs = [as_input(a, params[i].name if i < len(params) else f"input_{i}",
                               by_ref(i, None)) for i, a in enumerate(args)]
            kw = {k: as_input(v, k, by_ref(None, k)) for k, v in kwargs.items()}
            result = fn(*inputs, **kw)
            if result is None:
                result = ()
            elif isinstance(result, Tensor):
                result = (result,)
            for t in result:
                graph_output(t)
        return graph
