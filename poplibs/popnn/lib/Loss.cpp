// calcLoss and calcAccuracy: the labels one-hot encoded (popops), a Loss*Transform vertex per
// piece of the model outputs giving the deltas and the per-element loss terms, a popops
// reduction of the terms into each sample's loss, and masked rows zeroed.
#include <popnn/Loss.hpp>

#include "Checks.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Encoding.hpp>
#include <popops/Reduce.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/Util.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

#include <algorithm>
#include <optional>

namespace popnn {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;
namespace pe = popops::expr;

namespace {

const char *kCalcLoss = "popnn::calcLoss";

void checkLabels(const std::string &api, const Tensor &modelOutputs, const Tensor &expected) {
  internal::checkRank(api, "modelOutputs", modelOutputs, 2);
  internal::checkShape(api, "expected", expected, {modelOutputs.dim(0)});
  if (expected.elementType() != UNSIGNED_INT && expected.elementType() != INT)
    raise<poputil::poplibs_error>(api, ": expected has type ", expected.elementType(),
                                  " but must be unsigned int or int (class labels)");
}

void checkScalar(const std::string &api, const std::string &name, const Tensor &t,
                 const Type &type) {
  if (t.numElements() != 1)
    raise<poputil::poplibs_error>(api, ": ", name, " has ", t.numElements(),
                                  " elements but must have one");
  internal::checkType(api, name, t, type);
}

/// 1 for rows with a label, 0 for MASKED_LABEL_CODE, as `type` [rows].
Tensor labelledRows(Graph &graph, const Tensor &expected, const Type &type, Sequence &prog,
                    const DebugContext &dc) {
  pe::Any masked = expected.elementType() == INT ? pe::Any(pe::Const(int(MASKED_LABEL_CODE)))
                                                 : pe::Any(pe::Const(unsigned(MASKED_LABEL_CODE)));
  return popops::map(graph, pe::Cast(pe::NotEqual(pe::_1, masked), type), {expected}, prog, dc);
}

/// One transform vertex per worker's piece of each tile's regions of the model outputs.
void addTransformVertices(Graph &graph, ComputeSet &cs, const Tensor &modelOutputs,
                          const Tensor &oneHot, const Tensor &deltas, const Tensor &transformed,
                          const Tensor &deltasScale, const Tensor &modelOutputScaling,
                          LossType lossType) {
  const Type type = modelOutputs.elementType();
  const std::string name = lossType == SUM_SQUARED_LOSS ? "popnn::LossSumSquaredTransform"
                                                        : "popnn::LossCrossEntropyTransform";
  const Target &target = graph.getTarget();
  Tensor out = modelOutputs.flatten(), hot = oneHot.flatten(), d = deltas.flatten(),
         terms = transformed.flatten();
  auto mapping = graph.getTileMapping(out);
  unsigned grain = target.getVectorWidth(type);
  // The vertex counts its elements in an unsigned short.
  const std::size_t maxPiece = 65535 / grain * grain;
  for (unsigned tile = 0; tile < mapping.size(); ++tile) {
    for (const auto &partition :
         poputil::splitRegionsBetweenWorkers(target, mapping[tile], grain, 2 * grain)) {
      for (const auto &region : partition) {
        for (std::size_t b = region.begin(); b < region.end(); b += maxPiece) {
          std::size_t e = std::min(region.end(), b + maxPiece);
          auto v = graph.addVertex(cs, poputil::templateVertex(name, type));
          graph.connect(v["probs"], out.slice(b, e));
          graph.connect(v["expected"], hot.slice(b, e));
          graph.connect(v["deltas"], d.slice(b, e));
          graph.connect(v["transformed"], terms.slice(b, e));
          graph.setInitialValue(v["size"], static_cast<unsigned short>(e - b));
          if (lossType == CROSS_ENTROPY_LOSS) {
            graph.connect(v["deltasScale"], deltasScale.reshape({}));
            graph.connect(v["modelOutputScaling"], modelOutputScaling.reshape({}));
          }
          graph.setTileMapping(v, tile);
        }
      }
    }
  }
}

Program calcLossImpl(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                     const Tensor &loss, const Tensor &deltas, std::optional<Tensor> deltasScale,
                     std::optional<Tensor> modelOutputScaling, std::optional<Tensor> numCorrect,
                     LossType lossType, const DebugContext &dc) {
  checkLabels(kCalcLoss, modelOutputs, expected);
  internal::checkFloatingPoint(kCalcLoss, "modelOutputs", modelOutputs);
  const Type type = modelOutputs.elementType();
  internal::checkShape(kCalcLoss, "loss", loss, {modelOutputs.dim(0)});
  internal::checkType(kCalcLoss, "loss", loss, type);
  internal::checkShape(kCalcLoss, "deltas", deltas, modelOutputs.shape());
  internal::checkType(kCalcLoss, "deltas", deltas, type);
  if (lossType != SUM_SQUARED_LOSS && lossType != CROSS_ENTROPY_LOSS)
    raise<poputil::poplibs_error>(kCalcLoss, ": unknown LossType ", int(lossType));
  // Constant scales of 1 where none are given.
  for (auto *s : {&deltasScale, &modelOutputScaling}) {
    if (*s) {
      checkScalar(kCalcLoss, s == &deltasScale ? "deltasScale" : "modelOutputScaling", **s, type);
    } else {
      *s = graph.addConstant(type, {}, 1.0f, {dc, "one"});
      graph.setTileMapping(**s, 0);
    }
  }
  Sequence prog(dc);
  Tensor oneHot = graph.clone(modelOutputs, {dc, "oneHot"});
  popops::encodeOneHot(graph, expected, oneHot, prog, {dc, "oneHot"});
  Tensor transformed = graph.clone(modelOutputs, {dc, "lossTerms"});
  ComputeSet cs = graph.addComputeSet({dc, "lossTransform"});
  addTransformVertices(graph, cs, modelOutputs, oneHot, deltas, transformed, *deltasScale,
                       *modelOutputScaling, lossType);
  prog.add(Execute(cs, {dc}));
  popops::reduceWithOutput(graph, transformed, loss, {1},
                           popops::ReduceParams(popops::Operation::ADD), prog, {dc, "loss"});
  Tensor labelled = labelledRows(graph, expected, type, prog, {dc, "labelled"});
  popops::mapInPlace(graph, pe::Mul(pe::_1, pe::_2), {deltas, labelled.expand({1})}, prog,
                     {dc, "maskDeltas"});
  popops::mapInPlace(graph, pe::Mul(pe::_1, pe::_2), {loss, labelled}, prog, {dc, "maskLoss"});
  if (numCorrect)
    prog.add(calcAccuracy(graph, modelOutputs, expected, *numCorrect, {dc, "accuracy"}));
  return std::move(prog);
}

} // namespace

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas, const Tensor &deltasScale,
                 const Tensor &modelOutputScaling, LossType lossType,
                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext, DI_ARGS(modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling));
  return calcLossImpl(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling,
                      std::nullopt, lossType, {di});
}

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas, LossType lossType,
                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(modelOutputs, expected, loss, deltas));
  return calcLossImpl(graph, modelOutputs, expected, loss, deltas, std::nullopt, std::nullopt,
                      std::nullopt, lossType, {di});
}

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas, const Tensor &deltasScale,
                 const Tensor &modelOutputScaling, const Tensor &numCorrect, LossType lossType,
                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(
      debugContext,
      DI_ARGS(modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling, numCorrect));
  return calcLossImpl(graph, modelOutputs, expected, loss, deltas, deltasScale, modelOutputScaling,
                      numCorrect, lossType, {di});
}

