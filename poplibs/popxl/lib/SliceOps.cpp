// Slicing, joining and indexing: slice (numpy's start:stop:step per axis, a view), concat,
// gather (popops::multiSlice), dynamic_slice / dynamic_update_ (popops::dynamicSlice/Update at
// an index read when the program runs) and onehot (popops::encodeOneHot).
#include "OpTable.hpp"

#include <popops/DynamicSlice.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/Zero.hpp>
#include <poputil/TileMapping.hpp>

#include <algorithm>
#include <numeric>

namespace popxl::internal {

namespace {

/// One axis of a slice, resolved as Python's slice.indices does: the first index, the step
/// and the number of elements taken.
struct AxisSlice {
  std::size_t axis;
  std::int64_t start, step, count;
};

std::vector<AxisSlice> resolveSlice(const OpInfo &op, const std::vector<std::int64_t> &shape) {
  const auto starts = intsAttr(op, "start"), stops = intsAttr(op, "stop"),
             steps = intsAttr(op, "step"), axes = intsAttr(op, "axis");
  if (starts.size() != axes.size() || stops.size() != axes.size() || steps.size() != axes.size())
    opError(op, "start " + shapeText(starts) + ", stop " + shapeText(stops) + ", step " +
                    shapeText(steps) + " and axis " + shapeText(axes) +
                    " must have the same length");
  std::vector<AxisSlice> out;
  std::vector<bool> seen(shape.size(), false);
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::size_t axis = normaliseAxis(op, axes[i], shape.size());
    if (seen[axis])
      opError(op, "axis " + std::to_string(axes[i]) + " is sliced twice");
    seen[axis] = true;
    const std::int64_t dim = shape[axis], step = steps[i];
    if (step == 0)
      opError(op, "step of axis " + std::to_string(axes[i]) + " is 0");
    auto adjust = [&](std::int64_t v) {
      if (v < 0)
        v = v < -dim ? (step < 0 ? -1 : 0) : v + dim;
      else if (v >= dim)
        v = step < 0 ? dim - 1 : dim;
      return v;
    };
    const std::int64_t start = adjust(starts[i]), stop = adjust(stops[i]);
    std::int64_t count = 0;
    if (step > 0 && stop > start)
      count = (stop - start - 1) / step + 1;
    else if (step < 0 && start > stop)
      count = (start - stop - 1) / -step + 1;
    out.push_back({axis, start, step, count});
  }
  return out;
}

/// The view of `t` that a slice op selects.
poplar::Tensor sliceView(poplar::Tensor t, const std::vector<AxisSlice> &slices) {
  for (const auto &s : slices) {
    const unsigned d = unsigned(s.axis);
    if (s.count == 0) {
      t = t.slice(0, 0, d);
      continue;
    }
    const std::int64_t last = s.start + (s.count - 1) * s.step;
    if (s.step > 0) {
      t = t.slice(std::size_t(s.start), std::size_t(last + 1), d);
    } else {
      t = t.slice(std::size_t(last), std::size_t(s.start + 1), d).reverse(d);
    }
    const std::int64_t stride = s.step < 0 ? -s.step : s.step;
    if (stride > 1)
      t = t.subSample(unsigned(stride), d);
  }
  return t;
}

/// A new tensor of `spec`, mapped linearly over the tiles and zeroed.
poplar::Tensor zeros(const LowerContext &c, const TensorSpec &spec, const std::string &name) {
  poplar::Tensor z = c.graph.addVariable(poplarType(spec.dtype), poplarShape(spec.shape), name);
  poputil::mapTensorLinearly(c.graph, z);
  popops::zero(c.graph, z, c.prog, name);
  return z;
}

/// A new tensor holding a copy of `t`.
poplar::Tensor copyOf(const LowerContext &c, const poplar::Tensor &t, const std::string &name) {
  poplar::Tensor out = c.graph.clone(t, name);
  c.prog.add(poplar::program::Copy(t, out, false, name));
  return out;
}

} // namespace

// slice(t): attributes start, stop, step, axis (equal-length lists; Python's None already
// replaced by the values that mean "to the end").
std::vector<TensorSpec> inferSlice(const Ir &ir, const OpInfo &op) {
  TensorSpec out = inputSpec(ir, op, 0);
  for (const auto &s : resolveSlice(op, out.shape))
    out.shape[s.axis] = s.count;
  return {out};
}

