"""poptorch.optim: torch's optimizers with PopTorch's extra attributes (loss scaling, accumulator
types, gradient clipping). They never step on the host: a training model reads their type and
hyper-parameters and runs the update on the device."""
import math

import torch


class VariableAttributes:
    """Which attributes may change after compilation (setOptimizer) without recompiling."""

    def __init__(self, variable, allowed):
        self._variable = set(variable)
        self._allowed = set(allowed)

    def _check(self, name):
        if name not in self._allowed:
            raise ValueError(f"Unknown attribute '{name}' (known: {sorted(self._allowed)})")

    def markAsVariable(self, name):
        self._check(name)
        self._variable.add(name)

    def markAsConstant(self, name):
        self._check(name)
        self._variable.discard(name)

    def isConstant(self, name):
        self._check(name)
        return name not in self._variable


_ACCUM_TYPES = (None, torch.float32, torch.float16)


def _poptorch_init(opt, torch_kwargs, extras):
    """Stores PopTorch's extra attributes on `opt` and marks as variable the ones the caller gave."""
    for key in ("accum_type", "velocity_accum_type", "first_order_momentum_accum_type",
                "second_order_momentum_accum_type"):
        if extras.get(key) not in _ACCUM_TYPES:
            raise ValueError(f"poptorch.optim.{type(opt).__name__}: {key} must be torch.float32 "
                             f"or torch.float16, got {extras[key]}")
    defaults = {"loss_scaling": 1.0, "max_grad_norm": math.inf, "velocity_scaling": 1.0,
                "use_combined_accum": False}
    for key, value in extras.items():
        setattr(opt, key, defaults.get(key) if value is None else value)
    given = [k for k, v in list(torch_kwargs.items()) + list(extras.items()) if v is not None]
    opt.variable_attrs = VariableAttributes(given, list(opt.defaults) + list(extras))


def _given(**kwargs):
    return {k: v for k, v in kwargs.items() if v is not None}


class SGD(torch.optim.SGD):
    def __init__(self, params, lr, momentum=None, dampening=None, weight_decay=None, nesterov=None,
                 maximize=None, foreach=None, differentiable=None, loss_scaling=None,
                 velocity_scaling=None, use_combined_accum=None, accum_type=None,
                 velocity_accum_type=None, max_grad_norm=None):
        kw = _given(momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                    nesterov=nesterov, maximize=maximize, foreach=foreach)
        super().__init__(params, lr, **kw)
        _poptorch_init(self, dict(kw, lr=lr), dict(
            loss_scaling=loss_scaling, velocity_scaling=velocity_scaling,
            use_combined_accum=use_combined_accum, accum_type=accum_type,
            velocity_accum_type=velocity_accum_type, max_grad_norm=max_grad_norm))


class Adam(torch.optim.Adam):
    def __init__(self, params, lr=None, betas=None, eps=None, weight_decay=None, amsgrad=None,
                 foreach=None, maximize=None, capturable=None, differentiable=None, fused=None,
                 loss_scaling=None, accum_type=None, first_order_momentum_accum_type=None,
                 second_order_momentum_accum_type=None, max_grad_norm=None):
        if amsgrad:
            raise ValueError("poptorch.optim.Adam: amsgrad=True is not supported")
        kw = _given(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, **kw)
        _poptorch_init(self, kw, dict(
            loss_scaling=loss_scaling, accum_type=accum_type,
            first_order_momentum_accum_type=first_order_momentum_accum_type,
            second_order_momentum_accum_type=second_order_momentum_accum_type,
            max_grad_norm=max_grad_norm))


