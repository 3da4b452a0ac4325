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
    """``with popxl.in_sequence():`` or ``@popxl.in_sequence()``: the ops created inside run in
    the order they were created, in each graph (ordering constraints besides their data; without
    them the scheduler may run ops that do not depend on each other in any order).
    ``in_sequence(False)`` leaves its ops unordered among themselves; inside an enabled scope
    they still run as one block in its sequence. Entered inside a graph context; it applies to
    that graph's Ir."""

    def __init__(self, enabled=True):
        self.enabled = bool(enabled)
        self._irs = []  # one per entry: a decorated function may recurse

    def __enter__(self):
        if not _stack():
            raise RuntimeError("popxl.in_sequence: no current graph; enter one first "
                               "(`with ir.main_graph, popxl.in_sequence():`)")
        ir = get_ir()
        ir._pb.push_in_sequence(self.enabled)
        self._irs.append(ir)
        return self

    def __exit__(self, *exc):
        self._irs.pop()._pb.pop_in_sequence()
        return False

    def __call__(self, fn):
        import functools

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self:
                return fn(*args, **kwargs)
        return wrapper
