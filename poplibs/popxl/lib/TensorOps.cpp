// Shape, type, reduction, matmul and softmax ops.
#include "OpTable.hpp"

#include <poplin/MatMul.hpp>
#include <popnn/Loss.hpp>
#include <popnn/NonLinearity.hpp>
#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>

#include <algorithm>
#include <numeric>

namespace popxl::internal {

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

namespace {
/// The transpose's permutation (its attribute, or the axes reversed when that is empty).
std::vector<unsigned> permutation(const Ir &ir, const OpInfo &op) {
  const std::vector<std::int64_t> perm = intsAttr(op, "permutation");
  std::vector<unsigned> result(perm.begin(), perm.end());
  if (perm.empty()) {
    result.resize(ir.tensor(op.inputs.at(0)).spec.shape.size());
    std::iota(result.rbegin(), result.rend(), 0u);
  }
  return result;
}
} // namespace

void lowerTranspose(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0, c.in(op, 0).dimShuffle(permutation(c.ir, op)));
}

// A view's input takes its output's preferred layout, viewed back: the view of it is then that
// layout (a matmul reading a weight through a transpose, as its gradient does).
poplar::Tensor layoutReshape(const LayoutContext &c, const OpInfo &op, std::size_t) {
  const poplar::Tensor out = c.preferred(op.outputs.at(0));
  return out.valid() ? out.reshape(poplarShape(c.ir.tensor(op.inputs[0]).spec.shape)) : out;
}

