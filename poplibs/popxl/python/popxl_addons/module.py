"""addons.Module: a layer whose build() adds its variables as graph inputs
(add_variable_input), so that one graph is made per module and bound to variables made from the
recorded factories; submodules assigned as attributes are inlined with dotted names."""
import popxl

from .graph import GraphWithNamedArgs
from .graph_cache import GraphCache, _key
from .named_tensors import NamedTensors
from .variable_factory import NamedVariableFactories, VariableFactory


class Module:
    def __init__(self, cache=False, grad_inlining_error="error"):
        """`cache`: True (a GraphCache of this module's own) or a GraphCache shared with other
        modules: create_graph with the same argument specs (and module settings) then reuses
        the graph and factories it made before."""
        object.__setattr__(self, "_submodules", {})
        object.__setattr__(self, "_prefix", "")
        object.__setattr__(self, "_graph_cache",
                           cache if isinstance(cache, GraphCache) else
                           GraphCache() if cache else None)
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
        return self._add_input(key, VariableFactory(data_iter, dtype, key, by_ref), overwrite)

    def add_variable_inputs(self, name, factories):
        """Graph inputs for every factory of `factories` (another module's, from its
        create_graph), named under `name`: the outlining idiom, where a graph made once is bound
        to each use's own variables (`graph.bind(self.add_variable_inputs("fc2", facts))`)."""
        out = NamedTensors()
        for key, factory in factories.to_dict().items():
            out.insert(key, self._add_input(f"{self._prefix}{name}.{key}", factory))
        return out

    def _add_input(self, key, factory, overwrite=False):
        tensor = popxl.graph_input(factory.shape, factory.dtype, key, by_ref=factory.by_ref)
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
        if self._graph_cache is None:
            return self._create_graph(*args, **kwargs)
        return self._graph_cache._cached((type(self), self._settings()), args, kwargs,
                                         lambda: self._create_graph(*args, **kwargs))

    def _settings(self):
        """What distinguishes this module's graphs besides the arguments: its public
        attributes, submodules by their own settings."""
        return tuple(sorted((k, v._settings() if isinstance(v, Module) else _key(v))
                            for k, v in vars(self).items() if not k.startswith("_")))

    def _create_graph(self, *args, **kwargs):
        self._reset()
        object.__setattr__(self, "_parent", None)
        self._bind_submodules(self, "")
        graph = popxl.gir().create_graph(self.build, *args, **kwargs)
        factories, inputs = self._factories, self._inputs
        self._reset()
        return factories, GraphWithNamedArgs(graph, inputs)
