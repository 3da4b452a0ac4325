"""popxl.transforms: autodiff."""
from .autodiff import autodiff, GradGraphInfo, ExpectedConnection, ExpectedConnectionType  # noqa: F401
