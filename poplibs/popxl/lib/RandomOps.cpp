// Random ops from a seed tensor (uint32, shape (2,)), lowered with poprand: dropout,
// random_uniform, random_normal. The values depend only on the seed and the shape (each op draws
// over a tensor of its own, mapped linearly over the tiles), so the same seed gives the same
// values, and dropout's gradient redraws the forward mask from the seed.
#include "OpTable.hpp"

#include <popops/ElementWise.hpp>
#include <poprand/RandomGen.hpp>
#include <poputil/TileMapping.hpp>

namespace popxl::internal {

namespace {
void checkSeed(const OpInfo &op, const TensorSpec &seed) {
  if (seed.dtype != DType::Uint32 || seed.shape != std::vector<std::int64_t>{2})
    opError(op, "seed_tensor must be uint32 of shape (2,), got " + toString(seed));
}

poplar::Tensor reference(const LowerContext &c, poplar::Type type,
                         const std::vector<std::int64_t> &shape, const std::string &name) {
  poplar::Tensor ref = c.graph.addVariable(type, poplarShape(shape), name + "/reference");
  poputil::mapTensorLinearly(c.graph, ref);
  return ref;
}
} // namespace

// dropout(t, seed): each element kept and scaled by 1 / (1 - p) with probability 1 - p.
std::vector<TensorSpec> inferDropout(const Ir &ir, const OpInfo &op) {
  const TensorSpec &t = inputSpec(ir, op, 0);
  checkSeed(op, inputSpec(ir, op, 1));
  if (t.dtype != DType::Float32 && t.dtype != DType::Float16)
    opError(op, std::string("needs a float32 or float16 tensor, got ") + dtypeName(t.dtype));
  const double p = floatAttr(op, "p");
  if (!(p >= 0.0 && p < 1.0))
    opError(op, "p must be in [0, 1), got " + std::to_string(p));
  return {t};
}

void lowerDropout(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0), &seed = c.in(op, 1);
  const double keep = 1.0 - floatAttr(op, "p");
  const auto &shape = c.ir.tensor(op.inputs[0]).spec.shape;
  poplar::Tensor mask =
      poprand::bernoulli(c.graph, &seed, 0, reference(c, t.elementType(), shape, op.name),
                         t.elementType(), keep, c.prog, op.name + "/mask");
  namespace pe = popops::expr;
  c.setOut(op, 0,
           popops::map(c.graph, pe::Mul(pe::Mul(pe::_1, pe::_2), pe::Const(1.0 / keep)), {t, mask},
                       c.prog, op.name));
}

void gradDropout(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("dropout", {*g, c.fwd(op.inputs[1])}, op.attrs));
}

// random_uniform(seed) / random_normal(seed): attributes shape, dtype and low/high or mean/std.
std::vector<TensorSpec> inferRandom(const Ir &ir, const OpInfo &op) {
  checkSeed(op, inputSpec(ir, op, 0));
  const DType dtype = dtypeNamed(stringAttr(op, "dtype"));
  if (dtype != DType::Float32 && dtype != DType::Float16)
    opError(op, std::string("dtype must be float32 or float16, got ") + dtypeName(dtype));
  if (op.type == "random_uniform" && !(floatAttr(op, "low") < floatAttr(op, "high")))
    opError(op, "low " + std::to_string(floatAttr(op, "low")) + " must be below high " +
                    std::to_string(floatAttr(op, "high")));
  if (op.type == "random_normal" && !(floatAttr(op, "std") >= 0.0))
    opError(op, "std must be >= 0, got " + std::to_string(floatAttr(op, "std")));
  const auto shape = intsAttr(op, "shape");
  for (auto d : shape)
    if (d < 0)
      opError(op, "shape " + shapeText(shape) + " has a negative dimension");
  return {{shape, dtype}};
}

void lowerRandom(const LowerContext &c, const OpInfo &op) {
  const TensorSpec &out = c.ir.tensor(op.outputs[0]).spec;
  const poplar::Type type = poplarType(out.dtype);
  const poplar::Tensor ref = reference(c, type, out.shape, op.name);
  const poplar::Tensor &seed = c.in(op, 0);
  c.setOut(op, 0,
           op.type == "random_uniform"
               ? poprand::uniform(c.graph, &seed, 0, ref, type, floatAttr(op, "low"),
                                  floatAttr(op, "high"), c.prog, op.name)
               : poprand::normal(c.graph, &seed, 0, ref, type, floatAttr(op, "mean"),
                                 floatAttr(op, "std"), c.prog, op.name));
}

} // namespace popxl::internal
