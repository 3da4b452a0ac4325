// Convolution parameter algebra: the parameters of the backward pass.
#ifndef poplin_ConvUtil_hpp
#define poplin_ConvUtil_hpp

#include <poplin/ConvParams.hpp>

namespace poplin {

/// The parameters of the convolution that computes the input gradients of `fwdParams` from its
/// output gradients, with the forward weights passed to convolution() with
/// transposeAndFlipWeights = true. Supports forward input padding, kernel dilation and output
/// stride (the transforms of ordinary layers).
ConvParams getGradientParams(const ConvParams &fwdParams);

} // namespace poplin

#endif