void lowerSlice(const LowerContext &c, const OpInfo &op) {
  c.setOut(op, 0, sliceView(c.in(op, 0), resolveSlice(op, c.ir.tensor(op.inputs[0]).spec.shape)));
}

// slice_grad(g): zeros of the forward input's shape ("shape") with g where the slice was.
std::vector<TensorSpec> inferSliceGrad(const Ir &ir, const OpInfo &op) {
  return {{intsAttr(op, "shape"), inputSpec(ir, op, 0).dtype}};
}

void lowerSliceGrad(const LowerContext &c, const OpInfo &op) {
  const TensorSpec &out = c.ir.tensor(op.outputs[0]).spec;
  poplar::Tensor z = zeros(c, out, op.name);
  poplar::Tensor view = sliceView(z, resolveSlice(op, out.shape));
  if (view.numElements())
    c.prog.add(poplar::program::Copy(c.in(op, 0), view, false, op.name));
  c.setOut(op, 0, z);
}

void gradSlice(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    Attributes attrs = op.attrs;
    attrs["shape"] = c.spec(op.inputs[0]).shape;
    c.addInputGrad(op, 0, c.op("slice_grad", {*g}, attrs));
  }
}

// concat(ts, axis)
std::vector<TensorSpec> inferConcat(const Ir &ir, const OpInfo &op) {
  if (op.inputs.empty())
    opError(op, "needs at least one tensor");
  TensorSpec out = inputSpec(ir, op, 0);
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), out.shape.size());
  out.shape[axis] = 0;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const TensorSpec &s = inputSpec(ir, op, i);
    bool ok = s.dtype == out.dtype && s.shape.size() == out.shape.size();
    for (std::size_t d = 0; ok && d < s.shape.size(); ++d)
      ok = d == axis || s.shape[d] == out.shape[d];
    if (!ok)
      opError(op, "input " + std::to_string(i) + " " + toString(s) + " does not match input 0 " +
                      toString(inputSpec(ir, op, 0)) + " outside axis " +
                      std::to_string(intAttr(op, "axis")));
    out.shape[axis] += s.shape[axis];
  }
  return {out};
}

void lowerConcat(const LowerContext &c, const OpInfo &op) {
  std::vector<poplar::Tensor> ts;
  for (std::size_t i = 0; i < op.inputs.size(); ++i)
    ts.push_back(c.in(op, i));
  const std::size_t axis =
      normaliseAxis(op, intAttr(op, "axis"), c.ir.tensor(op.inputs[0]).spec.shape.size());
  // A copy: the result is a tensor of its own, not a view of its inputs.
  c.setOut(op, 0, copyOf(c, poplar::concat(ts, unsigned(axis)), op.name));
}

void gradConcat(GradContext &c, const OpInfo &op) {
  auto g = c.outputGrad(op, 0);
  if (!g)
    return;
  const std::int64_t axis = intAttr(op, "axis");
  std::int64_t offset = 0;
  for (std::size_t i = 0; i < op.inputs.size(); ++i) {
    const auto &shape = c.spec(op.inputs[i]).shape;
    const std::int64_t n =
        shape[axis < 0 ? std::size_t(axis + std::int64_t(shape.size())) : std::size_t(axis)];
    c.addInputGrad(op, i,
                   c.op("slice", {*g},
                        {{"start", std::vector<std::int64_t>{offset}},
                         {"stop", std::vector<std::int64_t>{offset + n}},
                         {"step", std::vector<std::int64_t>{1}},
                         {"axis", std::vector<std::int64_t>{axis}}}));
    offset += n;
  }
}

// gather(t, indices, axis): t.shape[:axis] + indices.shape + t.shape[axis+1:]; an index
// outside the axis gives zeros.
std::vector<std::int64_t> gatheredShape(const OpInfo &op, const TensorSpec &t,
                                        const TensorSpec &indices) {
  if (t.shape.empty())
    opError(op, "cannot index a scalar");
  if (indices.dtype != DType::Int32 && indices.dtype != DType::Uint32)
    opError(op, std::string("indices must be int32 or uint32, got ") + dtypeName(indices.dtype));
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), t.shape.size());
  std::vector<std::int64_t> shape(t.shape.begin(), t.shape.begin() + std::ptrdiff_t(axis));
  shape.insert(shape.end(), indices.shape.begin(), indices.shape.end());
  shape.insert(shape.end(), t.shape.begin() + std::ptrdiff_t(axis) + 1, t.shape.end());
  return shape;
}

