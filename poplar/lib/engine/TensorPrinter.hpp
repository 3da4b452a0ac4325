// PrintTensor's text format: "name: [a b c]", nested and indented for rank >= 2.
#pragma once

#include <poplar/Type.hpp>

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace poplar::detail {

/// Prints `bytes` (device layout, element order) of a tensor of `type` and `shape`.
/// Floats use fixed notation with 7 decimals; integers print plainly; bools as true/false.
void printTensor(std::ostream &os, const std::string &title, Type type,
                 const std::vector<std::uint64_t> &shape, const std::vector<std::uint8_t> &bytes);

} // namespace poplar::detail
