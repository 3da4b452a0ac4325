// Convolutions: forward, input gradients (with transposed and flipped weights) and weight
// updates, each lowered onto the matmul planner by folding the kernel positions into the input
// channels (an im2col the graph compiler gathers onto each tile).
#ifndef poplin_Convolution_hpp
#define poplin_Convolution_hpp

#include <poplin/ConvParams.hpp>
#include <poplin/PlanningCache.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstdint>
#include <iosfwd>
#include <set>
#include <tuple>

namespace poplin {

/// Options: those of matMul ("availableMemoryProportion", "partialsType") and "pass" (NONE,
/// INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, TRAINING_WU, FC_*), "use128BitConvUnitLoad",
/// "enableMultiStageReduce", "enableFastReduce", "enableConvDithering" (accepted).

/// [numConvGroups, outputChansPerGroup, inputChansPerGroup, kernel...]
poplar::Tensor createWeights(poplar::Graph &graph, const ConvParams &params,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {},
                             PlanningCache *cache = nullptr);
/// [batch, inputChans, field...]
poplar::Tensor createInput(poplar::Graph &graph, const ConvParams &params,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
/// [batch, outputChans, outputField...]
poplar::Tensor createConvOutput(poplar::Graph &graph, const ConvParams &params,
                                const poplar::DebugContext &debugContext = {},
                                const poplar::OptionFlags &options = {},
                                PlanningCache *cache = nullptr);

/// The convolution of `in` by `weights`. With transposeAndFlipWeights, `weights` has the
/// forward layer's shape and is used with its channel dimensions swapped and its kernel flipped
/// (the input-gradient pass, with getGradientParams).
poplar::Tensor convolution(poplar::Graph &graph, const poplar::Tensor &in,
                           const poplar::Tensor &weights, const ConvParams &params,
                           bool transposeAndFlipWeights, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
void convolutionWithOutput(poplar::Graph &graph, const poplar::Tensor &in,
                           const poplar::Tensor &weights, const poplar::Tensor &out,
                           const ConvParams &params, bool transposeAndFlipWeights,
                           poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {},
                           const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// weightsOut = weightsIn with input and output channels swapped and the kernel flipped.
void weightsTransposeChansFlipXY(poplar::Graph &graph, const poplar::Tensor &weightsIn,
                                 const poplar::Tensor &weightsOut, poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {});

/// The gradient of the loss by the weights, from the output gradients and the activations.
poplar::Tensor calculateWeightDeltas(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                                     const poplar::Tensor &activations, const ConvParams &params,
                                     poplar::program::Sequence &prog,
                                     const poplar::DebugContext &debugContext = {},
                                     const poplar::OptionFlags &options = {},
                                     PlanningCache *cache = nullptr);
/// weights += scale * calculateWeightDeltas(...)
void convolutionWeightUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                             const poplar::Tensor &weights, const poplar::Tensor &activations,
                             ConvParams params, const poplar::Tensor &scale,
                             poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {},
                             PlanningCache *cache = nullptr);
void convolutionWeightUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                             const poplar::Tensor &weights, const poplar::Tensor &activations,
                             ConvParams params, float scale, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {},
                             PlanningCache *cache = nullptr);

/// Biases for `acts` ([batch, chans, field...]): one per channel.
poplar::Tensor createBiases(poplar::Graph &graph, const poplar::Tensor &acts,
                            const poplar::DebugContext &debugContext = {"biases"});
poplar::Tensor createBiases(poplar::Graph &graph, const poplar::Tensor &acts,
                            const ConvParams &params,
                            const poplar::DebugContext &debugContext = {"biases"},
                            const poplar::OptionFlags &options = {},
                            PlanningCache *cache = nullptr);
/// acts[b][c][...] += biases[c]
void addBias(poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &biases,
             poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {});
/// biases += scale * sum over batch and field of zDeltas
void convolutionBiasUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                           const poplar::Tensor &biases, const poplar::Tensor &scale,
                           const poplar::OptionFlags &options, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {});
void convolutionBiasUpdate(poplar::Graph &graph, const poplar::Tensor &zDeltas,
                           const poplar::Tensor &biases, float scale,
                           const poplar::OptionFlags &options, poplar::program::Sequence &prog,
                           const poplar::DebugContext &debugContext = {});

/// Writes the plan of the convolution (its matmul shape, split, estimated cycles and memory).
void reportPlanInfo(std::ostream &out, const poplar::Graph &graph, const ConvParams &params,
                    const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

struct PlanCosts {
  std::size_t cycles;
  std::size_t memory;
};
PlanCosts reportPlanEstimatedCosts(const poplar::Graph &graph, const ConvParams &params,
                                   const poplar::OptionFlags &options = {},
                                   PlanningCache *cache = nullptr);

using ConvPlanParams =
    std::tuple<const poplar::Target *, const ConvParams, const poplar::OptionFlags *>;
void preplanConvolutions(const std::set<ConvPlanParams> &convs, PlanningCache &cache);
void preplanConvolutions(poplar::Graph &graph, const std::set<ConvPlanParams> &convs,
                         PlanningCache &cache);

/// Multiply-accumulates counted as 2 flops.
std::uint64_t getFwdFlops(const ConvParams &params);
std::uint64_t getBwdFlops(const ConvParams &params);
std::uint64_t getWuFlops(const ConvParams &params);
/// Cycles at the AMP's peak on every tile of the graph's target.
double getFwdPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params);
double getBwdPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params);
double getWuPerfectCycleCount(const poplar::Graph &graph, const ConvParams &params);

} // namespace poplin

#endif
