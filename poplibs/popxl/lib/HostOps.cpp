// Host transfers: host_load copies the next value of a host-to-device stream into a new tensor,
// host_store copies a tensor to a device-to-host stream, print_tensor prints a tensor to the
// host's output when the program runs.
#include "OpTable.hpp"

#include <poputil/TileMapping.hpp>

namespace popxl::internal {

namespace {
const StreamInfo &streamOf(const Ir &ir, const OpInfo &op, bool hostToDevice) {
  const auto id = intAttr(op, "stream");
  if (id < 0 || std::size_t(id) >= ir.numStreams())
    opError(op, "no stream " + std::to_string(id));
  const StreamInfo &s = ir.stream(std::size_t(id));
  if (s.hostToDevice != hostToDevice)
    opError(op,
            "stream '" + s.name + "' is " + (s.hostToDevice ? "host-to-device" : "device-to-host"));
  return s;
}
} // namespace

std::vector<TensorSpec> inferHostLoad(const Ir &ir, const OpInfo &op) {
  if (!op.inputs.empty())
    opError(op, "takes no inputs");
  return {streamOf(ir, op, true).spec};
}

void lowerHostLoad(const LowerContext &c, const OpInfo &op) {
  const auto &spec = c.ir.tensor(op.outputs[0]).spec;
  poplar::Tensor t = c.graph.addVariable(poplarType(spec.dtype), poplarShape(spec.shape), op.name);
  poputil::mapTensorLinearly(c.graph, t);
  c.prog.add(poplar::program::Copy(c.streams.at(std::size_t(intAttr(op, "stream"))), t));
  c.setOut(op, 0, t);
}

Effects effectsHostIO(const Ir &, const OpInfo &op) {
  return {{}, false, {StreamId(intAttr(op, "stream"))}};
}

std::vector<TensorSpec> inferNothing(const Ir &ir, const OpInfo &op) {
  const StreamInfo &s = streamOf(ir, op, false);
  const TensorSpec &t = inputSpec(ir, op, 0);
  if (!(t == s.spec))
    opError(op, "tensor " + toString(t) + " does not match stream '" + s.name + "' " +
                    toString(s.spec));
  return {};
}

void lowerHostStore(const LowerContext &c, const OpInfo &op) {
  c.prog.add(poplar::program::Copy(c.in(op, 0), c.streams.at(std::size_t(intAttr(op, "stream")))));
}

// print_tensor(t): t itself, printed under attribute "title" (Poplar's PrintTensor) unless
// "print_self" is 0; with "print_gradient" its gradient is printed too.
std::vector<TensorSpec> inferPrintTensor(const Ir &ir, const OpInfo &op) {
  return {inputSpec(ir, op, 0)};
}

void lowerPrintTensor(const LowerContext &c, const OpInfo &op) {
  if (intAttr(op, "print_self"))
    c.prog.add(poplar::program::PrintTensor(stringAttr(op, "title"), c.in(op, 0), op.name));
  c.setOut(op, 0, c.in(op, 0));
}

void gradPrintTensor(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  if (!intAttr(op, "print_gradient")) {
    c.addInputGrad(op, 0, *g);
    return;
  }
  const Attributes printGrad{{"title", "Gradient of " + stringAttr(op, "title")},
                             {"print_self", std::int64_t(1)},
                             {"print_gradient", std::int64_t(0)}};
  c.addInputGrad(op, 0, c.op("print_tensor", {*g}, printGrad));
}

} // namespace popxl::internal
