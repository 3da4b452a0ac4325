// Lowering a matmul plan: one ConvPartial1x1Out or ConvPartialHorizontalMac (the plan's method)
// per tile over its blocks of A and B (the graph compiler moves each block to its tile), then
// either a ReduceAdd per tile over its share of each output block (K split) or a cast of the
// partials to the output type.
#include "MatMulLowering.hpp"

#include <popops/Cast.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"
#include "support/WorkerSplit.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace poplin::internal {

using namespace poplar;
using namespace poplar::program;

namespace {

using Range = MatMulPlan::Range;

/// The share of an output block of `size` elements that k tile `i` reduces (plan.reduceChunk
/// each; the last may be smaller or empty).
Range chunk(const MatMulPlan &plan, unsigned size, unsigned i) {
  const unsigned per = MatMulPlan::reduceChunk(size, plan.split.k);
  return {std::min(size, i * per), std::min(size, (i + 1) * per)};
}

/// The indices of a part of the plan.
struct PartIndex {
  unsigned g, m, n, k;
};

/// Calls f(tile, index, ranges...) for every part of the plan (none is empty).
template <class F> void forEachPart(const MatMulPlan &plan, F f) {
  const auto &p = plan.problem;
  const auto &s = plan.split;
  for (unsigned g = 0; g < s.groups; ++g)
    for (unsigned m = 0; m < s.m; ++m)
      for (unsigned n = 0; n < s.n; ++n)
        for (unsigned k = 0; k < s.k; ++k)
          f(plan.tileOf(g, m, n, k), PartIndex{g, m, n, k},
            MatMulPlan::partOf(p.groups, s.groups, g), MatMulPlan::partOf(p.m, s.m, m),
            MatMulPlan::partOf(p.n, s.n, n), MatMulPlan::partOf(p.k, s.k, k));
}

} // namespace

Tensor createOperand(Graph &graph, const MatMulPlan &plan, MatMulOperand which, const Type &type,
                     const DebugContext &dc) {
  const auto &p = plan.problem;
  const char *name = which == MatMulOperand::LHS   ? "lhs"
                     : which == MatMulOperand::RHS ? "rhs"
                                                   : "output";
  const std::vector<std::size_t> shape =
      which == MatMulOperand::LHS   ? std::vector<std::size_t>{p.groups, p.m, p.k}
      : which == MatMulOperand::RHS ? std::vector<std::size_t>{p.groups, p.k, p.n}
                                    : std::vector<std::size_t>{p.groups, p.m, p.n};
  Tensor t = graph.addVariable(type, shape, {dc, name});
  forEachPart(plan, [&](unsigned tile, PartIndex i, Range g, Range m, Range n, Range k) {
    // LHS blocks live on the first tile that reads them (n part 0), RHS blocks likewise
    // (m part 0); output blocks are shared by their k tiles, as the reduction writes them.
    if (which == MatMulOperand::LHS && i.n == 0)
      graph.setTileMapping(t.slice({g.begin, m.begin, k.begin}, {g.end, m.end, k.end}), tile);
    else if (which == MatMulOperand::RHS && i.m == 0)
      graph.setTileMapping(t.slice({g.begin, k.begin, n.begin}, {g.end, k.end, n.end}), tile);
    else if (which == MatMulOperand::Output) {
      Tensor block = t.slice({g.begin, m.begin, n.begin}, {g.end, m.end, n.end}).flatten();
      const Range c = chunk(plan, unsigned(block.numElements()), i.k);
      if (c.size())
        graph.setTileMapping(block.slice(c.begin, c.end), tile);
    }
  });
  return t;
}

