// Block odd-even transposition sort. Each row of n keys is cut into B blocks of S elements (the
// last may be shorter) and the R * B blocks are spread over the tiles in order. One compute set
// sorts every block (SortBlocks, a merge sort); then B rounds alternate merging blocks (0,1),
// (2,3), ... and (1,2), (3,4), ... of each row (MergeSplit: the lower block keeps the smaller
// half). With equal blocks, B such rounds sort any input (the 0-1 principle applies, as a
// merge-split is a network of compare-exchanges), and because every step is stable the whole sort
// is.
#include "SortRows.hpp"

#include "support/Raise.hpp"

#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>
#include <map>

namespace popops::internal {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;

namespace {

/// Block sizes: about one block per worker of each tile (the blocks of a tile sort in parallel and
/// each round's merges keep every worker busy), but no fewer than minBlock elements (each block
/// costs a merge round and its syncs) and no more than maxBlock (a block and its scratch live on
/// one tile).
constexpr std::size_t minBlock = 32, maxBlock = 2048;

struct Block {
  std::size_t row, begin, end;
  unsigned tile;
};

struct Layout {
  std::size_t rows, n, blockSize, blocksPerRow;
  std::vector<Block> blocks; // row-major
  const Block &at(std::size_t row, std::size_t j) const { return blocks[row * blocksPerRow + j]; }
};

Layout makeLayout(const Graph &graph, std::size_t rows, std::size_t n) {
  const std::size_t tiles = graph.getTarget().getNumTiles();
  const std::size_t workers = graph.getTarget().getNumWorkerContexts();
  std::size_t share = (rows * n + tiles * workers - 1) / (tiles * workers);
  std::size_t s = std::min({n, maxBlock, std::max(minBlock, share)});
  Layout l{rows, n, s, (n + s - 1) / s, {}};
  const std::size_t total = rows * l.blocksPerRow;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t j = 0; j < l.blocksPerRow; ++j) {
      std::size_t g = r * l.blocksPerRow + j;
      l.blocks.push_back({r, j * s, std::min(n, (j + 1) * s), unsigned(g * tiles / total)});
    }
  return l;
}

/// The [rows, n] work tensor: one variable per tile holding its blocks one after another, each
/// padded to whole 32-bit words, so that vertices on one tile never write one word.
Tensor workTensor(Graph &graph, const Type &type, const Layout &l, const DebugContext &dc) {
  const std::size_t perWord = std::max<std::size_t>(1, 4 / type.size());
  const std::size_t stride = (l.blockSize + perWord - 1) / perWord * perWord;
  std::map<unsigned, std::vector<std::size_t>> byTile; // tile -> block indices
  for (std::size_t i = 0; i < l.blocks.size(); ++i)
    byTile[l.blocks[i].tile].push_back(i);
  std::vector<Tensor> pieces(l.blocks.size());
  for (const auto &[tile, indices] : byTile) {
    Tensor v =
        graph.addVariable(type, {indices.size(), stride}, {dc, "tile" + std::to_string(tile)});
    graph.setTileMapping(v, tile);
    for (std::size_t k = 0; k < indices.size(); ++k) {
      const Block &b = l.blocks[indices[k]];
      pieces[indices[k]] = v[k].slice(0, b.end - b.begin);
    }
  }
  std::vector<Tensor> rows;
  for (std::size_t r = 0; r < l.rows; ++r)
    rows.push_back(concat(std::vector<Tensor>(pieces.begin() + r * l.blocksPerRow,
                                              pieces.begin() + (r + 1) * l.blocksPerRow))
                       .expand({0}));
  return concat(rows);
}

Tensor blockOf(const Tensor &t, const Block &b) { return t[b.row].slice(b.begin, b.end); }

/// Splits `items` of one tile into up to `workers` lists, round robin.
template <class T>
std::vector<std::vector<T>> byWorker(const std::vector<T> &items, unsigned workers) {
  std::vector<std::vector<T>> lists(std::min<std::size_t>(workers, items.size()));
  for (std::size_t i = 0; i < items.size(); ++i)
    lists[i % lists.size()].push_back(items[i]);
  return lists;
}

std::string vertexName(const std::string &base, const Tensor &keys, SortValues kind,
                       const Tensor &values) {
  if (kind == SortValues::None)
    return poputil::templateVertex("popops::" + base, keys.elementType());
  return poputil::templateVertex("popops::" + base + "KV", keys.elementType(),
                                 values.elementType());
}

/// A scratch vector of `size` elements on `tile` for one vertex.
Tensor scratchOn(Graph &graph, const Type &type, std::size_t size, unsigned tile,
                 const DebugContext &dc) {
  Tensor t = graph.addVariable(type, {size}, {dc, "scratch"});
  graph.setTileMapping(t, tile);
  return t;
}

void addSortBlocks(Graph &graph, ComputeSet cs, const Layout &l, const Tensor &keys,
                   SortValues kind, const Tensor &values, bool descending, const DebugContext &dc) {
  std::map<unsigned, std::vector<Block>> byTile;
  for (const auto &b : l.blocks)
    byTile[b.tile].push_back(b);
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  for (const auto &[tile, blocks] : byTile)
    for (const auto &list : byWorker(blocks, workers)) {
      std::vector<Tensor> k, v;
      std::size_t largest = 0;
      for (const auto &b : list) {
        k.push_back(blockOf(keys, b));
        if (kind != SortValues::None)
          v.push_back(blockOf(values, b));
        largest = std::max(largest, b.end - b.begin);
      }
      auto vertex = graph.addVertex(cs, vertexName("SortBlocks", keys, kind, values));
      graph.connect(vertex["keys"], k);
      graph.connect(vertex["scratch"], scratchOn(graph, keys.elementType(), largest, tile, dc));
      if (kind != SortValues::None) {
        graph.connect(vertex["values"], v);
        graph.connect(vertex["scratchValues"],
                      scratchOn(graph, values.elementType(), largest, tile, dc));
      }
      graph.setInitialValue(vertex["descending"], descending);
      graph.setTileMapping(vertex, tile);
    }
}

/// The merge-splits of blocks (j, j + 1) of every row, for j of the given parity.
void addMergeSplits(Graph &graph, ComputeSet cs, const Layout &l, std::size_t parity,
                    const Tensor &keys, SortValues kind, const Tensor &values, bool descending,
                    const DebugContext &dc) {
  std::map<unsigned, std::vector<std::pair<Block, Block>>> byTile;
  for (std::size_t r = 0; r < l.rows; ++r)
    for (std::size_t j = parity; j + 1 < l.blocksPerRow; j += 2)
      byTile[l.at(r, j).tile].emplace_back(l.at(r, j), l.at(r, j + 1));
  const unsigned workers = graph.getTarget().getNumWorkerContexts();
  for (const auto &[tile, pairs] : byTile)
    for (const auto &list : byWorker(pairs, workers)) {
      std::vector<Tensor> lo, hi, loV, hiV;
      std::size_t largest = 0;
      for (const auto &[a, b] : list) {
        lo.push_back(blockOf(keys, a));
        hi.push_back(blockOf(keys, b));
        if (kind != SortValues::None) {
          loV.push_back(blockOf(values, a));
          hiV.push_back(blockOf(values, b));
        }
        largest = std::max(largest, (a.end - a.begin) + (b.end - b.begin));
      }
      auto vertex = graph.addVertex(cs, vertexName("MergeSplit", keys, kind, values));
      graph.connect(vertex["lower"], lo);
      graph.connect(vertex["upper"], hi);
      graph.connect(vertex["scratch"], scratchOn(graph, keys.elementType(), largest, tile, dc));
      if (kind != SortValues::None) {
        graph.connect(vertex["lowerValues"], loV);
        graph.connect(vertex["upperValues"], hiV);
        graph.connect(vertex["scratchValues"],
                      scratchOn(graph, values.elementType(), largest, tile, dc));
      }
      graph.setInitialValue(vertex["descending"], descending);
      graph.setTileMapping(vertex, tile);
    }
}

/// values[r][i] = i, block by block.
void addPositions(Graph &graph, ComputeSet cs, const Layout &l, const Tensor &values) {
  std::map<unsigned, std::vector<Block>> byTile;
  for (const auto &b : l.blocks)
    byTile[b.tile].push_back(b);
  for (const auto &[tile, blocks] : byTile) {
    std::vector<Tensor> out;
    std::vector<unsigned> offsets;
    for (const auto &b : blocks) {
      out.push_back(blockOf(values, b));
      offsets.push_back(b.begin);
    }
    auto v = graph.addVertex(cs, poputil::templateVertex("popops::Iota", UNSIGNED_INT));
    graph.connect(v["out"], out);
    graph.setInitialValue(v["offsets"], ArrayRef<unsigned>(offsets));
    graph.setTileMapping(v, tile);
  }
}

} // namespace

