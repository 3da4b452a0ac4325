// The memory-checked loop (debug.checkMemoryAccess): an access outside the AccessMap and the
// live stack stops the run before it lands, with its pc, address, size and direction; what
// would trap anyway traps as before; what is allowed runs as on the other loops.
#include "IsaTestUtil.hpp"
#include "interp/Print.hpp"

namespace poplar::isatest {
namespace {

// 256 bytes at kBase; the map gives [kBase, kBase+32) read-only and [kBase+32, kBase+64)
// read-write; the stack is [kBase+128, kBase+256) with sp at its top.
struct Checked : Machine {
  interp::AccessMap map;
  Checked() {
    map.allow(kBase, 32, false);
    map.allow(kBase + 32, 32, true);
    map.seal();
    r(20) = kBase;
  }
  RunResult run(const std::string &text) {
    r(isa::kRegSp) = state.stackHi; // each program starts with an empty stack
    auto code = interp::decodeCode(assembleOrDie(text));
    return interp::execute(code, 0, tile(), state, budget, map);
  }
};

TEST(MemCheckLoop, StrayStoreStopsBeforeItLands) {
  Checked m;
  const uint32_t before = m.word(kBase + 64);
  RunResult r = m.run("movi r1, 9\nst32 r1, [r20+60]\nst32 r1, [r20+64]\nexit zero");
  EXPECT_EQ(r.trap, Trap::StrayAccess);
  EXPECT_EQ(r.pc, 2u);
  EXPECT_EQ(r.address, kBase + 64);
  EXPECT_EQ(r.accessBytes, 4u);
  EXPECT_TRUE(r.accessStore);
  EXPECT_EQ(r.instructions, 3u);
  EXPECT_EQ(m.word(kBase + 60), 9u) << "the allowed store landed";
  EXPECT_EQ(m.word(kBase + 64), before) << "the stray one did not";
}

TEST(MemCheckLoop, StoreIntoReadOnlyAndLoadsAroundIt) {
  Checked m;
  EXPECT_EQ(m.run("ld32 r1, [r20+28]\nld64 r2, [r20+56]\nexit zero").trap, Trap::None);
  RunResult r = m.run("st8 r1, [r20+3]\nexit zero");
  EXPECT_EQ(r.trap, Trap::StrayAccess);
  EXPECT_EQ(r.accessBytes, 1u);
  // A 64-bit load straddling the end of the map.
  r = m.run("nop\nld64 r2, [r20+64]\nexit zero");
  EXPECT_EQ(r.trap, Trap::StrayAccess);
  EXPECT_FALSE(r.accessStore);
  EXPECT_EQ(r.accessBytes, 8u);
  EXPECT_EQ(r.pc, 1u);
  // Post-increment forms check the address before the increment.
  EXPECT_EQ(m.run("ld32p r1, [r20+=64]\nexit zero").trap, Trap::None);
  EXPECT_EQ(m.run("ld32p r1, [r20+=64]\nld32p r1, [r20+=4]\nexit zero").trap, Trap::StrayAccess);
}

TEST(MemCheckLoop, OtherTrapsAreUnchanged) {
  Checked m;
  RunResult r = m.run("ld32 r1, [r20+2]\nexit zero"); // misaligned, inside the map
  EXPECT_EQ(r.trap, Trap::Misaligned);
  r = m.run("ld32 r1, [r20+96]\nld32 r1, [r20+256]\nexit zero");
  EXPECT_EQ(r.trap, Trap::StrayAccess) << "in the tile, not in the map";
  r = m.run("ld32 r1, [r20+256]\nexit zero");
  EXPECT_EQ(r.trap, Trap::OutOfBounds);
  EXPECT_EQ(r.address, kBase + 256);
}

// The live stack is [sp, stackHi): it grows with spadd, and below sp is no frame's memory.
TEST(MemCheckLoop, TheLiveStackMovesWithSp) {
  Checked m;
  EXPECT_EQ(m.run("spadd -16\nst32 r1, [sp+0]\nld32 r1, [sp+12]\nexit zero").trap, Trap::None);
  RunResult r = m.run("spadd -16\nst32 r1, [sp-4]\nexit zero");
  EXPECT_EQ(r.trap, Trap::StrayAccess);
  EXPECT_EQ(r.address, kBase + 256 - 20);
  EXPECT_EQ(m.run("ld32 r1, [sp+0]\nexit zero").trap, Trap::OutOfBounds) << "sp is the top";
}

// A whole-rpt kernel (sum, dot) runs unchecked when its whole span is allowed, and checked
// otherwise: the stray iteration stops it at the load's pc, with what came before done.
TEST(MemCheckLoop, RptKernelsStopAtTheStrayIteration) {
  for (const char *body : {"ld32p r6, [r10+=4]\nfadd r9, r9, r6",
                           "ld32p r6, [r10+=4]\nld32p r7, [r14+=4]\nfma r9, r6, r7, r9"}) {
    SCOPED_TRACE(body);
    const unsigned len = std::string(body).find("fma") != std::string::npos ? 3 : 2;
    for (unsigned count : {8u, 16u, 17u}) {
      Checked m;
      const std::string text = "movi r22, " + std::to_string(count) + "\nrpt r22, " +
                               std::to_string(len) + "\n" + body + "\nexit r9\n";
      ASSERT_GE(interp::decodeCode(assembleOrDie(text)).insns[1].op, interp::kOpFirstKernel);
      m.r(10) = kBase; // 16 words allowed: [kBase, kBase + 64)
      m.r(14) = kBase;
      RunResult r = m.run(text);
      if (count <= 16) {
        EXPECT_EQ(r.trap, Trap::None) << count;
        continue;
      }
      EXPECT_EQ(r.trap, Trap::StrayAccess);
      EXPECT_EQ(r.address, kBase + 64);
      EXPECT_EQ(r.pc, 2u) << "the first load of the body";
      EXPECT_EQ(m.r(10), kBase + 64) << "16 iterations done";
    }
  }
}

// An AMP pass is checked over its whole span, before anything is written.
TEST(MemCheckLoop, AmpPassesAreCheckedOverTheirSpan) {
  Checked m;
  // Coefficients at kBase (1 out x 1 in channel), 4 input positions from kBase+32 (stride 4),
  // outputs at r22.
  const std::string pass = "movi r5, 4\nampcfg r6, r5, r5\nmovi r7, 0x10101\n"
                           "ampw32 r8, r20, r7\nmovi r9, 0x80000004\namp32 r10, r21, r22, r9\n"
                           "exit zero";
  m.r(21) = kBase + 32;
  m.r(22) = kBase + 48;
  EXPECT_EQ(m.run(pass).trap, Trap::None);
  m.r(21) = kBase + 32;
  m.r(22) = kBase + 52; // the last output position is past the writable range
  const uint32_t before = m.word(kBase + 52);
  RunResult r = m.run(pass);
  EXPECT_EQ(r.trap, Trap::StrayAccess);
  EXPECT_TRUE(r.accessStore);
  EXPECT_EQ(r.address, kBase + 52);
  EXPECT_EQ(r.accessBytes, 16u);
  EXPECT_EQ(m.word(kBase + 52), before);
}

TEST(MemCheckLoop, PrintReadsAreChecked) {
  Checked m;
  std::memcpy(m.memory.data(), "hi\0", 3);
  std::memcpy(m.memory.data() + 96, "no\0", 3);
  interp::setPrintSink([](std::string_view) {});
  EXPECT_EQ(m.run("movi r2, 0\nprint r3, r20, r2\nexit zero").trap, Trap::None);
  RunResult r = m.run("addi r4, r20, 96\nmovi r2, 0\nprint r3, r4, r2\nexit zero");
  interp::setPrintSink({});
  EXPECT_EQ(r.trap, Trap::StrayAccess);
  EXPECT_EQ(r.address, kBase + 96);
  EXPECT_EQ(r.pc, 2u);
}

} // namespace
} // namespace poplar::isatest
