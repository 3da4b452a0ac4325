"""The optimizers' update rules on the device, as popxl ops: one rule per optimizer kind, computing
what torch's own step computes. Hyper-parameters follow PopTorch's constant/variable rules: a
variable one is a device variable the host writes (setOptimizer changes it without recompiling), a
constant one is compiled in, and a constant 0 or 1 removes its term from the program. Per-weight
state (momentum, moments, step counts) are device variables that live across runs."""
import inspect
import math

import numpy as np
import torch

import popxl
from popxl import ops

from ._errors import Error
from . import optim

_F32 = popxl.float32

# Per kind: the hyper-parameters that may be variables, and those always compiled in.
_ATTRS = {
    "sgd": (("lr", "momentum", "dampening", "weight_decay"), ("nesterov",)),
    "adam": (("lr", "weight_decay", "eps"), ("betas",)),
    "adamw": (("lr", "weight_decay", "eps"), ("betas",)),
    "rmsprop": (("lr", "eps", "weight_decay", "momentum"), ("alpha", "centered")),
    "lamb": (("lr", "weight_decay", "eps"), ("betas", "bias_correction", "max_weight_norm")),
}


def _kind(optimizer):
    # AdamW derives from Adam in neither library; check the most derived first.
    for cls, kind in ((torch.optim.AdamW, "adamw"), (torch.optim.Adam, "adam"),
                      (torch.optim.SGD, "sgd"), (torch.optim.RMSprop, "rmsprop"),
                      (optim.LAMB, "lamb")):
        if isinstance(optimizer, cls):
            return kind
    raise Error(f"Unsupported optimizer type {type(optimizer).__name__}: use poptorch.optim's or "
                "torch.optim's SGD, Adam, AdamW, RMSprop, or poptorch.optim.LAMB")


def _is_variable(optimizer, attr):
    """PopTorch's rule: poptorch.optim's attributes are variable when the constructor was given
    them (or marked so); torch.optim's when they differ from torch's default, lr always."""
    if hasattr(optimizer, "variable_attrs"):
        return not optimizer.variable_attrs.isConstant(attr)
    if attr in ("lr", "loss_scaling"):
        return attr == "lr"  # torch's optimizers have no loss scaling
    torch_class = next(c for c in type(optimizer).__mro__ if c.__module__.startswith("torch.optim"))
    default = inspect.signature(torch_class.__init__).parameters[attr].default
    return any(g[attr] != default for g in optimizer.param_groups)


_VARIABLE = object()


def _is(value, constant):
    """Whether a hyper-parameter is compiled in with this value."""
    return not isinstance(value, popxl.Tensor) and value is not _VARIABLE and value == constant


def _t(value):
    return value if isinstance(value, popxl.Tensor) else popxl.constant(np.float32(value))


