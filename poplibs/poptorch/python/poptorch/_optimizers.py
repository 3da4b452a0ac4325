"""The optimizers' update rules on the device, as popxl ops: one rule per optimizer kind, computing
what torch's own step computes. Hyper-parameters are device variables the host writes (so
setOptimizer changes them without recompiling); per-weight state (momentum, moments, step counts)
are device variables that live across runs."""
import math

import numpy as np
import torch

import popxl
from popxl import ops

from ._errors import Error
from . import optim

_F32 = popxl.float32


def _kind(optimizer):
    # AdamW derives from Adam in neither library; check the most derived first.
    for cls, kind in ((torch.optim.AdamW, "adamw"), (torch.optim.Adam, "adam"),
                      (torch.optim.SGD, "sgd"), (torch.optim.RMSprop, "rmsprop"),
                      (optim.LAMB, "lamb")):
        if isinstance(optimizer, cls):
            return kind
    raise Error(f"Unsupported optimizer type {type(optimizer).__name__}: use poptorch.optim's or "
                "torch.optim's SGD, Adam, AdamW, RMSprop, or poptorch.optim.LAMB")


# Per kind: the group attributes that are device variables, those compiled in (changing them is an
# error), and the per-weight state slots (zeros like the weight unless scalar).
_RULES = {
    "sgd": (("lr", "momentum", "dampening", "weight_decay"), ("nesterov",), ("velocity",),
            ("first",)),
    "adam": (("lr", "weight_decay", "eps"), ("betas",), ("exp_avg", "exp_avg_sq"), ("step",)),
    "adamw": (("lr", "weight_decay", "eps"), ("betas",), ("exp_avg", "exp_avg_sq"), ("step",)),
    "rmsprop": (("lr", "alpha", "eps", "weight_decay", "momentum"), ("centered",),
                ("square_avg", "momentum_buffer", "grad_avg"), ()),
    "lamb": (("lr", "weight_decay", "eps"), ("betas", "bias_correction", "max_weight_norm"),
             ("exp_avg", "exp_avg_sq"), ("step",)),
}