poplar::Tensor layoutTranspose(const LayoutContext &c, const OpInfo &op, std::size_t) {
  const poplar::Tensor out = c.preferred(op.outputs.at(0));
  if (!out.valid())
    return out;
  const std::vector<unsigned> perm = permutation(c.ir, op);
  std::vector<unsigned> inverse(perm.size());
  for (unsigned d = 0; d < perm.size(); ++d)
    inverse[perm[d]] = d;
  return out.dimShuffle(inverse);
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
  const Operation operation = op.type == "reduce_max"    ? Operation::MAX
                              : op.type == "reduce_min"  ? Operation::MIN
                              : op.type == "reduce_prod" ? Operation::MUL
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

// argmax / argmin(t, dim, keepdim): the index (int32) of the first maximum (minimum) along dim.
std::vector<TensorSpec> inferArgExtreme(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  if (in.shape.empty())
    opError(op, "needs a tensor of rank >= 1");
  const std::size_t dim = normaliseAxis(op, intAttr(op, "dim"), in.shape.size());
  if (in.shape[dim] == 0)
    opError(op, "dimension " + std::to_string(dim) + " of " + shapeText(in.shape) + " is empty");
  std::vector<std::int64_t> shape = in.shape;
  if (intAttr(op, "keepdim") != 0)
    shape[dim] = 1;
  else
    shape.erase(shape.begin() + std::ptrdiff_t(dim));
  return {{shape, DType::Int32}};
}

void lowerArgExtreme(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0);
  const std::size_t dim = normaliseAxis(op, intAttr(op, "dim"), t.rank());
  // popnn's arg max and min are per row of a 2-D tensor: dim last, the others as the rows.
  std::vector<unsigned> perm;
  for (unsigned d = 0; d < t.rank(); ++d)
    if (d != dim)
      perm.push_back(d);
  perm.push_back(unsigned(dim));
  const poplar::Tensor rows =
      t.dimShuffle(perm).reshape({t.numElements() / t.dim(dim), t.dim(dim)});
  const poplar::Tensor idx = op.type == "argmax" ? popnn::argMax(c.graph, rows, c.prog, op.name)
                                                 : popnn::argMin(c.graph, rows, c.prog, op.name);
  c.setOut(op, 0,
           popops::cast(c.graph, idx, poplar::INT, c.prog, op.name)
               .reshape(poplarShape(c.ir.tensor(op.outputs[0]).spec.shape)));
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

namespace {
/// A matmul as poplin plans it: [G, M, K] x [G, K, N] (the batch dimensions folded into G), with
/// the options its lowering and its layout hook both pass, so that they find one plan.
struct MatMulProblem {
  std::vector<std::size_t> a, b;
  poplar::Type inType, outType;
  poplar::OptionFlags options;
};

MatMulProblem matMulProblem(const Ir &ir, const OpInfo &op) {
  const auto &a = ir.tensor(op.inputs.at(0)).spec.shape, &b = ir.tensor(op.inputs.at(1)).spec.shape;
  const std::size_t r = a.size();
  std::size_t batch = 1;
  for (std::size_t i = 0; i + 2 < r; ++i)
    batch *= std::size_t(a[i]);
  const auto dim = [](std::int64_t d) { return std::size_t(d); };
  return {{batch, dim(a[r - 2]), dim(a[r - 1])},
          {batch, dim(b[r - 2]), dim(b[r - 1])},
          poplarType(ir.tensor(op.inputs[0]).spec.dtype),
          poplarType(ir.tensor(op.outputs.at(0)).spec.dtype),
          {}};
}
} // namespace

namespace {
poplar::Tensor createOperand(poplar::Graph &graph, poplin::PlanningCache &planCache,
                             const MatMulProblem &p, std::size_t i, const std::string &name) {
  return i == 0 ? poplin::createMatMulGroupedInputLHS(graph, p.inType, p.outType, p.a, p.b, name,
                                                      p.options, &planCache)
                : poplin::createMatMulGroupedInputRHS(graph, p.inType, p.outType, p.a, p.b, name,
                                                      p.options, &planCache);
}

/// Whether `t`'s elements lie in runs of under 4 on average (a transposed activation or weight,
/// each element on its own).
bool isScattered(const poplar::Tensor &t) {
  return 4 * t.getContiguousRegions().size() > t.numElements();
}

/// [G, R, C] viewed as [G, C, R].
poplar::Tensor swapInner(const poplar::Tensor &t) { return t.dimShuffle({0, 2, 1}); }

/// `t` (read from `op`'s input `input`), operand `i` of `p`, first copied where the plan reads it
/// when it is scattered, as poplin rearranges an operand on the IPU: each vertex would otherwise
/// gather it one element at a time from many tiles, where after one copy it reads runs of a
/// block row. The copy is named "<op>/arranged/<input tensor>" (in the profile, for instance).
poplar::Tensor arrangedOperand(const LowerContext &c, const OpInfo &op, const MatMulProblem &p,
                               std::size_t i, const poplar::Tensor &t, std::size_t input) {
  if (!isScattered(t))
    return t;
  const std::string name = op.name + "/arranged/" + c.ir.tensor(op.inputs.at(input)).name;
  poplar::Tensor laid = createOperand(c.graph, c.planCache, p, i, name);
  c.prog.add(poplar::program::Copy(t, laid, false, name));
  return laid;
}
} // namespace

/// A * B, or (B^T * A^T)^T when B is a transposed view of a tensor whose rows are contiguous (a
/// weight read transposed by its input's gradient): B^T is then read where it lies, as the left
/// operand, instead of being copied into the plan's layout one element at a time.
void lowerMatMul(const LowerContext &c, const OpInfo &op) {
  const MatMulProblem p = matMulProblem(c.ir, op);
  const poplar::Tensor a = c.in(op, 0).reshape(p.a), b = c.in(op, 1).reshape(p.b);
  poplar::Tensor C;
  if (isScattered(b) && !isScattered(swapInner(b))) {
    const MatMulProblem q{
        {p.b[0], p.b[2], p.b[1]}, {p.a[0], p.a[2], p.a[1]}, p.inType, p.outType, p.options};
    C = swapInner(poplin::matMulGrouped(c.graph, arrangedOperand(c, op, q, 0, swapInner(b), 1),
                                        arrangedOperand(c, op, q, 1, swapInner(a), 0), c.prog,
                                        p.outType, op.name, p.options, &c.planCache));
  } else {
    C = poplin::matMulGrouped(c.graph, arrangedOperand(c, op, p, 0, a, 0),
                              arrangedOperand(c, op, p, 1, b, 1), c.prog, p.outType, op.name,
                              p.options, &c.planCache);
  }
  c.setOut(op, 0, C.reshape(poplarShape(c.ir.tensor(op.outputs[0]).spec.shape)));
}

/// Each operand where the product's plan reads it (poplin::createMatMulGroupedInputLHS/RHS).
poplar::Tensor layoutMatMul(const LayoutContext &c, const OpInfo &op, std::size_t i) {
  const MatMulProblem p = matMulProblem(c.ir, op);
  const TensorInfo &in = c.ir.tensor(op.inputs.at(i));
  return createOperand(c.graph, c.planCache, p, i, in.name).reshape(poplarShape(in.spec.shape));
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

std::vector<TensorSpec> inferExpand(const Ir &ir, const OpInfo &op) {
  const TensorSpec &in = inputSpec(ir, op, 0);
  const std::vector<std::int64_t> shape = intsAttr(op, "shape");
  bool ok = shape.size() >= in.shape.size();
  for (std::size_t i = 0; ok && i < in.shape.size(); ++i) {
    const std::int64_t d = in.shape[in.shape.size() - 1 - i], t = shape[shape.size() - 1 - i];
    ok = d == t || d == 1;
  }
  if (!ok)
    opError(op, "cannot broadcast " + shapeText(in.shape) + " to " + shapeText(shape));
  return {{shape, in.dtype}};
}

void lowerExpand(const LowerContext &c, const OpInfo &op) {
  // A view: the input's elements repeated along the stretched dimensions.
  const std::vector<std::int64_t> shape = intsAttr(op, "shape");
  poplar::Tensor t = c.in(op, 0);
  while (t.rank() < shape.size())
    t = t.expand({0});
  for (unsigned d = 0; d < shape.size(); ++d)
    if (t.dim(d) == 1 && shape[d] != 1)
      t = t.broadcast(unsigned(shape[d]), d);
  c.setOut(op, 0, t);
}

void gradExpand(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, sumToShape(c, *g, c.spec(op.inputs[0]).shape));
}

void gradReshape(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0, c.op("reshape", {*g}, {{"shape", c.spec(op.inputs[0]).shape}}));
}

