// popnn::ln: layer normalisation, group normalisation with one group.
// Channels are dimension 1 of acts [batch, channels, field...]; gamma and beta are [channels].
// The functions and their semantics are popnn/NormApi.hpp's; here: mean and invStdDev are [batch].
#ifndef popnn_LayerNorm_hpp
#define popnn_LayerNorm_hpp

#include <popnn/NormApi.hpp>

namespace popnn {
namespace ln {

POPNN_NORM_API(layerNorm, )

} // namespace ln
} // namespace popnn

#endif // popnn_LayerNorm_hpp
