// The sliding window conv and pooling share: per spatial dimension of an [N, C, spatial...]
// input, the kernel size, stride, dilation and the padding at each end, read from an op's
// attributes ("stride", "padding" as [begins..., ends...], "dilation") and checked.
#pragma once

#include "OpTable.hpp"

namespace popxl::internal {

struct Window {
  std::vector<std::size_t> kernel, stride, dilation, padLower, padUpper;

  std::size_t dims() const { return kernel.size(); }
  /// The output's spatial shape for an input of spatial shape `field`; an error naming the op
  /// when the padded input is smaller than the dilated kernel.
  std::vector<std::int64_t> outputField(const OpInfo &op,
                                        const std::vector<std::int64_t> &field) const;
};

/// The window of `kernel` (one size per spatial dimension) over an input of rank `rank` (>= 3),
/// the rest from the op's attributes; absent ones default to stride 1, dilation 1, no padding.
Window readWindow(const OpInfo &op, const std::vector<std::int64_t> &kernel, std::size_t rank);

} // namespace popxl::internal
