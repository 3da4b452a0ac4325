// Number and size formatting shared by the profile summary printers (Poplar's conventions).
#pragma once

#include <cstdint>
#include <string>

namespace poplar::detail {

/// 1234567 -> "1,234,567".
std::string withCommas(std::uint64_t n);
/// 6663550.75 -> "6,663,550.8" (one decimal unless `decimals` says otherwise).
std::string withCommas(double x, int decimals = 1);
/// Binary units with one decimal, as Poplar prints sizes: 638976 -> "624.0 kB",
/// 940572672 -> "897.0 MB"; below 1 kB it is "N B".
std::string binarySize(std::uint64_t bytes);

} // namespace poplar::detail
