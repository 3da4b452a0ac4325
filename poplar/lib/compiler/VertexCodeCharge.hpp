// The code bytes a tile is charged for one codelet object: the functions its vertices reach.
#pragma once

#include "gp/GpFile.hpp"

#include <cstdint>
#include <set>

namespace poplar::detail {

/// The bytes of `file`'s code a tile holds to run the vertex types whose entry pcs are
/// `entries`, as Poplar loads only the code a tile's vertices need: those entry functions plus
/// every function they reach through direct calls and branches, each counted once. Code no
/// code symbol covers is always charged (its callers are unknown). When some vertex's entry has
/// no sized code symbol, nothing can be split and the whole object is charged.
std::uint64_t codeBytesForEntries(const gp::GpFile &file, const std::set<std::uint32_t> &entries);

} // namespace poplar::detail
