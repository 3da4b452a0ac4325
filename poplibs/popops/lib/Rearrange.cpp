// Transposes of many small matrices (popops::rearrange): which vertex each tile runs, and
// partialTranspose over a tensor's innermost two dimensions.
#include <popops/Rearrange.hpp>

#include "RearrangeInternal.hpp"
#include "TransposeCycles.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <limits>

namespace popops {
namespace rearrange {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

constexpr unsigned kMaxShort = std::numeric_limits<unsigned short>::max();
// The fast kernels address rows through 10-bit strides of which the top bit is the sign.
constexpr unsigned kStrideLimit = 1u << 9;

unsigned rptCountMax(const Target &target) {
  // The repeat count register is 12 bits wide on ipu1, 16 on later IPUs.
  return target.getTargetArchString() == "ipu1" ? 4095u : 65535u;
}

bool isTwoByte(const Type &t) { return t == HALF || t == SHORT || t == UNSIGNED_SHORT; }

std::size_t countOf(const std::vector<Interval> &intervals) {
  std::size_t n = 0;
  for (const auto &i : intervals)
    n += i.size();
  return n;
}

enum class Kind { Transpose1D, Transpose1DSingleWorker, Transpose2D };

const char *vertexName(Kind k) {
  switch (k) {
  case Kind::Transpose1D:
    return "popops::Transpose1D";
  case Kind::Transpose1DSingleWorker:
    return "popops::Transpose1DSingleWorker";
  default:
    return "popops::Transpose2D";
  }
}

/// One vertex on `tile` transposing the matrices `which`.
void addVertex(Graph &graph, const ComputeSet &cs, Kind kind, const Type &type, unsigned rows,
               unsigned cols, unsigned tile, const std::vector<Interval> &which,
               const std::function<std::pair<const Tensor, const Tensor>(size_t)> &getInOut) {
  std::vector<Tensor> ins, outs;
  for (const auto &interval : which)
    for (std::size_t m = interval.begin(); m < interval.end(); ++m) {
      auto [in, out] = getInOut(m);
      if (in.numElements() != std::size_t(rows) * cols || out.numElements() != in.numElements())
        raise<poputil::poplibs_error>("popops::rearrange::addTransposeVertices: getInOut(", m,
                                      ") returned tensors of ", in.numElements(), " and ",
                                      out.numElements(), " elements but a ", rows, "x", cols,
                                      " matrix has ", std::size_t(rows) * cols);
      if (in.elementType() != type || out.elementType() != type)
        raise<poputil::poplibs_error>("popops::rearrange::addTransposeVertices: getInOut(", m,
                                      ") returned tensors of type ", in.elementType(), " and ",
                                      out.elementType(), " but dType is ", type);
      ins.push_back(in.flatten());
      outs.push_back(out.flatten());
      graph.setTileMapping(out, tile);
    }
  auto v = graph.addVertex(cs, poputil::templateVertex(vertexName(kind), type));
  graph.setTileMapping(v, tile);
  const unsigned matrices = unsigned(ins.size());
  ::popops::internal::VertexCost cost{graph.getTarget(), -1, type, type, {rows, cols}, matrices};
  if (kind == Kind::Transpose2D) {
    graph.connect(v["src"], ins);
    graph.connect(v["dst"], outs);
    graph.setInitialValue(v["numSrcRows"], rows);
    graph.setInitialValue(v["numSrcColumns"], cols);
    graph.setPerfEstimate(v, ::popops::internal::transpose2DCycles(cost));
    return;
  }
  graph.connect(v["src"], concat(ins));
  graph.connect(v["dst"], concat(outs));
  graph.setInitialValue(v["numSrcRowsD4Or8"], rows / 4);
  graph.setInitialValue(v["numSrcColumnsD4Or8"], cols / 4);
  if (kind == Kind::Transpose1DSingleWorker) {
    graph.setInitialValue(v["numTranspositionsM1"], matrices - 1);
    graph.setPerfEstimate(v, ::popops::internal::transpose1DSingleWorkerCycles(cost));
    return;
  }
  auto split =
      ::popops::internal::transposeWorkerSplit(matrices, graph.getTarget().getNumWorkerContexts());
  graph.setInitialValue(v["numTranspositions"], split.perWorker);
  graph.setInitialValue(v["workerCount"], split.workerCount);
  graph.setPerfEstimate(v, ::popops::internal::transpose1DCycles(cost));
}

} // namespace

bool internal::isTransposableType(const Type &type) {
  return isTwoByte(type) || type == FLOAT || type == INT || type == UNSIGNED_INT;
}

void internal::checkTransposeType(const char *api, const Type &type) {
  if (!isTransposableType(type))
    raise<poputil::poplibs_error>(api, ": element type ", type,
                                  " is not supported; the transposes take half, short, unsigned "
                                  "short, float, int and unsigned int");
}

bool canUseFastTranspose(const Target &target, const Type &type, unsigned numRows,
                         unsigned numColumns, unsigned numTranspositions) {
  if (!isTwoByte(type) || numTranspositions > kMaxShort || numRows == 0 || numColumns == 0 ||
      numRows % 4 || numColumns % 4)
    return false;
  const unsigned rpt = rptCountMax(target);
  if (numRows == 4 && numColumns == 4)
    return numTranspositions < 2 || numTranspositions - 2 <= rpt;
  if (numColumns == 4)
    return !(numRows >= 8 && numRows / 4 - 2 > rpt) && numRows / 4 * 3 - 1 <= kStrideLimit;
  return !(numColumns >= 8 && numColumns / 4 - 2 > rpt) && numColumns / 4 * 3 - 1 <= kStrideLimit &&
         numRows / 4 < kStrideLimit;
}

void addTransposeVertices(Graph &graph, const ComputeSet &cs, const Type &dType, unsigned rows,
                          unsigned cols, const Graph::TileToTensorMapping &mapping,
                          std::function<std::pair<const Tensor, const Tensor>(size_t)> getInOut,
                          const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(rows, cols));
  internal::checkTransposeType("popops::rearrange::addTransposeVertices", dType);
  if (rows == 0 || cols == 0 || rows > kMaxShort || cols > kMaxShort)
    raise<poputil::poplibs_error>("popops::rearrange::addTransposeVertices: matrices of ", rows,
                                  "x", cols, " elements; each side must be 1 to ", kMaxShort);
  const Target &target = graph.getTarget();
  if (mapping.size() > target.getNumTiles())
    raise<poputil::poplibs_error>("popops::rearrange::addTransposeVertices: the mapping has ",
                                  mapping.size(), " tiles but the graph has ",
                                  target.getNumTiles());
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    const unsigned n = unsigned(countOf(mapping[tile]));
    if (n == 0)
      continue;
    if (canUseFastTranspose(target, dType, rows, cols, n)) {
      // One matrix, or a few 4x4 ones, are quicker on one worker than through the supervisor.
      bool single = n == 1 || (rows == 4 && cols == 4 && n <= 4);
      addVertex(graph, cs, single ? Kind::Transpose1DSingleWorker : Kind::Transpose1D, dType, rows,
                cols, tile, mapping[tile], getInOut);
      continue;
    }
    for (const auto &share : poputil::splitRegionsBetweenWorkers(target, mapping[tile], 1)) {
      bool fast = canUseFastTranspose(target, dType, rows, cols, unsigned(countOf(share)));
      addVertex(graph, cs, fast ? Kind::Transpose1DSingleWorker : Kind::Transpose2D, dType, rows,
                cols, tile, share, getInOut);
    }
  }
}

