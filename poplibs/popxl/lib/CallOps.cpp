// Calls of subgraphs: the called graph is lowered once into a Poplar function; each call copies
// its inputs in, calls the function and copies the outputs out (PopXL's call semantics: inputs
// by value); a graph called once is lowered inline instead (CallInline.cpp). repeat calls it
// repeat_count times, copying output i onto input i after each iteration (loop-carried values); the
// other inputs keep their values. conditional calls one of two graphs, chosen on the device by a
// one-element condition (a Poplar If), each copying its outputs into the op's.
#include "OpTable.hpp"

#include <algorithm>
#include <set>

namespace popxl::internal {

namespace {
void checkCallable(const Ir &ir, const OpInfo &op, GraphId g) {
  ir.graph(g); // throws for a graph the Ir does not have
  if (g == ir.mainGraph())
    opError(op, "cannot call the main graph");
}

GraphId calledGraph(const Ir &ir, const OpInfo &op) {
  if (op.calledGraphs.size() != 1)
    opError(op, "needs exactly one called graph");
  checkCallable(ir, op, op.calledGraphs[0]);
  return op.calledGraphs[0];
}

/// Checks the op's inputs [first, first + count) against the inputs of `g`, in number and spec.
void checkArguments(const Ir &ir, const OpInfo &op, GraphId g, std::size_t first,
                    std::size_t count) {
  const GraphInfo &called = ir.graph(g);
  if (count != called.inputs.size())
    opError(op, "graph '" + called.name + "' has " + std::to_string(called.inputs.size()) +
                    " inputs, the " + op.type + " gives " + std::to_string(count));
  for (std::size_t i = 0; i < count; ++i) {
    const TensorSpec &want = ir.tensor(called.inputs[i]).spec, &got = inputSpec(ir, op, first + i);
    if (!(want == got))
      opError(op, "input " + std::to_string(i) + " of graph '" + called.name + "' ('" +
                      ir.tensor(called.inputs[i]).name + "') is " + toString(want) + ", the " +
                      op.type + " gives " + toString(got));
  }
}

std::vector<TensorSpec> outputSpecs(const Ir &ir, GraphId g) {
  std::vector<TensorSpec> outs;
  for (TensorId t : ir.graph(g).outputs)
    outs.push_back(ir.tensor(t).spec);
  return outs;
}
} // namespace

std::vector<TensorSpec> inferCall(const Ir &ir, const OpInfo &op) {
  const GraphId g = calledGraph(ir, op);
  checkArguments(ir, op, g, 0, op.inputs.size());
  return outputSpecs(ir, g);
}

namespace {
/// The streams the ops of `g` and of the graphs it calls transfer on; `seen` keeps a graph that
/// calls itself (an error when lowered) from recursing for ever.
void collectStreams(const Ir &ir, GraphId g, std::set<GraphId> &seen, std::set<StreamId> &out) {
  if (!seen.insert(g).second)
    return;
  for (OpId o : ir.graph(g).ops) {
    const OpInfo &op = ir.op(o);
    const Effects e = op.calledGraphs.empty() ? opRow(op.type).effects(ir, op) : Effects{};
    out.insert(e.streams.begin(), e.streams.end());
    for (GraphId called : op.calledGraphs)
      collectStreams(ir, called, seen, out);
  }
}

/// Where each called graph's inputs start among the op's inputs: a call's and a repeat's at 0; a
/// conditional's then_branch's after the condition, its else_branch's after those.
std::vector<std::size_t> firstArguments(const OpInfo &op) {
  if (op.type != "conditional")
    return {0};
  return {1, 1 + std::size_t(intAttr(op, "then_inputs"))};
}
} // namespace

/// An op calling graphs writes the inputs it passes them by reference and transfers on their
/// streams.
Effects effectsCall(const Ir &ir, const OpInfo &op) {
  Effects e;
  const std::vector<std::size_t> first = firstArguments(op);
  std::set<GraphId> seen;
  std::set<StreamId> streams;
  for (std::size_t b = 0; b < first.size(); ++b) {
    const auto &byRef = ir.graph(op.calledGraphs.at(b)).inputByRef;
    for (std::size_t i = 0; i < byRef.size(); ++i)
      if (byRef[i])
        e.modifiedInputs.push_back(first[b] + i);
    collectStreams(ir, op.calledGraphs[b], seen, streams);
  }
  e.streams.assign(streams.begin(), streams.end());
  return e;
}

namespace {
/// Inputs passed by reference (TensorByRef) get the called graph's final value back.
void copyBackByRef(const LowerContext &c, const OpInfo &op, GraphId g, std::size_t first,
                   const LoweredGraph &called, poplar::program::Sequence &seq) {
  const auto &byRef = c.ir.graph(g).inputByRef;
  for (std::size_t i = 0; i < byRef.size(); ++i)
    if (byRef[i])
      seq.add(poplar::program::Copy(called.inputs[i], c.in(op, first + i), false, op.name));
}

/// An inlined graph's inputs have no tensors from the layout pass; when its call still runs it as
/// a function (lowerCallInline declined), they are laid out as this call's arguments.
void createInlinedGraphInputs(const LowerContext &c, const OpInfo &op) {
  const GraphInfo &called = c.ir.graph(op.calledGraphs[0]);
  for (std::size_t i = 0; i < called.inputs.size(); ++i) {
    poplar::Tensor &input = c.tensors.at(called.inputs[i]);
    if (!input.valid())
      input = c.graph.clone(c.in(op, i), c.ir.tensor(called.inputs[i]).name);
  }
}

/// The op's outputs: new tensors laid out as the called graph's outputs.
std::vector<poplar::Tensor> cloneOutputs(const LowerContext &c, const OpInfo &op,
                                         const LoweredGraph &called) {
  std::vector<poplar::Tensor> outs;
  for (const poplar::Tensor &out : called.outputs)
    outs.push_back(c.graph.clone(out, op.name + "/out"));
  return outs;
}

/// One call of `g` (lowered as a function) into `seq`: the op's inputs from `first` copied in,
/// the call, its outputs copied into `outs` and its by-reference inputs back to the caller's.
void addFunctionCall(const LowerContext &c, const OpInfo &op, GraphId g, std::size_t first,
                     const std::vector<poplar::Tensor> &outs, poplar::program::Sequence &seq) {
  const LoweredGraph &called = c.lowerGraph(g);
  for (std::size_t i = 0; i < called.inputs.size(); ++i)
    seq.add(poplar::program::Copy(c.in(op, first + i), called.inputs[i], false, op.name));
  seq.add(poplar::program::Call(called.function, op.name));
  for (std::size_t i = 0; i < called.outputs.size(); ++i)
    seq.add(poplar::program::Copy(called.outputs[i], outs[i], false, op.name));
  copyBackByRef(c, op, g, first, called, seq);
}
} // namespace

void lowerCall(const LowerContext &c, const OpInfo &op) {
  if (lowerCallInline(c, op))
    return;
  createInlinedGraphInputs(c, op);
  const GraphId g = op.calledGraphs[0];
  const std::vector<poplar::Tensor> outs = cloneOutputs(c, op, c.lowerGraph(g));
  addFunctionCall(c, op, g, 0, outs, c.prog);
  for (std::size_t i = 0; i < outs.size(); ++i)
    c.setOut(op, i, outs[i]);
}

/// A tensor passed to a call takes the layout of the called graph's input (made once for all
/// calls, from the consumers in that graph), so that the call's copy in stays on its tiles; an
/// inlined graph's input has no tensor of its own, so its consumers' layout is the caller's
/// tensor itself. (The layout pass does not ask this of a tensor its graph updates in place:
/// Layout.cpp.)
poplar::Tensor layoutCall(const LayoutContext &c, const OpInfo &op, std::size_t i) {
  const GraphId g = op.calledGraphs.at(0);
  const poplar::Tensor input = c.preferred(c.ir.graph(g).inputs.at(i));
  if (!input.valid() || isInlined(c.ir, g))
    return input;
  return c.graph.clone(input, c.ir.tensor(op.inputs[i]).name);
}

namespace {
std::size_t indexIn(const std::vector<TensorId> &ts, TensorId t) {
  return std::size_t(std::find(ts.begin(), ts.end(), t) - ts.begin());
}
} // namespace

/// A call's gradient: a call of the called graph's gradient graph, given the gradients of the
/// call's outputs (zeros for those without one) and the forward values it needs, read at this
/// call site (the call's inputs, or its outputs, which stitching may have just added).
void gradCall(GradContext &c, const OpInfo &op) {
  bool anyGrad = false;
  for (std::size_t i = 0; i < op.outputs.size(); ++i)
    anyGrad = anyGrad || c.outputGrad(op, i).has_value();
  if (!anyGrad)
    return;
  const GraphId g = op.calledGraphs.at(0);
  const GradGraphInfo grad = c.calledGradGraph(g);
  const OpInfo call = c.ir().op(op.id); // with the outputs stitching added
  const GraphInfo called = c.ir().graph(g);
  std::vector<TensorId> inputs;
  for (const ExpectedConnection &conn : grad.expectedInputs) {
    const std::size_t out = indexIn(called.outputs, conn.fwd);
    if (conn.isGrad) {
      const auto given = out < op.outputs.size() ? c.outputGrad(op, out) : std::nullopt;
      inputs.push_back(given ? *given : c.zeros(c.spec(conn.fwd)));
    } else if (out < called.outputs.size()) {
      inputs.push_back(c.fwd(call.outputs.at(out)));
    } else {
      const std::size_t in = indexIn(called.inputs, conn.fwd);
      if (in == called.inputs.size())
        opError(op, "autodiff: the gradient graph of '" + called.name + "' needs '" +
                        c.ir().tensor(conn.fwd).name +
                        "', which is neither an input nor an output of it");
      inputs.push_back(c.fwd(call.inputs[in]));
    }
  }
  const std::vector<TensorId> grads = c.opOutputs("call", inputs, {}, {grad.graph});
  for (std::size_t k = 0; k < grad.expectedOutputs.size(); ++k) {
    const std::size_t in = indexIn(called.inputs, grad.expectedOutputs[k].fwd);
    if (in == called.inputs.size())
      opError(op, "autodiff: output " + std::to_string(k) + " of the gradient graph of '" +
                      called.name + "' is the gradient of '" +
                      c.ir().tensor(grad.expectedOutputs[k].fwd).name +
                      "', which is not an input of it");
    c.addInputGrad(op, in, grads[k]);
  }
}

std::vector<TensorSpec> inferRepeat(const Ir &ir, const OpInfo &op) {
  const std::vector<TensorSpec> outs = inferCall(ir, op);
  if (intAttr(op, "repeat_count") < 1)
    opError(op,
            "repeat_count must be at least 1, got " + std::to_string(intAttr(op, "repeat_count")));
  if (outs.size() > op.inputs.size())
    opError(op, "graph '" + ir.graph(op.calledGraphs[0]).name + "' has " +
                    std::to_string(outs.size()) + " outputs but " +
                    std::to_string(op.inputs.size()) +
                    " inputs; each output is carried to the input of the same index");
  for (std::size_t i = 0; i < outs.size(); ++i)
    if (!(outs[i] == inputSpec(ir, op, i)))
      opError(op, "output " + std::to_string(i) + " " + toString(outs[i]) +
                      " cannot be carried to input " + std::to_string(i) + " " +
                      toString(inputSpec(ir, op, i)));
  return outs;
}

void lowerRepeat(const LowerContext &c, const OpInfo &op) {
  const LoweredGraph &called = c.lowerGraph(op.calledGraphs[0]);
  for (std::size_t i = 0; i < op.inputs.size(); ++i)
    c.prog.add(poplar::program::Copy(c.in(op, i), called.inputs[i], false, op.name));
  poplar::program::Sequence body;
  body.add(poplar::program::Call(called.function, op.name));
  for (std::size_t i = 0; i < called.outputs.size(); ++i)
    body.add(poplar::program::Copy(called.outputs[i], called.inputs[i], false, op.name));
  c.prog.add(poplar::program::Repeat(unsigned(intAttr(op, "repeat_count")), body, op.name));
  copyBackByRef(c, op, op.calledGraphs[0], 0, called, c.prog);
  // After the loop the carried values are in the inputs (the last outputs copied there).
  for (std::size_t i = 0; i < called.outputs.size(); ++i) {
    poplar::Tensor out = c.graph.clone(called.inputs[i], op.name + "/out");
    c.prog.add(poplar::program::Copy(called.inputs[i], out, false, op.name));
    c.setOut(op, i, out);
  }
}

std::vector<TensorSpec> inferConditional(const Ir &ir, const OpInfo &op) {
  if (op.calledGraphs.size() != 2)
    opError(op, "needs two called graphs (then_branch, else_branch), got " +
                    std::to_string(op.calledGraphs.size()));
  for (GraphId g : op.calledGraphs)
    checkCallable(ir, op, g);
  const TensorSpec &cond = inputSpec(ir, op, 0);
  const bool integral =
      cond.dtype == DType::Bool || cond.dtype == DType::Int32 || cond.dtype == DType::Uint32;
  if (cond.numElements() != 1 || !integral)
    opError(op, "the condition must be one bool or integer element, got " + toString(cond));
  const std::int64_t thenInputs = intAttr(op, "then_inputs");
  if (thenInputs < 0 || std::size_t(thenInputs) > op.inputs.size() - 1)
    opError(op, "then_inputs " + std::to_string(thenInputs) + " is out of range for " +
                    std::to_string(op.inputs.size() - 1) + " branch inputs");
  const GraphInfo &thenGraph = ir.graph(op.calledGraphs[0]),
                  &elseGraph = ir.graph(op.calledGraphs[1]);
  checkArguments(ir, op, op.calledGraphs[0], 1, std::size_t(thenInputs));
  checkArguments(ir, op, op.calledGraphs[1], 1 + std::size_t(thenInputs),
                 op.inputs.size() - 1 - std::size_t(thenInputs));
  const std::vector<TensorSpec> thenOuts = outputSpecs(ir, op.calledGraphs[0]),
                                elseOuts = outputSpecs(ir, op.calledGraphs[1]);
  if (thenOuts.size() != elseOuts.size())
    opError(op, "then_branch '" + thenGraph.name + "' returns " + std::to_string(thenOuts.size()) +
                    " outputs, else_branch '" + elseGraph.name + "' " +
                    std::to_string(elseOuts.size()));
  for (std::size_t i = 0; i < thenOuts.size(); ++i)
    if (!(thenOuts[i] == elseOuts[i]))
      opError(op, "output " + std::to_string(i) + " of then_branch '" + thenGraph.name + "' is " +
                      toString(thenOuts[i]) + ", of else_branch '" + elseGraph.name + "' " +
                      toString(elseOuts[i]));
  return thenOuts;
}

/// Both branches lowered as functions, each run in its arm of a Poplar If and copying its
/// outputs into the same tensors (laid out as then_branch's).
void lowerConditional(const LowerContext &c, const OpInfo &op) {
  const std::vector<std::size_t> first = firstArguments(op);
  const std::vector<poplar::Tensor> outs = cloneOutputs(c, op, c.lowerGraph(op.calledGraphs[0]));
  poplar::program::Sequence arms[2];
  for (std::size_t b = 0; b < 2; ++b)
    addFunctionCall(c, op, op.calledGraphs[b], first[b], outs, arms[b]);
  c.prog.add(poplar::program::If(c.in(op, 0), arms[0], arms[1], op.name));
  for (std::size_t i = 0; i < outs.size(); ++i)
    c.setOut(op, i, outs[i]);
}

} // namespace popxl::internal
