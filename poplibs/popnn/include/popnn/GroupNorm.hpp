// popnn::gn: group normalisation, statistics per sample and group of channels.
// Channels are dimension 1 of acts [batch, channels, field...]; gamma and beta are [channels].
// The functions and their semantics are popnn/NormApi.hpp's; here: mean and invStdDev are [batch *
// numGroups], sample-major. Option "groupNormStridedChannelGrouping" (true, false; default false):
// channel c is in group c % numGroups rather than c / (channels / numGroups).
#ifndef popnn_GroupNorm_hpp
#define popnn_GroupNorm_hpp

#include <popnn/NormApi.hpp>

namespace popnn {
namespace gn {

POPNN_NORM_API(groupNorm, unsigned numGroups, )

} // namespace gn
} // namespace popnn

#endif // popnn_GroupNorm_hpp