class DeviceOptimizer:
    """An optimizer's update on the device for the trained weights `params` (name -> Parameter);
    its variables are made in the current (main) graph."""

    def __init__(self, optimizer, params):
        self.kind = _kind(optimizer)
        if any(g.get("amsgrad") for g in optimizer.param_groups):
            raise ValueError("poptorch: amsgrad=True is not supported")
        if any(g.get("maximize") for g in optimizer.param_groups):
            raise ValueError("poptorch: maximize=True is not supported")
        variable_attrs, self._constant_attrs, slots, scalar_slots = _RULES[self.kind]
        ids = {id(p): i for i, g in enumerate(optimizer.param_groups) for p in g["params"]}
        self.group_of = {name: ids.get(id(p), 0) for name, p in params.items()}
        self.hyper = {}
        for gi in sorted(set(self.group_of.values())):
            for attr in variable_attrs:
                self.hyper[(gi, attr)] = popxl.variable(np.float32(0), _F32,
                                                        f"optimizer/group{gi}/{attr}")
        self.loss_scaling = popxl.variable(np.float32(1), _F32, "optimizer/loss_scaling")
        self.state = {}
        for name, p in params.items():
            for slot in slots:
                self.state[(name, slot)] = popxl.variable(np.zeros(p.shape, np.float32), _F32,
                                                          f"optimizer/{name}/{slot}")
            for slot in scalar_slots:
                start = 1.0 if slot == "first" else 0.0
                self.state[(name, slot)] = popxl.variable(np.float32(start), _F32,
                                                          f"optimizer/{name}/{slot}")
        self._constants = self._constant_values(optimizer)
        self.max_grad_norm = float(getattr(optimizer, "max_grad_norm", math.inf) or math.inf)

    def variables(self):
        return list(self.hyper.values()) + [self.loss_scaling] + list(self.state.values())

    def _constant_values(self, optimizer):
        groups = [{a: g.get(a) for a in self._constant_attrs} for g in optimizer.param_groups]
        return self.kind, groups

    def host_values(self, optimizer):
        """The device variables' values for `optimizer`'s current hyper-parameters."""
        if _kind(optimizer) != self.kind:
            raise Error(f"poptorch.setOptimizer: the optimizer kind cannot change after "
                        f"compilation ({self.kind} compiled, {_kind(optimizer)} given)")
        if self._constant_values(optimizer) != self._constants:
            raise Error("poptorch.setOptimizer: a constant attribute changed since compilation "
                        f"({', '.join(self._constant_attrs)} are compiled in): was "
                        f"{self._constants[1]}, now {self._constant_values(optimizer)[1]}")
        values = {v: np.float32(optimizer.param_groups[gi][attr])
                  for (gi, attr), v in self.hyper.items()}
        values[self.loss_scaling] = np.float32(getattr(optimizer, "loss_scaling", 1.0) or 1.0)
        return values

    def apply(self, ref, weights, grads):
        """Builds the update in the current graph: `ref(variable)` is the graph's by-reference
        input of a main-graph variable; `weights` and `grads` map names to tensors."""
        inv_scale = ops.div(popxl.constant(np.float32(1)), ref(self.loss_scaling))
        grads = {n: ops.mul(g, inv_scale) for n, g in grads.items()}
        if math.isfinite(self.max_grad_norm):
            total = None
            for g in grads.values():
                s = ops.sum(ops.mul(g, g))
                total = s if total is None else ops.add(total, s)
            norm = ops.sqrt(total)
            factor = ops.minimum(popxl.constant(np.float32(1)),
                                 ops.div(popxl.constant(np.float32(self.max_grad_norm)),
                                         ops.add(norm, popxl.constant(np.float32(1e-6)))))
            grads = {n: ops.mul(g, factor) for n, g in grads.items()}
        rule = getattr(self, "_" + self.kind)
        for name, w in weights.items():
            gi = self.group_of[name]
            rule(w, grads[name], lambda a, gi=gi: ref(self.hyper[(gi, a)]),
                 lambda s, name=name: ref(self.state[(name, s)]), self._constants[1][gi])

    # The rules: h(attr) is a hyper-parameter, s(slot) a state slot, k the compiled-in attributes.
    @staticmethod
    def _sgd(w, g, h, s, k):
        g = ops.add(g, ops.mul(h("weight_decay"), w))
        v = s("velocity")
        # torch starts the velocity at the first gradient, undamped.
        damp = ops.add(ops.sub(_one(), h("dampening")), ops.mul(h("dampening"), s("first")))
        _assign(v, ops.add(ops.mul(h("momentum"), v), ops.mul(damp, g)))
        _assign(s("first"), ops.mul(s("first"), popxl.constant(np.float32(0))))
        step = ops.add(g, ops.mul(h("momentum"), v)) if k["nesterov"] else v
        _assign(w, ops.sub(w, ops.mul(h("lr"), step)))

    @staticmethod
    def _adam_moments(w, g, s, k):
        b1, b2 = k["betas"]
        ops.var_updates.accumulate_moving_average_(s("exp_avg"), g, b1)
        ops.var_updates.accumulate_moving_average_square_(s("exp_avg_sq"), g, b2)
        step = s("step")
        _assign(step, ops.add(step, _one()))
        bc1 = ops.sub(_one(), ops.pow(popxl.constant(np.float32(b1)), step))
        bc2 = ops.sub(_one(), ops.pow(popxl.constant(np.float32(b2)), step))
        return bc1, bc2

    def _adam(self, w, g, h, s, k, decoupled=False):
        if decoupled:
            _assign(w, ops.mul(w, ops.sub(_one(), ops.mul(h("lr"), h("weight_decay")))))
        else:
            g = ops.add(g, ops.mul(h("weight_decay"), w))
        bc1, bc2 = self._adam_moments(w, g, s, k)
        denom = ops.add(ops.div(ops.sqrt(s("exp_avg_sq")), ops.sqrt(bc2)), h("eps"))
        _assign(w, ops.sub(w, ops.mul(ops.div(h("lr"), bc1), ops.div(s("exp_avg"), denom))))

    def _adamw(self, w, g, h, s, k):
        self._adam(w, g, h, s, k, decoupled=True)

    @staticmethod
    def _rmsprop(w, g, h, s, k):
        g = ops.add(g, ops.mul(h("weight_decay"), w))
        sq = s("square_avg")
        alpha = h("alpha")
        _assign(sq, ops.add(ops.mul(alpha, sq), ops.mul(ops.sub(_one(), alpha), ops.mul(g, g))))
        if k["centered"]:
            ga = s("grad_avg")
            _assign(ga, ops.add(ops.mul(alpha, ga), ops.mul(ops.sub(_one(), alpha), g)))
            avg = ops.add(ops.sqrt(ops.sub(sq, ops.mul(ga, ga))), h("eps"))
        else:
            avg = ops.add(ops.sqrt(sq), h("eps"))
        buf = s("momentum_buffer")
        _assign(buf, ops.add(ops.mul(h("momentum"), buf), ops.div(g, avg)))
        # With momentum 0 the buffer is g / avg: one rule serves both of torch's branches.
        _assign(w, ops.sub(w, ops.mul(h("lr"), buf)))

    def _lamb(self, w, g, h, s, k):
        bc1, bc2 = self._adam_moments(w, g, s, k)
        m, v = s("exp_avg"), s("exp_avg_sq")
        if k["bias_correction"]:
            m, v = ops.div(m, bc1), ops.div(v, bc2)
        update = ops.add(ops.div(m, ops.add(ops.sqrt(v), h("eps"))), ops.mul(h("weight_decay"), w))
        r1 = ops.sqrt(ops.sum(ops.mul(w, w)))
        if k["max_weight_norm"] is not None:
            r1 = ops.minimum(r1, popxl.constant(np.float32(k["max_weight_norm"])))
        r2 = ops.sqrt(ops.sum(ops.mul(update, update)))
        zero = popxl.constant(np.float32(0))
        usable = ops.logical_and(ops.greater(r1, zero), ops.greater(r2, zero))
        trust = ops.where(usable, ops.div(r1, ops.add(r2, popxl.constant(np.float32(1e-30)))),
                          _one())
        _assign(w, ops.sub(w, ops.mul(ops.mul(h("lr"), trust), update)))


def _one():
    return popxl.constant(np.float32(1))


def _assign(t, value):
    ops.var_updates.copy_var_update_(t, value)
