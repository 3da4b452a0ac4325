// popops::histogram: each tile's regions of the input, split between up to one Histogram vertex
// per worker, each counting into its own row of partial counts; an ADD reduction of the rows
// gives (or, updating, adds to) the output.
#include <popops/GatherStatistics.hpp>

#include <popops/Reduce.hpp>

#include "TileRegions.hpp"
#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

const char *const api = "popops::histogram";

void checkInputs(const Tensor &input, const Tensor &levels) {
  if (input.elementType() != FLOAT && input.elementType() != HALF)
    raise<poputil::poplibs_error>(api, ": input has type ", input.elementType(),
                                  " but must be float or half");
  if (levels.elementType() != input.elementType() || levels.rank() != 1)
    raise<poputil::poplibs_error>(api, ": levels is ", levels.elementType(), " ",
                                  shapeText(levels.shape()), " but must be 1-D ",
                                  input.elementType(), " (the input's type)");
}

/// [vertices, levels + 1] partial counts of `outType`, one row per Histogram vertex.
Tensor partialCounts(Graph &graph, const Tensor &input, const Tensor &levels, bool absolute,
                     const Type &outType, Sequence &prog, const DebugContext &dc) {
  const Target &target = graph.getTarget();
  const std::size_t bins = levels.numElements() + 1;
  const Tensor flat = input.flatten();
  const std::string vertex =
      poputil::templateVertex("popops::Histogram", input.elementType(), outType);
  auto cs = graph.addComputeSet({dc, api});
  std::vector<Tensor> rows;
  if (input.numElements() != 0)
    for (const auto &tr : internal::contiguousTileRegions(graph, input, api)) {
      const unsigned grain = target.getVectorWidth(input.elementType());
      for (const auto &part :
           poputil::splitRegionsBetweenWorkers(target, tr.regions, grain, 2 * grain)) {
        Tensor counts = graph.addVariable(outType, {1, bins}, {dc, "counts"});
        graph.setTileMapping(counts, tr.tile);
        std::vector<Tensor> data;
        for (const auto &r : part)
          data.push_back(flat.slice(r));
        auto v = graph.addVertex(cs, vertex, {{"levels", levels}, {"out", counts.flatten()}});
        graph.connect(v["data"], data);
        graph.setInitialValue(v["absoluteOfInput"], absolute);
        graph.setTileMapping(v, tr.tile);
        rows.push_back(counts);
      }
    }
  prog.add(Execute(cs, {dc}));
  if (rows.empty()) // no element: no rows, which the reduction folds to zeros
    return graph.addVariable(outType, {0, bins}, {dc, "noCounts"});
  return concat(rows);
}

} // namespace

Tensor histogram(Graph &graph, const Tensor &input, const Tensor &levels, bool absoluteOfInput,
                 Sequence &prog, const DebugContext &debugContext, const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(input, levels, absoluteOfInput, options));
  bool useFloat = false;
  using popsdk::support::OptionHandler;
  const popsdk::support::OptionSpec spec{{"useFloatArithmetic", OptionHandler::boolean(useFloat)}};
  spec.parse(api, options);
  checkInputs(input, levels);
  const Type outType = useFloat ? FLOAT : UNSIGNED_INT;
  Tensor counts = partialCounts(graph, input, levels, absoluteOfInput, outType, prog, {di});
  Tensor out = reduce(graph, counts, outType, {0}, {Operation::ADD}, prog, {di, "total"});
  di.addOutput(out);
  return out;
}

void histogram(Graph &graph, const Tensor &input, Tensor &output, bool updateOutput,
               const Tensor &levels, bool absoluteOfInput, Sequence &prog,
               const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(input, output, updateOutput, levels, absoluteOfInput));
  checkInputs(input, levels);
  const Type outType = output.elementType();
  if ((outType != FLOAT && outType != UNSIGNED_INT) ||
      output.numElements() != levels.numElements() + 1)
    raise<poputil::poplibs_error>(api, ": output is ", outType, " ", shapeText(output.shape()),
                                  " but must be float or unsigned int with ",
                                  levels.numElements() + 1, " elements (one more than levels)");
  Tensor counts = partialCounts(graph, input, levels, absoluteOfInput, outType, prog, {di});
  reduceWithOutput(graph, counts, output.flatten(), {0}, {Operation::ADD, updateOutput}, prog,
                   {di, "total"});
}

} // namespace popops
