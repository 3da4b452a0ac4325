"""popxl_addons: modules, named tensors, variable factories and autodiff helpers over popxl."""
from . import ops, optimizers  # noqa: F401
from .graph import BoundGraph, GraphWithNamedArgs  # noqa: F401
from .graph_cache import GraphCache  # noqa: F401
from .module import Module  # noqa: F401
from .named_tensors import DotTree, NamedTensorData, NamedTensors  # noqa: F401
from .transforms import autodiff  # noqa: F401
from .variable_factory import NamedVariableFactories, VariableFactory  # noqa: F401
