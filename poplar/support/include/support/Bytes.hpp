// Whole-file reads and the FNV-1a hash behind cache keys and object identities (codelet cache,
// codelet objects, popops' generated vertex names).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace popsdk::support {

/// The bytes of the file at `path`, or an empty string if it cannot be read (callers check
/// existence first where that matters).
std::string readFile(const std::string &path);

/// FNV-1a, 64-bit, continuing from `seed`: an identity for caches, not a security boundary.
std::uint64_t fnv1a(std::string_view bytes, std::uint64_t seed = 1469598103934665603ull);

} // namespace popsdk::support
