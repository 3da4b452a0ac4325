// Column groups for slicing, and tensors laid out by them.
#include "SliceLayout.hpp"

#include <poputil/TileMapping.hpp>

#include "support/WorkerSplit.hpp"

#include <algorithm>
#include <map>

namespace popops::internal {

using namespace poplar;

std::vector<ColumnGroup> balancedColumns(const Graph &graph, std::size_t columns, const Type &type,
                                         std::size_t minGrainSize) {
  unsigned grain = std::max(1u, graph.getTarget().getVectorWidth(type));
  auto mapping = poputil::calcLinearTileMapping(graph, {columns}, unsigned(minGrainSize), grain);
  std::vector<ColumnGroup> groups;
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    if (!mapping[tile].empty())
      groups.push_back({tile, mapping[tile]});
  return groups;
}

std::vector<ColumnGroup> sliceColumns(const Graph &graph, const Tensor &t2d) {
  auto first = graph.getTileMapping(t2d[0]);
  if (t2d.dim(0) > 1 && graph.getTileMapping(t2d[t2d.dim(0) - 1]) != first)
    return balancedColumns(graph, t2d.dim(1), t2d.elementType());
  std::vector<ColumnGroup> groups;
  for (unsigned tile = 0; tile < first.size(); ++tile) {
    if (first[tile].empty())
      continue;
    auto columns = first[tile];
    std::sort(columns.begin(), columns.end(),
              [](const Interval &a, const Interval &b) { return a.begin() < b.begin(); });
    groups.push_back({tile, std::move(columns)});
  }
  return groups;
}

std::vector<Interval> workerSplitColumns(const Target &target, const std::vector<Interval> &columns,
                                         const Type &type) {
  const std::size_t maxColumns = popsdk::support::maxWorkerSplitElements(target.getTypeSize(type));
  std::vector<Interval> pieces;
  for (const auto &c : columns)
    popsdk::support::forEachPiece(c.begin(), c.end(), maxColumns,
                                  [&](std::size_t b, std::size_t e) { pieces.emplace_back(b, e); });
  return pieces;
}

Tensor createByColumns(Graph &graph, const Type &type, std::size_t rows, std::size_t columns,
                       const std::vector<ColumnGroup> &groups, const DebugContext &dc) {
  // Each tile's variable holds its intervals side by side; the result picks them up in column
  // order.
  std::map<std::size_t, Tensor> pieces; // first column -> [rows, interval size]
  for (const auto &g : groups) {
    std::size_t width = 0;
    for (const auto &c : g.columns)
      width += c.size();
    if (width == 0)
      continue;
    Tensor v = graph.addVariable(type, {rows, width}, {dc, "tile" + std::to_string(g.tile)});
    graph.setTileMapping(v, g.tile);
    std::size_t at = 0;
    for (const auto &c : g.columns) {
      pieces[c.begin()] = v.slice(at, at + c.size(), 1);
      at += c.size();
    }
  }
  if (pieces.empty())
    return graph.addVariable(type, {rows, columns}, dc);
  std::vector<Tensor> ordered;
  for (auto &p : pieces)
    ordered.push_back(p.second);
  return concat(ordered, 1);
}

Tensor rowsOf(const Tensor &t2d, const Interval &c) {
  std::vector<Tensor> rows;
  for (std::size_t r = 0; r < t2d.dim(0); ++r)
    rows.push_back(t2d[r].slice(c.begin(), c.end()));
  return concat(rows);
}

Tensor as2D(const Tensor &t, unsigned dim) {
  std::size_t n = t.dim(dim);
  std::size_t rest = n == 0 ? 0 : t.numElements() / n;
  if (n == 0) {
    rest = 1;
    for (unsigned d = 0; d < t.rank(); ++d)
      if (d != dim)
        rest *= t.dim(d);
  }
  return t.dimRoll(dim, 0).reshape({n, rest});
}

Tensor from2D(const Tensor &t2d, std::vector<std::size_t> shape, unsigned dim) {
  std::vector<std::size_t> rolled{shape[dim]};
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != dim)
      rolled.push_back(shape[d]);
  return t2d.reshape(rolled).dimRoll(0, dim);
}

