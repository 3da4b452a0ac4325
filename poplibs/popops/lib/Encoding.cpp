// encodeOneHot and iota: vertices over the output's regions on each tile, split between the
// workers (EncodeOneHot, Iota in codelets/popops/Encoding.cpp).
#include <popops/Encoding.hpp>

#include "SliceArgs.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

/// Each tile's intervals of the flat `t`, split into up to one partition per worker.
std::vector<std::pair<unsigned, std::vector<Interval>>> workerPartitions(const Graph &graph,
                                                                         const Tensor &t) {
  auto mapping = graph.getTileMapping(t);
  unsigned grain = std::max(1u, graph.getTarget().getVectorWidth(t.elementType()));
  std::vector<std::pair<unsigned, std::vector<Interval>>> parts;
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    auto regions = mapping[tile];
    std::sort(regions.begin(), regions.end(),
              [](const Interval &a, const Interval &b) { return a.begin() < b.begin(); });
    for (auto &p :
         poputil::splitRegionsBetweenWorkers(graph.getTarget(), regions, grain, 2 * grain))
      parts.emplace_back(tile, std::move(p));
  }
  return parts;
}

bool isOneOf(const Type &t, std::initializer_list<Type> types) {
  return std::find(types.begin(), types.end(), t) != types.end();
}

void encodeOneHotImpl(Graph &graph, const Tensor &indices, const Tensor &encoded, Sequence &prog,
                      const Tensor &on, const Tensor &off, const DebugContext &dc) {
  const std::string api = "popops::encodeOneHot";
  internal::checkIndexType(api, "indices", indices);
  if (indices.rank() != 1)
    raise<poputil::poplibs_error>(api, ": indices has shape ", shapeText(indices.shape()),
                                  " but must be 1-D");
  if (encoded.rank() != 2 || encoded.dim(0) != indices.dim(0))
    raise<poputil::poplibs_error>(api, ": encoded has shape ", shapeText(encoded.shape()),
                                  " but must be [", indices.dim(0), ", classes] for indices ",
                                  shapeText(indices.shape()));
  const Type type = encoded.elementType();
  if (!isOneOf(type, {FLOAT, HALF, INT, UNSIGNED_INT}))
    raise<poputil::poplibs_error>(api, ": encoded has type ", type,
                                  "; it must be float, half, int or unsigned int");
  for (const auto &[name, value] : {std::make_pair("on", on), std::make_pair("off", off)})
    if (value.elementType() != type || value.numElements() != 1)
      raise<poputil::poplibs_error>(api, ": ", name, " is ", value.elementType(),
                                    shapeText(value.shape()), " but must be one ", type);
  if (encoded.numElements() == 0)
    return;
  const std::size_t classes = encoded.dim(1);
  Tensor flat = encoded.flatten();
  auto cs = graph.addComputeSet({dc, api});
  std::string vertex = poputil::templateVertex("popops::EncodeOneHot", indices.elementType(), type);
  for (const auto &[tile, regions] : workerPartitions(graph, flat)) {
    // Each region splits at row ends into pieces; piece i is row `rows[i]` from `offsets[i]`.
    std::vector<Tensor> outs, pieceIndices;
    std::vector<unsigned> offsets, lengths;
    for (const auto &r : regions) {
      outs.push_back(flat.slice(r.begin(), r.end()));
      for (std::size_t e = r.begin(); e < r.end();) {
        std::size_t row = e / classes, col = e % classes;
        std::size_t n = std::min(r.end() - e, classes - col);
        pieceIndices.push_back(indices.slice(row, row + 1));
        offsets.push_back(col);
        lengths.push_back(n);
        e += n;
      }
    }
    auto v = graph.addVertex(cs, vertex,
                             {{"indices", concat(pieceIndices)},
                              {"out", concat(outs)},
                              {"on", on.flatten()},
                              {"off", off.flatten()}});
    graph.setInitialValue(v["offsets"], ArrayRef<unsigned>(offsets));
    graph.setInitialValue(v["sliceLength"], ArrayRef<unsigned>(lengths));
    graph.setTileMapping(v, tile);
  }
  prog.add(Execute(cs));
}

Tensor scalarConstant(Graph &graph, const Type &type, float value, const DebugContext &dc) {
  Tensor c = graph.addConstant(type, {1}, value, dc);
  graph.setTileMapping(c, 0);
  return c;
}

template <class T>
void iotaImpl(Graph &graph, const Tensor &t, T start, const Type &type, Sequence &prog,
              const DebugContext &dc) {
  if (t.elementType() != type)
    raise<poputil::poplibs_error>("popops::iota: t has type ", t.elementType(),
                                  " but a start of type ", type, " needs a ", type, " tensor");
  if (t.rank() != 1)
    raise<poputil::poplibs_error>("popops::iota: t has shape ", shapeText(t.shape()),
                                  " but must be 1-D");
  if (t.numElements() == 0)
    return;
  auto cs = graph.addComputeSet({dc, "iota"});
  for (const auto &[tile, regions] : workerPartitions(graph, t)) {
    std::vector<Tensor> outs;
    std::vector<T> offsets;
    for (const auto &r : regions) {
      outs.push_back(t.slice(r.begin(), r.end()));
      offsets.push_back(T(start + T(r.begin())));
    }
    auto v = graph.addVertex(cs, poputil::templateVertex("popops::Iota", type));
    graph.connect(v["out"], outs);
    graph.setInitialValue(v["offsets"], ArrayRef<T>(offsets));
    graph.setTileMapping(v, tile);
  }
  prog.add(Execute(cs));
}

} // namespace

void encodeOneHot(Graph &graph, const Tensor &indices, const Tensor &encoded, Sequence &prog,
                  const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(indices, encoded));
  const Type type = encoded.elementType();
  Tensor on = scalarConstant(graph, type, 1.0f, {di, "on"});
  Tensor off = scalarConstant(graph, type, 0.0f, {di, "off"});
  encodeOneHotImpl(graph, indices, encoded, prog, on, off, {di});
}

void encodeOneHot(Graph &graph, const Tensor &indices, const Tensor &encoded, Sequence &prog,
                  const Tensor &on, const Tensor &off, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(indices, encoded, on, off));
  encodeOneHotImpl(graph, indices, encoded, prog, on, off, {di});
}

void iota(Graph &graph, const Tensor &t, unsigned startInteger, Sequence &prog,
          const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, startInteger));
  iotaImpl<unsigned>(graph, t, startInteger, UNSIGNED_INT, prog, {di});
}

void iota(Graph &graph, const Tensor &t, int startInteger, Sequence &prog,
          const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t, startInteger));
  iotaImpl<int>(graph, t, startInteger, INT, prog, {di});
}

} // namespace popops
