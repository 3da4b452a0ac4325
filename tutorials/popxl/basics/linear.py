"""PopXL basics: a linear layer y = relu(x W + b) built as an Ir, compiled by a Session and run
on the simulated IPU with data streamed from the host; then one SGD-style update of W on the
device, read back with get_tensor_data."""
import numpy as np

import popxl
import popxl.ops as ops

rng = np.random.default_rng(0)
w_init = rng.normal(0, 0.5, (4, 3)).astype(np.float32)
b_init = np.zeros(3, np.float32)

ir = popxl.Ir()
with ir.main_graph:
    w = popxl.variable(w_init, popxl.float32, name="W")
    b = popxl.variable(b_init, popxl.float32, name="b")
    x_stream = popxl.h2d_stream((2, 4), popxl.float32, name="x")
    x = ops.host_load(x_stream, "x")
    y = ops.relu(x @ w + b)
    y_stream = popxl.d2h_stream(y.shape, y.dtype, name="y")
    ops.host_store(y_stream, y)
    # W -= 0.1 * x^T y (a made-up gradient, to show an in-place variable update)
    ops.var_updates.accumulate_(w, x.T @ y, f=-0.1)

x_data = rng.normal(0, 1, (2, 4)).astype(np.float32)
session = popxl.Session(ir, "ipu_model")
with session:
    outputs = session.run({x_stream: x_data})
    w_after = session.get_tensor_data(w)

y_host = np.maximum(x_data @ w_init + b_init, 0)
print("y on the IPU:\n", outputs[y_stream])
print("matches numpy:", np.allclose(outputs[y_stream], y_host, atol=1e-5))
print("W updated:", np.allclose(w_after, w_init - 0.1 * x_data.T @ y_host, atol=1e-5))
print("simulated cycles:", session.last_run_cycles)
