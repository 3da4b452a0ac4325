"""popxl.ops.var_updates: in-place updates of a tensor (usually a variable), and Adam's update
term. Each scalar hyperparameter is a number or a one-element Tensor (read when the program
runs); the update X may be of another float dtype than t (it is cast to t's)."""
from ..tensor import Tensor


def _create(op_type, tensors, hypers, name, attrs=None):
    """The op on `tensors`; `hypers` are (key, value) pairs in the op's order: numbers become
    attributes, Tensors inputs after `tensors`."""
    from . import _create as create
    inputs, attrs = list(tensors), dict(attrs or {})
    for key, value in hypers:
        if isinstance(value, Tensor):
            inputs.append(value)
        else:
            attrs[key] = float(value)
    return create(op_type, inputs, attrs, name)[0]


def copy_var_update_(t, X, name=None):
    """t = X"""
    return _create("copy_var_update_", [t, X], [], name)


def accumulate_(t, X, f=None, name=None):
    """t += f * X (f = 1 when None)"""
    return _create("accumulate_", [t, X], [("f", 1.0 if f is None else f)], name)


def scaled_add_(X, Y, a=1.0, b=1.0, name=None):
    """X = a * X + b * Y"""
    return _create("scaled_add_", [X, Y], [("a", a), ("b", b)], name)


def accumulate_square_(t, X, f=1.0, name=None):
    """t += f * X^2"""
    return _create("accumulate_square_", [t, X], [("f", f)], name)


def accumulate_mean_(t, X, step, name=None):
    """t = step / (step + 1) * t + X / (step + 1): the running mean, `step` values so far."""
    return _create("accumulate_mean_", [t, X], [("step", step)], name)


def accumulate_moving_average_(t, X, f, name=None):
    """t = f * t + (1 - f) * X"""
    return _create("accumulate_moving_average_", [t, X], [("f", f)], name)


def accumulate_moving_average_square_(t, X, f, name=None):
    """t = f * t + (1 - f) * X^2"""
    return _create("accumulate_moving_average_square_", [t, X], [("f", f)], name)


def accumulator_scale_(t, f, name=None):
    """t *= f (a constant 0 zeroes t, even where it holds inf or NaN)"""
    return _create("accumulator_scale_", [t], [("f", f)], name)


def accumulator_zero_(t, name=None):
    """t = 0"""
    return accumulator_scale_(t, 0.0, name)


def _weight_decay_required(weight_decay):
    return isinstance(weight_decay, Tensor) or (weight_decay is not None and weight_decay != 0.0)


def adam_updater(acc_first_order, acc_second_order, weight=None, time_step=None,
                 weight_decay=None, beta1=None, beta2=None, epsilon=1e-07, name=None):
    """Adam's update term x = mc / (sqrt(vc) + epsilon) (+ weight_decay * weight), with mc = m /
    (1 - beta1^t) and vc = v / (1 - beta2^t) when `time_step` (t) is given, else m and v. The
    time step is incremented (in place) before it is used. Of the weight's dtype, or m's."""
    tensors = [acc_first_order, acc_second_order]
    decay = _weight_decay_required(weight_decay)
    if decay and weight is None:
        raise ValueError("popxl.ops.var_updates.adam_updater: weight decay requires weight to "
                         "be not None")
    if time_step is not None and (beta1 is None or beta2 is None):
        raise ValueError("popxl.ops.var_updates.adam_updater: bias correction requires both "
                         "beta1 and beta2 not None")
    if decay:
        tensors.append(weight)
    if time_step is not None:
        tensors.append(time_step)
    hypers = [("weight_decay", weight_decay if decay else 0.0),
              ("beta1", 0.0 if beta1 is None else beta1),
              ("beta2", 0.0 if beta2 is None else beta2), ("epsilon", epsilon)]
    return _create("adam_updater", tensors, hypers, name,
                   {"weight": int(decay), "time_step": int(time_step is not None)})


def adam_var_update(t, x, r1, r2, learning_rate=None, max_weight_norm=None, name=None):
    """t -= lr * ratio * x, with Lamb's trust ratio min(sqrt(r1), max_weight_norm) / sqrt(r2)
    (r1, r2: the squared norms of the weight and of the update term x; 1 when either is 0 or
    max_weight_norm is 0; no limit when max_weight_norm is None)."""
    lr = 0.0 if learning_rate is None else learning_rate
    norm = float("inf") if max_weight_norm is None else max_weight_norm
    return _create("adam_var_update", [t, x, r1, r2],
                   [("learning_rate", lr), ("max_weight_norm", norm)], name)


def sparse_accumulate_(t, X, indices, axis=0, f=None, W=None, name=None):
    """t += f * X scattered along `axis` at `indices` (f = 1 when None): X is shaped as a gather
    of t at the indices, repeated indices add up; t and X may be of different float dtypes. `W`
    (a tile-layout hint in Graphcore's PopXL) is accepted and not needed."""
    return _create("sparse_accumulate_", [t, X, indices], [("f", 1.0 if f is None else f)], name,
                   {"axis": int(axis)})
