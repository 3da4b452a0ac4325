// scatter(t, indices, values, axis): ONNX's element scatter, a copy of t with out[i with i[axis]
// replaced by indices[i]] = values[i] for each position i of indices (values has its shape);
// negative indices count from the end and indices outside the axis write nothing. Lowered as one
// popops::multiUpdate of t's elements at flat offsets computed on the device. Its gradients:
// t's is the output gradient with the written elements zeroed (a scatter of zeros), values' the
// output gradient read at the same offsets (scatter_values_grad, popops::multiSlice).
#include "OpTable.hpp"

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>

#include <numeric>

namespace popxl::internal {

namespace {
namespace pe = popops::expr;

/// Checks t (rank >= 1) and indices (int32/uint32, rank of t, no dimension but the axis larger
/// than t's); returns the axis.
std::size_t checkIndices(const OpInfo &op, const TensorSpec &t, const TensorSpec &indices) {
  if (t.shape.empty())
    opError(op, "needs a tensor of rank >= 1");
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), t.shape.size());
  if (indices.dtype != DType::Int32 && indices.dtype != DType::Uint32)
    opError(op, std::string("indices must be int32 or uint32, got ") + dtypeName(indices.dtype));
  bool fits = indices.shape.size() == t.shape.size();
  for (std::size_t d = 0; fits && d < t.shape.size(); ++d)
    fits = d == axis || indices.shape[d] <= t.shape[d];
  if (!fits)
    opError(op, "indices " + shapeText(indices.shape) + " need the rank of " + shapeText(t.shape) +
                    " and no dimension but axis " + std::to_string(axis) + " larger");
  return axis;
}

/// [n, 1] offsets into t flattened of the elements each index addresses; `t.numElements()`
/// (beyond t, so neither read nor written) for an index outside the axis.
poplar::Tensor elementOffsets(const LowerContext &c, const OpInfo &op,
                              const std::vector<std::int64_t> &tShape,
                              const poplar::Tensor &indices) {
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), tShape.size());
  const std::size_t rank = tShape.size();
  std::vector<std::size_t> strides(rank, 1);
  for (std::size_t d = rank - 1; d > 0; --d)
    strides[d - 1] = strides[d] * std::size_t(tShape[d]);
  const std::size_t total = strides[0] * std::size_t(tShape[0]);
  // The offset of each position of indices without its axis term, known when building.
  const std::vector<std::size_t> ishape = indices.shape();
  std::vector<unsigned> base(indices.numElements());
  for (std::size_t i = 0; i < base.size(); ++i) {
    std::size_t rest = i, offset = 0;
    for (std::size_t d = rank; d-- > 0;) {
      if (d != axis)
        offset += (rest % ishape[d]) * strides[d];
      rest /= ishape[d];
    }
    base[i] = unsigned(offset);
  }
  poplar::Tensor baseT = c.graph.addConstant(poplar::UNSIGNED_INT, {base.size()},
                                             poplar::ArrayRef<unsigned>(base), op.name + "/base");
  c.graph.setTileMapping(baseT, 0);
  const pe::Any i = pe::Cast(pe::_1, poplar::INT);
  const std::int64_t dim = tShape[axis];
  const pe::Any wrapped = pe::Select(pe::Add(i, pe::Const(int(dim))), i, pe::Lt(i, pe::Const(0)));
  const pe::Any valid =
      pe::And(pe::Gte(wrapped, pe::Const(0)), pe::Lt(wrapped, pe::Const(int(dim))));
  const pe::Any flat = pe::Add(
      pe::Mul(pe::Cast(wrapped, poplar::UNSIGNED_INT), pe::Const(unsigned(strides[axis]))), pe::_2);
  poplar::Tensor offsets = popops::map(c.graph, pe::Select(flat, pe::Const(unsigned(total)), valid),
                                       {indices.flatten(), baseT}, c.prog, op.name + "/offsets");
  return offsets.reshape({offsets.numElements(), 1});
}

/// t's elements as multiSlice/multiUpdate's table [elements, 1].
poplar::Tensor elementTable(const poplar::Tensor &t) { return t.reshape({t.numElements(), 1}); }

} // namespace

std::vector<TensorSpec> inferScatter(const Ir &ir, const OpInfo &op) {
  if (op.inputs.size() != 3)
    opError(op, "expects 3 inputs (t, indices, values), got " + std::to_string(op.inputs.size()));
  const TensorSpec &t = inputSpec(ir, op, 0), &indices = inputSpec(ir, op, 1),
                   &values = inputSpec(ir, op, 2);
  checkIndices(op, t, indices);
  if (values.shape != indices.shape || values.dtype != t.dtype)
    opError(op, "values " + toString(values) + " should have the indices' shape " +
                    shapeText(indices.shape) + " and the dtype of t, " + dtypeName(t.dtype));
  return {t};
}

void lowerScatter(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0), &values = c.in(op, 2);
  poplar::Tensor out = c.graph.clone(t, op.name);
  c.prog.add(poplar::program::Copy(t, out, false, op.name));
  const poplar::Tensor offsets =
      elementOffsets(c, op, c.ir.tensor(op.inputs[0]).spec.shape, c.in(op, 1));
  popops::multiUpdate(c.graph, elementTable(out), values.reshape({values.numElements(), 1, 1}),
                      offsets, {0}, {1}, c.prog, popops::SlicePlan(), {}, op.name);
  c.setOut(op, 0, out);
}

void gradScatter(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  const TensorId indices = c.fwd(op.inputs[1]);
  if (c.wantsGrad(op, 0)) { // g with the written elements zeroed: a scatter of zeros
    const TensorId zeros =
        c.op("expand", {c.scalar(0.0, c.spec(*g).dtype)}, {{"shape", c.spec(op.inputs[2]).shape}});
    c.addInputGrad(op, 0, c.op("scatter", {*g, indices, zeros}, op.attrs));
  }
  if (c.wantsGrad(op, 2))
    c.addInputGrad(op, 2, c.op("scatter_values_grad", {*g, indices}, op.attrs));
}

// scatter_values_grad(g, indices): g's elements that scatter(t, indices, ...) wrote, in the
// indices' shape (0 for an index outside the axis).
std::vector<TensorSpec> inferScatterValuesGrad(const Ir &ir, const OpInfo &op) {
  const TensorSpec &g = inputSpec(ir, op, 0), &indices = inputSpec(ir, op, 1);
  checkIndices(op, g, indices);
  return {{indices.shape, g.dtype}};
}

void lowerScatterValuesGrad(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &g = c.in(op, 0), &indices = c.in(op, 1);
  const poplar::Tensor offsets =
      elementOffsets(c, op, c.ir.tensor(op.inputs[0]).spec.shape, indices);
  poplar::Tensor picked = popops::multiSlice(c.graph, elementTable(g), offsets, {0}, {1}, c.prog,
                                             popops::SlicePlan(), {}, op.name);
  c.setOut(op, 0, picked.reshape(indices.shape()));
}

} // namespace popxl::internal