void gradTranspose(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    const std::size_t rank = c.spec(op.inputs[0]).shape.size();
    std::vector<std::int64_t> perm = intsAttr(op, "permutation");
    if (perm.empty()) {
      perm.resize(rank);
      std::iota(perm.rbegin(), perm.rend(), 0);
    }
    std::vector<std::int64_t> inverse(rank);
    for (std::size_t i = 0; i < rank; ++i)
      inverse[std::size_t(perm[i])] = std::int64_t(i);
    c.addInputGrad(op, 0, c.op("transpose", {*g}, {{"permutation", inverse}}));
  }
}

void gradCast(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(
        op, 0, c.op("cast", {*g}, {{"dtype", std::string(dtypeName(c.spec(op.inputs[0]).dtype))}}));
}

namespace {
/// For each element of a reduce_prod's input, the product of the others of its group, exactly
/// even with zeros: the product of the non-zero elements divided by the element when the group
/// has no zero, that product at the zero when it has one, 0 otherwise. `stretch` takes a
/// reduced tensor back to the input's shape.
template <typename Stretch>
TensorId productOfOthers(GradContext &c, const OpInfo &op, Stretch stretch) {
  const TensorId x = c.fwd(op.inputs[0]);
  const DType dtype = c.spec(x).dtype;
  const TensorId zero = c.scalar(0.0, dtype), one = c.scalar(1.0, dtype);
  const TensorId isZero = c.op("equal", {x, zero});
  const TensorId nonZero = c.op("where", {isZero, one, x});
  const TensorId product = stretch(c.op("reduce_prod", {nonZero}, op.attrs));
  const TensorId zeros =
      stretch(c.op("reduce_sum",
                   {c.op("cast", {isZero}, {{"dtype", std::string(dtypeName(dtype))}})}, op.attrs));
  auto ifZeros = [&](double count, TensorId value) {
    return c.op("where", {c.op("equal", {zeros, c.scalar(count, dtype)}), value, zero});
  };
  return c.op("where", {isZero, ifZeros(1, product), ifZeros(0, c.op("div", {product, nonZero}))});
}
} // namespace

