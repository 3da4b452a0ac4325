// popops' counted loops: countedLoop is a Repeat whose body adds the step to a device counter;
// countedForLoop is a RepeatWhileTrue whose condition runs a ForLoopCounter vertex (step the
// count, test it against the limit).
#include <popops/Loop.hpp>

#include <popops/ElementWise.hpp>

#include "support/Raise.hpp"

#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

namespace popops {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
using popsdk::support::shapeText;

Sequence countedLoop(Graph &graph, std::size_t begin, std::size_t end, std::size_t step,
                     const CountedLoopBodyType &body, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(begin, end, step));
  if (step == 0)
    raise<poputil::poplibs_error>("popops::countedLoop: step must be greater than zero (begin ",
                                  begin, ", end ", end, ")");
  if (begin >= end)
    raise<poputil::poplibs_error>("popops::countedLoop: begin (", begin,
                                  ") must be less than end (", end, ")");
  if (end > 0xffffffffu)
    raise<poputil::poplibs_error>("popops::countedLoop: end ", end,
                                  " does not fit the UNSIGNED_INT counter");
  Tensor counter = graph.addVariable(UNSIGNED_INT, {1}, {di, "counter"});
  Tensor first = graph.addConstant(UNSIGNED_INT, {1}, unsigned(begin), {di, "begin"});
  Tensor stride = graph.addConstant(UNSIGNED_INT, {1}, unsigned(step), {di, "step"});
  graph.setTileMapping(counter, 0);
  graph.setTileMapping(first, 0);
  graph.setTileMapping(stride, 0);
  Sequence prog({}, {di});
  prog.add(Copy(first, counter, false, {di}));
  Sequence pass({}, {di});
  pass.add(body(counter));
  addInPlace(graph, counter, stride, pass, {di, "step"});
  prog.add(Repeat(unsigned((end - begin + step - 1) / step), pass, {di}));
  return prog;
}

Sequence countedLoop(Graph &graph, std::size_t count, const CountedLoopBodyType &body,
                     const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(count));
  return countedLoop(graph, 0, count, 1, body, {di});
}

Tensor addForLoopCounterVertex(Graph &graph, const Tensor &count, const Tensor &countLimit,
                               int countStep, unsigned tile, Sequence &prog,
                               const DebugContext &di) {
  Tensor predicate = graph.addVariable(UNSIGNED_INT, {}, {di, "predicate"});
  graph.setTileMapping(predicate, tile);
  auto cs = graph.addComputeSet({di, "countedForLoop"});
  auto v =
      graph.addVertex(cs, poputil::templateVertex("popops::ForLoopCounter", count.elementType()),
                      {{"count", count.reshape({})},
                       {"limit", countLimit.reshape({})},
                       {"comparisonResult", predicate}});
  graph.setInitialValue(v["increment"], countStep);
  graph.setTileMapping(v, tile);
  prog.add(Execute(cs, {di}));
  return predicate;
}

Sequence countedForLoop(Graph &graph, const Tensor &count, int initialCount,
                        const Tensor &countLimit, int countStep, const Program &body,
                        const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(count, initialCount, countLimit, countStep));
  const Type type = count.elementType();
  if (type != countLimit.elementType())
    raise<poputil::poplibs_error>("popops::countedForLoop: count has type ", type,
                                  " but countLimit has type ", countLimit.elementType(),
                                  "; they must be the same");
  if (type != INT && type != UNSIGNED_INT)
    raise<poputil::poplibs_error>("popops::countedForLoop: count has type ", type,
                                  " but must be INT or UNSIGNED_INT");
  if (count.numElements() != 1 || countLimit.numElements() != 1)
    raise<poputil::poplibs_error>("popops::countedForLoop: count (shape ", shapeText(count.shape()),
                                  ") and countLimit (shape ", shapeText(countLimit.shape()),
                                  ") must have one element each");
  if (countStep == 0)
    raise<poputil::poplibs_error>("popops::countedForLoop: countStep must not be zero");
  // The condition steps the count before each pass, so it starts one step early: the body sees
  // initialCount, initialCount + countStep, ...
  const unsigned start = unsigned(initialCount) - unsigned(countStep); // wraps as the device
  Tensor initialiser = type == INT ? graph.addConstant(type, {}, int(start), {di, "initialCount"})
                                   : graph.addConstant(type, {}, start, {di, "initialCount"});
  graph.setTileMapping(initialiser, 0);
  Sequence prog({}, {di});
  prog.add(Copy(initialiser, count.reshape({}), false, {di}));
  Sequence cond({}, {di});
  Tensor predicate = addForLoopCounterVertex(graph, count, countLimit, countStep, 0, cond, {di});
  prog.add(RepeatWhileTrue(cond, predicate, body, {di}));
  return prog;
}

Sequence countedForLoop(Graph &graph, int initialCount, const Tensor &countLimit, int countStep,
                        const Program &body, const DebugContext &debugContext) {
  Tensor count = graph.addVariable(countLimit.elementType(), {}, {debugContext, "count"});
  graph.setTileMapping(count, 0);
  return countedForLoop(graph, count, initialCount, countLimit, countStep, body, debugContext);
}

} // namespace popops
