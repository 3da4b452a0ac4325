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

/// Formats the string at `format` with the argument slots at `args` and writes it to the sink.
/// Returns false, with `faultAddress` set, if the format, a %s string or an argument slot is
/// outside `mem`; otherwise `written` is the number of characters written.
bool printFormatted(const TileMemory &mem, std::uint32_t format, std::uint32_t args,
                    std::uint32_t &written, std::uint32_t &faultAddress);

} // namespace detail
} // namespace poplar::interp
