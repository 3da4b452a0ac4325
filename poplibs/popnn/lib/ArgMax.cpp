// argMax, argMin and the value with them, in two compute sets: on each tile, Reduce*ClassGather
// vertices find each worker's best candidate in the pieces of rows the tile holds; then one
// Reduce*ClassSparse vertex per row picks the best of the row's candidates, in column order (so
// ties keep the lowest column). Also topK, through popops' sort.
#include <popnn/Loss.hpp>

#include "Checks.hpp"

#include <popops/Cast.hpp>
#include <popops/TopK.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

#include <algorithm>
#include <map>

namespace popnn {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;

namespace {

/// One piece of a row held contiguously by one tile, and its candidates.
struct Piece {
  std::size_t column;
  Tensor values, labels;
};

void checkClassInput(const std::string &api, const Tensor &input) {
  internal::checkRank(api, "input", input, 2);
  Type t = input.elementType();
  if (t != FLOAT && t != HALF && t != INT && t != UNSIGNED_INT)
    raise<poputil::poplibs_error>(api, ": input has type ", t,
                                  " but must be float, half, int or unsigned int");
  if (input.dim(1) == 0)
    raise<poputil::poplibs_error>(api, ": input has shape {", input.dim(0), ",0}: no columns");
}

/// (best values in input's type, their columns as UNSIGNED_INT), one per row.
std::pair<Tensor, Tensor> bestOfRows(Graph &graph, const Tensor &input, bool isMax, Sequence &prog,
                                     const DebugContext &dc, const std::string &api) {
  checkClassInput(api, input);
  const std::size_t rows = input.dim(0), cols = input.dim(1);
  const Type type = input.elementType();
  // Candidates are kept in the compute type (float for half): whole words per worker.
  const Type valueType = type == HALF ? FLOAT : type;
  const std::string kind = isMax ? "Max" : "Min";
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  auto mapping = graph.getTileMapping(input);
  ComputeSet gatherCs = graph.addComputeSet({dc, "gather"});
  std::vector<std::vector<Piece>> pieces(rows);
  std::vector<unsigned> rowTile(rows, 0);
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    for (const auto &region : mapping[tile]) {
      for (std::size_t begin = region.begin(); begin < region.end();) {
        std::size_t row = begin / cols, column = begin % cols;
        std::size_t end = std::min<std::size_t>(region.end(), (row + 1) * cols);
        std::size_t size = end - begin;
        std::size_t workerSize = (size + workers - 1) / workers;
        std::size_t candidates = (size + workerSize - 1) / workerSize;
        Piece p{column, graph.addVariable(valueType, {candidates}, {dc, "candidates"}),
                graph.addVariable(UNSIGNED_INT, {candidates}, {dc, "candidateColumns"})};
        graph.setTileMapping(p.values, tile);
        graph.setTileMapping(p.labels, tile);
        auto v = graph.addVertex(
            gatherCs,
            poputil::templateVertex("popnn::Reduce" + kind + "ClassGather", type, UNSIGNED_INT));
        graph.connect(v["activations"], input[row].slice(column, column + size));
        graph.connect(v["maxValue"], p.values);
        graph.connect(v["maxIndex"], p.labels);
        graph.setInitialValue(v["index"], unsigned(column));
        graph.setInitialValue(v["size"], unsigned(size));
        graph.setInitialValue(v["workerSize"], unsigned(workerSize));
        graph.setTileMapping(v, tile);
        if (pieces[row].empty() || column < pieces[row].front().column)
          rowTile[row] = tile;
        pieces[row].push_back(p);
        begin = end;
      }
    }
  }
  Tensor values = graph.addVariable(valueType, {rows}, {dc, "values"});
  Tensor indices = graph.addVariable(UNSIGNED_INT, {rows}, {dc, "indices"});
  ComputeSet sparseCs = graph.addComputeSet({dc, "select"});
  for (std::size_t row = 0; row < rows; ++row) {
    auto &ps = pieces[row];
    if (ps.empty())
      raise<poputil::poplibs_error>(api, ": row ", row, " of input is not mapped to any tile");
    std::sort(ps.begin(), ps.end(),
              [](const Piece &a, const Piece &b) { return a.column < b.column; });
    std::vector<Tensor> vs, ls;
    for (const auto &p : ps) {
      vs.push_back(p.values);
      ls.push_back(p.labels);
    }
    auto v =
        graph.addVertex(sparseCs, poputil::templateVertex("popnn::Reduce" + kind + "ClassSparse",
                                                          type, UNSIGNED_INT));
    graph.connect(v["activations"], concat(vs));
    graph.connect(v["labels"], concat(ls));
    graph.connect(v["maxValue"], values[row]);
    graph.connect(v["maxIndex"], indices[row]);
    graph.setTileMapping(v, rowTile[row]);
    graph.setTileMapping(values[row], rowTile[row]);
    graph.setTileMapping(indices[row], rowTile[row]);
  }
  prog.add(Execute(gatherCs, {dc}));
  prog.add(Execute(sparseCs, {dc}));
  if (valueType != type)
    values = popops::cast(graph, values, type, prog, {dc, "values"});
  return {values, indices};
}

} // namespace

std::pair<Tensor, Tensor> maxAndArgMax(Graph &graph, const Tensor &input, Sequence &prog,
                                       const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input));
  auto out = bestOfRows(graph, input, true, prog, {di}, "popnn::maxAndArgMax");
  di.addOutputs({{"max", poputil::toProfileValue(out.first)},
                 {"argMax", poputil::toProfileValue(out.second)}});
  return out;
}

std::pair<Tensor, Tensor> minAndArgMin(Graph &graph, const Tensor &input, Sequence &prog,
                                       const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input));
  auto out = bestOfRows(graph, input, false, prog, {di}, "popnn::minAndArgMin");
  di.addOutputs({{"min", poputil::toProfileValue(out.first)},
                 {"argMin", poputil::toProfileValue(out.second)}});
  return out;
}

Tensor argMax(Graph &graph, const Tensor &input, Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input));
  Tensor out = bestOfRows(graph, input, true, prog, {di}, "popnn::argMax").second;
  di.addOutput(out);
  return out;
}

Tensor argMin(Graph &graph, const Tensor &input, Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input));
  Tensor out = bestOfRows(graph, input, false, prog, {di}, "popnn::argMin").second;
  di.addOutput(out);
  return out;
}

Tensor topK(Graph &graph, const Tensor &input, Tensor &indices, unsigned K, bool sort,
            Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, K, sort));
  const std::string api = "popnn::topK";
  checkClassInput(api, input);
  if (K > input.dim(1))
    raise<poputil::poplibs_error>(api, ": K = ", K, " is more than the ", input.dim(1),
                                  " columns of input");
  popops::TopKParams params(K, true,
                            sort ? popops::SortOrder::DESCENDING : popops::SortOrder::NONE);
  auto [values, positions] = popops::topKWithPermutation(graph, prog, input, params, {di});
  indices = positions;
  di.addOutputs(
      {{"values", poputil::toProfileValue(values)}, {"indices", poputil::toProfileValue(indices)}});
  return values;
}

} // namespace popnn
