// Every trap kind is reported with the right kind, pc and faulting address, on both dispatchers
// and the native tier.
#include "IsaTestUtil.hpp"

namespace poplar::isatest {
namespace {

class TrapTest : public testing::TestWithParam<Tier> {
protected:
  Machine m;
  RunResult run(const std::string &text) {
    m.r(20) = kBase;
    return m.run(text, GetParam());
  }
};

TEST_P(TrapTest, OutOfBoundsLoadsAndStoresAtBothEnds) {
  struct Case {
    const char *text;
    uint32_t address;
  } cases[] = {
      {"nop\nld32 r1, [r20-4]", kBase - 4},
      {"nop\nld32 r1, [r20+256]", kBase + 256},
      {"nop\nld64 r2, [r20+256]", kBase + 256},
      {"nop\nld8u r1, [r20+256]", kBase + 256},
      {"nop\nld8u r1, [r20-1]", kBase - 1},
      {"nop\nst32 r1, [r20-4]", kBase - 4},
      {"nop\nst16 r1, [r20+256]", kBase + 256},
      {"nop\nst64 r2, [r20+256]", kBase + 256},
      {"nop\nld32 r1, [zero+0]", 0},
      {"nop\nst8 r1, [zero+0x3ffff]", 0x3ffff},
      {"nop\nld32p r1, [r20+=-4]\nld32p r1, [r20+=-4]", kBase - 4},
      {"nop\nampwf16 r21", kBase + 192},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.text);
    m.r(21) = kBase + 192; // 128-byte weight block overruns the 256-byte memory
    RunResult r = run(c.text);
    EXPECT_EQ(r.trap, Trap::OutOfBounds);
    EXPECT_EQ(r.address, c.address);
    EXPECT_EQ(r.pc, std::string(c.text).find("ld32p") != std::string::npos ? 2u : 1u);
  }
  // The last bytes of memory are reachable; one past them is not.
  EXPECT_EQ(run("ld32 r1, [r20+252]\nexit zero").trap, Trap::None);
  EXPECT_EQ(run("st8 r1, [r20+255]\nexit zero").trap, Trap::None);
}

TEST_P(TrapTest, Misaligned) {
  for (const char *text : {"nop\nld32 r1, [r20+2]", "nop\nst16 r1, [r20+1]",
                           "nop\nld64 r2, [r20+4]", "nop\nst64p r2, [r21+=8]"}) {
    SCOPED_TRACE(text);
    m.r(21) = kBase + 4;
    RunResult r = run(text);
    EXPECT_EQ(r.trap, Trap::Misaligned);
    EXPECT_EQ(r.pc, 1u);
  }
}

TEST_P(TrapTest, DivideByZero) {
  for (const char *text :
       {"nop\ndivs r1, r2, zero", "nop\ndivu r1, r2, zero", "nop\nrems r1, r2, zero",
        "nop\nremu r1, r2, zero", "nop\ndivsi r1, r2, 0", "nop\nremui r1, r2, 0"}) {
    SCOPED_TRACE(text);
    m.r(1) = 77;
    RunResult r = run(text);
    EXPECT_EQ(r.trap, Trap::DivideByZero);
    EXPECT_EQ(r.pc, 1u);
    EXPECT_EQ(m.r(1), 77u) << "a trapping instruction writes nothing";
  }
}

TEST_P(TrapTest, BudgetExceeded) {
  m.budget = 1000;
  RunResult r = run("loop: addi r1, r1, 1\nbr loop");
  EXPECT_EQ(r.trap, Trap::BudgetExceeded);
  EXPECT_EQ(r.instructions, 1000u);
  EXPECT_EQ(r.pc, 0u);
  EXPECT_EQ(m.r(1), 500u);
  // Inside a rpt body the trap names the body instruction that did not issue.
  m = Machine();
  m.budget = 6;
  m.r(1) = 100;
  r = run("rpt r1, 2\naddi r2, r2, 1\naddi r3, r3, 1\nexit zero");
  EXPECT_EQ(r.trap, Trap::BudgetExceeded);
  EXPECT_EQ(r.pc, 2u);
  EXPECT_EQ(m.r(2), 3u);
  EXPECT_EQ(m.r(3), 2u);
}

TEST_P(TrapTest, BadInstructions) {
  struct Case {
    const char *text;
    uint32_t pc;
  } cases[] = {
      {"nop\n.word 0", 1},               // opcode 0
      {"nop\n.word 0xfe", 1},            // opcode past the table
      {"nop\nnop", 2},                   // falling off the end
      {"br @5\nnop", 0},                 // branch out of the code
      {"nop\nrpt r1, 2\nnop\nbr @0", 1}, // control flow in a rpt body
      {"nop\nrpt r1, 3\nnop", 1},        // rpt body past the end
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.text);
    RunResult r = run(c.text);
    EXPECT_EQ(r.trap, Trap::BadInstruction);
    EXPECT_EQ(r.pc, c.pc);
  }
}

