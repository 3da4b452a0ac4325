"""The thread-global context: the stack of graphs ops are created in (``with graph:``)."""
import threading

_local = threading.local()


def _stack():
    if not hasattr(_local, "graphs"):
        _local.graphs = []
    return _local.graphs


def get_current_graph():
    """The graph at the top of the context stack (entered with ``with graph:``)."""
    stack = _stack()
    if not stack:
        raise RuntimeError("popxl: no current graph; use `with ir.main_graph:`")
    return stack[-1]


gcg = get_current_graph


def get_main_graph():
    return get_current_graph().ir.main_graph


gmg = get_main_graph


def get_ir():
    return get_current_graph().ir


gir = get_ir


def _push(graph):
    stack = _stack()
    if stack and stack[0].ir is not graph.ir:
        raise RuntimeError("popxl: graphs of different Irs cannot be nested")
    stack.append(graph)


def _pop():
    _stack().pop()


class in_sequence:
    """``with popxl.in_sequence():`` or ``@popxl.in_sequence()``: ops created inside run in the
    order they were created. libpopxl schedules every graph's ops in creation order already, so
    this is accepted and changes nothing (``in_sequence(False)`` is accepted too)."""

    def __init__(self, enabled=True):
        self.enabled = bool(enabled)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper
