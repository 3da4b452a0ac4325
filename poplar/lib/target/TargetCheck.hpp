// Checks of a target's figures that came from outside (a serialised Executable): each field in
// range, and which field differs between two targets.
#pragma once

#include "target/TargetDesc.hpp"

#include <string>

namespace poplar::detail {

/// Empty if every figure of `t` is usable; otherwise the first bad field, its value and the
/// rule, e.g. "numWorkerContexts is 0 (must be at least 1)".
std::string invalidTargetField(const TargetDesc &t);

/// Empty if `device` can run code compiled for `compiled` (same tile count and tile memory);
/// otherwise the first field that differs with both values, e.g.
/// "bytesPerTile: the device has 1024, the executable 638976".
std::string targetMismatch(const TargetDesc &device, const TargetDesc &compiled);

} // namespace poplar::detail
