// popnn losses and classification helpers: per-sample loss and its deltas (sum-squared or
// cross-entropy against class labels), accuracy, arg max/min and top-K of each row.
#ifndef popnn_Loss_hpp
#define popnn_Loss_hpp

namespace popnn {

enum LossType { SUM_SQUARED_LOSS, CROSS_ENTROPY_LOSS };

} // namespace popnn

#ifndef __POPC__
#include <popops/EncodingConstants.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <utility>

namespace popnn {

/// For modelOutputs [B, C] (float or half) and expected [B] class labels (UNSIGNED_INT or INT):
/// writes loss [B] and deltas [B, C] (both of modelOutputs' type). With p = modelOutputs and t
/// the one-hot of the label, SUM_SQUARED_LOSS: deltas = p - t, loss = sum(0.5 deltas^2);
/// CROSS_ENTROPY_LOSS: deltas = (deltasScale / modelOutputScaling)(p - t modelOutputScaling),
/// loss = -sum(t (log(p + eps) - log(modelOutputScaling))). deltasScale and
/// modelOutputScaling are one-element tensors of modelOutputs' type (1 if not given). A row whose
/// label is MASKED_LABEL_CODE has zero loss and zero deltas.
poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, const poplar::Tensor &deltasScale,
                                  const poplar::Tensor &modelOutputScaling, LossType lossType,
                                  const poplar::DebugContext &debugContext = {});

poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, LossType lossType,
                                  const poplar::DebugContext &debugContext = {});

/// calcLoss and calcAccuracy together.
poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, const poplar::Tensor &deltasScale,
                                  const poplar::Tensor &modelOutputScaling,
                                  const poplar::Tensor &numCorrect, LossType lossType,
                                  const poplar::DebugContext &debugContext = {});

poplar::program::Program calcLoss(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                  const poplar::Tensor &expected, const poplar::Tensor &loss,
                                  const poplar::Tensor &deltas, const poplar::Tensor &numCorrect,
                                  LossType lossType, const poplar::DebugContext &debugContext = {});

/// numCorrect (one UNSIGNED_INT element) = the number of rows whose arg max equals the label;
/// masked rows never count.
poplar::program::Program calcAccuracy(poplar::Graph &graph, const poplar::Tensor &modelOutputs,
                                      const poplar::Tensor &expected,
                                      const poplar::Tensor &numCorrect,
                                      const poplar::DebugContext &debugContext = {});

/// The column of each row's maximum of a 2-D input (UNSIGNED_INT [rows]); the first on ties.
poplar::Tensor argMax(poplar::Graph &graph, const poplar::Tensor &input,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

/// Each row's maximum (input's type) and its column.
std::pair<poplar::Tensor, poplar::Tensor>
maxAndArgMax(poplar::Graph &graph, const poplar::Tensor &input, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {});

poplar::Tensor argMin(poplar::Graph &graph, const poplar::Tensor &input,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {});

std::pair<poplar::Tensor, poplar::Tensor>
minAndArgMin(poplar::Graph &graph, const poplar::Tensor &input, poplar::program::Sequence &prog,
             const poplar::DebugContext &debugContext = {});

/// The K largest values of each row of input [B, N] ([B, K]) and their columns in `indices`
/// (UNSIGNED_INT [B, K]); in descending order if `sort`, in an unspecified order otherwise.
poplar::Tensor topK(poplar::Graph &graph, const poplar::Tensor &input, poplar::Tensor &indices,
                    unsigned K, bool sort, poplar::program::Sequence &prog,
                    const poplar::DebugContext &debugContext = {});

} // namespace popnn

#endif // !__POPC__

#endif // popnn_Loss_hpp