std::vector<TensorSpec> inferGather(const Ir &ir, const OpInfo &op) {
  const TensorSpec &t = inputSpec(ir, op, 0);
  return {{gatheredShape(op, t, inputSpec(ir, op, 1)), t.dtype}};
}

namespace {
/// `t` with `axis` moved to the front, flattened to [dim, rest].
poplar::Tensor axisFirst2d(const poplar::Tensor &t, std::size_t axis) {
  std::vector<unsigned> perm(t.rank());
  std::iota(perm.begin(), perm.end(), 0u);
  perm.erase(perm.begin() + std::ptrdiff_t(axis));
  perm.insert(perm.begin(), unsigned(axis));
  poplar::Tensor s = t.dimShuffle(perm);
  return s.reshape({s.dim(0), s.numElements() / std::max<std::size_t>(s.dim(0), 1)});
}

/// [N, 1] unsigned offsets from the (int32 or uint32) indices.
poplar::Tensor offsets(const LowerContext &c, const poplar::Tensor &idx, const std::string &name) {
  poplar::Tensor flat = idx.flatten();
  if (flat.elementType() != poplar::UNSIGNED_INT)
    flat = popops::map(c.graph, popops::expr::Cast(popops::expr::_1, poplar::UNSIGNED_INT), {flat},
                       c.prog, name + "/offsets");
  return flat.reshape({flat.numElements(), 1});
}
} // namespace

void lowerGather(const LowerContext &c, const OpInfo &op) {
  const TensorSpec &t = c.ir.tensor(op.inputs[0]).spec;
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), t.shape.size());
  poplar::Tensor table = axisFirst2d(c.in(op, 0), axis);
  poplar::Tensor off = offsets(c, c.in(op, 1), op.name);
  poplar::Tensor rows = popops::multiSlice(c.graph, table, off, {0}, {1}, c.prog,
                                           popops::SlicePlan(), {}, op.name); // [N, 1, rest]
  // [N, rest...] -> [before..., N, after...]
  std::vector<std::size_t> split = {off.dim(0)};
  std::vector<std::size_t> before(t.shape.begin(), t.shape.begin() + std::ptrdiff_t(axis));
  std::vector<std::size_t> after(t.shape.begin() + std::ptrdiff_t(axis) + 1, t.shape.end());
  split.insert(split.end(), before.begin(), before.end());
  split.insert(split.end(), after.begin(), after.end());
  poplar::Tensor r = rows.reshape(split);
  std::vector<unsigned> perm;
  for (unsigned i = 0; i < before.size(); ++i)
    perm.push_back(1 + i);
  perm.push_back(0);
  for (unsigned i = 0; i < after.size(); ++i)
    perm.push_back(unsigned(1 + before.size() + i));
  c.setOut(op, 0, r.dimShuffle(perm).reshape(poplarShape(c.ir.tensor(op.outputs[0]).spec.shape)));
}

// gather_grad(g, indices): zeros of the forward input's shape with each g row added at its
// index (popops::multiUpdateAdd).
std::vector<TensorSpec> inferGatherGrad(const Ir &ir, const OpInfo &op) {
  return {{intsAttr(op, "shape"), inputSpec(ir, op, 0).dtype}};
}

