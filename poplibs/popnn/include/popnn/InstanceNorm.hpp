// popnn::in: instance normalisation, group normalisation with a group per channel.
// Channels are dimension 1 of acts [batch, channels, field...]; gamma and beta are [channels].
// The functions and their semantics are popnn/NormApi.hpp's; here: mean and invStdDev are [batch *
// channels], sample-major.
#ifndef popnn_InstanceNorm_hpp
#define popnn_InstanceNorm_hpp

#include <popnn/NormApi.hpp>

namespace popnn {
namespace in {

POPNN_NORM_API(instanceNorm, )

} // namespace in
} // namespace popnn

#endif // popnn_InstanceNorm_hpp
