"""GraphCache: one graph per Ir for each function (or Module) and argument specs, so that
create_graph called again with the same specs reuses the graph (one Poplar function, called from
each site) instead of making another."""
import weakref

import popxl


def _key(value):
    """A hashable stand-in for a create_graph argument: tensors by shape, dtype and kind of
    reference (their values do not change the graph), containers element by element, other
    values as they are (or by repr when unhashable)."""
    if isinstance(value, (popxl.Tensor, popxl.TensorSpec)):
        return ("tensor", tuple(value.shape), value.dtype.name)
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(_key(v) for v in value)
    if isinstance(value, dict):
        return ("dict",) + tuple(sorted((k, _key(v)) for k, v in value.items()))
    try:
        hash(value)
        return value
    except TypeError:
        return ("repr", repr(value))


class GraphCache:
    def __init__(self):
        self._graphs = weakref.WeakKeyDictionary()  # Ir -> {key: what was made}

    def create_graph(self, fn, *args, **kwargs):
        """`popxl.gir().create_graph(fn, *args, **kwargs)`, or the graph it made before for
        the same function and argument specs in this Ir."""
        return self._cached(fn, args, kwargs,
                            lambda: popxl.gir().create_graph(fn, *args, **kwargs))

    def _cached(self, identity, args, kwargs, make):
        per_ir = self._graphs.setdefault(popxl.gir(), {})
        key = (identity, _key(args), _key(kwargs))
        if key not in per_ir:
            per_ir[key] = make()
        return per_ir[key]
