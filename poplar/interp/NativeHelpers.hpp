// The host functions translated code calls for instructions not worth expressing in IR, passed
// to libpoplar_native.so as a table: each is the interpreter's own semantics (Ops.hpp, Print),
// in libpoplar, so both tiers compute the same bits and share one print sink.
// Register pairs travel as one uint64_t, low word first; a Trap travels as its uint32_t value.
#pragma once

#include "interp/Interpreter.hpp"

#include <cstdint>

namespace poplar::interp {

struct NativeHelpers {
  using U32 = std::uint32_t;
  using U64 = std::uint64_t;
  // f32 functions of the host's libm, NaNs canonical.
  U32 (*fexp)(U32), (*flog)(U32), (*ftanh)(U32), (*fsin)(U32), (*fcos)(U32);
  U32 (*fpow)(U32, U32);
  // f16 conversions (isa/Half.hpp) and the f16v4 lane arithmetic.
  U32 (*ftoh)(U32), (*htof)(U32);
  U64 (*f16v4add)(U64, U64), (*f16v4mul)(U64, U64), (*f16v4fma)(U64, U64, U64);
  U32 (*f16v4sum)(U64);
  // AMP weight loads return a Trap, checked as the interpreter checks them; the MACs take
  // the operand pair's words.
  U32 (*ampwf32)(WorkerState *, const TileMemory *, U32 addr);
  U32 (*ampwf16)(WorkerState *, const TileMemory *, U32 addr);
  void (*ampf32)(WorkerState *, U32 lo, U32 hi), (*ampf16)(WorkerState *, U32 lo, U32 hi);
  // An AMP pass's coefficient load (rd = oc * ic) and run (addr = the faulting operand):
  // a Trap each.
  U32 (*ampw32)(WorkerState *, const TileMemory *, U32 base, U32 shape, U32 *rd);
  U32 (*ampw16)(WorkerState *, const TileMemory *, U32 base, U32 shape, U32 *rd);
  U32 (*amp32)(WorkerState *, const TileMemory *, U32 in, U32 out, U32 ctl, U32 *addr);
  U32 (*amp16)(WorkerState *, const TileMemory *, U32 in, U32 out, U32 ctl, U32 *addr);
  U32 (*amp16h)(WorkerState *, const TileMemory *, U32 in, U32 out, U32 ctl, U32 *addr);
  // printf on the tile: 1 with *written set, or 0 with *addr the faulting address.
  U32 (*print)(const TileMemory *, U32 format, U32 args, U32 *written, U32 *addr);
};

const NativeHelpers &nativeHelpers();

} // namespace poplar::interp
