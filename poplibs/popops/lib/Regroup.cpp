// Regrouping (popops::rearrange): a tensor whose dimension `from.first` is laid out in
// contiguous groups of `from.second` is copied into matrices [to.second, from.second] (one per
// pair of groups), the matrices are transposed on the tiles, and the result viewed back in the
// tensor's shape, now grouped by `to`. Also the rules that decide when regrouping is done.
#include <popops/Rearrange.hpp>

#include "RearrangeInternal.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <limits>
#include <numeric>

namespace popops {
namespace rearrange {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;
using poputil::GroupingInfo;

namespace {

/// `t` with each grouping's group split off its dimension and moved innermost, `first` then
/// `second`: [..., first.second, second.second].
Tensor groupView(Tensor t, const GroupingInfo &first, const GroupingInfo &second) {
  for (const auto *g : {&first, &second})
    t = t.reshapePartial(g->first, g->first + 1, {t.dim(g->first) / g->second, g->second})
            .dimRoll(g->first + 1, t.rank());
  return t;
}

/// The inverse of groupView(t, second, first) for a tensor [..., first.second, second.second]:
/// each group put back into its dimension, `first` first.
Tensor ungroupView(Tensor t, const GroupingInfo &first, const GroupingInfo &second) {
  const unsigned rank = t.rank() - 2;
  for (const auto *g : {&first, &second})
    t = t.dimRoll(rank, g->first + 1).flatten(g->first, g->first + 2);
  return t;
}

void checkGrouping(const char *api, const char *which, const Tensor &t, const GroupingInfo &g) {
  if (g.first >= t.rank())
    raise<poputil::poplibs_error>(api, ": grouping '", which, "' {", g.first, ",", g.second,
                                  "} names dimension ", g.first, " but the tensor has shape ",
                                  shapeText(t.shape()));
  if (g.second == 0 || t.dim(g.first) % g.second)
    raise<poputil::poplibs_error>(api, ": grouping '", which, "' {", g.first, ",", g.second,
                                  "}: ", g.second, " does not divide dimension ", g.first,
                                  " of size ", t.dim(g.first), " (shape ", shapeText(t.shape()),
                                  ")");
}

std::vector<unsigned> factorsOf(unsigned n) {
  std::vector<unsigned> out;
  for (unsigned x = 1; x * x <= n; ++x)
    if (n % x == 0) {
      out.push_back(x);
      if (x != n / x)
        out.push_back(n / x);
    }
  std::sort(out.begin(), out.end());
  return out;
}

/// PopLibs' balance rule: when the IPU holding most of the tensor would have few matrices for
/// its tiles' workers, smaller groups (factors of both groupings, still multiples of the grain)
/// make more, smaller matrices. The factor is the one that minimises (matrix size) x (matrices
/// per worker), with no more matrices than the IPU has workers.
std::pair<GroupingInfo, GroupingInfo> balanceGroupings(const Graph &graph, const Tensor &t,
                                                       GroupingInfo from, GroupingInfo to) {
  const unsigned grain = getMinimumRegroupGrainSize(t.elementType());
  if (from.second % grain || to.second % grain)
    return {from, to};
  const Target &target = graph.getTarget();
  const std::size_t tilesPerIPU = target.getTilesPerIPU(), workers = target.getNumWorkerContexts();
  const std::size_t matrixSize = std::size_t(from.second) * to.second;
  std::vector<std::size_t> perIPU(target.getNumIPUs(), 0);
  const auto mapping = graph.getTileMapping(t, false);
  for (std::size_t tile = 0; tile < mapping.size(); ++tile)
    for (const auto &r : mapping[tile])
      perIPU[tile / tilesPerIPU] += r.size();
  const std::size_t busiest = *std::max_element(perIPU.begin(), perIPU.end());
  const std::size_t matrices = (busiest + matrixSize - 1) / matrixSize;
  auto ceilDiv = [](std::size_t a, std::size_t b) { return (a + b - 1) / b; };
  unsigned factor = 1;
  std::size_t bestCost = std::numeric_limits<std::size_t>::max();
  const unsigned room = unsigned(matrixSize / (grain * grain));
  for (unsigned x : factorsOf(room)) {
    if (matrices * x > tilesPerIPU * workers)
      break;
    std::size_t cost = (room / x) * ceilDiv(ceilDiv(matrices * x, tilesPerIPU), workers);
    if (cost < bestCost) {
      bestCost = cost;
      factor = x;
    }
  }
  // Take the factor from `from` first, the rest from `to`.
  unsigned fromPart = std::gcd(factor, from.second / grain);
  unsigned toPart = std::gcd(factor / fromPart, to.second / grain);
  from.second /= fromPart;
  to.second /= toPart;
  return {from, to};
}

} // namespace

Tensor internal::regroup(Graph &graph, const Tensor &t, std::vector<Copy> &copies,
                         const ComputeSet &transposeCS, GroupingInfo from, GroupingInfo to,
                         const char *api, const DebugContext &debugContext) {
  if (t.rank() <= 1)
    return t;
  checkTransposeType(api, t.elementType());
  checkGrouping(api, "from", t, from);
  checkGrouping(api, "to", t, to);
  if (from.first == to.first)
    raise<poputil::poplibs_error>(api, ": groupings 'from' {", from.first, ",", from.second,
                                  "} and 'to' {", to.first, ",", to.second,
                                  "} are of the same dimension; a regroup moves the grouping "
                                  "to another dimension");
  if (t.numElements() == 0)
    return t;
  std::tie(from, to) = balanceGroupings(graph, t, from, to);

  // [..., to.second, from.second]: each innermost matrix is one transposition.
  const Tensor grouped = groupView(t, to, from);
  const std::size_t matrixSize = std::size_t(from.second) * to.second;
  const std::size_t matrices = t.numElements() / matrixSize;
  const Tensor groupedFlat = grouped.reshape({matrices, matrixSize});

  // A new variable, so that each matrix is one contiguous region for the transpose, its matrices
  // spread evenly over the tiles of the IPU that holds each one's first element.
  Tensor pre = graph.addVariable(t.elementType(), grouped.shape(), {debugContext, "preRegroup"});
  Tensor preFlat = pre.reshape({matrices, matrixSize});
  const Target &target = graph.getTarget();
  const unsigned tilesPerIPU = target.getTilesPerIPU();
  std::vector<std::vector<std::size_t>> onIPU(target.getNumIPUs());
  std::vector<unsigned> ipuOf(matrices, 0);
  const auto firstMapping = graph.getTileMapping(groupedFlat.slice(0, 1, 1), false);
  for (std::size_t tile = 0; tile < firstMapping.size(); ++tile)
    for (const auto &r : firstMapping[tile])
      for (std::size_t m = r.begin(); m < r.end(); ++m)
        ipuOf[m] = unsigned(tile / tilesPerIPU);
  for (std::size_t m = 0; m < matrices; ++m)
    onIPU[ipuOf[m]].push_back(m);
  for (unsigned ipu = 0; ipu < onIPU.size(); ++ipu) {
    const auto &ms = onIPU[ipu];
    const std::size_t perTile = (ms.size() + tilesPerIPU - 1) / tilesPerIPU;
    for (std::size_t k = 0; k < ms.size(); ++k)
      graph.setTileMapping(preFlat[ms[k]], ipu * tilesPerIPU + unsigned(k / perTile));
  }
  copies.emplace_back(grouped, pre, false, DebugContext(debugContext, "regroupCopy"));

  const Tensor transposed = partialTranspose(graph, pre, transposeCS, {debugContext, "regroup"});
  return ungroupView(transposed, from, to);
}

Tensor regroupTensor(Graph &graph, const Tensor &t, std::vector<Copy> &copies,
                     const ComputeSet &transposeCS, const GroupingInfo &from,
                     const GroupingInfo &to, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(t, transposeCS, from.first, from.second, to.first, to.second));
  Tensor out = internal::regroup(graph, t, copies, transposeCS, from, to,
                                 "popops::rearrange::regroupTensor", {di});
  di.addOutput(out);
  return out;
}

Tensor regroupTensor(Graph &graph, const Tensor &t, Sequence &prog, const ComputeSet &transposeCS,
                     const GroupingInfo &from, const GroupingInfo &to,
                     const DebugContext &debugContext) {
  std::vector<Copy> copies;
  Tensor out = regroupTensor(graph, t, copies, transposeCS, from, to, debugContext);
  for (const auto &c : copies)
    prog.add(c);
  return out;
}

Tensor regroupIfPossible(Graph &graph, const Tensor &t, Sequence &prog, const GroupingInfo &to,
                         const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, to.first, to.second));
  const auto groupings = poputil::detectDimGroupings(graph, t);
  const bool valid =
      t.rank() > 1 && to.first < t.rank() && to.second != 0 && t.dim(to.first) % to.second == 0;
  const unsigned grain = getMinimumRegroupGrainSize(t.elementType());
  if (!valid || groupings.empty() || groupings[0].first == to.first ||
      groupings[0].second % grain != 0)
    return t;
  std::vector<Copy> copies;
  ComputeSet cs = graph.addComputeSet({di, "regroupTensor"});
  Tensor out = internal::regroup(graph, t, copies, cs, groupings[0], to,
                                 "popops::rearrange::regroupIfPossible", {di});
  for (const auto &c : copies)
    prog.add(c);
  prog.add(Execute(cs, {di}));
  di.addOutput(out);
  return out;
}

