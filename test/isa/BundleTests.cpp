// Bundles in the cycle model: which adjacent instructions co-issue, and what a run then costs.
#include "IsaTestUtil.hpp"
#include "isa/CoIssue.hpp"

#include <gtest/gtest.h>

#include <string>

namespace poplar::isatest {
namespace {

// The words of `text` that are second halves of bundles, as a string of 0/1 per word.
std::string seconds(const std::string &text) {
  const auto words = assembleOrDie(text);
  std::string s;
  for (bool b : isa::bundleSeconds(words.data(), words.size()))
    s += b ? '1' : '0';
  return s;
}

TEST(Bundle, PipesComeFromTheGroups) {
  EXPECT_EQ(isa::pipe(isa::Opcode::Ld64), isa::Pipe::Main);
  EXPECT_EQ(isa::pipe(isa::Opcode::Add), isa::Pipe::Main);
  EXPECT_EQ(isa::pipe(isa::Opcode::F32v2add), isa::Pipe::Aux);
  EXPECT_EQ(isa::pipe(isa::Opcode::Fadd), isa::Pipe::Aux);
  EXPECT_EQ(isa::pipe(isa::Opcode::Ampf32), isa::Pipe::Aux);
  // More than a cycle, control flow, an implicit register, a block operation: alone.
  EXPECT_EQ(isa::pipe(isa::Opcode::Fdiv), isa::Pipe::Solo);
  EXPECT_EQ(isa::pipe(isa::Opcode::Ldh), isa::Pipe::Solo);
  EXPECT_EQ(isa::pipe(isa::Opcode::Brnz), isa::Pipe::Solo);
  EXPECT_EQ(isa::pipe(isa::Opcode::Spadd), isa::Pipe::Solo);
  EXPECT_EQ(isa::pipe(isa::Opcode::Amp32), isa::Pipe::Solo);
}

TEST(Bundle, OneMainAndOneAuxWithoutAReadOfTheFirstsResult) {
  // The software-pipelined step: the add reads r6:7, the load then overwrites it.
  EXPECT_EQ(seconds("f32v2add r4, r4, r6\nld64 r6, [r2+8]\nexit zero"), "010");
  // Either order, when independent.
  EXPECT_EQ(seconds("ld64 r6, [r2]\nf32v2add r8, r8, r10\nexit zero"), "010");
  // The add would read the load's result: issued in order, it must see it.
  EXPECT_EQ(seconds("ld64 r6, [r2]\nf32v2add r4, r4, r6\nexit zero"), "000");
  // The second half of a pair register counts: r7 is written by the load.
  EXPECT_EQ(seconds("ld64 r6, [r2]\nfadd r4, r4, r7\nexit zero"), "000");
  // Both write one register.
  EXPECT_EQ(seconds("fadd r4, r5, r5\nld32 r4, [r2]\nexit zero"), "000");
  // A post-increment writes its base.
  EXPECT_EQ(seconds("ld64p r6, [r2+=8]\nfadd r4, r2, r2\nexit zero"), "000");
  EXPECT_EQ(seconds("st64p r6, [r2+=8]\nfadd r4, r5, r5\nexit zero"), "010");
  // Writes to r0 are dropped, so they order nothing.
  EXPECT_EQ(seconds("add r0, r1, r2\nfadd r4, r0, r0\nexit zero"), "010");
  // Two of one pipeline, or a solo instruction, never pair.
  EXPECT_EQ(seconds("ld64 r6, [r2]\nld64 r8, [r2+8]\nexit zero"), "000");
  EXPECT_EQ(seconds("fadd r4, r5, r5\nfmul r6, r7, r7\nexit zero"), "000");
  EXPECT_EQ(seconds("fdiv r4, r5, r5\nld32 r6, [r2]\nexit zero"), "000");
}

TEST(Bundle, PairsAreGreedyAndNeverEndOnAnEntry) {
  // main aux main aux: two bundles; main aux aux: one.
  EXPECT_EQ(seconds("ld32 r6, [r2]\nfadd r4, r5, r5\nld32 r7, [r2]\nfmul r8, r5, r5\nexit zero"),
            "01010");
  EXPECT_EQ(seconds("ld32 r6, [r2]\nfadd r4, r5, r5\nfmul r8, r5, r5\nexit zero"), "0100");
  // A branch target starts a bundle: the branch may land on it.
  EXPECT_EQ(seconds("brz r1, t\nld32 r6, [r2]\nt: fadd r4, r5, r5\nexit zero"), "0000");
  // A rpt body's last word does not pair with the word after the body.
  EXPECT_EQ(seconds("rpt r1, 1\nld32 r6, [r2]\nfadd r4, r5, r5\nexit zero"), "0000");
}

class BundleRun : public ::testing::TestWithParam<Tier> {};

TEST_P(BundleRun, ARptOfBundlesCostsABundleAPass) {
  Machine m;
  m.r(2) = kBase;
  // Per pass: {f32v2add; ld64} and {ld32}: 2 cycles for 3 instructions.
  RunResult r = m.run("movi r1, 5\nrpt r1, 3\nf32v2add r4, r4, r6\nld64 r6, [r2+8]\n"
                      "ld32 r9, [r2]\nexit zero",
                      GetParam());
  EXPECT_EQ(r.trap, Trap::None);
  EXPECT_EQ(r.instructions, 2u + 5 * 3 + 1);
  EXPECT_EQ(r.cycles, 2u + 5 * 2 + 1);
}

TEST_P(BundleRun, ABranchTargetIsNeverASecondHalf) {
  Machine m;
  m.r(2) = kBase;
  // From the entry, the load and the add share a bundle: 2 cycles with the exit.
  const std::string pair = "ld32 r6, [r2]\nfadd r4, r5, r5\nexit zero\n";
  EXPECT_EQ(m.run(pair, GetParam()).cycles, 2u);
  // A branch to the add makes it a bundle of its own, whichever way it is reached.
  const std::string entered = pair + "br @1\n";
  EXPECT_EQ(seconds(entered), "0000");
  EXPECT_EQ(m.run(entered, GetParam()).cycles, 3u);
  EXPECT_EQ(m.run(entered, GetParam(), 3).cycles, 3u);
}

// A bundle whose aux half overwrites what its main half reads (the native tier emits the aux
// half first, its writes held back): the store sees the old value, the register the new; a main
// half that traps leaves the aux half's register unwritten.
TEST_P(BundleRun, AMainHalfReadsTheRegistersBeforeItsAuxHalfWrites) {
  Machine m;
  m.r(2) = kBase;
  m.r(4) = isa::floatToBits(1.5f);
  m.r(5) = isa::floatToBits(2.0f);
  m.r(6) = 7;
  const std::string pair = "st32 r6, [r2+8]\nfadd r6, r4, r5\nexit zero";
  ASSERT_EQ(seconds(pair), "010");
  RunResult r = m.run(pair, GetParam());
  EXPECT_EQ(r.trap, Trap::None);
  EXPECT_EQ(m.word(kBase + 8), 7u);
  EXPECT_EQ(m.r(6), isa::floatToBits(3.5f));
  m.r(6) = 7;
  m.r(2) = kBase + 4096; // outside the 256 bytes
  r = m.run(pair, GetParam());
  EXPECT_EQ(r.trap, Trap::OutOfBounds);
  EXPECT_EQ(m.r(6), 7u);
}

INSTANTIATE_TEST_SUITE_P(Tier, BundleRun, kAllTiers, tierName);

} // namespace
} // namespace poplar::isatest
