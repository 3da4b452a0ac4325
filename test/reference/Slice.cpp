// Host reference for the slicing ops: index arithmetic over row-major shapes.
#include "Slice.hpp"

#include "HostData.hpp"

#include <algorithm>

namespace popsdk::reference {

namespace {

std::vector<std::size_t> stridesOf(const std::vector<std::size_t> &shape) {
  std::vector<std::size_t> strides(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}

std::size_t product(const std::vector<std::size_t> &shape) {
  std::size_t n = 1;
  for (auto d : shape)
    n *= d;
  return n;
}

/// Calls f(outIndex, sourceIndex or -1) for each element of the slice of `shape`.
template <class F>
void forEachSliced(const std::vector<std::size_t> &shape, const std::vector<std::int64_t> &offsets,
                   const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes,
                   IndexRules rules, F f) {
  auto outShape = shape;
  std::vector<long long> start(shape.size(), 0);
  for (std::size_t i = 0; i < dims.size(); ++i) {
    outShape[dims[i]] = sizes[i];
    start[dims[i]] = resolveIndex(offsets[i], shape[dims[i]], rules);
  }
  auto strides = stridesOf(shape);
  std::size_t total = product(outShape);
  for (std::size_t o = 0; o < total; ++o) {
    std::size_t rem = o;
    long long src = 0;
    for (std::size_t d = shape.size(); d-- > 0;) {
      std::size_t idx = rem % outShape[d];
      rem /= outShape[d];
      if (start[d] < 0) {
        src = -1;
        break;
      }
      src += static_cast<long long>(((start[d] + idx) % shape[d]) * strides[d]);
    }
    f(o, src);
  }
}

} // namespace

long long resolveIndex(std::int64_t index, std::size_t n, IndexRules rules) {
  if (index >= 0 && static_cast<std::uint64_t>(index) < n)
    return index;
  // The device reads indices as unsigned 32-bit values.
  std::uint32_t u = static_cast<std::uint32_t>(index);
  if (rules.padding && u == n)
    return -1;
  if (rules.remap)
    return n > 0 ? 0 : -1;
  return -1;
}

std::vector<double> dynamicSlice(const std::vector<double> &t,
                                 const std::vector<std::size_t> &shape,
                                 const std::vector<std::int64_t> &offsets,
                                 const std::vector<std::size_t> &dims,
                                 const std::vector<std::size_t> &sizes, IndexRules rules) {
  auto outShape = shape;
  for (std::size_t i = 0; i < dims.size(); ++i)
    outShape[dims[i]] = sizes[i];
  std::vector<double> out(product(outShape));
  forEachSliced(shape, offsets, dims, sizes, rules,
                [&](std::size_t o, long long src) { out[o] = src < 0 ? 0.0 : t[src]; });
  return out;
}

std::vector<double> dynamicUpdate(std::vector<double> t, const std::vector<std::size_t> &shape,
                                  const std::vector<double> &s,
                                  const std::vector<std::int64_t> &offsets,
                                  const std::vector<std::size_t> &dims,
                                  const std::vector<std::size_t> &sizes, IndexRules rules) {
  forEachSliced(shape, offsets, dims, sizes, rules, [&](std::size_t o, long long dst) {
    if (dst >= 0)
      t[dst] = s[o];
  });
  return t;
}

std::vector<double> multiSlice(const std::vector<double> &t, const std::vector<std::size_t> &shape,
                               const std::vector<std::int64_t> &indices, std::size_t dim,
                               IndexRules rules) {
  std::vector<double> out;
  for (auto index : indices) {
    auto slice = dynamicSlice(t, shape, {index}, {dim}, {1}, rules);
    out.insert(out.end(), slice.begin(), slice.end());
  }
  return out;
}

std::vector<double> multiUpdate(std::vector<double> t, const std::vector<std::size_t> &shape,
                                const std::vector<double> &s,
                                const std::vector<std::int64_t> &indices, std::size_t dim,
                                UpdateOp op, double scale, poplar::Type type, IndexRules rules) {
  auto sliceShape = shape;
  sliceShape[dim] = 1;
  std::size_t sliceElems = product(sliceShape);
  for (std::size_t i = 0; i < indices.size(); ++i)
    forEachSliced(shape, {indices[i]}, {dim}, {1}, rules, [&](std::size_t o, long long dst) {
      if (dst < 0)
        return;
      double x = s[i * sliceElems + o];
      switch (op) {
      case UpdateOp::Copy:
        t[dst] = x;
        break;
      case UpdateOp::Add:
        t[dst] = popsdk::test::roundTo(type, t[dst] + scale * x);
        break;
      case UpdateOp::Max:
        t[dst] = std::max(t[dst], x);
        break;
      case UpdateOp::Mul:
        t[dst] = popsdk::test::roundTo(type, t[dst] * x);
        break;
      }
    });
  return t;
}

std::vector<double> gather(const std::vector<double> &t, const std::vector<std::size_t> &shape,
                           const std::vector<std::int64_t> &indices, std::size_t axis) {
  std::size_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < axis; ++d)
    outer *= shape[d];
  for (std::size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  std::vector<double> out;
  for (std::size_t o = 0; o < outer; ++o)
    for (auto index : indices) {
      long long row = resolveIndex(index, shape[axis], {});
      for (std::size_t i = 0; i < inner; ++i)
        out.push_back(row < 0 ? 0.0 : t[(o * shape[axis] + row) * inner + i]);
    }
  return out;
}

std::vector<double> scatter(std::vector<double> operand, const std::vector<std::size_t> &shape,
                            const std::vector<std::int64_t> &indices,
                            const std::vector<std::size_t> &indexShape,
                            const std::vector<double> &updates,
                            const std::vector<std::size_t> &updateShape, std::size_t indexVectorDim,
                            const std::vector<unsigned> &updateWindowDims,
                            const std::vector<std::size_t> &insertWindowDims,
                            const std::vector<unsigned> &scatterDimsToOperandDims, bool add) {
  auto isWindowDim = [&](std::size_t d) {
    return std::find(updateWindowDims.begin(), updateWindowDims.end(), d) != updateWindowDims.end();
  };
  std::vector<std::size_t> scatterDims,
      windowDims(updateWindowDims.begin(), updateWindowDims.end());
  for (std::size_t d = 0; d < updateShape.size(); ++d)
    if (!isWindowDim(d))
      scatterDims.push_back(d);
  auto idxShape = indexShape;
  if (indexVectorDim == idxShape.size())
    idxShape.push_back(1);
  const std::size_t components = idxShape[indexVectorDim];
  auto idxStrides = stridesOf(idxShape), opStrides = stridesOf(shape),
       updStrides = stridesOf(updateShape);
  std::vector<std::size_t> scatterShape, windowShape;
  for (auto d : scatterDims)
    scatterShape.push_back(updateShape[d]);
  for (auto d : windowDims)
    windowShape.push_back(updateShape[d]);
  // Scatter indices in row-major order; then each element of the window.
  for (std::size_t g = 0; g < product(scatterShape); ++g) {
    std::vector<std::size_t> G(scatterShape.size());
    for (std::size_t r = g, d = scatterShape.size(); d-- > 0;) {
      G[d] = r % scatterShape[d];
      r /= scatterShape[d];
    }
    std::vector<long long> start(shape.size(), 0);
    bool skip = false;
    for (std::size_t k = 0; k < components; ++k) {
      std::size_t flat = 0;
      for (std::size_t d = 0, b = 0; d < idxShape.size(); ++d)
        flat += (d == indexVectorDim ? k : G[b++]) * idxStrides[d];
      std::size_t od = scatterDimsToOperandDims[k];
      start[od] = resolveIndex(indices[flat], shape[od], {});
      skip = skip || start[od] < 0;
    }
    if (skip)
      continue;
    for (std::size_t w = 0; w < product(windowShape); ++w) {
      std::vector<std::size_t> W(windowShape.size());
      for (std::size_t r = w, d = windowShape.size(); d-- > 0;) {
        W[d] = r % windowShape[d];
        r /= windowShape[d];
      }
      std::size_t op = 0;
      for (std::size_t d = 0, wi = 0; d < shape.size(); ++d) {
        bool inserted = std::find(insertWindowDims.begin(), insertWindowDims.end(), d) !=
                        insertWindowDims.end();
        std::size_t within = inserted ? 0 : W[wi++];
        op += ((start[d] + within) % shape[d]) * opStrides[d];
      }
      std::size_t up = 0;
      for (std::size_t i = 0; i < scatterDims.size(); ++i)
        up += G[i] * updStrides[scatterDims[i]];
      for (std::size_t i = 0; i < windowDims.size(); ++i)
        up += W[i] * updStrides[windowDims[i]];
      operand[op] = add ? operand[op] + updates[up] : updates[up];
    }
  }
  return operand;
}

} // namespace popsdk::reference
