// Whole-file reads and the FNV-1a hash behind codelet cache keys and codelet object identity.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace poplar::detail {

/// The bytes of the file at `path`, or an empty string if it cannot be read (callers check
/// existence first where that matters).
std::string readFile(const std::string &path);

/// FNV-1a, 64-bit, continuing from `seed`: an identity for caches, not a security boundary.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed = 1469598103934665603ull);

} // namespace poplar::detail
