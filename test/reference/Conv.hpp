// Host reference for poplin's convolutions: forward, input gradients and weight gradients by
// direct summation over every (output position, kernel tap) pair the parameters connect.
#pragma once

#include <poplin/ConvParams.hpp>

#include <vector>

namespace popsdk::reference {

/// out [batch][outChans][outField...] from in [batch][inChans][field...] and weights
/// [groups][outChansPerGroup][inChansPerGroup][kernel...], all row-major.
std::vector<double> convolution(const poplin::ConvParams &p, const std::vector<double> &in,
                                const std::vector<double> &weights);
/// d(loss)/d(in) from d(loss)/d(out).
std::vector<double> convolutionInputGrad(const poplin::ConvParams &p,
                                         const std::vector<double> &outGrad,
                                         const std::vector<double> &weights);
/// d(loss)/d(weights) from d(loss)/d(out) and the input.
std::vector<double> convolutionWeightGrad(const poplin::ConvParams &p,
                                          const std::vector<double> &outGrad,
                                          const std::vector<double> &in);

} // namespace popsdk::reference