Tensor partialTranspose(Graph &graph, const Tensor &in, const ComputeSet &cs,
                        const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in));
  const char *api = "popops::rearrange::partialTranspose";
  if (in.rank() < 2)
    raise<poputil::poplibs_error>(api, ": the tensor has shape ", shapeText(in.shape()),
                                  "; it needs at least two dimensions to transpose");
  internal::checkTransposeType(api, in.elementType());
  const unsigned rank = in.rank();
  const std::size_t rows = in.dim(rank - 2), cols = in.dim(rank - 1);
  auto outShape = in.shape();
  std::swap(outShape[rank - 2], outShape[rank - 1]);
  Tensor out = graph.addVariable(in.elementType(), outShape, {di, "partialTranspose"});
  if (in.numElements() == 0) {
    graph.setTileMapping(out, 0);
    return out;
  }
  const std::size_t matrices = in.numElements() / (rows * cols);
  Tensor inFlat = in.reshape({matrices, rows * cols});
  Tensor outFlat = out.reshape({matrices, rows * cols});
  // Each matrix is transposed on the tile of its first element.
  auto mapping = graph.getTileMapping(inFlat.slice(0, 1, 1), false);
  addTransposeVertices(graph, cs, in.elementType(), unsigned(rows), unsigned(cols), mapping,
                       [&](size_t m) { return std::make_pair(inFlat[m], outFlat[m]); }, {di});
  // Matrices whose first element has no tile yet go to tile 0, so the output is fully mapped.
  std::vector<bool> mapped(matrices, false);
  for (const auto &tile : mapping)
    for (const auto &i : tile)
      std::fill(mapped.begin() + i.begin(), mapped.begin() + i.end(), true);
  std::vector<Interval> orphans;
  for (std::size_t m = 0; m < matrices; ++m)
    if (!mapped[m]) {
      if (!orphans.empty() && orphans.back().end() == m)
        orphans.back() = Interval(orphans.back().begin(), m + 1);
      else
        orphans.emplace_back(m, m + 1);
    }
  if (!orphans.empty()) {
    Graph::TileToTensorMapping rest(1);
    rest[0] = orphans;
    addTransposeVertices(graph, cs, in.elementType(), unsigned(rows), unsigned(cols), rest,
                         [&](size_t m) { return std::make_pair(inFlat[m], outFlat[m]); }, {di});
  }
  di.addOutput(out);
  return out;
}

unsigned getMinimumRegroupGrainSize(const Type &type) {
  if (isTwoByte(type))
    return 4;
  if (type == FLOAT || type == INT || type == UNSIGNED_INT)
    return 2;
  return 1;
}

} // namespace rearrange
} // namespace popops
