// Calls of subgraphs: the called graph is lowered once into a Poplar function; each call copies
// its inputs in, calls the function and copies the outputs out (PopXL's call semantics: inputs
// by value); a graph called once is lowered inline instead (CallInline.cpp). repeat calls it
// repeat_count times, copying output i onto input i after each iteration (loop-carried values); the
// other inputs keep their values.
#include "OpTable.hpp"

#include <algorithm>
#include <set>

namespace popxl::internal {

namespace {
GraphId calledGraph(const Ir &ir, const OpInfo &op) {
  if (op.calledGraphs.size() != 1)
    opError(op, "needs exactly one called graph");
  const GraphId g = op.calledGraphs[0];
  ir.graph(g);
  if (g == ir.mainGraph())
    opError(op, "cannot call the main graph");
  return g;
}
} // namespace

std::vector<TensorSpec> inferCall(const Ir &ir, const OpInfo &op) {
  const GraphId g = calledGraph(ir, op);
  const GraphInfo &called = ir.graph(g);
  if (op.inputs.size() != called.inputs.size())
    opError(op, "graph '" + called.name + "' has " + std::to_string(called.inputs.size()) +
                    " inputs, the call gives " + std::to_string(op.inputs.size()));
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const TensorSpec &want = ir.tensor(called.inputs[i]).spec, &got = inputSpec(ir, op, i);
    if (!(want == got))
      opError(op, "input " + std::to_string(i) + " of graph '" + called.name + "' ('" +
                      ir.tensor(called.inputs[i]).name + "') is " + toString(want) +
                      ", the call gives " + toString(got));
  }
  std::vector<TensorSpec> outs;
  for (TensorId t : called.outputs)
    outs.push_back(ir.tensor(t).spec);
  return outs;
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
} // namespace

/// A call writes the inputs it passes by reference and transfers on the streams of the graph
/// it calls.
Effects effectsCall(const Ir &ir, const OpInfo &op) {
  Effects e;
  const auto &byRef = ir.graph(op.calledGraphs.at(0)).inputByRef;
  for (std::size_t i = 0; i < byRef.size(); ++i)
    if (byRef[i])
      e.modifiedInputs.push_back(i);
  std::set<GraphId> seen;
  std::set<StreamId> streams;
  collectStreams(ir, op.calledGraphs.at(0), seen, streams);
  e.streams.assign(streams.begin(), streams.end());
  return e;
}

namespace {
/// Inputs passed by reference (TensorByRef) get the called graph's final value back.
void copyBackByRef(const LowerContext &c, const OpInfo &op, const LoweredGraph &called) {
  const auto &byRef = c.ir.graph(op.calledGraphs[0]).inputByRef;
  for (std::size_t i = 0; i < op.inputs.size(); ++i)
    if (byRef[i])
      c.prog.add(poplar::program::Copy(called.inputs[i], c.in(op, i), false, op.name));
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
} // namespace

void lowerCall(const LowerContext &c, const OpInfo &op) {
  if (lowerCallInline(c, op))
    return;
  createInlinedGraphInputs(c, op);
  const LoweredGraph &called = c.lowerGraph(op.calledGraphs[0]);
  for (std::size_t i = 0; i < op.inputs.size(); ++i)
    c.prog.add(poplar::program::Copy(c.in(op, i), called.inputs[i], false, op.name));
  c.prog.add(poplar::program::Call(called.function, op.name));
  for (std::size_t i = 0; i < called.outputs.size(); ++i) {
    poplar::Tensor out = c.graph.clone(called.outputs[i], op.name + "/out");
    c.prog.add(poplar::program::Copy(called.outputs[i], out, false, op.name));
    c.setOut(op, i, out);
  }
  copyBackByRef(c, op, called);
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
  copyBackByRef(c, op, called);
  // After the loop the carried values are in the inputs (the last outputs copied there).
  for (std::size_t i = 0; i < called.outputs.size(); ++i) {
    poplar::Tensor out = c.graph.clone(called.inputs[i], op.name + "/out");
    c.prog.add(poplar::program::Copy(called.inputs[i], out, false, op.name));
    c.setOut(op, i, out);
  }
}

} // namespace popxl::internal
