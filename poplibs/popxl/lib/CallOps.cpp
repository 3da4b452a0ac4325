// Calls of subgraphs: the called graph is lowered once into a Poplar function; each call copies
// its inputs in, calls the function and copies the outputs out (PopXL's call semantics: inputs
// by value). repeat calls it repeat_count times, copying output i onto input i after each
// iteration (loop-carried values); the other inputs keep their values.
#include "OpTable.hpp"

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
/// Inputs passed by reference (TensorByRef) get the called graph's final value back.
void copyBackByRef(const LowerContext &c, const OpInfo &op, const LoweredGraph &called) {
  const auto &byRef = c.ir.graph(op.calledGraphs[0]).inputByRef;
  for (std::size_t i = 0; i < op.inputs.size(); ++i)
    if (byRef[i])
      c.prog.add(poplar::program::Copy(called.inputs[i], c.in(op, i), false, op.name));
}
} // namespace

void lowerCall(const LowerContext &c, const OpInfo &op) {
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
