"""AdamOptimizerStep: one Adam (AdamW with weight_decay) step of a variable as a Module whose
state (first and second moments, the step count) are its own variables, passed by reference."""
from functools import partial

import numpy as np

import popxl
from popxl import ops

from ..module import Module


class AdamOptimizerStep(Module):
    @popxl.in_sequence()
    def build(self, var: popxl.TensorByRef, grad: popxl.Tensor, replica_grouping=None, *, lr,
              beta1=0.9, beta2=0.999, eps=1e-5, weight_decay=1e-2,
              first_order_dtype=popxl.float16, bias_correction=True, loss_scaling=1,
              global_norm=None, global_norm_max=None):
        """var -= lr * (m / (sqrt(v) + eps) + weight_decay * var), m and v the moving averages
        of grad and grad^2 (bias-corrected by the step count when bias_correction). The
        gradient is divided by loss_scaling and, given global_norm, scaled down to
        global_norm_max when the norm is above it."""
        scale = 1.0 if loss_scaling == 1 else 1.0 / loss_scaling
        if global_norm is not None:
            if global_norm_max is None:
                raise ValueError("AdamOptimizerStep: global_norm_max must be given with "
                                 "global_norm")
            if not isinstance(global_norm_max, popxl.Tensor):
                global_norm_max = popxl.constant(np.float32(global_norm_max), popxl.float32)
            scale = (global_norm_max * scale) / ops.maximum(global_norm, global_norm_max)
        if isinstance(scale, popxl.Tensor) or scale != 1.0:
            grad = ops.cast(grad, popxl.float32) * scale
        zeros = partial(np.zeros, var.shape)
        first = self.add_variable_input("first_order", zeros, first_order_dtype, by_ref=True)
        ops.var_updates.accumulate_moving_average_(first, grad, f=beta1)
        second = self.add_variable_input("second_order", zeros, popxl.float32, by_ref=True)
        ops.var_updates.accumulate_moving_average_square_(second, grad, f=beta2)
        step = None
        if bias_correction:
            step = self.add_variable_input("step", partial(np.zeros, ()), popxl.float32,
                                           by_ref=True)
        update = ops.var_updates.adam_updater(first, second, weight=var,
                                              weight_decay=weight_decay, time_step=step,
                                              beta1=beta1, beta2=beta2, epsilon=eps)
        ops.scaled_add_(var, update, b=-lr)
