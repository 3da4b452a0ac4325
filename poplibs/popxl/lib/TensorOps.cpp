// Shape, type, reduction, matmul and softmax ops.
#include "OpTable.hpp"

#include <poplin/MatMul.hpp>
#include <popnn/NonLinearity.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include <algorithm>
#include <numeric>

namespace popxl::internal {

namespace {

/// `axis` counted from the end when negative, checked against `rank`.
std::size_t normaliseAxis(const OpInfo &op, std::int64_t axis, std::size_t rank) {
  const std::int64_t r = std::int64_t(rank);
  if (axis < -r || axis >= r)
    opError(op,
            "axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  return std::size_t(axis < 0 ? axis + r : axis);
}

} // namespace

std::vector<TensorSpec> inferReshape(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  std::vector<std::int64_t> shape = intsAttr(op, "shape");
  // One -1 takes what the others leave, as numpy does.
  std::int64_t known = 1;
  int unknown = -1;
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      if (unknown >= 0)
        opError(op, "shape " + shapeText(shape) + " has more than one -1");
      unknown = int(i);
    } else {
      known *= shape[i];
    }
  }
  const std::int64_t total = std::int64_t(in.numElements());
  if (unknown >= 0 && known != 0 && total % known == 0)
    shape[unknown] = total / known;
  TensorSpec out{shape, in.dtype};
  if (std::int64_t(out.numElements()) != total || (unknown >= 0 && shape[unknown] < 0))
    opError(op, "cannot reshape " + shapeText(in.shape) + " (" + std::to_string(total) +
                    " elements) to " + shapeText(intsAttr(op, "shape")));
  return {out};
}

void lowerReshape(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0, c.in(op, 0).reshape(poplarShape(c.ir.tensor(op.outputs[0]).spec.shape)));
}

std::vector<TensorSpec> inferTranspose(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  std::vector<std::int64_t> perm = intsAttr(op, "permutation");
  if (perm.empty()) { // reverse the axes, as numpy's default
    perm.resize(in.shape.size());
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  std::vector<std::int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted.size() != in.shape.size() || sorted[i] != std::int64_t(i))
      opError(op, "permutation " + shapeText(perm) + " is not a permutation of the " +
                      std::to_string(in.shape.size()) + " axes of " + shapeText(in.shape));
  std::vector<std::int64_t> shape;
  for (auto p : perm)
    shape.push_back(in.shape[p]);
  return {{shape, in.dtype}};
}

void lowerTranspose(const LowerContext &c, const OpInfo &op) {
  const auto &inShape = c.ir.tensor(op.inputs[0]).spec.shape;
  std::vector<std::int64_t> perm = intsAttr(op, "permutation");
  if (perm.empty()) {
    perm.resize(inShape.size());
    std::iota(perm.rbegin(), perm.rend(), 0);
  }
  c.setOut(op, 0, c.in(op, 0).dimShuffle(std::vector<unsigned>(perm.begin(), perm.end())));
}

std::vector<TensorSpec> inferCast(const Ir &ir, const OpInfo &op) {
  return {{inputSpec(ir, op, 0).shape, dtypeNamed(stringAttr(op, "dtype"))}};
}

void lowerCast(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0,
           popops::cast(c.graph, c.in(op, 0), poplarType(c.ir.tensor(op.outputs[0]).spec.dtype),
                        c.prog, op.name));
}

std::vector<TensorSpec> inferReduce(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  std::vector<bool> reduced(in.shape.size(), false);
  std::vector<std::int64_t> axes = intsAttr(op, "axis");
  if (axes.empty())
    reduced.assign(in.shape.size(), true);
  for (auto a : axes)
    reduced[normaliseAxis(op, a, in.shape.size())] = true;
  const bool keepdims = intAttr(op, "keepdims") != 0;
  std::vector<std::int64_t> shape;
  for (std::size_t i = 0; i < in.shape.size(); ++i)
    if (!reduced[i])
      shape.push_back(in.shape[i]);
    else if (keepdims)
      shape.push_back(1);
  return {{shape, in.dtype}};
}

