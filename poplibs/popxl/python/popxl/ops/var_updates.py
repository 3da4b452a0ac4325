"""popxl.ops.var_updates: in-place updates of a tensor (usually a variable)."""


def _inplace(op_type, t, x, attrs, name):
    from . import _create
    return _create(op_type, [t, x], attrs, name)[0]


def copy_var_update_(t, X, name=None):
    """t = X"""
    return _inplace("copy_var_update_", t, X, {}, name)


def accumulate_(t, X, f=1.0, name=None):
    """t += f * X"""
    return _inplace("accumulate_", t, X, {"f": float(f)}, name)


def scaled_add_(X, Y, a=1.0, b=1.0, name=None):
    """X = a * X + b * Y"""
    return _inplace("scaled_add_", X, Y, {"a": float(a), "b": float(b)}, name)


def accumulate_square_(t, X, f=1.0, name=None):
    """t += f * X^2"""
    return _inplace("accumulate_square_", t, X, {"f": float(f)}, name)


def accumulate_moving_average_(t, X, f, name=None):
    """t = f * t + (1 - f) * X"""
    return _inplace("accumulate_moving_average_", t, X, {"f": float(f)}, name)


def accumulate_moving_average_square_(t, X, f, name=None):
    """t = f * t + (1 - f) * X^2"""
    return _inplace("accumulate_moving_average_square_", t, X, {"f": float(f)}, name)
