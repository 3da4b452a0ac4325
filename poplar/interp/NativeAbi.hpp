// The C interface between libpoplar and libpoplar_native.so (the native tier's JIT, which links
// LLVM), and the frame a compiled vertex entry runs on. Both sides are built from this header in
// one build, so the structs are shared as they are; the version check catches a stale library.
#pragma once

#include "interp/Decoder.hpp"
#include "interp/Interpreter.hpp"
#include "interp/NativeHelpers.hpp"
#include "interp/Steps.hpp"

#include <cstddef>
#include <cstdint>

namespace poplar::interp {

// Bumped whenever a struct below, DecodedInsn or WorkerState changes meaning.
constexpr std::uint32_t kNativeAbiVersion = 3;

// NativeFrame::status after a run that did not end the vertex: the interpreter continues at
// `index` with nothing of that block paid for (the hand-over the fast interpreter loops use).
constexpr std::uint32_t kNativeHandOver = 0xff;

// What a compiled entry reads and updates. `left` and `cycles` are exact when it returns: a
// stop refunds what its block paid for but did not issue, as the interpreter does.
struct NativeFrame {
  WorkerState *state;        // registers (state->regs), AMP state, worker id, stack limits
  const ops::Window *window; // tile memory with the per-size bounds of the one-compare check
  const TileMemory *memory;  // the same memory, for helpers that take it (AMP, print)
  std::uint64_t left;        // instruction budget left
  std::uint64_t cycles;      // thread cycles so far
  std::uint32_t index;       // out: DecodedCode::insns index of the stop or of the hand-over
  std::uint32_t status;      // out: a Trap value, or kNativeHandOver
  std::uint32_t result;      // out: exit value, or the imm of `trap`
  std::uint32_t address;     // out: fault address (OutOfBounds, Misaligned)
  // Nonzero for a run from the calling convention whose registers were not cleared: the code
  // reads every register but those the convention sets (r1, r2, gp, sp, lr) as zero at entry,
  // so a launch need not clear the 66 registers; what the code did not write back
  // (NativeCompiled::written) is left as it was, and a hand-over clears it first.
  std::uint32_t fresh;
};

using NativeEntry = void (*)(NativeFrame *);

// What libpoplar asks to compile: the decoded code of one codelet object and one entry pc (a
// vertex type's compute). Only the code reachable from the entry is translated.
struct NativeRequest {
  std::uint32_t abiVersion;
  const DecodedInsn *insns;
  std::uint32_t numInsns;
  std::uint32_t numWords;
  std::uint32_t entryPc;
  // Bit op of interpreted[op / 64]: leave isa::Opcode op to the interpreter even if it has a
  // builder (tests use it to hand over at chosen instructions).
  std::uint64_t interpreted[4];
  const NativeHelpers *helpers; // libpoplar's, called by address from the translated code
  const char *name;             // what profilers call the code (the vertex type); may be null
};

struct NativeCompiled {
  NativeEntry entry;        // null if compilation failed (see error)
  void *handle;             // for poplar_native_release
  double compileSeconds;    // translation, -O2 and machine code, on the calling thread
  std::uint32_t translated; // instructions translated to host code
  std::uint32_t handedOver; // reachable instructions left to the interpreter (no builder)
  std::uint64_t written;    // bit r: the code's exit writes register r back to the state
  char error[256];          // why compilation failed, NUL-terminated
};

} // namespace poplar::interp

// The library's exported functions (extern "C", looked up with dlsym by these names).
extern "C" {
// kNativeAbiVersion of the library; the loader refuses a library with another.
using PoplarNativeAbiFn = std::uint32_t (*)();
// Compiles `request`; returns false with `out->error` set on failure. Thread-safe.
using PoplarNativeCompileFn = bool (*)(const poplar::interp::NativeRequest *request,
                                       poplar::interp::NativeCompiled *out);
// Frees the machine code of a compiled entry; the entry must not be running.
using PoplarNativeReleaseFn = void (*)(void *handle);
}
#define POPLAR_NATIVE_ABI_SYMBOL "poplar_native_abi"
#define POPLAR_NATIVE_COMPILE_SYMBOL "poplar_native_compile"
#define POPLAR_NATIVE_RELEASE_SYMBOL "poplar_native_release"
