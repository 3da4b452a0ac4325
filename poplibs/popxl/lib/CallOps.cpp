// Calls of subgraphs: the called graph is lowered once into a Poplar function; each call copies
// its inputs in, calls the function and copies the outputs out (PopXL's call semantics: inputs
// by value).
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
}

} // namespace popxl::internal
