// C math functions, LLVM intrinsics and tile runtime functions that popc maps onto instructions
// (shared by the support check and the lowering so they cannot disagree).
#ifndef popc_passes_MathFunctions_hpp
#define popc_passes_MathFunctions_hpp

#include "isa/Isa.hpp"

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Intrinsics.h"

#include <optional>

namespace popc {

/// The instruction computing the float C function `name` (sqrtf, expf, ...) or the
/// one-instruction tile builtin `name` (__builtin_ipu_amp_f32, ...), if any.
inline std::optional<poplar::isa::Opcode> mathFunctionOpcode(llvm::StringRef name) {
  using poplar::isa::Opcode;
#define MATH_FUNCTION(fn, op)                                                                      \
  if (name == #fn)                                                                                 \
    return Opcode::op;
#define TILE_BUILTIN(fn, op) MATH_FUNCTION(fn, op)
#include "passes/MathFunctions.def"
#undef MATH_FUNCTION
  return std::nullopt;
}

/// The names of the math functions above, comma-separated, for diagnostics.
inline const char *mathFunctionNames() {
#define MATH_FUNCTION(fn, op) #fn ", "
  return
#include "passes/MathFunctions.def"
      "";
#undef MATH_FUNCTION
}

/// __builtin_ipu_get (popc/include/c/ipu_builtins.h); popc reads one register with it, the
/// worker status register CSR_W_WSR__INDEX (poplar/TileConstants.hpp), as the `wid` instruction.
inline bool isCsrRead(llvm::StringRef name) { return name == "__builtin_ipu_get"; }
constexpr std::uint32_t kCsrWorkerStatus = 0x1;

/// An IPU builtin that ipu_builtins.h declares but the simulated tile has no equivalent for.
inline bool isIpuBuiltin(llvm::StringRef name) { return name.startswith("__builtin_ipu_"); }

/// printf (popc/include/c/stdio.h): the `print` instruction, its float arguments passed as
/// their f32 bits rather than promoted to double.
inline bool isPrintf(llvm::StringRef name) { return name == "printf"; }

/// SelectVectors' stand-ins for the vector instructions it selects: `__popc_vector_<mnemonic>`
/// on the vectors' bits (an i64 for a register pair), which the lowering emits as that one
/// instruction.
constexpr const char *kVectorOperationPrefix = "__popc_vector_";
inline std::optional<poplar::isa::Opcode> vectorOperationOpcode(llvm::StringRef name) {
  if (!name.consume_front(kVectorOperationPrefix))
    return std::nullopt;
  return poplar::isa::opcodeFromMnemonic(std::string_view(name.data(), name.size()));
}

/// The function a failing assert() calls (popc/include/c/assert.h): `trap kTrapAssertion`.
inline bool isAssertFailure(llvm::StringRef name) { return name == "__popc_assert_fail"; }

/// The instruction computing the f32 intrinsic `id`, if any.
inline std::optional<poplar::isa::Opcode> intrinsicOpcode(llvm::Intrinsic::ID id) {
  using poplar::isa::Opcode;
  switch (id) {
  case llvm::Intrinsic::sqrt:
    return Opcode::Fsqrt;
  case llvm::Intrinsic::exp:
    return Opcode::Fexp;
  case llvm::Intrinsic::log:
    return Opcode::Flog;
  case llvm::Intrinsic::sin:
    return Opcode::Fsin;
  case llvm::Intrinsic::cos:
    return Opcode::Fcos;
  case llvm::Intrinsic::pow:
    return Opcode::Fpow;
  case llvm::Intrinsic::floor:
    return Opcode::Ffloor;
  case llvm::Intrinsic::ceil:
    return Opcode::Fceil;
  case llvm::Intrinsic::round:
    return Opcode::Fround;
  case llvm::Intrinsic::trunc:
    return Opcode::Ftrunc;
  case llvm::Intrinsic::fabs:
    return Opcode::Fabs;
  case llvm::Intrinsic::minnum:
    return Opcode::Fmin;
  case llvm::Intrinsic::maxnum:
    return Opcode::Fmax;
  case llvm::Intrinsic::fma:
  case llvm::Intrinsic::fmuladd:
    return Opcode::Fma;
  case llvm::Intrinsic::smin:
    return Opcode::Mins;
  case llvm::Intrinsic::smax:
    return Opcode::Maxs;
  case llvm::Intrinsic::umin:
    return Opcode::Minu;
  case llvm::Intrinsic::umax:
    return Opcode::Maxu;
  case llvm::Intrinsic::ctpop:
    return Opcode::Popc;
  case llvm::Intrinsic::ctlz:
    return Opcode::Clz;
  case llvm::Intrinsic::cttz:
    return Opcode::Ctz;
  default:
    return std::nullopt;
  }
}

/// Intrinsics that generate no code (debug info, lifetimes, hints).
inline bool isIgnoredIntrinsic(llvm::Intrinsic::ID id) {
  switch (id) {
  case llvm::Intrinsic::dbg_declare:
  case llvm::Intrinsic::dbg_value:
  case llvm::Intrinsic::dbg_label:
  case llvm::Intrinsic::lifetime_start:
  case llvm::Intrinsic::lifetime_end:
  case llvm::Intrinsic::assume:
  case llvm::Intrinsic::experimental_noalias_scope_decl:
  case llvm::Intrinsic::donothing:
  case llvm::Intrinsic::sideeffect:
    return true;
  default:
    return false;
  }
}

/// Intrinsics the lowering expands into several instructions.
inline bool isExpandedIntrinsic(llvm::Intrinsic::ID id) {
  return id == llvm::Intrinsic::memcpy || id == llvm::Intrinsic::memmove ||
         id == llvm::Intrinsic::memset || id == llvm::Intrinsic::abs ||
         id == llvm::Intrinsic::copysign || id == llvm::Intrinsic::trap ||
         id == llvm::Intrinsic::rint || id == llvm::Intrinsic::nearbyint ||
         id == llvm::Intrinsic::lrint || id == llvm::Intrinsic::lround ||
         id == llvm::Intrinsic::fshl || id == llvm::Intrinsic::fshr;
}

} // namespace popc

#endif
