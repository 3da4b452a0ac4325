// The op table's lookup and the helpers its functions share.
#include "OpTable.hpp"

#include <algorithm>
#include <cstring>

namespace popxl::internal {

namespace {
const OpRow kOps[] = {
#define POPXL_OP(type, infer, lower, grad, effects, layout)                                        \
  {type, infer, lower, grad, effects, layout},
#include "Ops.def"
};
} // namespace

const OpRow &opRow(const std::string &type) {
  for (const auto &row : kOps)
    if (type == row.type)
      return row;
  throw error("popxl: no op '" + type + "'");
}

const TensorSpec &inputSpec(const Ir &ir, const OpInfo &op, std::size_t i) {
  if (i >= op.inputs.size())
    opError(op, "expects at least " + std::to_string(i + 1) + " inputs, got " +
                    std::to_string(op.inputs.size()));
  return ir.tensor(op.inputs[i]).spec;
}

void opError(const OpInfo &op, const std::string &message) {
  throw error("popxl.ops." + op.type + " (" + op.name + "): " + message);
}

static const Attribute &attr(const OpInfo &op, const std::string &key) {
  auto it = op.attrs.find(key);
  if (it == op.attrs.end())
    opError(op, "missing attribute '" + key + "'");
  return it->second;
}

bool hasAttr(const OpInfo &op, const std::string &key) { return op.attrs.count(key) != 0; }

std::vector<std::int64_t> intsAttr(const OpInfo &op, const std::string &key) {
  if (auto v = std::get_if<std::vector<std::int64_t>>(&attr(op, key)))
    return *v;
  opError(op, "attribute '" + key + "' should be a list of integers");
}

std::int64_t intAttr(const OpInfo &op, const std::string &key) {
  if (auto v = std::get_if<std::int64_t>(&attr(op, key)))
    return *v;
  opError(op, "attribute '" + key + "' should be an integer");
}

double floatAttr(const OpInfo &op, const std::string &key) {
  const Attribute &a = attr(op, key);
  if (auto v = std::get_if<double>(&a))
    return *v;
  if (auto v = std::get_if<std::int64_t>(&a))
    return double(*v);
  opError(op, "attribute '" + key + "' should be a number");
}

std::string stringAttr(const OpInfo &op, const std::string &key) {
  if (auto v = std::get_if<std::string>(&attr(op, key)))
    return *v;
  opError(op, "attribute '" + key + "' should be a string");
}

std::size_t normaliseAxis(const OpInfo &op, std::int64_t axis, std::size_t rank) {
  const std::int64_t r = std::int64_t(rank);
  if (axis < -r || axis >= r)
    opError(op,
            "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return std::size_t(axis < 0 ? axis + r : axis);
}

std::vector<std::int64_t> broadcastShapes(const OpInfo &op, const std::vector<std::int64_t> &a,
                                          const std::vector<std::int64_t> &b) {
  // Align the shapes on the right; each pair of sizes must be equal or contain a 1.
  const std::size_t rank = std::max(a.size(), b.size());
  std::vector<std::int64_t> out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t x = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t y = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (x != y && x != 1 && y != 1)
      opError(op,
              "shapes " + shapeText(a) + " and " + shapeText(b) + " cannot be broadcast together");
    out[i] = x == 1 ? y : x;
  }
  return out;
}

std::string shapeText(const std::vector<std::int64_t> &shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

void noGrad(GradContext &c, const OpInfo &op) {
  for (std::size_t i = 0; i < op.outputs.size(); ++i)
    if (c.outputGrad(op, i))
      opError(op, "autodiff: this op has no gradient yet");
}

Effects noEffects(const Ir &, const OpInfo &) { return {}; }

Effects effectsView(const Ir &, const OpInfo &) { return {{}, true, {}}; }

Effects effectsInPlace(const Ir &, const OpInfo &) { return {{0}, true, {}}; }

TensorId sumToShape(GradContext &c, TensorId grad, const std::vector<std::int64_t> &shape) {
  const auto &gs = c.spec(grad).shape;
  if (gs == shape)
    return grad;
  const std::size_t extra = gs.size() - shape.size();
  std::vector<std::int64_t> axes;
  for (std::size_t i = 0; i < gs.size(); ++i)
    if (i < extra || (shape[i - extra] == 1 && gs[i] != 1))
      axes.push_back(std::int64_t(i));
  TensorId summed =
      axes.empty() ? grad
                   : c.op("reduce_sum", {grad}, {{"axis", axes}, {"keepdims", std::int64_t(0)}});
  return c.op("reshape", {summed}, {{"shape", shape}});
}

poplar::Type poplarType(DType t) {
  switch (t) {
#define POPXL_DTYPE(name, popxlName, numpyName, poplarType, bytes)                                 \
  case DType::name:                                                                                \
    return poplarType;
#include <popxl/DTypes.def>
  }
  return poplar::FLOAT;
}

std::vector<std::size_t> poplarShape(const std::vector<std::int64_t> &shape) {
  return std::vector<std::size_t>(shape.begin(), shape.end());
}

} // namespace popxl::internal