void addMatMul(Graph &graph, const MatMulPlan &plan, const Tensor &A, const Tensor &B,
               const Tensor &out, Sequence &prog, const DebugContext &dc) {
  const auto &p = plan.problem;
  const bool reduce = plan.split.k > 1;
  // Partials go straight to the output when neither a reduction nor a cast follows.
  const Type written = plan.vertexOutputType();
  const bool direct = !reduce && written == p.outputType;
  const std::string convVertex =
      poputil::templateVertex(methodVertex(plan.method), p.inputType, written);
  ComputeSet partialsCs = graph.addComputeSet({dc, "Conv_1x1"});
  // The partials of each output block (g, m, n parts), one per k part, with the block.
  std::map<std::tuple<unsigned, unsigned, unsigned>, std::pair<Tensor, std::vector<Tensor>>>
      partials;
  std::vector<Tensor> castIn, castOut;
  if (plan.method == MatMulMethod::Amp &&
      MatMulPlan::partOf(p.n, plan.split.n, 0).size() > kMaxAmpRowLength)
    popsdk::support::raise<poputil::poplibs_error>(
        "poplin::matMul: the AMP method takes at most ", kMaxAmpRowLength,
        " output columns a tile, but the plan gives a tile ",
        MatMulPlan::partOf(p.n, plan.split.n, 0).size(), " of N = ", p.n);
  forEachPart(plan, [&](unsigned tile, PartIndex i, Range g, Range m, Range n, Range k) {
    Tensor a = A.slice({g.begin, m.begin, k.begin}, {g.end, m.end, k.end});
    Tensor b = B.slice({g.begin, k.begin, n.begin}, {g.end, k.end, n.end});
    Tensor o = out.slice({g.begin, m.begin, n.begin}, {g.end, m.end, n.end});
    if (!direct) {
      Tensor partial =
          graph.addVariable(plan.partialsType, {g.size(), m.size(), n.size()}, {dc, "partials"});
      graph.setTileMapping(partial, tile);
      auto &block = partials[{i.g, i.m, i.n}];
      block.first = o.flatten();
      block.second.push_back(partial);
      if (!reduce) {
        castIn.push_back(partial.flatten());
        castOut.push_back(o.flatten());
      }
      o = partial;
    }
    VertexRef v = graph.addVertex(partialsCs, convVertex);
    graph.setTileMapping(v, tile);
    std::vector<Tensor> in, weights, outs;
    for (unsigned j = 0; j < g.size(); ++j) {
      in.push_back(a[j].flatten());
      weights.push_back(b[j].flatten());
      outs.push_back(o[j].flatten());
    }
    graph.connect(v["in"], in);
    graph.connect(v["weights"], weights);
    graph.connect(v["out"], outs);
    graph.setInitialValue(v["numPositions"], m.size());
    graph.setInitialValue(v["inChans"], k.size());
    graph.setInitialValue(v["outChans"], n.size());
  });
  prog.add(Execute(partialsCs, {dc}));

  if (reduce) {
    // Each k tile of an output block sums its chunk of every k part's partials.
    ComputeSet reduceCs = graph.addComputeSet({dc, "Reduce"});
    const std::string reduceVertex =
        poputil::templateVertex("poplin::ReduceAdd", p.outputType, plan.partialsType);
    // A chunk longer than ReduceAdd's workers split exactly is summed by several vertices.
    const std::size_t maxPerVertex =
        popsdk::support::maxWorkerSplitElements(graph.getTarget().getTypeSize(p.outputType));
    for (const auto &[index, blockAndParts] : partials) {
      const auto [gi, mi, ni] = index;
      const auto &[block, parts] = blockAndParts;
      for (unsigned ki = 0; ki < plan.split.k; ++ki) {
        const Range c = chunk(plan, unsigned(block.numElements()), ki);
        popsdk::support::forEachPiece(c.begin, c.end, maxPerVertex,
                                      [&](std::size_t b, std::size_t e) {
                                        VertexRef v = graph.addVertex(reduceCs, reduceVertex);
                                        graph.setTileMapping(v, plan.tileOf(gi, mi, ni, ki));
                                        std::vector<Tensor> in;
                                        for (const Tensor &t : parts)
                                          in.push_back(t.flatten().slice(b, e));
                                        graph.connect(v["partials"], in);
                                        graph.connect(v["out"], block.slice(b, e));
                                      });
      }
    }
    prog.add(Execute(reduceCs, {dc}));
  } else if (!direct) {
    ComputeSet castCs = graph.addComputeSet({dc, "Cast"});
    popops::cast(graph, concat(castIn), concat(castOut), castCs);
    prog.add(Execute(castCs, {dc}));
  }
}

} // namespace poplin::internal
