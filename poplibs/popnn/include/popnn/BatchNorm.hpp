// popnn::bn: batch normalisation, statistics per channel over the batch and the field.
// Channels are dimension 1 of acts [batch, channels, field...]; gamma and beta are [channels].
// The functions and their semantics are popnn/NormApi.hpp's; here: mean and invStdDev are
// [channels].
#ifndef popnn_BatchNorm_hpp
#define popnn_BatchNorm_hpp

#include <popnn/NormApi.hpp>

namespace popnn {
namespace bn {

POPNN_NORM_API(batchNorm, )

/// acts * combinedMultiplicand + addend, both [channels]: gamma * invStdDev and beta - gamma *
/// mean * invStdDev folded ahead, as at inference.
poplar::Tensor batchNormalise(poplar::Graph &graph, const poplar::Tensor &acts,
                              const poplar::Tensor &combinedMultiplicand,
                              const poplar::Tensor &addend, poplar::program::Sequence &prog,
                              const poplar::DebugContext &debugContext = {},
                              const poplar::OptionFlags &options = {});

} // namespace bn
} // namespace popnn

#endif // popnn_BatchNorm_hpp