Program calcLoss(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                 const Tensor &loss, const Tensor &deltas, const Tensor &numCorrect,
                 LossType lossType, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(modelOutputs, expected, loss, deltas, numCorrect));
  return calcLossImpl(graph, modelOutputs, expected, loss, deltas, std::nullopt, std::nullopt,
                      numCorrect, lossType, {di});
}

Program calcAccuracy(Graph &graph, const Tensor &modelOutputs, const Tensor &expected,
                     const Tensor &numCorrect, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(modelOutputs, expected, numCorrect));
  const std::string api = "popnn::calcAccuracy";
  checkLabels(api, modelOutputs, expected);
  checkScalar(api, "numCorrect", numCorrect, UNSIGNED_INT);
  DebugContext ctx(di);
  Sequence prog(ctx);
  Tensor predicted = argMax(graph, modelOutputs, prog, {di, "argMax"});
  // A masked label (0xFFFFFFFF as unsigned) never equals a column.
  Tensor hits =
      popops::map(graph, pe::Cast(pe::Equal(pe::_1, pe::Cast(pe::_2, UNSIGNED_INT)), UNSIGNED_INT),
                  {predicted, expected}, prog, {di, "hits"});
  popops::reduceWithOutput(graph, hits, numCorrect.reshape({}), {0},
                           popops::ReduceParams(popops::Operation::ADD), prog, {di, "count"});
  return std::move(prog);
}

} // namespace popnn
