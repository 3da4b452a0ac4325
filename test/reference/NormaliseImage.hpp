// Host reference for popops::normaliseImage: 3-channel pixels to 4-channel ones, each step
// rounded to the output type.
#pragma once

#include <poplar/Type.hpp>

#include <vector>

namespace popsdk::reference {

std::vector<double> normaliseImage(const std::vector<double> &in, double inScale,
                                   const std::vector<double> &offsets,
                                   const std::vector<double> &scales, poplar::Type outType);

} // namespace popsdk::reference
