// Lowering a ConvPartialnx1 plan: per tile, views of its input rows and weights (the graph
// compiler moves them to the tile), a new output block and the worklists as a constant.
#include "ConvNx1Lowering.hpp"

#include "ConvLowering.hpp"

#include <popops/Cast.hpp>
#include <poputil/VertexTemplates.hpp>

namespace poplin::internal {

using namespace poplar;
using namespace poplar::program;

Tensor addConvNx1(Graph &graph, const ConvNx1Plan &plan, const Tensor &in, const Tensor &weights,
                  Sequence &prog, const DebugContext &dc) {
  using Range = MatMulPlan::Range;
  const ConvParams &p = plan.params;
  const auto &s = plan.split;
  const auto out = stridedOutputShape(p);
  const unsigned kernel = unsigned(kernelPositions(p));
  const std::size_t G = p.numConvGroups, Ci = p.inputChannelsPerConvGroup,
                    Co = p.outputChannelsPerConvGroup;
  const Tensor field = inputFieldGrouped(graph, p, in); // [G][B][span...][Ci]
  const Tensor w = weightsAsMatrix(graph, p, weights).reshape({G, kernel, Ci, Co});
  const bool cast = plan.partialsType != p.outputType;
  const std::string vertex =
      poputil::templateVertex("poplin::ConvPartialnx1", p.inputType, plan.partialsType);
  ComputeSet cs = graph.addComputeSet({dc, "Conv_nx1"});
  std::vector<Tensor> castIn, castOut;
  // The output blocks, concatenated back along n, rows, batch and groups.
  std::vector<Tensor> groupParts;
  const unsigned rowDim = 2, lastDim = unsigned(field.rank() - 1);
  for (unsigned gi = 0; gi < s.groups; ++gi) {
    const Range g = MatMulPlan::partOf(unsigned(G), s.groups, gi);
    std::vector<Tensor> batchParts;
    for (unsigned bi = 0; bi < s.batch; ++bi) {
      const Range b = MatMulPlan::partOf(unsigned(p.batchSize), s.batch, bi);
      std::vector<Tensor> rowParts;
      for (unsigned ri = 0; ri < s.rows; ++ri) {
        const Range r = MatMulPlan::partOf(unsigned(out[0]), s.rows, ri);
        const Nx1Geometry geometry = blockGeometry(p, b, r);
        const Nx1Worklist wl = buildNx1Worklist(geometry);
        const unsigned rowBegin = r.begin * p.outputTransform.stride[0];
        const Tensor inBlock = field.slice(g.begin, g.end, 0)
                                   .slice(b.begin, b.end, 1)
                                   .slice(rowBegin, rowBegin + geometry.inField[0], rowDim);
        std::vector<Tensor> chanParts;
        for (unsigned ni = 0; ni < s.n; ++ni) {
          const Range n = MatMulPlan::partOf(unsigned(Co), s.n, ni);
          const unsigned tile = plan.tileOf(gi, bi, ri, ni);
          std::vector<std::size_t> shape = {g.size(), b.size()};
          for (auto d : geometry.outField())
            shape.push_back(d);
          shape.push_back(n.size());
          Tensor block = graph.addVariable(plan.partialsType, shape, {dc, "partials"});
          graph.setTileMapping(block, tile);
          Tensor result = block;
          if (cast) {
            result = graph.addVariable(p.outputType, shape, {dc, "output"});
            graph.setTileMapping(result, tile);
            castIn.push_back(block.flatten());
            castOut.push_back(result.flatten());
          }
          chanParts.push_back(result);
          Tensor words = graph.addConstant<unsigned>(UNSIGNED_INT, {wl.words.size()}, wl.words,
                                                     {dc, "worklists"});
          graph.setTileMapping(words, tile);
          VertexRef v = graph.addVertex(cs, vertex);
          graph.setTileMapping(v, tile);
          std::vector<Tensor> ins, ws, outs;
          for (unsigned j = 0; j < g.size(); ++j) {
            ins.push_back(inBlock[j].flatten());
            ws.push_back(w[g.begin + j].slice(n.begin, n.end, 2).flatten());
            outs.push_back(block[j].flatten());
          }
          graph.connect(v["in"], ins);
          graph.connect(v["weights"], ws);
          graph.connect(v["out"], outs);
          graph.connect(v["worklists"], words);
          graph.setInitialValue(v["kernelPositions"], kernel);
          graph.setInitialValue(v["inStride"], wl.inStride);
          graph.setInitialValue(v["inChans"], unsigned(Ci));
          graph.setInitialValue(v["outChans"], n.size());
        }
        rowParts.push_back(concat(chanParts, lastDim));
      }
      batchParts.push_back(concat(rowParts, rowDim));
    }
    groupParts.push_back(concat(batchParts, 1));
  }
  prog.add(Execute(cs, {dc}));
  if (cast) {
    ComputeSet castCs = graph.addComputeSet({dc, "Cast"});
    popops::cast(graph, concat(castIn), concat(castOut), castCs);
    prog.add(Execute(castCs, {dc}));
  }
  return concat(groupParts, 0).reshape({G, outputPositions(p), Co});
}

} // namespace poplin::internal
