"""popxl: Graphcore's PopXL API over libpopxl, on the simulated IPU."""
from . import ops, transforms  # noqa: F401
from .context import (get_current_graph, gcg, get_main_graph, gmg, get_ir, gir,  # noqa: F401
                      in_sequence)
from .dtypes import (dtype, float32, float16, half, int32, uint32, bool,  # noqa: F401,A004
                     float)
from .graph import Graph  # noqa: F401
from .ir import Ir  # noqa: F401
from .session import Session  # noqa: F401
from .streams import (HostToDeviceStream, DeviceToHostStream, h2d_stream,  # noqa: F401
                      d2h_stream)
from .tensor import (Tensor, TensorByRef, TensorSpec, Variable, Constant, variable,  # noqa: F401
                     constant, graph_input, graph_output)