class DeviceOptimizer:
    """An optimizer's update on the device for the trained weights `params` (name -> Parameter);
    its variables are made in the current (main) graph."""

    def __init__(self, optimizer, params):
        self.kind = _kind(optimizer)
        if any(g.get("amsgrad") for g in optimizer.param_groups):
            raise ValueError("poptorch: amsgrad=True is not supported")
        if any(g.get("maximize") for g in optimizer.param_groups):
            raise ValueError("poptorch: maximize=True is not supported")
        attrs, always_constant = _ATTRS[self.kind]
        ids = {id(p): i for i, g in enumerate(optimizer.param_groups) for p in g["params"]}
        self.group_of = {name: ids.get(id(p), 0) for name, p in params.items()}
        groups = sorted(set(self.group_of.values()))
        self._variable_attrs = [a for a in attrs if _is_variable(optimizer, a)]
        self._constant_attrs = [a for a in attrs if a not in self._variable_attrs] + \
            list(always_constant)
        self.hyper = {(gi, a): popxl.variable(np.float32(0), _F32, f"optimizer/group{gi}/{a}")
                      for gi in groups for a in self._variable_attrs}
        self._constants = self._constant_values(optimizer)
        # Loss scaling: a variable when a poptorch.optim constructor was given it, else compiled in.
        scaling = getattr(optimizer, "loss_scaling", 1.0) or 1.0
        self._loss_scaling = popxl.variable(np.float32(scaling), _F32, "optimizer/loss_scaling") \
            if _is_variable(optimizer, "loss_scaling") else float(scaling)
        self.max_grad_norm = float(getattr(optimizer, "max_grad_norm", math.inf) or math.inf)
        self.state = {}
        for name, p in params.items():
            h = self._hyper(self.group_of[name], None)
            for slot, scalar in self._slots(h):
                value = np.float32(1 if slot == "first" else 0) if scalar else \
                    np.zeros(p.shape, np.float32)
                self.state[(name, slot)] = popxl.variable(value, _F32, f"optimizer/{name}/{slot}")

    def _slots(self, h):
        """The state a weight needs: (slot, is scalar)."""
        if self.kind == "sgd":
            if _is(h("momentum"), 0):
                return []
            return [("velocity", False)] + ([] if _is(h("dampening"), 0) else [("first", True)])
        if self.kind == "rmsprop":
            return [("square_avg", False)] + \
                ([] if _is(h("momentum"), 0) else [("momentum_buffer", False)]) + \
                ([("grad_avg", False)] if h("centered") else [])
        return [("exp_avg", False), ("exp_avg_sq", False), ("step", True)]

    def _hyper(self, gi, ref):
        """h(attr): a group's hyper-parameter, a graph tensor if variable (a marker without
        `ref`), else its compiled-in value."""
        def h(attr):
            if (gi, attr) in self.hyper:
                return ref(self.hyper[(gi, attr)]) if ref else _VARIABLE
            return self._constants[1][gi][attr]
        return h

    def variables(self):
        scaling = [self._loss_scaling] if isinstance(self._loss_scaling, popxl.Tensor) else []
        return list(self.hyper.values()) + scaling + list(self.state.values())

    def loss_scaling(self, ref):
        """The loss's gradient: the loss scaling, a graph tensor if variable."""
        s = self._loss_scaling
        return ref(s) if isinstance(s, popxl.Tensor) else _t(s)

    def _constant_values(self, optimizer):
        groups = [{a: g.get(a) for a in self._constant_attrs} for g in optimizer.param_groups]
        return self.kind, groups

    def host_values(self, optimizer):
        """The device variables' values for `optimizer`'s current hyper-parameters."""
        if _kind(optimizer) != self.kind:
            raise Error(f"poptorch.setOptimizer: the optimizer kind cannot change after "
                        f"compilation ({self.kind} compiled, {_kind(optimizer)} given)")
        now = self._constant_values(optimizer)
        if now != self._constants:
            changed = sorted({a for old, new in zip(self._constants[1], now[1])
                              for a in old if old[a] != new.get(a)})
            raise Error("poptorch.setOptimizer: a constant attribute changed since compilation: "
                        f"{', '.join(changed) or 'the parameter groups'} (compiled in: "
                        f"{', '.join(self._constant_attrs)}; give an attribute to a poptorch.optim "
                        "constructor to make it variable)")
        values = {v: np.float32(optimizer.param_groups[gi][attr])
                  for (gi, attr), v in self.hyper.items()}
        if isinstance(self._loss_scaling, popxl.Tensor):
            values[self._loss_scaling] = np.float32(getattr(optimizer, "loss_scaling", 1.0) or 1.0)
        elif (getattr(optimizer, "loss_scaling", 1.0) or 1.0) != self._loss_scaling:
            raise Error("poptorch.setOptimizer: a constant attribute changed since compilation: "
                        "loss_scaling (give it to the poptorch.optim constructor to make it "
                        "variable)")
        return values

    def apply(self, ref, weights, grads):
        """Builds the update in the current graph: `ref(variable)` is the graph's by-reference
        input of a main-graph variable; `weights` and `grads` map names to tensors."""
        if not _is(self._loss_scaling, 1.0):
            inv_scale = ops.div(_t(1.0), self.loss_scaling(ref))
            grads = {n: ops.mul(g, inv_scale) for n, g in grads.items()}
        if math.isfinite(self.max_grad_norm):
            total = None
            for g in grads.values():
                s = ops.sum(ops.mul(g, g))
                total = s if total is None else ops.add(total, s)
            factor = ops.minimum(_t(1.0), ops.div(_t(self.max_grad_norm),
                                                  ops.add(ops.sqrt(total), _t(1e-6))))
            grads = {n: ops.mul(g, factor) for n, g in grads.items()}
        hypers, neg_lr = {}, {}
        for gi in sorted(set(self.group_of.values())):
            hypers[gi] = self._hyper(gi, ref)
            lr = hypers[gi]("lr")
            neg_lr[gi] = ops.negate(lr) if isinstance(lr, popxl.Tensor) else -lr
        rule = getattr(self, "_" + self.kind)
        for name, w in weights.items():
            gi = self.group_of[name]
            rule(w, grads[name], hypers[gi], lambda slot, name=name: ref(self.state[(name, slot)]),
                 neg_lr[gi])

    # The rules: h(attr) is a hyper-parameter (tensor or compiled-in value), s(slot) a state slot.
    @staticmethod
    def _sgd(w, g, h, s, neg_lr):
        if not _is(h("weight_decay"), 0):
            g = ops.add(g, ops.mul(_t(h("weight_decay")), w))
        if _is(h("momentum"), 0):
            ops.var_updates.scaled_add_(w, g, b=neg_lr)
            return
        v, momentum = s("velocity"), h("momentum")
        if _is(h("dampening"), 0):  # from zero, the first step gives torch's v = g
            ops.var_updates.scaled_add_(v, g, a=momentum)
        else:  # torch starts the velocity at the first gradient, undamped
            d = _t(h("dampening"))
            damp = ops.add(ops.sub(_t(1.0), d), ops.mul(d, s("first")))
            ops.var_updates.scaled_add_(v, ops.mul(damp, g), a=momentum)
            ops.var_updates.accumulator_zero_(s("first"))
        step = ops.add(g, ops.mul(_t(momentum), v)) if h("nesterov") else v
        ops.var_updates.scaled_add_(w, step, b=neg_lr)

    @staticmethod
    def _moments(g, h, s, bias_correction=True, decay_weight=None):
        """Adam's update term (PopART's adam_updater, which is torch's formula)."""
        b1, b2 = h("betas")
        ops.var_updates.accumulate_moving_average_(s("exp_avg"), g, b1)
        ops.var_updates.accumulate_moving_average_square_(s("exp_avg_sq"), g, b2)
        return ops.var_updates.adam_updater(
            s("exp_avg"), s("exp_avg_sq"), weight=decay_weight,
            time_step=s("step") if bias_correction else None,
            weight_decay=None if decay_weight is None else h("weight_decay"),
            beta1=b1, beta2=b2, epsilon=h("eps"))

    def _adam(self, w, g, h, s, neg_lr):
        if not _is(h("weight_decay"), 0):  # L2: added to the gradient
            g = ops.add(g, ops.mul(_t(h("weight_decay")), w))
        ops.var_updates.scaled_add_(w, self._moments(g, h, s), b=neg_lr)

    def _adamw(self, w, g, h, s, neg_lr):
        # Decoupled decay: w - lr·(x + wd·w) is torch's w·(1 - lr·wd) - lr·x.
        decay = None if _is(h("weight_decay"), 0) else w
        ops.var_updates.scaled_add_(w, self._moments(g, h, s, decay_weight=decay), b=neg_lr)

    @staticmethod
    def _rmsprop(w, g, h, s, neg_lr):
        if not _is(h("weight_decay"), 0):
            g = ops.add(g, ops.mul(_t(h("weight_decay")), w))
        alpha = h("alpha")
        sq = s("square_avg")
        ops.var_updates.accumulate_moving_average_square_(sq, g, alpha)
        if h("centered"):
            ga = s("grad_avg")
            ops.var_updates.accumulate_moving_average_(ga, g, alpha)
            sq = ops.sub(sq, ops.mul(ga, ga))
        step = ops.div(g, ops.add(ops.sqrt(sq), _t(h("eps"))))
        if not _is(h("momentum"), 0):
            buf = s("momentum_buffer")
            ops.var_updates.scaled_add_(buf, step, a=h("momentum"))
            step = buf
        ops.var_updates.scaled_add_(w, step, b=neg_lr)

    def _lamb(self, w, g, h, s, neg_lr):
        decay = None if _is(h("weight_decay"), 0) else w
        update = self._moments(g, h, s, h("bias_correction"), decay_weight=decay)
        r1 = ops.sum(ops.mul(w, w))
        r2 = ops.sum(ops.mul(update, update))
        ops.var_updates.adam_var_update(w, update, r1, r2, learning_rate=h("lr"),
                                        max_weight_norm=h("max_weight_norm"))
