"""popxl.Session: compiles an Ir for a simulated IPU and runs it with numpy arrays."""
import numpy as np

from . import _popxl
from .streams import HostToDeviceStream


class Session:
    def __init__(self, ir, device_desc="cpu", weights_to_host_on_exit=True, *, cache_dir=None):
        """`cache_dir` (or the POPXL_CACHE_DIR environment variable) keeps the compiled program
        on disk: the same Ir later loads it instead of compiling."""
        self._ir = ir
        self._pb = _popxl.Session(ir._pb, device_desc, cache_dir or "")
        self._attached = 0
        self._weights_to_host_on_exit = weights_to_host_on_exit
        # The host copy of the variables (by tensor id), as of the last weights_to_host or
        # write: what get_tensor_data gives while detached.
        self._host = {}

    @property
    def ir(self):
        return self._ir

    def __enter__(self):
        self._attached += 1
        if self._attached == 1:
            self.weights_from_host()
        return self

    def __exit__(self, *exc):
        if self._attached == 1 and self._weights_to_host_on_exit:
            self.weights_to_host()
        self._attached -= 1
        return False

    @property
    def is_attached(self):
        return self._attached > 0

    def _check_attached(self, what):
        if not self.is_attached:
            raise ValueError(f"popxl.Session.{what}: Must be attached to device before calling "
                             f"{what}; use `with session:`")

    def _stream_array(self, stream, array, downcast):
        nht = self._ir.num_host_transfers
        want = ((nht,) if nht > 1 else ()) + stream.shape
        array = np.asarray(array)
        if array.shape != want:
            raise ValueError(f"popxl.Session.run: input for {stream} has shape {array.shape}, "
                             f"expected {want} ([num_host_transfers, *shape], "
                             f"num_host_transfers = {nht})")
        np_type = stream.dtype.as_numpy()
        if array.dtype != np_type and not downcast:
            raise ValueError(f"popxl.Session.run: input for {stream} is {array.dtype}, expected "
                             f"{np_type}")
        return np.ascontiguousarray(array, dtype=np_type)

    def run(self, inputs=None, downcast_inputs=True):
        self._check_attached("run")
        inputs = inputs or {}
        for stream in inputs:
            if not isinstance(stream, HostToDeviceStream) or stream._ir is not self._ir:
                raise ValueError(f"popxl.Session.run: {stream} is not a host-to-device stream "
                                 f"of this session's Ir")
        arrays = {s._id: self._stream_array(s, a, downcast_inputs) for s, a in inputs.items()}
        outputs = self._pb.run(self._ir._pb, arrays)
        from .streams import DeviceToHostStream
        result = {}
        for sid, array in outputs.items():
            if self._ir.num_host_transfers == 1:
                array = array.reshape(array.shape[1:])
            result[DeviceToHostStream(self._ir, sid)] = array
        return result

    def get_tensor_data(self, tensor):
        """The value of a variable or constant: read from the device while attached (which
        refreshes the host copy), else the host copy (as of the last weights_to_host, by
        default when the last `with session:` exited)."""
        kind = self._ir._pb.tensor_kind(tensor.id)
        if kind not in ("variable", "constant"):
            raise ValueError(f"popxl.Session.get_tensor_data: {tensor} is not a variable or a "
                             f"constant")
        if kind == "constant":
            return self._ir._pb.tensor_data(tensor.id)
        if self.is_attached:
            self._host[tensor.id] = self._pb.tensor_data(self._ir._pb, tensor.id)
        elif tensor.id not in self._host:
            self._host[tensor.id] = self._ir._pb.tensor_data(tensor.id)  # its initial value
        return self._host[tensor.id]

    def get_tensors_data(self, tensors):
        return {t: self.get_tensor_data(t) for t in tensors}

    def write_variable_data(self, tensor, data):
        """Writes the host copy of a variable and the device's value."""
        array = np.asarray(data)
        if array.shape != tensor.shape or array.dtype != tensor.dtype.as_numpy():
            raise ValueError(f"popxl.Session.write_variable_data: {tensor} needs "
                             f"{tensor.dtype} {tensor.shape}, got {array.dtype} {array.shape}")
        array = np.array(array, order="C")
        self._pb.write_variable_data(tensor.id, array)
        self._host[tensor.id] = array

    def write_variables_data(self, tensors):
        for t, data in tensors.items():
            self.write_variable_data(t, data)

    def _variable_ids(self):
        pb = self._ir._pb
        return [t for t in range(pb.num_tensors) if pb.tensor_kind(t) == "variable"]

    def weights_to_host(self):
        """Copies every variable's device value to its host copy."""
        self._check_attached("weights_to_host")
        for t in self._variable_ids():
            self._host[t] = self._pb.tensor_data(self._ir._pb, t)

    def weights_from_host(self):
        """Copies the host copies of the variables to the device."""
        self._check_attached("weights_from_host")
        for t, array in self._host.items():
            self._pb.write_variable_data(t, array)

    @property
    def cache_entry(self):
        """The executable cache's file of this program ("" without a cache directory)."""
        return self._pb.cache_entry

    @property
    def loaded_from_cache(self):
        """Whether the program was loaded from the executable cache instead of compiled."""
        return self._pb.loaded_from_cache

    @property
    def last_run_cycles(self):
        return self._pb.last_run_cycles
