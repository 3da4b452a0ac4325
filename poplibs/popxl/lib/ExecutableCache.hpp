// A disk cache of compiled programs (POPXL_CACHE_DIR, or a directory the caller gives): the
// Poplar Executable of an Ir, keyed on everything in the Ir that reaches the compiled program, so
// that a second run of the same program loads it instead of lowering and compiling again.
#pragma once

#include "popxl/Ir.hpp"

#include <poplar/Executable.hpp>

#include <optional>
#include <string>

namespace popxl::internal {

/// The key of `ir` compiled for `device`: its graphs, ops (type, name, attributes, tensors), the
/// specs of its tensors, constants' values and streams. Variables' values are left out: they
/// are written when the program is loaded, so new weights reuse the executable.
std::string executableKey(const Ir &ir, const std::string &device);

/// The file of the entry `key` in `dir`.
std::string entryPath(const std::string &dir, const std::string &key);

/// The executable stored under `key` in `dir`, or nothing; an entry that does not load (a
/// truncated or foreign file) is removed and counts as missing.
std::optional<poplar::Executable> loadExecutable(const std::string &dir, const std::string &key);

/// Stores `exe` under `key` in `dir` (created if missing), written to a temporary file and renamed
/// into place, so that a reader never sees half an entry.
void storeExecutable(const std::string &dir, const std::string &key, const poplar::Executable &exe);

} // namespace popxl::internal