TEST_P(TrapTest, BadJumpStackOverflowAndExplicit) {
  RunResult r = run("movi lr, 99\nret");
  EXPECT_EQ(r.trap, Trap::BadJump);
  EXPECT_EQ(r.pc, 1u);
  r = run("spadd -64\nspadd -64\nspadd -8");
  EXPECT_EQ(r.trap, Trap::StackOverflow);
  EXPECT_EQ(r.pc, 2u);
  EXPECT_EQ(m.r(isa::kRegSp), kBase + 128);
  r = run("nop\ntrap 42");
  EXPECT_EQ(r.trap, Trap::Explicit);
  EXPECT_EQ(r.pc, 1u);
  EXPECT_EQ(r.result, 42u);
  auto code = interp::decodeCode(assembleOrDie("exit zero"));
  r = executeOn(GetParam(), code, 5, m.tile(), m.state, 10);
  EXPECT_EQ(r.trap, Trap::BadJump) << "entry pc outside the code";
}

TEST_P(TrapTest, RunSetsUpTheCallingConvention) {
  // Stores its arguments through the vertex state pointer and returns through lr.
  auto code = interp::decodeCode(assembleOrDie(
      "st32 r2, [r1+0]\nst32 gp, [r1+4]\nst32 sp, [r1+8]\nwid r3\nspadd -8\nst32 r3, [sp+0]\n"
      "movi r1, 1\nret"));
  interp::Launch launch;
  launch.vertexState = kBase + 16;
  launch.workerId = 5;
  launch.globals = 0x1234;
  launch.stackBase = kBase + 128;
  launch.stackSize = 128;
  const auto native = GetParam() == Tier::Native ? compileNativeOrFail(code) : nullptr;
  interp::WorkerState state;
  RunResult r = interp::run(code, 0, m.tile(), launch, state, native.get());
  EXPECT_EQ(r.trap, Trap::None);
  EXPECT_EQ(r.result, 1u);
  EXPECT_EQ(r.pc, 7u);
  EXPECT_EQ(r.instructions, 8u);
  EXPECT_EQ(m.word(kBase + 16), 5u);
  EXPECT_EQ(m.word(kBase + 20), 0x1234u);
  EXPECT_EQ(m.word(kBase + 24), kBase + 256);
  EXPECT_EQ(m.word(kBase + 248), 5u);
}

// A reused state behaves as a fresh one: registers and the AMP state an earlier run left
// (r9, accumulator pair 1) read as zero in the next run.
TEST(RunScratch, AReusedStateStartsAsAFreshOne) {
  Machine m;
  interp::Launch launch;
  launch.stackBase = kBase + 128;
  launch.stackSize = 128;
  auto dirty = interp::decodeCode(
      assembleOrDie("movi r9, 77\nmovi r4, 1.5f\nmovi r5, 2.5f\nampput r4, 1\nmovi r1, 1\nret"));
  auto readBack = interp::decodeCode(assembleOrDie("ampget r10, 1\nadd r1, r10, r11\n"
                                                   "add r1, r1, r9\naddi r1, r1, 1\nret"));
  auto plain = interp::decodeCode(assembleOrDie("addi r1, r9, 1\nret"));
  EXPECT_TRUE(dirty.usesAmp);
  EXPECT_TRUE(readBack.usesAmp);
  EXPECT_FALSE(plain.usesAmp);
  interp::WorkerState scratch;
  for (const auto *code : {&readBack, &plain}) {
    ASSERT_EQ(interp::run(dirty, 0, m.tile(), launch, scratch).result, 1u);
    EXPECT_EQ(scratch.acc[3], 2.5f) << "the dirty run did leave state behind";
    auto reused = interp::run(*code, 0, m.tile(), launch, scratch);
    auto fresh = interp::run(*code, 0, m.tile(), launch);
    EXPECT_EQ(reused.trap, Trap::None);
    EXPECT_EQ(reused.result, 1u);
    EXPECT_EQ(reused.result, fresh.result);
    EXPECT_EQ(reused.cycles, fresh.cycles);
  }
}

