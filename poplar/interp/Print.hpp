// printf on the tile: the `print` instruction formats a C format string held in tile memory
// with its arguments in 4-byte slots (8 for `ll`) and writes the text to the print sink, the
// host's standard output unless a program sets another (the IPU model prints codelets' printf
// on the host too).
#pragma once

#include "interp/Interpreter.hpp"

#include <cstdint>
#include <functional>
#include <string_view>

namespace poplar::interp {

/// Where `print` writes; an empty function restores standard output. Calls are serialised.
void setPrintSink(std::function<void(std::string_view)> sink);

namespace detail {

/// What a memory-checked run may read (debug.checkMemoryAccess): mayRead(addr, bytes) is
/// asked before each read inside the tile; `stray` says a print stopped on its answer.
struct PrintReadCheck {
  std::function<bool(std::uint32_t, std::uint32_t)> mayRead;
  bool stray = false;
};

/// Formats the string at `format` with the argument slots at `args` and writes it to the sink.
/// Returns false, with `faultAddress` set, if the format, a %s string or an argument slot is
/// outside `mem` (or, with `check`, one it may not read); otherwise `written` is the number of
/// characters written.
bool printFormatted(const TileMemory &mem, std::uint32_t format, std::uint32_t args,
                    std::uint32_t &written, std::uint32_t &faultAddress,
                    PrintReadCheck *check = nullptr);

} // namespace detail
} // namespace poplar::interp
