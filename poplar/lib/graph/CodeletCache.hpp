// Compiling codelet sources with the installed popc, cached on everything the compile read.
#pragma once

#include <string>

namespace poplar::detail {

/// The popc to run: $POPC if set, else popc beside libpoplar (<prefix>/bin), else popc on PATH.
/// Throws graph_object_load_error if none is found.
std::string findPopc();

/// Returns the path of a .gp compiled from `sourcePath` with `compileFlags` for `target`,
/// compiling it with popc unless the cache ($POPLAR_CODELET_CACHE, else
/// $XDG_CACHE_HOME/poplar-sdk/codelets, else ~/.cache/poplar-sdk/codelets) has it. The cache key
/// hashes the source text and folder, the flags, the target, the popc executable, and the content
/// of every file the last compile read (popc -MD), so a changed header is a miss. Entries are
/// written under a temporary name and renamed, so concurrent processes never see half a file.
/// A popc failure throws graph_object_load_error carrying popc's diagnostics.
std::string compileCodeletCached(const std::string &sourcePath, const std::string &compileFlags,
                                 const std::string &target);

/// "<pid>-<n>", different on every call: a part of a temporary file's name that no other
/// process, and no other thread of this one, is using at the same time.
std::string uniqueTempSuffix();

/// Forgets a cache entry found to be corrupt, so the next compile rebuilds it.
void evictCodelet(const std::string &gpPath);

} // namespace poplar::detail
