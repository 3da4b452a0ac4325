// Convolution views: each transform of ConvParams as slices, reversals and concatenations with
// a broadcast zero, and the im2col that turns the convolution into a grouped matmul.
#include "ConvLowering.hpp"

#include "support/CheckedMath.hpp"
#include "support/Raise.hpp"

#include <poplar/exceptions.hpp>

#include <poputil/exceptions.hpp>

namespace poplin::internal {

using namespace poplar;
using popsdk::support::raise;

namespace {

/// The element count of a field, kernel or output shape of ConvParams (from the caller, so a
/// count that wraps is an error naming the shape).
std::size_t product(const std::vector<std::size_t> &v) {
  return popsdk::support::shapeElements<poplar::overflow_error>(v, "poplin convolution");
}

Tensor padDim(Graph &graph, const Tensor &t, unsigned dim, unsigned lower, unsigned upper) {
  if (!lower && !upper)
    return t;
  auto shape = t.shape();
  std::vector<Tensor> parts;
  if (lower) {
    shape[dim] = lower;
    parts.push_back(zeros(graph, t.elementType(), shape));
  }
  parts.push_back(t);
  if (upper) {
    shape[dim] = upper;
    parts.push_back(zeros(graph, t.elementType(), shape));
  }
  return concat(parts, dim);
}

/// `d - 1` zeros between consecutive elements of `dim`.
Tensor dilateDim(Graph &graph, const Tensor &t, unsigned dim, unsigned d) {
  const std::size_t n = t.dim(dim);
  if (d == 1 || n <= 1)
    return t;
  // [..., n, ...] -> [..., n, d, ...] with the original at index 0 of the new dim, zeros after.
  Tensor expanded = t.expand({dim + 1});
  auto zshape = expanded.shape();
  zshape[dim + 1] = d - 1;
  Tensor interleaved = concat(expanded, zeros(graph, t.elementType(), zshape), dim + 1);
  auto shape = t.shape();
  shape[dim] = n * d;
  return interleaved.reshape(shape).slice(0, (n - 1) * d + 1, dim);
}

/// `t` ([..][..][field...], field from dimension `first`) after transform `x`.
Tensor transformField(Graph &graph, Tensor t, const ConvParams::InputTransform &x, unsigned first) {
  for (unsigned d = 0; d < x.dilation.size(); ++d) {
    const unsigned dim = first + d;
    t = t.slice(x.truncationLower[d], t.dim(dim) - x.truncationUpper[d], dim);
    t = dilateDim(graph, t, dim, x.dilation[d]);
    t = padDim(graph, t, dim, x.paddingLower[d], x.paddingUpper[d]);
    if (x.flip[d])
      t = t.reverse(dim);
  }
  return t;
}

/// [G][B][field...][C] from [B][G*C][field...] (or the reverse with `inverse`).
std::vector<unsigned> groupsFirstChannelsLast(std::size_t fieldDims) {
  std::vector<unsigned> order = {1, 0}; // of [B][G][C][field...]
  for (unsigned d = 0; d < fieldDims; ++d)
    order.push_back(3 + d);
  order.push_back(2);
  return order;
}

std::vector<unsigned> inverseOf(const std::vector<unsigned> &order) {
  std::vector<unsigned> inv(order.size());
  for (unsigned i = 0; i < order.size(); ++i)
    inv[order[i]] = i;
  return inv;
}

} // namespace

Tensor zeros(Graph &graph, const Type &type, const std::vector<std::size_t> &shape) {
  const std::size_t n = product(shape);
  Tensor zero = graph.addConstant(type, {1}, 0.0f, "zero");
  graph.setTileMapping(zero, 0);
  if (n == 0)
    return zero.slice(0, 0).reshape(shape);
  return zero.broadcast(unsigned(n), 0).reshape(shape);
}

std::vector<std::size_t> stridedOutputShape(const ConvParams &p) {
  std::vector<std::size_t> shape;
  const auto &o = p.outputTransform;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    shape.push_back(p.getOutputSize(d) - o.paddingLower[d] - o.paddingUpper[d]);
  return shape;
}

std::vector<std::size_t> transformedKernelShape(const ConvParams &p) {
  std::vector<std::size_t> shape;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    shape.push_back(p.getTransformedKernelSize(d));
  return shape;
}

std::size_t outputPositions(const ConvParams &p) {
  return p.batchSize * product(stridedOutputShape(p));
}

std::size_t kernelPositions(const ConvParams &p) { return product(transformedKernelShape(p)); }

MatMulProblem matMulProblemOf(const ConvParams &p) {
  MatMulProblem m;
  m.groups = unsigned(p.numConvGroups);
  m.m = unsigned(outputPositions(p));
  m.k = unsigned(kernelPositions(p) * p.inputChannelsPerConvGroup);
  m.n = unsigned(p.outputChannelsPerConvGroup);
  m.inputType = p.inputType;
  m.outputType = p.outputType;
  m.lhsInPlanLayout = false; // inputAsMatrix views the input where createInput put it
  return m;
}

Tensor inputAsMatrix(Graph &graph, const ConvParams &p, const Tensor &in) {
  const std::size_t dims = p.getNumFieldDims();
  const Tensor field = transformField(graph, in, p.inputTransform, 2);
  const auto outShape = stridedOutputShape(p);
  const auto kernel = transformedKernelShape(p);
  const auto &o = p.outputTransform;
  const std::size_t G = p.numConvGroups, C = p.inputChannelsPerConvGroup;
  const std::size_t positions = p.batchSize * product(outShape);
  // One slice of the field per kernel position, in row-major order of the kernel.
  std::vector<Tensor> columns;
  std::vector<std::size_t> k(dims, 0);
  for (std::size_t i = 0; i < product(kernel); ++i) {
    Tensor x = field;
    for (unsigned d = 0; d < dims; ++d) {
      const std::size_t begin = o.truncationLower[d] + k[d];
      const std::size_t end = outShape[d] ? begin + (outShape[d] - 1) * o.stride[d] + 1 : begin;
      x = x.slice(begin, end, 2 + d).subSample(o.stride[d], 2 + d);
    }
    std::vector<std::size_t> grouped = {p.batchSize, G, C};
    grouped.insert(grouped.end(), outShape.begin(), outShape.end());
    columns.push_back(
        x.reshape(grouped).dimShuffle(groupsFirstChannelsLast(dims)).reshape({G, positions, C}));
    for (unsigned d = unsigned(dims); d-- > 0;) // next kernel position
      if (++k[d] < kernel[d])
        break;
      else
        k[d] = 0;
  }
  return concat(columns, 2);
}

Tensor inputFieldGrouped(Graph &graph, const ConvParams &p, const Tensor &in) {
  const std::size_t dims = p.getNumFieldDims();
  Tensor field = transformField(graph, in, p.inputTransform, 2);
  const auto outShape = stridedOutputShape(p);
  const auto kernel = transformedKernelShape(p);
  for (unsigned d = 0; d < dims; ++d) {
    const std::size_t begin = p.outputTransform.truncationLower[d];
    field = field.slice(begin, begin + (outShape[d] - 1) * p.outputTransform.stride[d] + kernel[d],
                        2 + d);
  }
  std::vector<std::size_t> grouped = {p.batchSize, p.numConvGroups, p.inputChannelsPerConvGroup};
  for (unsigned d = 0; d < dims; ++d)
    grouped.push_back(field.dim(2 + d));
  return field.reshape(grouped).dimShuffle(groupsFirstChannelsLast(dims));
}

Tensor weightsAsMatrix(Graph &graph, const ConvParams &p, const Tensor &weights) {
  const std::size_t dims = p.getNumFieldDims();
  const Tensor w = transformField(graph, weights, p.kernelTransform, 3);
  // [G][Co][Ci][k...] -> [G][k...][Ci][Co]
  std::vector<unsigned> order = {0};
  for (unsigned d = 0; d < dims; ++d)
    order.push_back(3 + d);
  order.push_back(2);
  order.push_back(1);
  const std::size_t K = kernelPositions(p) * p.inputChannelsPerConvGroup;
  return w.dimShuffle(order).reshape({p.numConvGroups, K, p.outputChannelsPerConvGroup});
}

Tensor weightsFromMatrix(const ConvParams &p, const Tensor &matrix) {
  const std::size_t dims = p.getNumFieldDims();
  const auto kernel = transformedKernelShape(p);
  std::vector<std::size_t> shape = {p.numConvGroups};
  shape.insert(shape.end(), kernel.begin(), kernel.end());
  shape.push_back(p.inputChannelsPerConvGroup);
  shape.push_back(p.outputChannelsPerConvGroup);
  // [G][k...][Ci][Co] -> [G][Co][Ci][k...]
  std::vector<unsigned> order = {0, unsigned(dims + 2), unsigned(dims + 1)};
  for (unsigned d = 0; d < dims; ++d)
    order.push_back(1 + d);
  Tensor w = matrix.reshape(shape).dimShuffle(order);
  // Undo the kernel transform: the original taps are the dilated positions inside the padding.
  const auto &x = p.kernelTransform;
  for (unsigned d = 0; d < dims; ++d) {
    const unsigned dim = 3 + d;
    if (x.truncationLower[d] || x.truncationUpper[d])
      raise<poputil::poplibs_error>(
          "poplin::calculateWeightDeltas: kernel truncation is not supported (dimension ", d, ")");
    if (x.flip[d])
      w = w.reverse(dim);
    w = w.slice(x.paddingLower[d], w.dim(dim) - x.paddingUpper[d], dim)
            .subSample(x.dilation[d], dim);
  }
  return w;
}

Tensor outputFromMatrix(const ConvParams &p, const Tensor &product_) {
  const std::size_t dims = p.getNumFieldDims();
  const auto outShape = stridedOutputShape(p);
  std::vector<std::size_t> shape = {p.numConvGroups, p.batchSize};
  shape.insert(shape.end(), outShape.begin(), outShape.end());
  shape.push_back(p.outputChannelsPerConvGroup);
  std::vector<std::size_t> flat = {p.batchSize, p.getNumOutputChans()};
  flat.insert(flat.end(), outShape.begin(), outShape.end());
  return product_.reshape(shape).dimShuffle(inverseOf(groupsFirstChannelsLast(dims))).reshape(flat);
}

Tensor matrixFromOutput(const ConvParams &p, const Tensor &out) {
  const std::size_t dims = p.getNumFieldDims();
  const auto outShape = stridedOutputShape(p);
  std::vector<std::size_t> grouped = {p.batchSize, p.numConvGroups, p.outputChannelsPerConvGroup};
  grouped.insert(grouped.end(), outShape.begin(), outShape.end());
  return out.reshape(grouped)
      .dimShuffle(groupsFirstChannelsLast(dims))
      .reshape({p.numConvGroups, p.batchSize * product(outShape), p.outputChannelsPerConvGroup});
}

Tensor padOutput(Graph &graph, const ConvParams &p, const Tensor &t) {
  Tensor r = t;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    r = padDim(graph, r, 2 + d, p.outputTransform.paddingLower[d],
               p.outputTransform.paddingUpper[d]);
  return r;
}

Tensor unpadOutput(const ConvParams &p, const Tensor &t) {
  Tensor r = t;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    r = r.slice(p.outputTransform.paddingLower[d], r.dim(2 + d) - p.outputTransform.paddingUpper[d],
                2 + d);
  return r;
}

} // namespace poplin::internal