Tensor regroupIfBeneficial(Graph &graph, const Tensor &in, const Tensor &ref,
                           std::vector<Copy> &copies, ComputeSet transposeCS,
                           const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, ref, transposeCS));
  if (in.rank() <= 1 || ref.rank() <= 1 || !internal::isTransposableType(in.elementType()))
    return in;
  if (in.shape() != ref.shape())
    raise<poputil::poplibs_error>("popops::rearrange::regroupIfBeneficial: the input has shape ",
                                  shapeText(in.shape()), " but the reference has shape ",
                                  shapeText(ref.shape()), "; they must be the same");
  const auto inGroupings = poputil::detectDimGroupings(graph, in);
  const auto refGroupings = poputil::detectDimGroupings(graph, ref);
  const unsigned grain = getMinimumRegroupGrainSize(in.elementType());
  if (inGroupings.empty() || refGroupings.empty() ||
      inGroupings[0].first == refGroupings[0].first || inGroupings[0].second % grain ||
      refGroupings[0].second % grain)
    return in;
  Tensor out = internal::regroup(graph, in, copies, transposeCS, inGroupings[0], refGroupings[0],
                                 "popops::rearrange::regroupIfBeneficial", {di});
  di.addOutput(out);
  return out;
}

Tensor regroupIfBeneficial(Graph &graph, const Tensor &in, const Tensor &ref, Sequence &prog,
                           const DebugContext &debugContext) {
  std::vector<Copy> copies;
  ComputeSet cs = graph.addComputeSet({debugContext, "Transpose"});
  Tensor out = regroupIfBeneficial(graph, in, ref, copies, cs, debugContext);
  for (const auto &c : copies)
    prog.add(c);
  if (!copies.empty())
    prog.add(Execute(cs, {debugContext, "Transpose"}));
  return out;
}