void addGatheredRows(const LowerContext &c, const poplar::Tensor &target,
                     const poplar::Tensor &rows, const poplar::Tensor &indices, std::size_t axis,
                     const poplar::Tensor &scale, const std::string &name) {
  poplar::Tensor table = axisFirst2d(target, axis);
  poplar::Tensor off = offsets(c, indices, name);
  // rows: [before..., N, after...] -> [N, 1, before * after]
  std::vector<std::size_t> shape(target.shape());
  shape.erase(shape.begin() + std::ptrdiff_t(axis));
  shape.insert(shape.begin() + std::ptrdiff_t(axis), off.dim(0));
  poplar::Tensor g = rows.reshape(shape);
  std::vector<unsigned> perm(g.rank());
  std::iota(perm.begin(), perm.end(), 0u);
  perm.erase(perm.begin() + std::ptrdiff_t(axis));
  perm.insert(perm.begin(), unsigned(axis));
  g = g.dimShuffle(perm).reshape({off.dim(0), 1, table.dim(1)});
  popops::multiUpdateAdd(c.graph, table, g, off, scale, {0}, {1}, c.prog, popops::SlicePlan(), {},
                         name);
}

void lowerGatherGrad(const LowerContext &c, const OpInfo &op) {
  const TensorSpec &out = c.ir.tensor(op.outputs[0]).spec;
  poplar::Tensor z = zeros(c, out, op.name);
  poplar::Tensor one = c.graph.addConstant(z.elementType(), {}, 1.0, op.name + "/one");
  c.graph.setTileMapping(one, 0);
  addGatheredRows(c, z, c.in(op, 0), c.in(op, 1),
                  normaliseAxis(op, intAttr(op, "axis"), out.shape.size()), one, op.name);
  c.setOut(op, 0, z);
}

void gradGather(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0))
    c.addInputGrad(op, 0,
                   c.op("gather_grad", {*g, c.fwd(op.inputs[1])},
                        {{"axis", intAttr(op, "axis")}, {"shape", c.spec(op.inputs[0]).shape}}));
}

// dynamic_slice(t, index, axes, sizes): index is a uint32/int32 tensor of one offset per axis.
namespace {
void checkDynamic(const Ir &ir, const OpInfo &op, const TensorSpec &t, const TensorSpec &index) {
  const auto axes = intsAttr(op, "axes"), sizes = intsAttr(op, "sizes");
  if (index.dtype != DType::Uint32 && index.dtype != DType::Int32)
    opError(op, std::string("index must be uint32 or int32, got ") + dtypeName(index.dtype));
  if (axes.size() != sizes.size() || index.numElements() != axes.size() || index.shape.size() > 1)
    opError(op, "axes " + shapeText(axes) + " and sizes " + shapeText(sizes) +
                    " need one offset each in index, got index of shape " + shapeText(index.shape));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::size_t a = normaliseAxis(op, axes[i], t.shape.size());
    if (sizes[i] < 1 || sizes[i] > t.shape[a])
      opError(op, "size " + std::to_string(sizes[i]) + " of axis " + std::to_string(axes[i]) +
                      " does not fit " + shapeText(t.shape));
  }
  (void)ir;
}

std::vector<std::size_t> dims(const OpInfo &op, std::size_t rank) {
  std::vector<std::size_t> out;
  for (auto a : intsAttr(op, "axes"))
    out.push_back(normaliseAxis(op, a, rank));
  return out;
}

std::vector<std::size_t> sizesOf(const OpInfo &op) {
  const auto s = intsAttr(op, "sizes");
  return std::vector<std::size_t>(s.begin(), s.end());
}

poplar::Tensor index1d(const LowerContext &c, const poplar::Tensor &idx, const std::string &name) {
  return offsets(c, idx, name).flatten();
}
} // namespace

std::vector<TensorSpec> inferDynamicSlice(const Ir &ir, const OpInfo &op) {
  TensorSpec out = inputSpec(ir, op, 0);
  checkDynamic(ir, op, out, inputSpec(ir, op, 1));
  const auto axes = intsAttr(op, "axes"), sizes = intsAttr(op, "sizes");
  for (std::size_t i = 0; i < axes.size(); ++i)
    out.shape[normaliseAxis(op, axes[i], out.shape.size())] = sizes[i];
  return {out};
}

void lowerDynamicSlice(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0);
  c.setOut(op, 0,
           popops::dynamicSlice(c.graph, t, index1d(c, c.in(op, 1), op.name), dims(op, t.rank()),
                                sizesOf(op), c.prog, op.name));
}

void gradDynamicSlice(GradContext &c, const OpInfo &op) {
  if (auto g = c.outputGrad(op, 0)) {
    Attributes attrs = op.attrs;
    attrs["shape"] = c.spec(op.inputs[0]).shape;
    c.addInputGrad(op, 0, c.op("dynamic_slice_grad", {*g, c.fwd(op.inputs[1])}, attrs));
  }
}

