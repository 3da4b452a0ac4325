// popops::pad: each dimension in turn truncated (negative amounts) or extended by a padding
// tensor: new constant elements, broadcast views of a one-element tensor, or views of the
// tensor's own edge (EDGE) or mirror image (REFLECT).
#include <popops/Pad.hpp>

#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include <functional>
#include <string>

namespace popops {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

const char *const api = "popops::pad";

/// The padding of `n` elements in dimension d of `t`, below it (low) or above it.
using PaddingSource = std::function<Tensor(const Tensor &t, unsigned d, std::size_t n, bool low)>;

Tensor padDim(const Tensor &t, unsigned d, std::ptrdiff_t lo, std::ptrdiff_t hi,
              const PaddingSource &source) {
  if (d >= t.rank())
    raise<poputil::poplibs_error>(api, ": dimension ", d, " is not a dimension of shape ",
                                  shapeText(t.shape()));
  const auto size = static_cast<std::ptrdiff_t>(t.dim(d));
  if (lo + size < 0 || hi + size < 0 || lo + hi + size < 0)
    raise<poputil::poplibs_error>(api, ": padding [", lo, ", ", hi, "] of dimension ", d, " (size ",
                                  size, ") of shape ", shapeText(t.shape()),
                                  " leaves a negative size or truncates beyond the tensor");
  Tensor out = t;
  if (lo < 0)
    out = out.slice(std::size_t(-lo), out.dim(d), d);
  if (hi < 0)
    out = out.slice(0, out.dim(d) - std::size_t(-hi), d);
  // Padding is taken from the tensor as truncated so far, as numpy pads after slicing.
  Tensor base = out;
  if (lo > 0)
    out = concat(source(base, d, std::size_t(lo), true), out, d);
  if (hi > 0)
    out = concat(out, source(base, d, std::size_t(hi), false), d);
  return out;
}

Tensor padAll(const Tensor &t, const std::vector<std::ptrdiff_t> &lower,
              const std::vector<std::ptrdiff_t> &upper, const PaddingSource &source) {
  if (lower.size() != t.rank() || upper.size() != t.rank())
    raise<poputil::poplibs_error>(
        api, ": paddingLower (", lower.size(), " entries) and paddingUpper (", upper.size(),
        " entries) must have one entry per dimension of ", shapeText(t.shape()));
  Tensor out = t;
  for (unsigned d = 0; d < t.rank(); ++d)
    out = padDim(out, d, lower[d], upper[d], source);
  return out;
}

std::vector<std::size_t> paddingShape(const Tensor &t, unsigned d, std::size_t n) {
  auto shape = t.shape();
  shape[d] = n;
  return shape;
}

void mapPadding(Graph &graph, padding::MappingMethod method, const Tensor &t, const Tensor &p,
                unsigned d, bool low) {
  switch (method) {
  case padding::MappingMethod::NONE:
    return;
  case padding::MappingMethod::ZERO:
    graph.setTileMapping(p, 0);
    return;
  case padding::MappingMethod::EDGE: {
    if (t.numElements() == 0)
      raise<poputil::poplibs_error>(api, ": mapping method EDGE needs a non-empty tensor, but ",
                                    "dimension ", d, " of shape ", shapeText(t.shape()),
                                    " has no edge");
    const std::size_t edge = low ? 0 : t.dim(d) - 1;
    bool complete = false;
    auto mapping = graph.getTileMapping(t.slice(edge, edge + 1, d), &complete);
    if (!complete)
      raise<poputil::poplibs_error>(api, ": mapping method EDGE needs the edge of dimension ", d,
                                    " of shape ", shapeText(t.shape()), " to be mapped");
    for (std::size_t i = 0; i < p.dim(d); ++i)
      graph.setTileMapping(p.slice(i, i + 1, d), mapping);
    return;
  }
  }
  raise<poputil::poplibs_error>(api, ": unknown mapping method ", int(method));
}

template <class V>
PaddingSource constantSource(Graph &graph, V val, padding::MappingMethod method,
                             const DebugContext &dc) {
  return [&graph, val, method, dc](const Tensor &t, unsigned d, std::size_t n, bool low) {
    auto shape = paddingShape(t, d, n);
    std::size_t count = 1;
    for (auto s : shape)
      count *= s;
    if (count == 0) { // nothing to hold a value or a mapping, but the mapping must be possible
      if (method == padding::MappingMethod::EDGE && t.numElements() == 0)
        mapPadding(graph, method, t, Tensor(), d, low);
      return graph.addVariable(t.elementType(), shape, {dc, "padding"});
    }
    Tensor p = graph.addConstant(t.elementType(), shape, val, {dc, "padding"});
    mapPadding(graph, method, t, p, d, low);
    return p;
  };
}

PaddingSource tensorSource(const Tensor &t, const Tensor &val) {
  if (val.numElements() != 1)
    raise<poputil::poplibs_error>(api, ": the padding value has shape ", shapeText(val.shape()),
                                  " but must have one element");
  if (val.elementType() != t.elementType())
    raise<poputil::poplibs_error>(api, ": the padding value has type ", val.elementType(),
                                  " but the tensor is ", t.elementType());
  return [val](const Tensor &base, unsigned d, std::size_t n, bool) {
    auto shape = paddingShape(base, d, n);
    Tensor p = val.flatten();
    std::vector<std::size_t> ones(shape.size(), 1);
    p = p.reshape(ones);
    for (unsigned i = 0; i < shape.size(); ++i)
      p = p.broadcast(unsigned(shape[i]), i);
    return p;
  };
}

PaddingSource viewSource(padding::Type type) {
  if (type == padding::Type::EDGE)
    return [](const Tensor &t, unsigned d, std::size_t n, bool low) {
      if (t.dim(d) == 0)
        raise<poputil::poplibs_error>(api, ": EDGE padding of dimension ", d, " of shape ",
                                      shapeText(t.shape()), " has no edge element to repeat");
      const std::size_t edge = low ? 0 : t.dim(d) - 1;
      return t.slice(edge, edge + 1, d).broadcast(unsigned(n), d);
    };
  if (type == padding::Type::REFLECT)
    return [](const Tensor &t, unsigned d, std::size_t n, bool low) {
      if (n >= t.dim(d))
        raise<poputil::poplibs_error>(api, ": REFLECT padding of ", n, " in dimension ", d,
                                      " of shape ", shapeText(t.shape()),
                                      " must be less than the dimension");
      Tensor r = low ? t.slice(1, n + 1, d) : t.slice(t.dim(d) - n - 1, t.dim(d) - 1, d);
      return r.reverse(d);
    };
  raise<poputil::poplibs_error>(api, ": unknown padding type ", int(type));
}

} // namespace

