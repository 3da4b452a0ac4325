"""Host streams: h2d_stream/d2h_stream, loaded and stored with ops.host_load/ops.host_store."""
from . import context
from .dtypes import dtype as _dtype


class _Stream:
    def __init__(self, ir, stream_id):
        self._ir = ir
        self._id = stream_id

    @property
    def shape(self):
        return tuple(self._ir._pb.stream_shape(self._id))

    @property
    def dtype(self):
        return _dtype.as_dtype(self._ir._pb.stream_dtype(self._id))

    @property
    def name(self):
        return self._ir._pb.stream_name(self._id)

    def __hash__(self):
        return hash((id(self._ir), self._id))

    def __eq__(self, other):
        return type(other) is type(self) and other._ir is self._ir and other._id == self._id

    def __repr__(self):
        return f"{type(self).__name__}[{self.name} {self.dtype} {self.shape}]"


class HostToDeviceStream(_Stream):
    pass


class DeviceToHostStream(_Stream):
    pass


def _make(cls, shape, dtype, name, host_to_device):
    graph = context.gcg()
    if graph != graph.ir.main_graph:
        raise ValueError(f"popxl: streams can only be created in the main graph ('{name}')")
    sid = graph.ir._pb.add_stream(name or "stream", list(shape), _dtype.as_dtype(dtype).name,
                                  host_to_device)
    return cls(graph.ir, sid)


def h2d_stream(shape, dtype, name=None):
    return _make(HostToDeviceStream, shape, dtype, name, True)


def d2h_stream(shape, dtype, name=None):
    return _make(DeviceToHostStream, shape, dtype, name, False)