std::vector<unsigned> slicedFirst(std::size_t rank, const std::vector<std::size_t> &dims) {
  std::vector<unsigned> order(dims.begin(), dims.end());
  for (unsigned d = 0; d < rank; ++d)
    if (std::find(dims.begin(), dims.end(), d) == dims.end())
      order.push_back(d);
  return order;
}

namespace {

std::vector<unsigned> inverse(const std::vector<unsigned> &perm) {
  std::vector<unsigned> inv(perm.size());
  for (unsigned i = 0; i < perm.size(); ++i)
    inv[perm[i]] = i;
  return inv;
}

std::size_t product(const std::vector<std::size_t> &v, std::size_t begin, std::size_t end) {
  std::size_t p = 1;
  for (std::size_t i = begin; i < end; ++i)
    p *= v[i];
  return p;
}

/// `shape` permuted by `perm` (result dim i = shape[perm[i]]).
std::vector<std::size_t> permuted(const std::vector<std::size_t> &shape,
                                  const std::vector<unsigned> &perm) {
  std::vector<std::size_t> out;
  for (unsigned d : perm)
    out.push_back(shape[d]);
  return out;
}

} // namespace

Tensor createSliceable(Graph &graph, const Type &type, const std::vector<std::size_t> &shape,
                       const std::vector<std::size_t> &dims, std::size_t minGrainSize,
                       const DebugContext &dc) {
  auto perm = slicedFirst(shape.size(), dims);
  auto pshape = permuted(shape, perm);
  std::size_t rows = product(pshape, 0, dims.size());
  std::size_t columns = product(pshape, dims.size(), pshape.size());
  if (rows * columns == 0)
    return graph.addVariable(type, shape, dc);
  auto groups = balancedColumns(graph, columns, type, minGrainSize);
  Tensor t2d = createByColumns(graph, type, rows, columns, groups, dc);
  return t2d.reshape(pshape).dimShuffle(inverse(perm));
}

Tensor createSlicesByColumns(Graph &graph, const Type &type, const std::vector<std::size_t> &shape,
                             const std::vector<std::size_t> &dims,
                             const std::vector<std::size_t> &sizes, std::size_t numIndices,
                             const std::vector<ColumnGroup> &groups, const DebugContext &dc) {
  auto sliceShape = shape;
  for (std::size_t i = 0; i < dims.size(); ++i)
    sliceShape[dims[i]] = sizes[i];
  auto perm = slicedFirst(shape.size(), dims);
  auto pshape = permuted(sliceShape, perm);
  std::size_t rows = numIndices * product(pshape, 0, dims.size());
  std::size_t columns = product(pshape, dims.size(), pshape.size());
  std::vector<std::size_t> outShape{numIndices};
  outShape.insert(outShape.end(), sliceShape.begin(), sliceShape.end());
  if (rows * columns == 0)
    return graph.addVariable(type, outShape, dc);
  Tensor s2d = createByColumns(graph, type, rows, columns, groups, dc);
  // [numIndices, sliced dims..., other dims...] back to [numIndices, sliceShape...].
  std::vector<std::size_t> xshape{numIndices};
  xshape.insert(xshape.end(), pshape.begin(), pshape.end());
  std::vector<unsigned> back{0};
  for (unsigned i : inverse(perm))
    back.push_back(i + 1);
  return s2d.reshape(xshape).dimShuffle(back);
}

Tensor createSlices(Graph &graph, const Tensor &t, const std::vector<std::size_t> &dims,
                    const std::vector<std::size_t> &sizes, std::size_t numIndices,
                    const DebugContext &dc) {
  auto perm = slicedFirst(t.rank(), dims);
  auto pshape = permuted(t.shape(), perm);
  std::size_t rows = product(pshape, 0, dims.size());
  std::size_t columns = product(pshape, dims.size(), pshape.size());
  std::vector<ColumnGroup> groups;
  if (rows * columns != 0)
    groups = sliceColumns(graph, t.dimShuffle(perm).reshape({rows, columns}));
  return createSlicesByColumns(graph, t.elementType(), t.shape(), dims, sizes, numIndices, groups,
                               dc);
}

} // namespace popops::internal
