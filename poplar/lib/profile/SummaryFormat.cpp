// Number and size formatting shared by the profile summary printers.
#include "profile/SummaryFormat.hpp"

#include <cmath>
#include <cstdio>

namespace poplar::detail {

std::string withCommas(std::uint64_t n) {
  std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i != 0 && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return out;
}

std::string withCommas(double x, int decimals) {
  bool negative = x < 0;
  double scale = std::pow(10.0, decimals);
  // Round once on the scaled value so 9.96 -> "10.0", not "9.10".
  auto scaled = static_cast<std::uint64_t>(std::llround(std::fabs(x) * scale));
  auto whole = static_cast<std::uint64_t>(scaled / static_cast<std::uint64_t>(scale));
  std::string out = (negative && scaled != 0 ? "-" : "") + withCommas(whole);
  if (decimals > 0) {
    std::string frac = std::to_string(scaled % static_cast<std::uint64_t>(scale));
    out += '.' + std::string(decimals - frac.size(), '0') + frac;
  }
  return out;
}

std::string binarySize(std::uint64_t bytes) {
  static const char *const units[] = {"kB", "MB", "GB", "TB"};
  if (bytes < 1024)
    return std::to_string(bytes) + " B";
  double value = double(bytes) / 1024;
  unsigned unit = 0;
  while (value >= 1024 && unit + 1 < sizeof(units) / sizeof(units[0])) {
    value /= 1024;
    ++unit;
  }
  return withCommas(value) + " " + units[unit];
}

} // namespace poplar::detail
