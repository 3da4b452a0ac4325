"""The device program of a wrapped model: the forward (and for training its autodiff gradient and
the optimizer's update) inside a loop of deviceIterations × gradientAccumulation micro-batches fed
by host streams, compiled by a popxl Session. Every variable (weights, buffers, optimizer values)
is passed to the loop by reference, so what one iteration writes the next one reads."""
import numpy as np

import popxl
from popxl import ops
from popxl.transforms import autodiff

from ._errors import Error
from .enums import ReductionType
from ._lowering import Forward, device_array
from ._optimizers import DeviceOptimizer


class Program:
    def __init__(self, captured, options, training, optimizer=None):
        self.training = training
        self.device_iterations = options.device_iterations
        self.accumulation = options.Training.gradient_accumulation if training else 1
        self.mean_accumulation = (options.Training.accumulation_and_replication_reduction_type
                                  == ReductionType.Mean)
        self.ir = popxl.Ir()
        self.ir.num_host_transfers = self.device_iterations * self.accumulation
        params = dict(captured.module.named_parameters())
        self.named_state = {**params, **dict(captured.module.named_buffers())}
        with self.ir.main_graph:
            self.forward = Forward(self.ir, captured, training)
            self.variables = {}
            for name, t in self.forward.state_inputs.items():
                host = self.named_state[name].detach()
                self.variables[name] = popxl.variable(device_array(host), t.dtype, name)
            # The parameters the forward reads and torch would train.
            self.trained = {n: p for n, p in params.items()
                            if training and p.requires_grad and n in self.forward.state_inputs}
            self.optimizer = DeviceOptimizer(optimizer, self.trained) if training else None
            self.accumulators = {}
            if self.accumulation > 1:
                for n in self.trained:
                    self.accumulators[n] = popxl.variable(
                        np.zeros(self.variables[n].shape, np.float32), popxl.float32,
                        f"accumulator/{n}")
            self._make_streams()
            all_vars = self._all_variables()
            body = self._iteration_graph(all_vars)
            ops.repeat(body, self.device_iterations, *all_vars)

    def _all_variables(self):
        return list(self.variables.values()) + \
            (self.optimizer.variables() if self.optimizer else []) + \
            list(self.accumulators.values())

    def _make_streams(self):
        fwd = self.forward
        self.in_streams = [popxl.h2d_stream(t.shape, t.dtype, f"input{i}")
                           for i, t in enumerate(fwd.data_inputs)]
        self.seed_stream = (popxl.h2d_stream((2,), popxl.uint32, "random_seed")
                            if fwd.seed_input is not None else None)
        self.out_streams = [popxl.d2h_stream(t.shape, t.dtype, f"output{i}")
                            for i, t in enumerate(fwd.outputs)]

    def _by_ref_graph(self, name, variables):
        graph = self.ir.create_empty_graph(name)
        with graph:
            refs = {v.id: popxl.graph_input(v.shape, v.dtype, v.name, by_ref=True)
                    for v in variables}
        return graph, (lambda v: refs[v.id])

    def _iteration_graph(self, all_vars):
        """One device iteration: A micro-batches, then (training) one update."""
        if self.accumulation == 1:
            return self._micro_batch_graph(all_vars, update=True)
        micro = self._micro_batch_graph(all_vars, update=False)
        graph, ref = self._by_ref_graph("iteration", all_vars)
        with graph:
            ops.repeat(micro, self.accumulation, *[ref(v) for v in all_vars])
            scale = 1.0 / self.accumulation if self.mean_accumulation else 1.0
            grads = {n: ops.mul(ref(a), popxl.constant(np.float32(scale)))
                     for n, a in self.accumulators.items()}
            self.optimizer.apply(ref, {n: ref(self.variables[n]) for n in self.trained}, grads)
            for a in self.accumulators.values():
                ops.var_updates.copy_var_update_(ref(a), ops.mul(ref(a),
                                                                 popxl.constant(np.float32(0))))
        return graph

    def _micro_batch_graph(self, all_vars, update):
        fwd = self.forward
        graph, ref = self._by_ref_graph("micro_batch", all_vars)
        with graph:
            args = {t: ops.host_load(s) for t, s in zip(fwd.data_inputs, self.in_streams)}
            for name, t in fwd.state_inputs.items():
                args[t] = ref(self.variables[name])
            if fwd.seed_input is not None:
                args[fwd.seed_input] = ops.host_load(self.seed_stream)
            grad_info = None
            if self.training:
                required = [fwd.state_inputs[n] for n in self.trained]
                grad_info = autodiff(fwd.graph, grads_provided=[fwd.loss],
                                     grads_required=required)
            info = ops.call_with_info(fwd.graph, inputs_dict=args)
            for i, s in enumerate(self.out_streams):
                ops.host_store(s, info.parent_output(i))
            base = len(fwd.outputs) + (1 if fwd.loss is not None else 0)
            for k, name in enumerate(fwd.state_updates):
                new = info.parent_output(base + k)
                ops.var_updates.copy_var_update_(ref(self.variables[name]),
                                                 ops.cast(new, self.variables[name].dtype)
                                                 if new.dtype != self.variables[name].dtype
                                                 else new)
            if grad_info is not None:
                dloss = self.optimizer.loss_scaling(ref)
                bwd = ops.call_with_info(grad_info.graph, dloss,
                                         inputs_dict=grad_info.inputs_dict(info))
                by_input = grad_info.fwd_parent_ins_to_grad_parent_outs(info, bwd)
                grads = {n: by_input[ref(self.variables[n])] for n in self.trained
                         if ref(self.variables[n]) in by_input}
                missing = set(self.trained) - set(grads)
                if missing:
                    raise Error(f"poptorch: no gradient reaches {sorted(missing)} from the loss")
                if update:
                    self.optimizer.apply(ref, {n: ref(self.variables[n]) for n in self.trained},
                                         grads)
                else:
                    for n, g in grads.items():
                        ops.var_updates.accumulate_(ref(self.accumulators[n]), g)
        return graph

    # Host side.
    def feeds(self, tensors, seeds):
        """Stream arrays for one run from the call's flat tensors ([N, ...] each)."""
        n = self.ir.num_host_transfers
        feeds = {}
        for s, t in zip(self.in_streams, tensors):
            arr = device_array(t)
            feeds[s] = arr.reshape((n,) + tuple(s.shape)) if n > 1 else arr.reshape(s.shape)
        if self.seed_stream is not None:
            feeds[self.seed_stream] = seeds if n > 1 else seeds[0]
        return feeds

    def state_arrays(self):
        """Host values of the model's variables, as device arrays."""
        return {v: device_array(self.named_state[n].detach()) for n, v in self.variables.items()}