class AdamW(torch.optim.AdamW):
    def __init__(self, params, lr=None, betas=None, eps=None, weight_decay=None, amsgrad=None,
                 foreach=None, maximize=None, capturable=None, differentiable=None, fused=None,
                 loss_scaling=None, bias_correction=None, accum_type=None,
                 first_order_momentum_accum_type=None, second_order_momentum_accum_type=None,
                 max_grad_norm=None):
        if amsgrad:
            raise ValueError("poptorch.optim.AdamW: amsgrad=True is not supported")
        if bias_correction is False:
            raise ValueError("poptorch.optim.AdamW: bias_correction=False is not supported")
        kw = _given(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, maximize=maximize)
        super().__init__(params, **kw)
        _poptorch_init(self, kw, dict(
            loss_scaling=loss_scaling, bias_correction=bias_correction, accum_type=accum_type,
            first_order_momentum_accum_type=first_order_momentum_accum_type,
            second_order_momentum_accum_type=second_order_momentum_accum_type,
            max_grad_norm=max_grad_norm))


class RMSprop(torch.optim.RMSprop):
    def __init__(self, params, lr=None, alpha=None, eps=None, weight_decay=None, momentum=None,
                 centered=None, foreach=None, maximize=None, differentiable=None,
                 loss_scaling=None, accum_type=None, first_order_momentum_accum_type=None,
                 second_order_momentum_accum_type=None, use_tf_variant=None):
        if use_tf_variant:
            raise ValueError("poptorch.optim.RMSprop: use_tf_variant=True is not supported")
        kw = _given(lr=lr, alpha=alpha, eps=eps, weight_decay=weight_decay, momentum=momentum,
                    centered=centered, maximize=maximize)
        super().__init__(params, **kw)
        _poptorch_init(self, kw, dict(
            loss_scaling=loss_scaling, accum_type=accum_type,
            first_order_momentum_accum_type=first_order_momentum_accum_type,
            second_order_momentum_accum_type=second_order_momentum_accum_type))


class LAMB(torch.optim.Optimizer):
    """Layer-wise adaptive moments (You et al.), as PopTorch defines it; `step` is its CPU form."""

    def __init__(self, params, lr=None, betas=None, eps=None, weight_decay=None,
                 bias_correction=None, loss_scaling=None, max_weight_norm=65500.0,
                 accum_type=None, first_order_momentum_accum_type=None,
                 second_order_momentum_accum_type=None):
        defaults = dict(lr=1e-3 if lr is None else lr,
                        betas=(0.9, 0.999) if betas is None else tuple(betas),
                        eps=1e-8 if eps is None else eps,
                        weight_decay=1e-2 if weight_decay is None else weight_decay,
                        bias_correction=True if bias_correction is None else bias_correction,
                        max_weight_norm=max_weight_norm)
        super().__init__(params, defaults)
        _poptorch_init(self, _given(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay),
                       dict(loss_scaling=loss_scaling, accum_type=accum_type,
                            first_order_momentum_accum_type=first_order_momentum_accum_type,
                            second_order_momentum_accum_type=second_order_momentum_accum_type))

    @torch.no_grad()
    def step(self, closure=None):
        loss = closure() if closure is not None else None
        for group in self.param_groups:
            b1, b2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state.update(step=0, exp_avg=torch.zeros_like(p),
                                 exp_avg_sq=torch.zeros_like(p))
                state["step"] += 1
                m, v = state["exp_avg"], state["exp_avg_sq"]
                m.mul_(b1).add_(p.grad, alpha=1 - b1)
                v.mul_(b2).addcmul_(p.grad, p.grad, value=1 - b2)
                if group["bias_correction"]:
                    m_hat, v_hat = m / (1 - b1**state["step"]), v / (1 - b2**state["step"])
                else:
                    m_hat, v_hat = m, v
                update = m_hat / (v_hat.sqrt() + group["eps"]) + group["weight_decay"] * p
                r1 = p.norm()
                if group["max_weight_norm"] is not None:
                    r1 = r1.clamp(max=group["max_weight_norm"])
                r2 = update.norm()
                trust = r1 / r2 if r1 > 0 and r2 > 0 else 1.0
                p.sub_(group["lr"] * trust * update)
        return loss
