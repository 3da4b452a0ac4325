// sort, sortInPlace, sortKeyValue, sortKeyValueInPlace: the dimension rolled innermost, the rows
// sorted by sortRows (SortRows.hpp), the result viewed back in the input's shape.
#include <popops/Sort.hpp>

#include "SortRows.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

void checkDim(const std::string &api, const Tensor &t, unsigned dim) {
  if (dim >= t.rank())
    raise<poputil::poplibs_error>(api, ": dimension ", dim, " is not a dimension of shape ",
                                  shapeText(t.shape()));
}

void checkSameShape(const std::string &api, const Tensor &k, const Tensor &v) {
  if (k.shape() != v.shape())
    raise<poputil::poplibs_error>(api, ": keys have shape ", shapeText(k.shape()),
                                  " but values have shape ", shapeText(v.shape()));
}

/// `t` with `dim` innermost, as [rows, t.dim(dim)].
Tensor rows(const Tensor &t, unsigned dim) {
  std::size_t n = t.dim(dim);
  Tensor rolled = t.dimRoll(dim, t.rank() - 1);
  return rolled.reshape({n == 0 ? 0 : t.numElements() / n, n});
}

/// The [rows, n] result back in the shape of `like` (sorted along `dim`).
Tensor unrows(const Tensor &r, const Tensor &like, unsigned dim) {
  return r.reshape(like.dimRoll(dim, like.rank() - 1).shape()).dimRoll(like.rank() - 1, dim);
}

internal::SortedRows sortImpl(Graph &graph, const std::string &api, const Tensor &k,
                              const Tensor *v, unsigned dim, Sequence &prog,
                              const DebugContext &dc) {
  checkDim(api, k, dim);
  if (v)
    checkSameShape(api, k, *v);
  return internal::sortRows(graph, api, rows(k, dim),
                            v ? internal::SortValues::Given : internal::SortValues::None,
                            v ? rows(*v, dim) : Tensor(), false, prog, dc);
}

} // namespace

Tensor sort(Graph &graph, const Tensor &t, unsigned dim, Sequence &prog,
            const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, dim));
  auto sorted = sortImpl(graph, "popops::sort", t, nullptr, dim, prog, {di});
  Tensor out = unrows(sorted.keys, t, dim);
  di.addOutput(out);
  return out;
}

void sortInPlace(Graph &graph, const Tensor &t, unsigned dim, Sequence &prog,
                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, dim));
  auto sorted = sortImpl(graph, "popops::sortInPlace", t, nullptr, dim, prog, {di});
  if (t.numElements() != 0)
    prog.add(Copy(sorted.keys, rows(t, dim)));
}

Tensor sortKeyValue(Graph &graph, const Tensor &k, const Tensor &v, unsigned dim, Sequence &prog,
                    const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(k, v, dim));
  auto sorted = sortImpl(graph, "popops::sortKeyValue", k, &v, dim, prog, {di});
  Tensor out = unrows(sorted.values, v, dim);
  di.addOutput(out);
  return out;
}

void sortKeyValueInPlace(Graph &graph, const Tensor &k, const Tensor &v, unsigned dim,
                         Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(k, v, dim));
  auto sorted = sortImpl(graph, "popops::sortKeyValueInPlace", k, &v, dim, prog, {di});
  if (k.numElements() != 0) {
    prog.add(Copy(sorted.keys, rows(k, dim)));
    prog.add(Copy(sorted.values, rows(v, dim)));
  }
}

} // namespace popops
