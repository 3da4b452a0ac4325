// topK, topKKeyValue, topKWithPermutation: the innermost rows sorted (sortRows) in the order that
// puts the wanted k first or last, and those k columns taken.
#include <popops/TopK.hpp>

#include "SortRows.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <ostream>
#include <sstream>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

std::ostream &operator<<(std::ostream &os, const SortOrder &o) {
  switch (o) {
  case SortOrder::NONE:
    return os << "none";
  case SortOrder::ASCENDING:
    return os << "ascending";
  case SortOrder::DESCENDING:
    return os << "descending";
  }
  return os << "SortOrder(" << int(o) << ")";
}

TopKParams::TopKParams(unsigned k, bool largest, SortOrder sortOrder, bool stableSort) noexcept
    : k(k), largest(largest), sortOrder(sortOrder), stableSort(stableSort) {}

std::ostream &operator<<(std::ostream &os, const TopKParams &p) {
  return os << "{k=" << p.k << ", largest=" << (p.largest ? "true" : "false")
            << ", sortOrder=" << p.sortOrder << ", stableSort=" << (p.stableSort ? "true" : "false")
            << "}";
}

// For DI_ARGS (found by argument-dependent lookup, so in this namespace).
static poplar::ProfileValue toProfileValue(const TopKParams &p) {
  std::ostringstream os;
  os << p;
  return poplar::ProfileValue(os.str());
}

namespace {

std::pair<Tensor, Tensor> topKImpl(Graph &graph, const std::string &api, const Tensor &t,
                                   internal::SortValues kind, const Tensor &values,
                                   const TopKParams &params, Sequence &prog,
                                   const DebugContext &dc) {
  if (t.rank() == 0)
    raise<poputil::poplibs_error>(api, ": the input is a scalar; it needs an innermost dimension");
  const std::size_t n = t.dim(t.rank() - 1);
  if (params.k > n)
    raise<poputil::poplibs_error>(api, ": k (", params.k, ") is larger than the innermost ",
                                  "dimension (", n, ") of shape ", shapeText(t.shape()));
  if (kind == internal::SortValues::Given && values.shape() != t.shape())
    raise<poputil::poplibs_error>(api, ": keys have shape ", shapeText(t.shape()),
                                  " but values have shape ", shapeText(values.shape()));
  // The sort order that puts the wanted k first; if the caller wants them the other way round,
  // sort the other way and take the last k (equal keys then still keep their order).
  bool descending = params.largest;
  bool takeLast = (params.largest && params.sortOrder == SortOrder::ASCENDING) ||
                  (!params.largest && params.sortOrder == SortOrder::DESCENDING);
  if (takeLast)
    descending = !descending;
  const std::size_t rows = n == 0 ? 0 : t.numElements() / n;
  auto sorted =
      internal::sortRows(graph, api, t.reshape({rows, n}), kind,
                         kind == internal::SortValues::Given ? values.reshape({rows, n}) : Tensor(),
                         descending, prog, dc);
  std::size_t begin = takeLast ? n - params.k : 0;
  auto shape = t.shape();
  shape.back() = params.k;
  Tensor k = sorted.keys.slice(begin, begin + params.k, 1).reshape(shape);
  Tensor v;
  if (kind != internal::SortValues::None)
    v = sorted.values.slice(begin, begin + params.k, 1).reshape(shape);
  return {k, v};
}

} // namespace

Tensor createTopKInput(Graph &graph, const Type &type, const std::vector<std::size_t> &shape,
                       const TopKParams &params, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(type, shape, params));
  Tensor t = graph.addVariable(type, shape, {di});
  poputil::mapTensorLinearly(graph, t);
  di.addOutput(t);
  return t;
}

Tensor topK(Graph &graph, Sequence &prog, const Tensor &t, const TopKParams &params,
            const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, params));
  Tensor out =
      topKImpl(graph, "popops::topK", t, internal::SortValues::None, Tensor(), params, prog, {di})
          .first;
  di.addOutput(out);
  return out;
}

std::pair<Tensor, Tensor> topKKeyValue(Graph &graph, Sequence &prog, const Tensor &keys,
                                       const Tensor &values, const TopKParams &params,
                                       const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(keys, values, params));
  auto out = topKImpl(graph, "popops::topKKeyValue", keys, internal::SortValues::Given, values,
                      params, prog, {di});
  di.addOutputs({{"keys", poputil::toProfileValue(out.first)},
                 {"values", poputil::toProfileValue(out.second)}});
  return out;
}

std::pair<Tensor, Tensor> topKWithPermutation(Graph &graph, Sequence &prog, const Tensor &t,
                                              const TopKParams &params,
                                              const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, params));
  auto out = topKImpl(graph, "popops::topKWithPermutation", t, internal::SortValues::Positions,
                      Tensor(), params, prog, {di});
  di.addOutputs({{"values", poputil::toProfileValue(out.first)},
                 {"indices", poputil::toProfileValue(out.second)}});
  return out;
}

} // namespace popops
