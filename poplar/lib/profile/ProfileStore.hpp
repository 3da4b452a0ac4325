// Writes a ProfileData as profile.pop, the SQLite file that libpva and PopVision-style tools read.
#pragma once

#include "profile/ProfileData.hpp"

#include <string>

namespace poplar::detail {

/// The profile.pop schema version written to the meta table; libpva refuses newer ones.
constexpr int kProfileFormatVersion = 2; // 2: tile liveness columns

/// Writes `data` to `path` (schema in docs/profile-format.md), creating missing parent
/// directories. The file is built under a temporary name in the same directory and renamed over
/// `path`, so a reader never sees a half-written profile and an older file is replaced whole.
/// Throws poplar_error naming the path and the SQLite or file-system error.
void writeProfile(const ProfileData &data, const std::string &path);

} // namespace poplar::detail
