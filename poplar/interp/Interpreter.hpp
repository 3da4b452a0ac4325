// Tile interpreter entry points: run one worker over one tile's memory until exit or a trap.
//
// Calling convention at entry (run() sets it up; see also poplar/isa/Isa.hpp):
//   r1 = vertex state address, r2 = worker id, gp (r61) = Launch::globals,
//   sp (r62) = stackBase + stackSize (the top of the caller's stack region, which must be
//   8-byte aligned), lr (r63) = isa::kExitLr, every other register, accumulator and AMP
//   weight = 0. The vertex ends with `exit ra` (result = ra) or `ret` from the entry function
//   (result = r1). `spadd` traps StackOverflow if sp would leave [stackBase, stackBase+size].
#pragma once

#include "interp/Decoder.hpp"
#include "isa/Isa.hpp"

#include <cstdint>

namespace poplar::interp {

// A tile's memory as the interpreter sees it: tile addresses [base, base + size) map to
// data[0, size). Every access outside it traps, so a vertex cannot touch host memory.
struct TileMemory {
  uint32_t base = isa::kTileMemoryBase;
  uint8_t *data = nullptr;
  uint32_t size = 0;
};

enum class Trap : uint8_t {
  None,            // normal exit (exit, or ret to kExitLr)
  OutOfBounds,     // load/store outside the tile memory window; RunResult::address says where
  Misaligned,      // access not naturally aligned; RunResult::address says where
  DivideByZero,    // integer divide or remainder by zero
  BudgetExceeded,  // the instruction budget ran out before this pc issued
  BadInstruction,  // undecodable word, branch out of the code, bad rpt body, falling off the end
  BadJump,         // ret to a pc that is not in the code, or an entry pc outside it
  StackOverflow,   // spadd moved sp outside the stack region
  Explicit,        // a `trap imm` instruction (RunResult::result = imm)
  AssertionFailed, // `trap isa::kTrapAssertion`: a codelet's assert() failed
  StrayAccess,     // a memory-checked run (runChecked) accessed memory its AccessMap does not
                   // give it; RunResult::address/accessBytes/accessStore say what; nothing done
};
const char *trapName(Trap trap);

struct RunResult {
  Trap trap = Trap::None;
  uint32_t pc = 0;           // pc of the exit/ret or of the trapping instruction
  uint64_t cycles = 0;       // thread cycles from Opcodes.def, including a trapping instruction
  uint64_t instructions = 0; // instructions issued, including a trapping one (not one over budget)
  uint32_t result = 0;       // exit value (nonzero = true), or the imm of `trap`
  uint32_t address = 0;      // faulting address for OutOfBounds / Misaligned / StrayAccess
  uint32_t accessBytes = 0;  // StrayAccess: bytes of the access (an AMP pass: its whole span)
  bool accessStore = false;  // StrayAccess: a store (else a load)
};

// Registers and AMP state of one worker context; execute() reads and updates it in place.
// The coefficients and strides of an AMP pass (ampcfg, ampw32/ampw16; Opcodes.def).
struct AmpPassState {
  static constexpr unsigned kMaxChans = 16;
  // Input-channel major, zero beyond oc, so a position's update vectorises over outputs.
  // Only rows [0, inChans) are meaningful: a load writes them, and rows past them keep what an
  // earlier load left (no pass reads them).
  float w[kMaxChans][kMaxChans] = {};
  uint32_t outChans = 0, inChans = 0;
  uint32_t inStride = 0, outStride = 0; // bytes between consecutive positions
};

struct WorkerState {
  uint32_t regs[isa::kNumRegs + 2] = {}; // + a pair that absorbs writes to r0
  float acc[isa::kNumAccumulators] = {};
  float weights[isa::kNumWeights] = {}; // row-major w[i][j]: f32 uses 8x2, f16 uses 16x4
  AmpPassState amp;
  uint32_t workerId = 0;
  uint32_t stackLo = 0, stackHi = 0; // sp must stay within [stackLo, stackHi]
};

struct Launch {
  uint32_t vertexState = 0;
  uint32_t workerId = 0;
  uint32_t stackBase = 0; // stack region [stackBase, stackBase + stackSize), in tile memory
  uint32_t stackSize = 0;
  uint32_t globals = 0; // data base of the code object (gp)
  uint64_t budget = 100'000'000;
};

enum class Dispatch { ComputedGoto, Switch };
// The build's default: computed goto unless POPLAR_INTERP_SWITCH_DISPATCH is defined (or the
// compiler lacks labels-as-values).
Dispatch defaultDispatch();

// Runs from `entryPc` with the calling convention above.
RunResult run(const DecodedCode &code, uint32_t entryPc, TileMemory mem, const Launch &launch);
class NativeCode;
// As above, in `scratch`: a state reused from run to run, so that a short vertex does not pay
// for clearing the whole state. Its AMP part is cleared only when `code` uses AMP (a run of
// other code cannot read it), so results are those of a fresh state. With `native` (compiled
// for `code` at `entryPc`, NativeTier.hpp) the run starts on the native tier. (The executor
// launches native code itself, with the tile's window made once: interp::launchNative.)
RunResult run(const DecodedCode &code, uint32_t entryPc, TileMemory mem, const Launch &launch,
              WorkerState &scratch, const NativeCode *native = nullptr);

class AccessMap;
// As run() with `scratch`, on the memory-checked loop: every load and store is checked against
// `access` and the worker's live stack before it is made (MemCheck.hpp), and one that is in
// neither stops the run with Trap::StrayAccess. Results are otherwise those of run().
RunResult runChecked(const DecodedCode &code, uint32_t entryPc, TileMemory mem,
                     const Launch &launch, WorkerState &scratch, const AccessMap &access);

// Runs from `entryPc` with `state` as it is (tests set registers directly).
RunResult execute(const DecodedCode &code, uint32_t entryPc, TileMemory mem, WorkerState &state,
                  uint64_t budget, Dispatch dispatch = defaultDispatch());
// As above on the memory-checked loop (runChecked).
RunResult execute(const DecodedCode &code, uint32_t entryPc, TileMemory mem, WorkerState &state,
                  uint64_t budget, const AccessMap &access);

} // namespace poplar::interp