// dynamic_slice_grad(g, index): zeros of "shape" with g written at index.
std::vector<TensorSpec> inferDynamicSliceGrad(const Ir &ir, const OpInfo &op) {
  return {{intsAttr(op, "shape"), inputSpec(ir, op, 0).dtype}};
}

void lowerDynamicSliceGrad(const LowerContext &c, const OpInfo &op) {
  const TensorSpec &out = c.ir.tensor(op.outputs[0]).spec;
  poplar::Tensor z = zeros(c, out, op.name);
  popops::dynamicUpdate(c.graph, z, c.in(op, 0), index1d(c, c.in(op, 1), op.name),
                        dims(op, out.shape.size()), sizesOf(op), c.prog, op.name);
  c.setOut(op, 0, z);
}

// dynamic_update_(t, index, update): writes update into t at index, in place.
std::vector<TensorSpec> inferDynamicUpdate(const Ir &ir, const OpInfo &op) {
  const TensorSpec &t = inputSpec(ir, op, 0), &u = inputSpec(ir, op, 2);
  checkDynamic(ir, op, t, inputSpec(ir, op, 1));
  TensorSpec want = t;
  const auto axes = intsAttr(op, "axes"), sizes = intsAttr(op, "sizes");
  for (std::size_t i = 0; i < axes.size(); ++i)
    want.shape[normaliseAxis(op, axes[i], t.shape.size())] = sizes[i];
  if (!(u == want))
    opError(op, "the update " + toString(u) + " should be " + toString(want));
  return {t};
}

void lowerDynamicUpdate(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &t = c.in(op, 0);
  popops::dynamicUpdate(c.graph, t, c.in(op, 2), index1d(c, c.in(op, 1), op.name),
                        dims(op, t.rank()), sizesOf(op), c.prog, op.name);
  c.setOut(op, 0, t);
}

// onehot(indices, values): attributes num_classes, axis; values = [off, on].
std::vector<TensorSpec> inferOneHot(const Ir &ir, const OpInfo &op) {
  const TensorSpec &idx = inputSpec(ir, op, 0), &values = inputSpec(ir, op, 1);
  if (idx.dtype != DType::Int32 && idx.dtype != DType::Uint32)
    opError(op, std::string("indices must be int32 or uint32, got ") + dtypeName(idx.dtype));
  if (values.numElements() != 2)
    opError(op, "values must hold 2 elements [off, on], got " + shapeText(values.shape));
  const std::int64_t n = intAttr(op, "num_classes");
  if (n < 1)
    opError(op, "num_classes must be positive, got " + std::to_string(n));
  std::vector<std::int64_t> shape = idx.shape;
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), shape.size() + 1);
  shape.insert(shape.begin() + std::ptrdiff_t(axis), n);
  return {{shape, values.dtype}};
}

void lowerOneHot(const LowerContext &c, const OpInfo &op) {
  const poplar::Tensor &idx = c.in(op, 0), &values = c.in(op, 1).flatten();
  const std::size_t n = std::size_t(intAttr(op, "num_classes"));
  const std::size_t rows = idx.numElements();
  poplar::Tensor enc = c.graph.addVariable(values.elementType(), {rows, n}, op.name);
  poputil::mapTensorLinearly(c.graph, enc);
  popops::encodeOneHot(c.graph, idx.flatten(), enc, c.prog, values.slice(1, 2), values.slice(0, 1),
                       op.name);
  // [indices..., n] with the class axis moved to `axis`.
  std::vector<std::size_t> shape(idx.shape());
  shape.push_back(n);
  poplar::Tensor out = enc.reshape(shape);
  const std::size_t axis = normaliseAxis(op, intAttr(op, "axis"), shape.size());
  std::vector<unsigned> perm(shape.size() - 1);
  std::iota(perm.begin(), perm.end(), 0u);
  perm.insert(perm.begin() + std::ptrdiff_t(axis), unsigned(shape.size() - 1));
  c.setOut(op, 0, out.dimShuffle(perm));
}

} // namespace popxl::internal
