// Decodes tile ISA words once into the dense form the interpreter dispatches on.
#pragma once

#include "isa/Isa.hpp"

#include <cstdint>
#include <vector>

namespace poplar::interp {

// Internal operations that follow the ISA opcodes in the dispatch table.
constexpr uint16_t kOpBad = isa::kNumOpcodes;         // traps BadInstruction when executed
constexpr uint16_t kOpRptLoop = isa::kNumOpcodes + 1; // end of a rpt body copy (free, uncounted)
// Fused pairs (Fusions.def), in row order.
enum class Fusion : uint16_t {
#define POPLAR_FUSION(First, Second) First##_##Second,
#include "interp/Fusions.def"
};
constexpr uint16_t kOpFirstFused = isa::kNumOpcodes + 2;
constexpr uint16_t kNumFusions = 0
#define POPLAR_FUSION(First, Second) +1
#include "interp/Fusions.def"
    ;
// Whole-rpt kernels (RptKernels.hpp): the fast op of a rpt whose body has one of these shapes.
enum class RptKernel : uint16_t { Sum, SumStore, Dot, DotFma };
constexpr uint16_t kOpFirstKernel = kOpFirstFused + kNumFusions;
constexpr uint16_t kNumInternalOps = kOpFirstKernel + 4;

// Register slot that absorbs writes to r0, so handlers never test for the zero register.
constexpr uint8_t kSinkReg = isa::kNumRegs;

// One decoded instruction. Branch and call targets hold an absolute index into the decoded
// array. A rpt's imm holds the index of its kOpRptLoop (see decodeCode for its fields).
//
// Budget and cycles are charged per block, not per instruction: a block runs from an entry
// point to the next control-flow instruction (or kOpBad) inclusive, and `rest`/`restCycles`
// are what remains of it from this instruction on. In a rpt body copy they count up to the
// kOpRptLoop, exclusive. A run that ends inside a block refunds what it did not issue.
struct DecodedInsn {
  uint16_t op;      // what the fast dispatchers jump on: plainOp, or a fused pair at its first
  uint16_t plainOp; // isa::Opcode value, kOpBad or kOpRptLoop (the exact, checked dispatcher)
  uint8_t rd, ra, rb, rc;
  uint32_t imm;
  uint32_t pc;     // pc of the source instruction, reported on traps
  uint32_t cycles; // thread cycles, from Opcodes.def
  uint32_t rest;   // instructions from here to the end of the block, this one included
  uint64_t restCycles;
};
static_assert(sizeof(DecodedInsn) == 32, "keep decoded instructions one per 32 bytes");

struct DecodedCode {
  // [0, numWords): one entry per word, so index == pc; [numWords] is a kOpBad that catches
  // falling off the end; then the rpt body copies, each closed by its kOpRptLoop.
  std::vector<DecodedInsn> insns;
  uint32_t numWords = 0;
  // Whether any word is an AMP instruction (groups Amp and AmpPass): only then can a run read
  // the AMP state, so only then must a reused WorkerState have it cleared.
  bool usesAmp = false;
};

// Never fails: words that do not decode, branches out of the code and malformed rpt bodies
// become kOpBad, which traps only if executed (as hardware raises on issue, not on load).
// `fuse` = false keeps every instruction a dispatch of its own (tests compare both forms).
DecodedCode decodeCode(const uint64_t *words, size_t numWords, bool fuse = true);
inline DecodedCode decodeCode(const std::vector<uint64_t> &words, bool fuse = true) {
  return decodeCode(words.data(), words.size(), fuse);
}

// The fused op for the adjacent pair (first, second), or 0 if Fusions.def has no such row.
uint16_t fusedOp(uint16_t first, uint16_t second);
// The kernel op for a rpt body, or 0 if its shape has no kernel.
uint16_t matchRptKernel(const DecodedInsn *body, uint32_t len);
// The rows of Fusions.def as (first, second) opcode pairs, for tests and tools.
struct FusionRow {
  isa::Opcode first, second;
};
const std::vector<FusionRow> &fusionRows();

// Instructions and cycles a run stopping at insns[index] (issued) had paid for but not issued:
// the rest of its block, and in a rpt copy the passes after this one (rptLeft counts this one).
struct Unissued {
  uint64_t instructions = 0, cycles = 0;
};
Unissued unissuedAfter(const DecodedCode &code, uint32_t index, uint32_t rptLeft);

} // namespace poplar::interp
