// sequenceSlice: both tensors viewed as [rows, columns]; each tile runs one SequenceSlice
// MultiVertex per column interval of the destination it holds, over every entry, so only the
// source rows (and the entries) move between tiles.
#include <popops/SequenceSlice.hpp>

#include <popops/Zero.hpp>

#include "SliceArgs.hpp"
#include "SliceLayout.hpp"
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

const char *const api = "popops::sequenceSlice";

void checkArgs(const Tensor &tIn, const Tensor &tOut, const Tensor &tN, const Tensor &tInOffset,
               const Tensor &tOutOffset) {
  if (tIn.rank() < 2 || tOut.rank() < 2)
    raise<poputil::poplibs_error>(api, ": tIn ", shapeText(tIn.shape()), " and tOut ",
                                  shapeText(tOut.shape()), " must have rank 2 or more");
  if (tIn.elementType() != tOut.elementType())
    raise<poputil::poplibs_error>(api, ": tIn has type ", tIn.elementType(), " but tOut has type ",
                                  tOut.elementType());
  const Type type = tIn.elementType();
  if (type != FLOAT && type != HALF && type != INT && type != UNSIGNED_INT && type != BOOL)
    raise<poputil::poplibs_error>(api, ": element type ", type, " is not supported");
  auto inner = [](const Tensor &t) {
    std::size_t n = 1;
    for (std::size_t d = 1; d < t.rank(); ++d)
      n *= t.dim(d);
    return n;
  };
  if (inner(tIn) != inner(tOut))
    raise<poputil::poplibs_error>(api, ": the rows of tIn ", shapeText(tIn.shape()), " have ",
                                  inner(tIn), " elements but those of tOut ",
                                  shapeText(tOut.shape()), " have ", inner(tOut));
  for (const auto *t : {&tN, &tInOffset, &tOutOffset}) {
    const char *name = t == &tN ? "tN" : t == &tInOffset ? "tInOffset" : "tOutOffset";
    if (t->elementType() != UNSIGNED_INT)
      raise<poputil::poplibs_error>(api, ": ", name, " has type ", t->elementType(),
                                    " but must be unsigned int");
    if (t->rank() != 1 || t->dim(0) != tN.dim(0))
      raise<poputil::poplibs_error>(api, ": ", name, " has shape ", shapeText(t->shape()),
                                    " but tN, tInOffset and tOutOffset must be 1-D of one size (",
                                    tN.rank() == 1 ? tN.dim(0) : 0, ")");
  }
}

} // namespace

void sequenceSlice(Graph &graph, const Tensor &tIn, const Tensor &tOut, const Tensor &tN,
                   const Tensor &tInOffset, const Tensor &tOutOffset, bool zeroUnused,
                   Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(tIn, tOut, tN, tInOffset, tOutOffset, zeroUnused));
  if (tN.rank() != 1)
    raise<poputil::poplibs_error>(api, ": tN has shape ", shapeText(tN.shape()),
                                  " but must be 1-D");
  checkArgs(tIn, tOut, tN, tInOffset, tOutOffset);
  if (tOut.numElements() == 0)
    return;
  if (tN.numElements() == 0 || tIn.numElements() == 0) {
    // Nothing can be copied: only the clearing is left.
    if (zeroUnused)
      zero(graph, tOut, prog, {di, "unused"});
    return;
  }
  const std::size_t columns = tOut.numElements() / tOut.dim(0);
  Tensor in2d = tIn.reshape({tIn.dim(0), columns});
  Tensor out2d = tOut.reshape({tOut.dim(0), columns});
  const Type type = tOut.elementType();
  auto cs = graph.addComputeSet({di, api});
  for (const auto &g : internal::sliceColumns(graph, out2d))
    for (const auto &c : internal::workerSplitColumns(graph.getTarget(), g.columns, type)) {
      auto v = graph.addVertex(cs, poputil::templateVertex("popops::SequenceSlice", type),
                               {{"srcT", internal::rowsOf(in2d, c)},
                                {"dstT", internal::rowsOf(out2d, c)},
                                {"nElements", tN},
                                {"srcOffset", tInOffset},
                                {"dstOffset", tOutOffset}});
      graph.setInitialValue(v["numSrcRows"], unsigned(tIn.dim(0)));
      graph.setInitialValue(v["numDstRows"], unsigned(tOut.dim(0)));
      graph.setInitialValue(v["regionSize"], unsigned(c.size()));
      graph.setInitialValue(v["zeroUnused"], zeroUnused);
      graph.setTileMapping(v, g.tile);
    }
  prog.add(Execute(cs, {di}));
}

} // namespace popops
