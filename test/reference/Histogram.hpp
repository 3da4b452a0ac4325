// Host reference for popops::histogram: counts of values between consecutive levels.
#pragma once

#include <vector>

namespace popsdk::reference {

/// levels.size() + 1 counts: entry k counts x (|x| if absolute) with levels[k-1] <= x <
/// levels[k], unbounded below for k = 0 and above for the last entry, where NaNs also count.
std::vector<double> histogram(const std::vector<double> &values, const std::vector<double> &levels,
                              bool absolute);

} // namespace popsdk::reference