Tensor pad(Graph &graph, const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, float val,
           padding::MappingMethod mappingMethod) {
  poputil::PoplibsOpDebugInfo di({}, DI_ARGS(t, paddingLower, paddingUpper, val));
  return padAll(t, paddingLower, paddingUpper, constantSource(graph, val, mappingMethod, {di}));
}

Tensor pad(Graph &graph, const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, int val,
           padding::MappingMethod mappingMethod) {
  poputil::PoplibsOpDebugInfo di({}, DI_ARGS(t, paddingLower, paddingUpper, val));
  return padAll(t, paddingLower, paddingUpper, constantSource(graph, val, mappingMethod, {di}));
}

Tensor pad(Graph &graph, const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, const Tensor &val,
           padding::MappingMethod mappingMethod) {
  (void)graph;
  (void)mappingMethod;
  return padAll(t, paddingLower, paddingUpper, tensorSource(t, val));
}

Tensor pad(Graph &graph, const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, float val, padding::MappingMethod mappingMethod) {
  poputil::PoplibsOpDebugInfo di({}, DI_ARGS(t, paddingLower, paddingUpper, dim, val));
  return padDim(t, dim, paddingLower, paddingUpper,
                constantSource(graph, val, mappingMethod, {di}));
}

Tensor pad(Graph &graph, const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, int val, padding::MappingMethod mappingMethod) {
  poputil::PoplibsOpDebugInfo di({}, DI_ARGS(t, paddingLower, paddingUpper, dim, val));
  return padDim(t, dim, paddingLower, paddingUpper,
                constantSource(graph, val, mappingMethod, {di}));
}

Tensor pad(Graph &graph, const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper,
           unsigned dim, const Tensor &val, padding::MappingMethod mappingMethod) {
  (void)graph;
  (void)mappingMethod;
  return padDim(t, dim, paddingLower, paddingUpper, tensorSource(t, val));
}

Tensor pad(const Tensor &t, const std::vector<std::ptrdiff_t> &paddingLower,
           const std::vector<std::ptrdiff_t> &paddingUpper, padding::Type type) {
  return padAll(t, paddingLower, paddingUpper, viewSource(type));
}

Tensor pad(const Tensor &t, std::ptrdiff_t paddingLower, std::ptrdiff_t paddingUpper, unsigned dim,
           padding::Type type) {
  return padDim(t, dim, paddingLower, paddingUpper, viewSource(type));
}

} // namespace popops
