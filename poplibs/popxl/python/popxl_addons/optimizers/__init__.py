"""addons.optimizers: optimiser steps written as Modules over popxl.ops.var_updates."""
from .adam import AdamOptimizerStep  # noqa: F401
