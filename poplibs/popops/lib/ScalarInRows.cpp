// selectScalarFromRows / updateScalarInRows: the rows of params cut into the pieces each tile
// holds; one vertex per tile (SelectFromRows, UpdateScalarInRows) walks its pieces with each
// piece's row index, so params never moves. A selected row's pieces each give a partial result
// (the element, NaN for a bad index in the row's first piece, else 0); rows held in one piece
// read theirs directly, others sum their pieces with an ADD reduction.
#include <popops/SelectScalarFromRows.hpp>
#include <popops/UpdateScalarInRows.hpp>

#include <popops/Reduce.hpp>

#include "TileRegions.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>


namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

struct Piece {
  std::size_t row, columnBegin, size;
};

struct TilePieces {
  unsigned tile;
  std::vector<Piece> pieces;
};

void checkArgs(const std::string &api, const Tensor &params, const Tensor &indices) {
  if (params.rank() != 2)
    raise<poputil::poplibs_error>(api, ": params has shape ", shapeText(params.shape()),
                                  " but must be 2-D [rows, width]");
  if (params.elementType() != FLOAT && params.elementType() != HALF)
    raise<poputil::poplibs_error>(api, ": params has type ", params.elementType(),
                                  " but must be float or half");
  if (indices.elementType() != UNSIGNED_INT)
    raise<poputil::poplibs_error>(api, ": indices has type ", indices.elementType(),
                                  " but must be unsigned int");
  if (indices.rank() != 1 || indices.dim(0) != params.dim(0))
    raise<poputil::poplibs_error>(api, ": indices has shape ", shapeText(indices.shape()),
                                  " but must be [", params.dim(0), "], one per row of params ",
                                  shapeText(params.shape()));
  if (params.dim(0) != 0 && params.dim(1) == 0)
    raise<poputil::poplibs_error>(api, ": params ", shapeText(params.shape()),
                                  " has rows of width 0, with no element to select");
}

/// Each tile's regions of params cut at row ends.
std::vector<TilePieces> rowPieces(const Graph &graph, const Tensor &params,
                                  const std::string &api) {
  const std::size_t width = params.dim(1);
  std::vector<TilePieces> out;
  for (const auto &tr : internal::contiguousTileRegions(graph, params, api)) {
    TilePieces tp{tr.tile, {}};
    for (const auto &r : tr.regions)
      for (std::size_t e = r.begin(); e < r.end();) {
        const std::size_t row = e / width, column = e % width;
        const std::size_t size = std::min(r.end() - e, width - column);
        tp.pieces.push_back({row, column, size});
        e += size;
      }
    out.push_back(std::move(tp));
  }
  return out;
}

/// One vertex of `vertex` on tile `tp.tile` over its pieces.
VertexRef addRowsVertex(Graph &graph, ComputeSet cs, const std::string &vertex,
                        const Tensor &params, const Tensor &indices, const TilePieces &tp) {
  std::vector<Tensor> pieces, rowIndices;
  std::vector<unsigned> columnBegin;
  for (const auto &p : tp.pieces) {
    pieces.push_back(params[p.row].slice(p.columnBegin, p.columnBegin + p.size));
    rowIndices.push_back(indices.slice(p.row, p.row + 1));
    columnBegin.push_back(unsigned(p.columnBegin));
  }
  auto v = graph.addVertex(cs, poputil::templateVertex(vertex, params.elementType()));
  graph.connect(v["params"], pieces);
  graph.connect(v["indices"], concat(rowIndices));
  graph.setInitialValue(v["columnBegin"], ArrayRef<unsigned>(columnBegin));
  graph.setInitialValue(v["width"], unsigned(params.dim(1)));
  graph.setTileMapping(v, tp.tile);
  return v;
}

} // namespace

Tensor selectScalarFromRows(Graph &graph, const Tensor &params, const Tensor &indices,
                            Sequence &prog, const DebugContext &debugContext) {
  const std::string api = "popops::selectScalarFromRows";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(params, indices));
  checkArgs(api, params, indices);
  const Type type = params.elementType();
  const std::size_t rows = params.dim(0);
  if (rows == 0) {
    Tensor out = graph.addVariable(type, {0}, {di, "empty"});
    di.addOutput(out);
    return out;
  }
  auto cs = graph.addComputeSet({di, api});
  // Each row's partial results, in piece order.
  std::vector<std::vector<Tensor>> partials(rows);
  for (const auto &tp : rowPieces(graph, params, api)) {
    Tensor out = graph.addVariable(type, {tp.pieces.size()}, {di, "partials"});
    graph.setTileMapping(out, tp.tile);
    auto v = addRowsVertex(graph, cs, "popops::SelectFromRows", params, indices, tp);
    graph.connect(v["out"], out);
    for (std::size_t i = 0; i < tp.pieces.size(); ++i)
      partials[tp.pieces[i].row].push_back(out.slice(i, i + 1));
  }
  prog.add(Execute(cs, {di}));
  std::size_t most = 0;
  for (const auto &p : partials)
    most = std::max(most, p.size());
  Tensor result;
  if (most == 1) {
    std::vector<Tensor> each;
    for (auto &p : partials)
      each.push_back(p[0]);
    result = concat(each);
  } else {
    // Rows with fewer pieces are padded with zeros, which add nothing.
    Tensor zero = graph.addConstant(type, {1}, 0.0f, {di, "zero"});
    graph.setTileMapping(zero, 0);
    std::vector<Tensor> table;
    for (auto &p : partials) {
      while (p.size() < most)
        p.push_back(zero);
      table.push_back(concat(p).expand({0}));
    }
    result = reduce(graph, concat(table), type, {1}, {Operation::ADD}, prog, {di, "rows"});
  }
  di.addOutput(result);
  return result;
}

void updateScalarInRows(Graph &graph, const Tensor &params, const Tensor &indices,
                        Sequence &program, const DebugContext &debugContext) {
  const std::string api = "popops::updateScalarInRows";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(params, indices));
  checkArgs(api, params, indices);
  if (params.numElements() == 0)
    return;
  if (params.containsAliases())
    raise<poputil::poplibs_error>(api, ": params ", shapeText(params.shape()),
                                  " has elements that alias each other");
  auto cs = graph.addComputeSet({di, api});
  for (const auto &tp : rowPieces(graph, params, api))
    addRowsVertex(graph, cs, "popops::UpdateScalarInRows", params, indices, tp);
  program.add(Execute(cs, {di}));
}

} // namespace popops
