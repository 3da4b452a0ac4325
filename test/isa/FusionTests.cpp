// Superinstructions, unrolled rpt copies, whole-rpt kernels and block-charged budgets: each
// must give the reference evaluator's results, cycles, instruction counts, traps and pcs, on
// both dispatchers and on the native tier (whose rpt loops and block charges are its own).
#include "IsaTestUtil.hpp"
#include "ReferenceEvaluator.hpp"
#include "interp/Decoder.hpp"
#include "isa/CoIssue.hpp"
#include "native/StreamLoop.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>

namespace poplar::isatest {
namespace {

using isa::Opcode;

constexpr uint32_t kMem = 256;
// Registers the snippets below use: r10 and r14 walk memory, r11 is past its end, r13 is
// misaligned for words and r15 for halves, r5..r9 hold floats (some NaN), r12 is an integer.
RefState initialState() {
  RefState ref;
  ref.base = kBase;
  ref.mem.resize(kMem);
  for (uint32_t i = 0; i < kMem; ++i)
    ref.mem[i] = uint8_t(i * 37 + 11);
  for (uint32_t i = 0; i < kMem; i += 4) // mostly ordinary floats, so sums stay finite
    if (i % 32 != 28) {
      const uint32_t v = F(float(int(i % 23) - 11) * 0.375f);
      std::memcpy(&ref.mem[i], &v, 4);
    }
  ref.r[5] = F(1.5f);
  ref.r[6] = F(-2.25f);
  ref.r[7] = F(0.125f);
  ref.r[8] = 0x7fc01234u; // a NaN with a payload
  ref.r[9] = F(3.0f);
  ref.r[10] = kBase + 16;
  ref.r[11] = kBase + kMem + 64;
  ref.r[12] = 7;
  ref.r[13] = kBase + 2;
  ref.r[14] = kBase + 128;
  ref.r[15] = kBase + 1;
  ref.r[isa::kRegSp] = kBase + kMem;
  ref.r[isa::kRegLr] = isa::kExitLr;
  ref.stackLo = kBase + kMem / 2;
  ref.stackHi = kBase + kMem;
  return ref;
}

// The native tier of `text`'s fused decode, compiled once per text (the tests run each at
// many budgets).
const interp::NativeCode *nativeFor(const std::string &text, const interp::DecodedCode &code) {
  static std::map<std::string, std::unique_ptr<interp::NativeCode>> cache;
  auto &native = cache[text];
  if (!native)
    native = compileNativeOrFail(code);
  return native.get();
}

// Runs `text` on the reference, then fused and plain decodes on both dispatchers and the native
// tier; all must agree on the result and the final state. Returns the reference's result.
RunResult runAll(const std::string &text, uint64_t budget, const RefState &init = initialState()) {
  const auto words = assembleOrDie(text);
  RefState ref = init;
  const RunResult want = referenceRun(words, 0, ref, budget);
  for (bool fuse : {true, false}) {
    const auto code = interp::decodeCode(words, fuse);
    for (Tier tier : {Tier::Goto, Tier::Switch, Tier::Native}) {
      if (tier == Tier::Native && !fuse)
        continue; // the native tier translates plain ops whatever the decode fused
      SCOPED_TRACE(std::string(fuse ? "fused " : "plain ") +
                   (tier == Tier::Goto     ? "goto"
                    : tier == Tier::Switch ? "switch"
                                           : "native") +
                   ", budget " + std::to_string(budget) + ":\n" + text);
      interp::WorkerState st;
      for (unsigned r = 0; r < 64; ++r)
        st.regs[r] = init.r[r];
      st.stackLo = init.stackLo;
      st.stackHi = init.stackHi;
      std::vector<uint8_t> mem = init.mem;
      const interp::TileMemory tile{kBase, mem.data(), kMem};
      const interp::NativeCode *native = tier == Tier::Native ? nativeFor(text, code) : nullptr;
      const RunResult got = native ? interp::executeNative(*native, code, 0, tile, st, budget)
                                   : executeOn(tier, code, 0, tile, st, budget);
      EXPECT_EQ(interp::trapName(want.trap), interp::trapName(got.trap));
      EXPECT_EQ(want.pc, got.pc);
      EXPECT_EQ(want.cycles, got.cycles);
      EXPECT_EQ(want.instructions, got.instructions);
      EXPECT_EQ(want.result, got.result);
      EXPECT_EQ(want.address, got.address);
      for (unsigned r = 0; r < 64; ++r)
        EXPECT_EQ(ref.r[r], st.regs[r]) << "r" << r;
      EXPECT_TRUE(ref.mem == mem) << "memory differs";
    }
  }
  return want;
}

// One instance of each op with a step function: a clean form and, for memory ops, forms
// that fault out of bounds (r11) and misaligned (r13).
struct Snippet {
  std::string ok, outOfBounds, misaligned;
};
const std::map<Opcode, Snippet> &snippets() {
  static const std::map<Opcode, Snippet> s = {
      {Opcode::Ld32, {"ld32 r5, [r10+8]", "ld32 r5, [r11+0]", "ld32 r5, [r13+0]"}},
      {Opcode::Ld32p, {"ld32p r6, [r10+=4]", "ld32p r6, [r11+=4]", "ld32p r6, [r13+=4]"}},
      {Opcode::Ldh, {"ldh r7, [r14+2]", "ldh r7, [r11+0]", "ldh r7, [r15+0]"}},
      {Opcode::Ldhp, {"ldhp r7, [r14+=2]", "ldhp r7, [r11+=2]", "ldhp r7, [r15+=2]"}},
      {Opcode::St32, {"st32 r6, [r14+4]", "st32 r6, [r11+0]", "st32 r6, [r13+0]"}},
      {Opcode::St32p, {"st32p r5, [r14+=4]", "st32p r5, [r11+=4]", "st32p r5, [r13+=4]"}},
      {Opcode::Sthp, {"sthp r9, [r14+=2]", "sthp r9, [r11+=2]", "sthp r9, [r15+=2]"}},
      {Opcode::Fadd, {"fadd r9, r9, r6", "", ""}},
      {Opcode::Fmul, {"fmul r8, r5, r6", "", ""}},
      {Opcode::Fma, {"fma r9, r5, r7, r9", "", ""}},
      {Opcode::Ftoh, {"ftoh r7, r9", "", ""}},
      {Opcode::Htof, {"htof r9, r7", "", ""}},
      {Opcode::Addi, {"addi r12, r12, 5", "", ""}},
  };
  return s;
}

TEST(Fusion, EveryRowFusesAndMatchesTheReference) {
  for (const interp::FusionRow &row : interp::fusionRows()) {
    ASSERT_TRUE(snippets().count(row.first) && snippets().count(row.second))
        << isa::info(row.first).mnemonic << " " << isa::info(row.second).mnemonic;
    const Snippet &a = snippets().at(row.first), &b = snippets().at(row.second);
    SCOPED_TRACE(a.ok + " ; " + b.ok);
    const std::string pair = a.ok + "\n" + b.ok + "\n";
    const auto code = interp::decodeCode(assembleOrDie(pair + "exit r12\n"));
    EXPECT_EQ(code.insns[0].op, interp::fusedOp(uint16_t(row.first), uint16_t(row.second)));
    EXPECT_GE(code.insns[0].op, interp::kOpFirstFused);
    EXPECT_EQ(code.insns[1].op, uint16_t(row.second)) << "the second stays a branch target";

    const RunResult clean = runAll(pair + "exit r12\n", 1'000'000);
    EXPECT_EQ(clean.trap, Trap::None);
    EXPECT_EQ(clean.instructions, 3u);
    // The budget runs out before the pair, between its halves, and after it.
    for (uint64_t budget = 0; budget <= 3; ++budget)
      runAll(pair + "exit r12\n", budget);
    // A fault in either half: the pc of that half, with the first half's effects done.
    for (const std::string *bad : {&b.outOfBounds, &b.misaligned}) {
      if (bad->empty())
        continue;
      SCOPED_TRACE(*bad);
      const std::string source = a.ok + "\n" + *bad + "\nexit r12\n";
      const RunResult r = runAll(source, 1'000'000);
      EXPECT_EQ(r.pc, 1u);
      EXPECT_EQ(r.instructions, 2u);
      // A faulting second half of a bundle still issued with its first, for no cycle.
      const auto words = assembleOrDie(source);
      const bool bundled = isa::bundleSeconds(words.data(), words.size())[1];
      EXPECT_EQ(r.cycles,
                uint64_t(isa::cycles(row.first) + (bundled ? 0 : isa::cycles(row.second))));
      EXPECT_NE(r.trap, Trap::None);
    }
    if (!a.outOfBounds.empty()) {
      const RunResult r = runAll(a.outOfBounds + "\n" + b.ok + "\nexit r12\n", 1'000'000);
      EXPECT_EQ(r.pc, 0u);
      EXPECT_EQ(r.instructions, 1u);
    }
  }
}

// Bodies of 1..5 fusable instructions, every count up to past two unrolled passes, every
// budget up to past the end: Duff's entry, the loop-back, refunds and the checked hand-off.
TEST(Fusion, RptCopiesMatchTheReferenceAtEveryBudget) {
  const std::vector<std::string> bodies = {
      "addi r12, r12, 5",
      "ld32p r6, [r10+=4]\nfadd r9, r9, r6",
      "ld32p r6, [r10+=4]\nfadd r9, r9, r6\nst32 r9, [r14+0]",
      "ld32p r6, [r10+=4]\nld32 r5, [r14+4]\nfmul r8, r5, r6\nst32p r8, [r14+=4]",
      "ldhp r7, [r14+=2]\nfmul r8, r5, r7\nftoh r7, r8\nhtof r9, r7\nsthp r9, [r10+=2]",
  };
  for (const std::string &body : bodies) {
    const unsigned len = unsigned(std::count(body.begin(), body.end(), '\n')) + 1;
    for (unsigned count : {0u, 1u, 2u, 3u, 7u, 8u, 9u, 15u, 16u, 17u, 33u}) {
      const std::string text = "movi r22, " + std::to_string(count) + "\nrpt r22, " +
                               std::to_string(len) + "\n" + body + "\nexit r12\n";
      const uint64_t total = 3 + uint64_t(count) * len;
      for (uint64_t budget = 0; budget <= total + 1; ++budget)
        runAll(text, budget);
      if (HasFailure())
        return;
    }
  }
}

// Sum and dot bodies become one kernel; counts, faults at every iteration and budgets.
TEST(Fusion, RptKernelsMatchTheReference) {
  struct Case {
    const char *body;
    unsigned len;
  };
  const Case cases[] = {
      {"ld32p r6, [r10+=4]\nfadd r9, r9, r6", 2},
      {"ld32p r6, [r10+=4]\nfadd r9, r6, r9\nst32 r9, [r14+0]", 3},
      {"ld32p r6, [r10+=4]\nld32p r7, [r14+=4]\nfma r9, r6, r7, r9", 3},
      {"ld32p r6, [r10+=4]\nld32p r7, [r14+=4]\nfmul r8, r7, r6\nfadd r9, r9, r8", 4},
      {"ld32p r6, [r10+=-4]\nld32p r7, [r14+=8]\nfmul r8, r6, r7\nfadd r9, r8, r9", 4},
  };
  for (const Case &c : cases) {
    for (unsigned count : {0u, 1u, 2u, 5u, 8u, 13u, 40u, 70u}) {
      const std::string text = "movi r22, " + std::to_string(count) + "\nrpt r22, " +
                               std::to_string(c.len) + "\n" + c.body + "\nexit r12\n";
      const auto code = interp::decodeCode(assembleOrDie(text));
      EXPECT_GE(code.insns[1].op, interp::kOpFirstKernel) << c.body;
      // 40 and 70 iterations run off the end of memory: a fault inside the kernel.
      runAll(text, 1'000'000);
      for (uint64_t budget = 0; budget <= 3 + uint64_t(count) * c.len; budget += 3)
        runAll(text, budget);
      // A misaligned or out-of-window pointer from the start.
      RefState bad = initialState();
      bad.r[10] = kBase + 1;
      runAll(text, 1'000'000, bad);
      bad.r[10] = kBase + 16;
      bad.r[14] = kBase + kMem - 4;
      runAll(text, 1'000'000, bad);
      if (HasFailure())
        return;
    }
  }
}

// A loop whose store moves by a register's stride, as a transpose walks a column: the native
// tier tests the stride's alignment and both ends of the walk once, before the loop, so every
// stride (up, down, misaligned, off either end of memory) and count must still fault, stop at
// the budget and refund where the reference does.
TEST(Fusion, StridedStoreLoopsMatchTheReferenceAtEveryBudget) {
  RefState init = initialState();
  for (int stride : {0, 4, 12, -4, -12, 2, 6, 64, 256, -256}) {
    init.r[16] = uint32_t(stride);
    for (unsigned count : {0u, 1u, 3u, 7u}) {
      const std::string text = "movi r22, " + std::to_string(count) +
                               "\nl: ld32p r6, [r10+=4]\nst32 r6, [r14+0]\nadd r14, r14, r16\n"
                               "brnzdec r22, l\nexit r12\n";
      const uint64_t total = 2 + 4 * uint64_t(count + 1);
      for (uint64_t budget = 0; budget <= total + 1; ++budget)
        runAll(text, budget, init);
      runAll(text, 1'000'000, init); // a budget the whole loop fits in with room: its fast path
      if (HasFailure())
        return;
    }
  }
}

// Streaming rpt bodies (popops' element-wise loops): the native tier runs one as a loop over
// lanes when its arrays are aligned, in the window and apart, and pass by pass otherwise. The
// arrays start at r10, r14, r16 and r17, 48 to 64 bytes apart: up to 6 passes of 8 bytes keep
// them apart, 7 and more overlap, 9 run off the end. Results, faults and budget stops must be the
// reference's either way.
TEST(Fusion, StreamLoopsMatchTheReference) {
  struct Case {
    const char *body;
    unsigned len;
    bool streams;
  };
  const Case cases[] = {
      // popops' float add: each pass stores the last one's sums beside its own (a bundle)
      {"ld64p r22, [r10+=8]\nld64p r24, [r14+=8]\nst64p r20, [r16+=8]\nf32v2add r20, r22, r24", 4,
       true},
      // its scalar remainder
      {"ld32p r6, [r10+=4]\nld32p r7, [r14+=4]\nst32p r9, [r16+=4]\nfadd r9, r6, r7", 4, true},
      // a fused (a + b) * c stored in its own pass
      {"ld64p r22, [r10+=8]\nld64p r24, [r14+=8]\nld64p r26, [r17+=8]\nf32v2add r28, r22, r24\n"
       "f32v2mul r30, r28, r26\nst64p r30, [r16+=8]",
       6, true},
      // a * b + c as popc emits it, reusing registers (the third load beside the multiply
      // that reads the register it overwrites)
      {"ld64p r22, [r10+=8]\nld64p r24, [r14+=8]\nf32v2mul r26, r22, r24\nld64p r22, [r17+=8]\n"
       "f32v2add r24, r26, r22\nst64p r24, [r16+=8]",
       6, true},
      // an axpy whose scale pair r32:r33 the body never writes
      {"ld64p r22, [r10+=8]\nld64p r24, [r14+=8]\nf32v2fma r26, r22, r32, r24\nst64p r26, [r16+=8]",
       4, true},
      // scalars the body never writes, one a NaN with a payload (r8)
      {"ld32p r6, [r10+=4]\nfsub r7, r6, r5\nfmul r9, r7, r8\nst32p r9, [r16+=4]\nst32p r7, "
       "[r17+=4]",
       5, true},
      // not streams: an accumulator carried into arithmetic, a pointer stored, mixed widths, a
      // pointer walked by two accesses, a step that is not the access's size
      {"ld32p r6, [r10+=4]\nfadd r9, r9, r6", 2, false},
      {"ld32p r6, [r10+=4]\nst32p r10, [r16+=4]", 2, false},
      {"ld64p r22, [r10+=8]\nst32p r22, [r16+=4]", 2, false},
      {"ld32p r6, [r10+=4]\nst32p r6, [r10+=4]", 2, false},
      {"ld32p r6, [r10+=4]\nfmul r7, r6, r9\nld32p r9, [r14+=4]\nst32p r7, [r16+=4]", 4, false},
      {"ld32p r6, [r10+=8]\nst32p r6, [r16+=4]", 2, false},
  };
  RefState init = initialState();
  init.r[16] = kBase + 64;
  init.r[17] = kBase + 192;
  init.r[32] = init.r[33] = F(0.75f);
  for (const Case &c : cases) {
    for (unsigned count : {0u, 1u, 2u, 3u, 6u, 7u, 9u, 12u}) {
      const std::string text = "movi r22, " + std::to_string(count) + "\nrpt r22, " +
                               std::to_string(c.len) + "\n" + c.body + "\nexit r12\n";
      const auto code = interp::decodeCode(assembleOrDie(text));
      EXPECT_EQ(native::matchStreamLoop(&code.insns[2], c.len).has_value(), c.streams) << c.body;
      runAll(text, 1'000'000, init);
      for (uint64_t budget = 0; count <= 3 && budget <= 3 + uint64_t(count) * c.len; ++budget)
        runAll(text, budget, init);
      // A scale pair of different halves; a misaligned array; an array past the window.
      RefState other = init;
      other.r[33] = F(-2.5f);
      runAll(text, 1'000'000, other);
      other = init;
      other.r[14] = kBase + 132;
      runAll(text, 1'000'000, other);
      other = init;
      other.r[16] = kBase + 248;
      runAll(text, 1'000'000, other);
      if (HasFailure())
        return;
    }
  }
}

TEST(Fusion, KernelsNeedDistinctRegisters) {
  // fadd into the loaded register, or a pointer that is also the accumulator: the plain body.
  for (const char *body :
       {"ld32p r6, [r10+=4]\nfadd r6, r6, r6", "ld32p r6, [r10+=4]\nfadd r10, r10, r6",
        "ld32p r6, [r10+=4]\nfadd r9, r9, r6\nst32 r9, [r9+0]",
        "ld32p r6, [r10+=4]\nld32p r7, [r10+=4]\nfma r9, r6, r7, r9"}) {
    const std::string text = std::string("movi r22, 5\nrpt r22, ") +
                             (std::string(body).find("st32") != std::string::npos ||
                                      std::string(body).find("fma") != std::string::npos
                                  ? "3"
                                  : "2") +
                             "\n" + body + "\nexit r12\n";
    const auto code = interp::decodeCode(assembleOrDie(text));
    EXPECT_EQ(code.insns[1].op, uint16_t(Opcode::Rpt)) << body;
    runAll(text, 1'000'000);
  }
}

} // namespace
} // namespace poplar::isatest
