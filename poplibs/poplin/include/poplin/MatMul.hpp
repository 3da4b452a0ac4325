// Matrix multiplication: C = A.B for [M,K] x [K,N] matrices and grouped [G,M,K] x [G,K,N] ones,
// planned over the tiles as a 1x1 convolution (batch M, input channels K, output channels N).
#ifndef poplin_MatMul_hpp
#define poplin_MatMul_hpp

#include <poplin/PlanningCache.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <iosfwd>
#include <set>
#include <tuple>
#include <vector>

namespace poplin {

/// Options (all optional): "availableMemoryProportion" (0..1, default 0.6: the share of each
/// tile's memory the plan's temporaries may use), "partialsType" ("float" or "half"; default
/// float), "fullyConnectedPass" (NONE, INFERENCE_FWD, TRAINING_FWD, TRAINING_BWD, TRAINING_WU),
/// "inputRHSIsPreArranged", "use128BitConvUnitLoad", "enableMultiStageReduce",
/// "enableFastReduce", "remapOutputTensor" (accepted).

/// A new [M,N] tensor A.B of `outputType`.
poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog, const poplar::Type &outputType,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
/// As above with A's element type.
poplar::Tensor matMul(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
/// Writes A.B into `out` ([M,N]).
void matMulWithOutput(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::Tensor &out, poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
/// A new [G,M,N] tensor: the G products A[g].B[g].
poplar::Tensor matMulGrouped(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                             poplar::program::Sequence &prog, const poplar::Type &outputType,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {},
                             PlanningCache *cache = nullptr);
void matMulGroupedWithOutput(poplar::Graph &graph, const poplar::Tensor &A, const poplar::Tensor &B,
                             poplar::Tensor &out, poplar::program::Sequence &prog,
                             const poplar::DebugContext &debugContext = {},
                             const poplar::OptionFlags &options = {},
                             PlanningCache *cache = nullptr);

/// C += k.A.B
void matMulAcc(poplar::Graph &graph, const poplar::Tensor &C, float k, const poplar::Tensor &A,
               const poplar::Tensor &B, poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
/// C += k.A.B with k a one-element tensor.
void matMulAcc(poplar::Graph &graph, const poplar::Tensor &C, const poplar::Tensor &k,
               const poplar::Tensor &A, const poplar::Tensor &B, poplar::program::Sequence &prog,
               const poplar::DebugContext &debugContext = {},
               const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
void matMulGroupedAcc(poplar::Graph &graph, const poplar::Tensor &C, float k,
                      const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
void matMulGroupedAcc(poplar::Graph &graph, const poplar::Tensor &C, const poplar::Tensor &k,
                      const poplar::Tensor &A, const poplar::Tensor &B,
                      poplar::program::Sequence &prog,
                      const poplar::DebugContext &debugContext = {},
                      const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);

/// Tensors laid out for a matMul of `aShape` by `bShape`, spread over the tiles as its plan
/// uses them (so the product moves as little data as it can).
poplar::Tensor createMatMulInputLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                    const poplar::Type &outputType,
                                    const std::vector<std::size_t> &aShape,
                                    const std::vector<std::size_t> &bShape,
                                    const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = {},
                                    PlanningCache *cache = nullptr);
poplar::Tensor createMatMulInputLHS(poplar::Graph &graph, const poplar::Type &dataType,
                                    const std::vector<std::size_t> &aShape,
                                    const std::vector<std::size_t> &bShape,
                                    const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = {},
                                    PlanningCache *cache = nullptr);
poplar::Tensor createMatMulInputRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                    const poplar::Type &outputType,
                                    const std::vector<std::size_t> &aShape,
                                    const std::vector<std::size_t> &bShape,
                                    const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = {},
                                    PlanningCache *cache = nullptr);
poplar::Tensor createMatMulInputRHS(poplar::Graph &graph, const poplar::Type &dataType,
                                    const std::vector<std::size_t> &aShape,
                                    const std::vector<std::size_t> &bShape,
                                    const poplar::DebugContext &debugContext,
                                    const poplar::OptionFlags &options = {},
                                    PlanningCache *cache = nullptr);
poplar::Tensor
createMatMulOutput(poplar::Graph &graph, const poplar::Type &inputType,
                   const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                   const std::vector<std::size_t> &bShape, const poplar::DebugContext &debugContext,
                   const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
poplar::Tensor createMatMulOutput(poplar::Graph &graph, const poplar::Type &dataType,
                                  const std::vector<std::size_t> &aShape,
                                  const std::vector<std::size_t> &bShape,
                                  const poplar::DebugContext &debugContext,
                                  const poplar::OptionFlags &options = {},
                                  PlanningCache *cache = nullptr);
/// The grouped forms take [G,M,K] and [G,K,N] shapes.
poplar::Tensor createMatMulGroupedInputLHS(poplar::Graph &graph, const poplar::Type &inputType,
                                           const poplar::Type &outputType,
                                           const std::vector<std::size_t> &aShape,
                                           const std::vector<std::size_t> &bShape,
                                           const poplar::DebugContext &debugContext,
                                           const poplar::OptionFlags &options = {},
                                           PlanningCache *cache = nullptr);
poplar::Tensor createMatMulGroupedInputRHS(poplar::Graph &graph, const poplar::Type &inputType,
                                           const poplar::Type &outputType,
                                           const std::vector<std::size_t> &aShape,
                                           const std::vector<std::size_t> &bShape,
                                           const poplar::DebugContext &debugContext,
                                           const poplar::OptionFlags &options = {},
                                           PlanningCache *cache = nullptr);
poplar::Tensor createMatMulGroupedOutput(poplar::Graph &graph, const poplar::Type &inputType,
                                         const poplar::Type &outputType,
                                         const std::vector<std::size_t> &aShape,
                                         const std::vector<std::size_t> &bShape,
                                         const poplar::DebugContext &debugContext,
                                         const poplar::OptionFlags &options = {},
                                         PlanningCache *cache = nullptr);

/// The right-hand matrix in the layout a matMul reads it (here: B itself).
poplar::Tensor preArrangeMatMulInputRHS(poplar::Graph &graph,
                                        const std::vector<std::size_t> &aShape,
                                        const poplar::Tensor &B, poplar::program::Sequence &prog,
                                        const poplar::Type &outputType,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = {},
                                        PlanningCache *cache = nullptr);
poplar::Tensor preArrangeMatMulInputRHS(poplar::Graph &graph,
                                        const std::vector<std::size_t> &aShape,
                                        const poplar::Tensor &B, poplar::program::Sequence &prog,
                                        const poplar::DebugContext &debugContext = {},
                                        const poplar::OptionFlags &options = {},
                                        PlanningCache *cache = nullptr);

/// [G,M,N] -> [G,N,M]
poplar::Tensor transposeGroupedMatrix(const poplar::Tensor &A);

/// Writes the plan of a matMul (tiles, splits, estimated cycles and memory) to `out`.
void matMulReportPlan(std::ostream &out, const poplar::Graph &graph, const poplar::Type &inputType,
                      const poplar::Type &outputType, const std::vector<std::size_t> &aShape,
                      const std::vector<std::size_t> &bShape,
                      const poplar::OptionFlags &options = {}, PlanningCache *cache = nullptr);
void matMulGroupedReportPlan(std::ostream &out, const poplar::Graph &graph,
                             const poplar::Type &inputType, const poplar::Type &outputType,
                             const std::vector<std::size_t> &aShape,
                             const std::vector<std::size_t> &bShape,
                             const poplar::OptionFlags &options = {},
                             PlanningCache *cache = nullptr);

struct MatMulParams {
  poplar::Type inputType;
  poplar::Type outputType;
  std::vector<std::size_t> aShape;
  std::vector<std::size_t> bShape;
  friend bool operator<(const MatMulParams &a, const MatMulParams &b);
};

using MatMulPlanParams =
    std::tuple<const poplar::Target *, const MatMulParams, const poplar::OptionFlags *>;
/// Plans each matmul of `matmuls` into `cache`, so that later calls find their plans there.
void preplanMatMuls(const std::set<MatMulPlanParams> &matmuls, PlanningCache &cache);

/// Throws poplar::invalid_option if `options` holds an unknown key or a bad value.
void matmulValidateOptions(const poplar::OptionFlags &options);

} // namespace poplin

#endif
