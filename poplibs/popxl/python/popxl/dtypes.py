"""PopXL's element types: popxl.float32, popxl.float16 (popxl.half), ... and their numpy forms."""
import numpy as np


class dtype:
    """An element type. Compare with ``==``; ``.as_numpy()`` gives the numpy dtype."""

    def __init__(self, name, numpy_name, is_floating_point, is_int):
        self.name = name
        self._numpy = np.dtype(numpy_name)
        self.is_floating_point = is_floating_point
        self.is_int = is_int

    def as_numpy(self):
        return self._numpy

    @staticmethod
    def as_dtype(value):
        """The popxl dtype of a popxl dtype, a numpy dtype or a name."""
        if isinstance(value, dtype):
            return value
        key = np.dtype(value).name
        for d in _ALL:
            if d._numpy.name == key:
                return d
        raise ValueError(f"popxl has no dtype for numpy's {key}")

    def __repr__(self):
        return self.name

    def __eq__(self, other):
        return isinstance(other, dtype) and other.name == self.name

    def __hash__(self):
        return hash(self.name)


float32 = dtype("float32", "float32", True, False)
float16 = dtype("float16", "float16", True, False)
int32 = dtype("int32", "int32", False, True)
uint32 = dtype("uint32", "uint32", False, True)
bool = dtype("bool", "bool", False, False)  # noqa: A001 (popxl's name)
half = float16
float = float32  # noqa: A001 (popxl's name)
_ALL = (float32, float16, int32, uint32, bool)