// A native run from the calling convention does not clear the reused state's registers
// (NativeFrame::fresh): it reads those it does not write as zero (r10, r11), and a hand-over to
// the interpreter (at `or`, left to it) first clears the registers the native code did not
// write back (r9, r10), so the interpreter never sees what an earlier run left.
TEST(RunScratch, AFreshNativeRunReadsZeroAndHandsOverAClearedState) {
  Machine m;
  interp::Launch launch;
  launch.stackBase = kBase + 128;
  launch.stackSize = 128;
  auto dirty =
      interp::decodeCode(assembleOrDie("movi r9, 77\nmovi r10, 5\nmovi r11, 6\nmovi r1, 1\nret"));
  auto code = interp::decodeCode(
      assembleOrDie("add r3, r10, r11\nor r5, r3, r9\nadd r1, r5, r10\naddi r1, r1, 1\nret"));
  const auto native = compileNativeOrFail(code, 0, {isa::Opcode::Or});
  ASSERT_TRUE(native);
  EXPECT_GT(native->handedOver(), 0u);
  interp::WorkerState scratch;
  ASSERT_EQ(interp::run(dirty, 0, m.tile(), launch, scratch).result, 1u);
  ASSERT_EQ(scratch.regs[9], 77u) << "the dirty run did leave registers behind";
  auto reused = interp::run(code, 0, m.tile(), launch, scratch, native.get());
  auto fresh = interp::run(code, 0, m.tile(), launch);
  EXPECT_EQ(reused.trap, Trap::None);
  EXPECT_EQ(fresh.result, 1u);
  EXPECT_EQ(reused.result, fresh.result);
  EXPECT_EQ(reused.cycles, fresh.cycles);
  EXPECT_EQ(reused.instructions, fresh.instructions);
}

// The executor relaunches consecutive vertices of a type (interp::relaunchNative) only when the
// code keeps the calling convention but for r1 and r2: a relaunch with another vertex state then
// gives what a fresh run gives, although the code wrote r1 and r2 (r2 = r1 + r2 would carry the
// first vertex's state into the second); code that writes sp is launched in full every time.
TEST(RunScratch, ARelaunchRunsAsAFreshLaunchOfTheNextVertex) {
  Machine m;
  interp::Launch launch;
  launch.stackBase = kBase + 128;
  launch.stackSize = 128;
  launch.budget = 1000;
  auto keeps = interp::decodeCode(assembleOrDie("add r2, r1, r2\naddi r1, r2, 1\nret"));
  auto movesSp = interp::decodeCode(assembleOrDie("addi sp, sp, -8\nmovi r1, 1\nret"));
  const auto native = compileNativeOrFail(keeps, 0);
  const auto nativeSp = compileNativeOrFail(movesSp, 0);
  ASSERT_TRUE(native && nativeSp);
  EXPECT_TRUE(interp::keepsConvention(*native, keeps));
  EXPECT_FALSE(interp::keepsConvention(*nativeSp, movesSp));
  const interp::TileMemory tile = m.tile();
  const interp::ops::Window window = interp::ops::window(tile);
  interp::WorkerState scratch;
  interp::NativeFrame frame;
  frame.window = &window;
  frame.memory = &tile;
  launch.vertexState = kBase + 16;
  interp::launchNative(*native, keeps, launch, scratch, frame);
  ASSERT_EQ(frame.status, std::uint32_t(Trap::None));
  ASSERT_EQ(frame.result, kBase + 17);
  launch.vertexState = kBase + 40;
  interp::relaunchNative(*native, launch, scratch, frame);
  auto relaunched = interp::nativeResult(frame, *native, keeps, tile, scratch, launch.budget);
  auto fresh = interp::run(keeps, 0, tile, launch);
  EXPECT_EQ(relaunched.trap, Trap::None);
  EXPECT_EQ(relaunched.result, kBase + 41);
  EXPECT_EQ(relaunched.result, fresh.result);
  EXPECT_EQ(relaunched.cycles, fresh.cycles);
  EXPECT_EQ(relaunched.instructions, fresh.instructions);
}

INSTANTIATE_TEST_SUITE_P(Tier, TrapTest, kAllTiers, tierName);

} // namespace
} // namespace poplar::isatest