void checkSortType(const std::string &api, const std::string &name, const Tensor &t) {
  auto type = t.elementType();
  if (type != FLOAT && type != HALF && type != INT && type != UNSIGNED_INT)
    raise<poputil::poplibs_error>(api, ": ", name, " has type ", type,
                                  "; sorting takes float, half, int or unsigned int");
}

SortedRows sortRows(Graph &graph, const std::string &api, const Tensor &keys, SortValues valuesKind,
                    const Tensor &values, bool descending, Sequence &prog, const DebugContext &dc) {
  checkSortType(api, "keys", keys);
  if (valuesKind == SortValues::Given)
    checkSortType(api, "values", values);
  const std::size_t rows = keys.dim(0), n = keys.dim(1);
  SortedRows out;
  const Type valueType = valuesKind == SortValues::Given ? values.elementType() : UNSIGNED_INT;
  if (rows * n == 0) {
    out.keys = graph.addVariable(keys.elementType(), {rows, n}, {dc, "sortedKeys"});
    if (valuesKind != SortValues::None)
      out.values = graph.addVariable(valueType, {rows, n}, {dc, "sortedValues"});
    return out;
  }
  Layout l = makeLayout(graph, rows, n);
  out.keys = workTensor(graph, keys.elementType(), l, {dc, "sortedKeys"});
  prog.add(Copy(keys, out.keys));
  if (valuesKind != SortValues::None) {
    out.values = workTensor(graph, valueType, l, {dc, "sortedValues"});
    if (valuesKind == SortValues::Given) {
      prog.add(Copy(values, out.values));
    } else {
      auto cs = graph.addComputeSet({dc, api + "/positions"});
      addPositions(graph, cs, l, out.values);
      prog.add(Execute(cs));
    }
  }
  auto blocksCs = graph.addComputeSet({dc, api + "/sortBlocks"});
  addSortBlocks(graph, blocksCs, l, out.keys, valuesKind, out.values, descending, dc);
  prog.add(Execute(blocksCs));
  if (l.blocksPerRow > 1) {
    auto even = graph.addComputeSet({dc, api + "/mergeEven"});
    auto odd = graph.addComputeSet({dc, api + "/mergeOdd"});
    addMergeSplits(graph, even, l, 0, out.keys, valuesKind, out.values, descending, dc);
    addMergeSplits(graph, odd, l, 1, out.keys, valuesKind, out.values, descending, dc);
    // Two rounds an iteration: at least blocksPerRow rounds in all.
    prog.add(Repeat(unsigned((l.blocksPerRow + 1) / 2), Sequence{Execute(even), Execute(odd)},
                    {dc, api + "/merge"}));
  }
  return out;
}

} // namespace popops::internal