Tensor regroupIfBeneficial(Graph &graph, const Tensor &in, std::size_t preferredGrouping,
                           Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, preferredGrouping));
  const char *api = "popops::rearrange::regroupIfBeneficial";
  if (!internal::isTransposableType(in.elementType()))
    return in;
  if (in.rank() == 0)
    raise<poputil::poplibs_error>(api, ": the input is a scalar; a grouping needs a dimension");
  const unsigned inner = in.rank() - 1;
  if (preferredGrouping == 0 || in.dim(inner) % preferredGrouping)
    raise<poputil::poplibs_error>(api, ": preferred grouping ", preferredGrouping,
                                  " does not divide the innermost dimension (", in.dim(inner),
                                  ") of the input of shape ", shapeText(in.shape()));
  const auto groupings = poputil::detectDimGroupings(graph, in);
  const unsigned grain = getMinimumRegroupGrainSize(in.elementType());
  if (groupings.empty() || groupings[0].first == inner || groupings[0].second % grain ||
      preferredGrouping % grain)
    return in;
  std::vector<Copy> copies;
  ComputeSet cs = graph.addComputeSet({di, "Transpose"});
  Tensor out = internal::regroup(graph, in, copies, cs, groupings[0],
                                 GroupingInfo(inner, unsigned(preferredGrouping)), api, {di});
  for (const auto &c : copies)
    prog.add(c);
  prog.add(Execute(cs, {di}));
  di.addOutput(out);
  return out;
}

} // namespace rearrange
} // namespace popops
