"""addons.Module: a layer whose build() adds its variables as graph inputs
(add_variable_input), so that one graph is made per module and bound to variables made from the
recorded factories; submodules assigned as attributes are inlined with dotted names."""
import popxl

from .graph import GraphWithNamedArgs
from .named_tensors import NamedTensors
from .variable_factory import NamedVariableFactories, VariableFactory


class Module:
    def __init__(self, cache=False, grad_inlining_error="error"):
        object.__setattr__(self, "_submodules", {})
        object.__setattr__(self, "_prefix", "")
        self._reset()

    def _reset(self):
        object.__setattr__(self, "_factories", NamedVariableFactories())
        object.__setattr__(self, "_inputs", NamedTensors())

    def __setattr__(self, name, value):
        if isinstance(value, Module):
            self._submodules[name] = value
        object.__setattr__(self, name, value)

    def build(self, *args, **kwargs):
        raise NotImplementedError("addons.Module subclasses define build()")

    def add_variable_input(self, name, data_iter, dtype=None, by_ref=False, replica_grouping=None,
                           overwrite=False):
        """A graph input of this module's graph, recorded with the factory that makes the
        variable bound to it."""
        key = self._prefix + name
        factory = VariableFactory(data_iter, dtype, key, by_ref)
        tensor = popxl.graph_input(factory.shape, factory.dtype, key, by_ref=by_ref)
        self._root._factories.insert(key, factory, overwrite)
        self._root._inputs.insert(key, tensor, overwrite)
        return tensor

    @property
    def _root(self):
        return getattr(self, "_parent", None) or self

    def __call__(self, *args, **kwargs):
        """Inlines build() into the current graph; a submodule's variables are named under its
        attribute ("fc1.weight")."""
        return self.build(*args, **kwargs)

    def _bind_submodules(self, root, prefix):
        for name, sub in self._submodules.items():
            object.__setattr__(sub, "_parent", root)
            object.__setattr__(sub, "_prefix", f"{prefix}{name}.")
            sub._bind_submodules(root, f"{prefix}{name}.")

    def create_graph(self, *args, **kwargs):
        """(factories of its variables, the graph of build() with its variable inputs named)."""
        self._reset()
        object.__setattr__(self, "_parent", None)
        self._bind_submodules(self, "")
        graph = popxl.gir().create_graph(self.build, *args, **kwargs)
        factories, inputs = self._factories, self._inputs
        self._reset()
        return factories, GraphWithNamedArgs(graph, inputs)