void gradReduce(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  const TensorSpec in = c.spec(op.inputs[0]);
  // The gradient with the reduced axes back as size 1, then stretched to the input's shape.
  std::vector<bool> reduced(in.shape.size(), intsAttr(op, "axis").empty());
  for (auto a : intsAttr(op, "axis"))
    reduced[a < 0 ? std::size_t(a + std::int64_t(in.shape.size())) : std::size_t(a)] = true;
  std::vector<std::int64_t> kept;
  std::size_t count = 1;
  for (std::size_t i = 0; i < in.shape.size(); ++i) {
    kept.push_back(reduced[i] ? 1 : in.shape[i]);
    if (reduced[i])
      count *= std::size_t(in.shape[i]);
  }
  auto stretch = [&](TensorId t) {
    return c.op("expand", {c.op("reshape", {t}, {{"shape", kept}})}, {{"shape", in.shape}});
  };
  TensorId grad = stretch(*g);
  if (op.type == "reduce_mean")
    grad = c.op("mul", {grad, c.scalar(1.0 / double(count ? count : 1), in.dtype)});
  if (op.type == "reduce_max" || op.type == "reduce_min") // to every element equal to the result
    grad = c.op("where", {c.op("equal", {c.fwd(op.inputs[0]), stretch(c.fwd(op.outputs[0]))}), grad,
                          c.scalar(0.0, in.dtype)});
  if (op.type == "reduce_prod")
    grad = c.op("mul", {grad, productOfOthers(c, op, stretch)});
  c.addInputGrad(op, 0, grad);
}

void gradMatMul(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  const TensorSpec a = c.spec(op.inputs[0]);
  const std::size_t rank = a.shape.size();
  std::vector<std::int64_t> swapLast(rank);
  std::iota(swapLast.begin(), swapLast.end(), 0);
  std::swap(swapLast[rank - 1], swapLast[rank - 2]);
  const Attributes swap{{"permutation", swapLast}};
  const std::string inType = dtypeName(a.dtype);
  const TensorId gIn = c.spec(*g).dtype == a.dtype ? *g : c.op("cast", {*g}, {{"dtype", inType}});
  // Each operand's gradient needs only the other operand's forward value.
  auto transposed = [&](std::size_t i) { return c.op("transpose", {c.fwd(op.inputs[i])}, swap); };
  if (c.wantsGrad(op, 0))
    c.addInputGrad(op, 0, c.op("matmul", {gIn, transposed(1)}, {{"output_type", inType}}));
  if (c.wantsGrad(op, 1))
    c.addInputGrad(op, 1, c.op("matmul", {transposed(0), gIn}, {{"output_type", inType}}));
}

void gradSoftmax(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  // dx = y * (g - sum(g * y, axis))
  const TensorId y = c.fwd(op.outputs[0]);
  const TensorId gy = c.op("mul", {*g, y});
  const TensorId s = c.op("reduce_sum", {gy},
                          {{"axis", std::vector<std::int64_t>{-1}}, {"keepdims", std::int64_t(1)}});
  c.addInputGrad(op, 0, c.op("sub", {gy, c.op("mul", {y, s})}));
}

} // namespace popxl::internal
