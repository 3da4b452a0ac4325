// popops::cast: Cast1D/Cast2D vertices over the destination's tile regions.
#include <popops/Cast.hpp>

#include "TileRegions.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

void cast(Graph &graph, Tensor src, Tensor dst, ComputeSet cs) {
  const std::string api = "popops::cast";
  if (src.shape() != dst.shape())
    raise<poputil::poplibs_error>(api, ": source ", shapeText(src.shape()), " and destination ",
                                  shapeText(dst.shape()), " have different shapes");
  if (dst.containsAliases())
    raise<poputil::poplibs_error>(api, ": the destination ", shapeText(dst.shape()),
                                  " has elements that alias each other");
  Type from = src.elementType(), to = dst.elementType();
  internal::addElementwiseVertices(graph, cs, dst, api,
                                   poputil::templateVertex("popops::Cast1D", from, to),
                                   poputil::templateVertex("popops::Cast2D", from, to),
                                   {{"src", src.flatten()}, {"dst", dst.flatten()}});
}

Program cast(Graph &graph, Tensor src, Tensor dst, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(src, dst), "cast");
  if (src.elementType() == dst.elementType())
    return Copy(src, dst, false, {di});
  ComputeSet cs = graph.addComputeSet({di, "cast"});
  cast(graph, src, dst, cs);
  return Execute(cs, {di});
}

Tensor cast(Graph &graph, Tensor src, const Type &dstType, ComputeSet cs,
            const DebugContext &debugContext) {
  Tensor dst = graph.clone(dstType, src, debugContext);
  cast(graph, src, dst, cs);
  return dst;
}

Tensor cast(Graph &graph, const Tensor &src, const Type &dstType, Sequence &prog,
            const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(src, dstType), "cast");
  Tensor dst = graph.clone(dstType, src, {di, "cast"});
  prog.add(cast(graph, src, dst, {di}));
  di.addOutput(dst);
  return dst;
}

void castWithOutput(Graph &graph, const Tensor &src, const Tensor &dst, Sequence &prog,
                    const DebugContext &debugContext) {
  prog.add(cast(graph, src, dst, debugContext));
}

} // namespace popops