void lowerReduce(const LowerContext &c, const OpInfo &op) {
  const TensorSpec &in = c.ir.tensor(op.inputs[0]).spec;
  std::vector<std::size_t> dims;
  std::vector<std::int64_t> axes = intsAttr(op, "axis");
  if (axes.empty())
    for (std::size_t i = 0; i < in.shape.size(); ++i)
      dims.push_back(i);
  for (auto a : axes)
    dims.push_back(normaliseAxis(op, a, in.shape.size()));
  std::sort(dims.begin(), dims.end());
  dims.erase(std::unique(dims.begin(), dims.end()), dims.end());
  using popops::Operation;
  const Operation operation = op.type == "reduce_max"   ? Operation::MAX
                              : op.type == "reduce_min" ? Operation::MIN
                                                        : Operation::ADD;
  float scale = 1.0f;
  if (op.type == "reduce_mean") {
    std::size_t n = 1;
    for (auto d : dims)
      n *= std::size_t(in.shape[d]);
    scale = n ? 1.0f / float(n) : 1.0f;
  }
  popops::ReduceParams params(operation);
  if (op.type == "reduce_mean") {
    poplar::Tensor k = c.graph.addConstant(poplar::FLOAT, {}, scale, op.name + "/scale");
    c.graph.setTileMapping(k, 0);
    params = popops::ReduceParams(operation, false, k);
  }
  poplar::Tensor r = popops::reduce(c.graph, c.in(op, 0), dims, params, c.prog, op.name);
  c.setOut(op, 0, r.reshape(poplarShape(c.ir.tensor(op.outputs[0]).spec.shape)));
}

std::vector<TensorSpec> inferMatMul(const Ir &ir, const OpInfo &op) {
  const TensorSpec &a = inputSpec(ir, op, 0), &b = inputSpec(ir, op, 1);
  if (a.dtype != b.dtype)
    opError(op, std::string("operands have different dtypes: ") + dtypeName(a.dtype) + " and " +
                    dtypeName(b.dtype));
  if (a.shape.size() < 2 || b.shape.size() < 2 || a.shape.size() != b.shape.size())
    opError(op, "supports [..., M, K] x [..., K, N] operands of equal rank >= 2, got " +
                    shapeText(a.shape) + " and " + shapeText(b.shape));
  const std::size_t r = a.shape.size();
  if (a.shape[r - 1] != b.shape[r - 2])
    opError(op, "inner dimensions differ: " + shapeText(a.shape) + " x " + shapeText(b.shape));
  if (!std::equal(a.shape.begin(), a.shape.end() - 2, b.shape.begin()))
    opError(op, "batch dimensions differ: " + shapeText(a.shape) + " x " + shapeText(b.shape));
  std::vector<std::int64_t> shape(a.shape.begin(), a.shape.end() - 1);
  shape.push_back(b.shape[r - 1]);
  const DType outType =
      hasAttr(op, "output_type") ? dtypeNamed(stringAttr(op, "output_type")) : a.dtype;
  return {{shape, outType}};
}

void lowerMatMul(const LowerContext &c, const OpInfo &op) {
  const auto &a = c.ir.tensor(op.inputs[0]).spec;
  const auto &out = c.ir.tensor(op.outputs[0]).spec;
  const std::size_t r = a.shape.size();
  std::size_t batch = 1;
  for (std::size_t i = 0; i + 2 < r; ++i)
    batch *= std::size_t(a.shape[i]);
  poplar::Tensor A = c.in(op, 0), B = c.in(op, 1);
  const std::size_t m = A.dim(r - 2), k = A.dim(r - 1), n = B.dim(r - 1);
  poplar::Tensor C =
      poplin::matMulGrouped(c.graph, A.reshape({batch, m, k}), B.reshape({batch, k, n}), c.prog,
                            poplarType(out.dtype), op.name);
  c.setOut(op, 0, C.reshape(poplarShape(out.shape)));
}

std::vector<TensorSpec> inferSoftmax(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  if (in.shape.empty())
    opError(op, "needs a tensor of rank >= 1");
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), in.shape.size());
  if (axis + 1 != in.shape.size())
    opError(op, "supports the innermost axis only (axis " + std::to_string(axis) + " of rank " +
                    std::to_string(in.shape.size()) + ")");
  return {in};
}

void lowerSoftmax(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0,
           popnn::nonLinearity(c.graph, popnn::NonLinearityType::SOFTMAX_STABLE, c.in(op, 0),
                               c.prog, op.name));
}

} // namespace popxl::internal
