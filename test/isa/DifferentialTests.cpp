// Random programs run on both dispatchers, on the native tier and on the reference evaluator
// must agree exactly.
#include "IsaTestUtil.hpp"
#include "ReferenceEvaluator.hpp"
#include "interp/Decoder.hpp"

#include <cstdio>
#include <optional>
#include <random>
#include <sstream>

namespace poplar::isatest {
namespace {

using isa::Format;
using isa::Insn;
using isa::Opcode;

constexpr uint32_t kMemSize = 512;
// r20 = memory base, r21 = loop counter, r22 = rpt count, r23 = post-increment pointer: random
// instructions read them but never write them, so loops terminate and addresses stay sane.
constexpr unsigned kBaseReg = 20, kLoopReg = 21, kRptReg = 22, kPtrReg = 23;

class Generator {
public:
  explicit Generator(uint32_t seed) : rng_(seed) {}

  std::string program() {
    std::ostringstream os;
    unsigned labels = 0, subs = 1 + pick(3);
    const unsigned segments = 1 + pick(8);
    for (unsigned s = 0; s < segments; ++s) {
      switch (pick(10)) {
      case 9: // an AMP pass with mostly valid operands
        ampPass(os);
        break;
      case 6: // a run of pairs the decoder fuses (Fusions.def)
        for (unsigned k = 1 + pick(4); k > 0; --k)
          fusedPair(os);
        break;
      case 7: { // rpt over fused pairs, unrolled and entered part-way by the decoder
        const unsigned pairs = 1 + pick(3);
        os << "movi r" << kRptReg << ", " << pick(40) << "\nrpt r" << kRptReg << ", " << 2 * pairs
           << "\n";
        for (unsigned k = 0; k < pairs; ++k)
          fusedPair(os);
        break;
      }
      case 8: // a rpt body shaped like a whole-rpt kernel (sum, dot), or nearly
        kernelRpt(os);
        break;
      case 0: // counted loop
        os << "movi r" << kLoopReg << ", " << pick(5) << "\nL" << labels << ":\n";
        body(os, 1 + pick(6));
        os << "brnzdec r" << kLoopReg << ", L" << labels++ << "\n";
        break;
      case 1: { // rpt
        const unsigned n = 1 + pick(5);
        os << "movi r" << kRptReg << ", " << pick(5) << "\nrpt r" << kRptReg << ", " << n << "\n";
        body(os, n);
        break;
      }
      case 2: // forward conditional
        os << (pick(2) ? "brz r" : "brnz r") << srcReg() << ", L" << labels << "\n";
        body(os, 1 + pick(4));
        os << "L" << labels++ << ":\n";
        break;
      case 3:
        os << "call F" << pick(subs) << "\n";
        break;
      default:
        body(os, 1 + pick(8));
      }
      if (pick(40) == 0) // rare faults: a bad word, an explicit trap
        os << (pick(2) ? ".word 0xff\n" : "trap 3\n");
    }
    os << "exit r1\n";
    for (unsigned f = 0; f < subs; ++f) {
      os << "F" << f << ":\n";
      body(os, 1 + pick(5));
      os << "ret\n";
    }
    return os.str();
  }

  void initState(RefState &ref, interp::WorkerState &st) {
    for (unsigned r = 1; r < 60; ++r)
      ref.r[r] = value();
    ref.r[kBaseReg] = kBase;
    ref.r[kPtrReg] = kBase + 8 * pick(kMemSize / 8);
    ref.r[isa::kRegSp] = kBase + kMemSize;
    ref.r[isa::kRegLr] = isa::kExitLr;
    ref.workerId = pick(6);
    ref.stackLo = kBase + kMemSize / 2;
    ref.stackHi = kBase + kMemSize;
    ref.base = kBase;
    ref.mem.resize(kMemSize);
    for (auto &byte : ref.mem)
      byte = uint8_t(rng_());
    for (unsigned i = 0; i < 16; ++i)
      ref.acc[i] = float(int(pick(9)) - 4);
    for (unsigned r = 0; r < 64; ++r)
      st.regs[r] = ref.r[r];
    std::copy(std::begin(ref.acc), std::end(ref.acc), st.acc);
    st.workerId = ref.workerId;
    st.stackLo = ref.stackLo;
    st.stackHi = ref.stackHi;
  }

  // Often small, so the budget runs out inside blocks, fused pairs, rpts and kernels.
  uint64_t budget() { return pick(4) == 0 ? 1 + pick(200) : 1'000'000; }

private:
  std::mt19937 rng_;

  unsigned pick(unsigned n) { return unsigned(rng_() % n); }

  uint32_t value() {
    static const float kSpecial[] = {0.0f,      -0.0f, 1.0f,     -1.0f, 0.5f, INFINITY,
                                     -INFINITY, NAN,   65504.0f, 1e-6f, 3.0f, -2.5f};
    switch (pick(5)) {
    case 0:
      return uint32_t(int(pick(21)) - 10);
    case 1:
      return uint32_t(rng_());
    case 2:
      return F(kSpecial[pick(sizeof kSpecial / sizeof *kSpecial)]);
    case 3:
      return F((float(rng_() % 20001) - 10000.0f) / 100.0f);
    default: // two halves
      return isa::floatToHalf(float(int(pick(200)) - 100) / 8) |
             uint32_t(isa::floatToHalf(float(int(pick(200)) - 100) / 8)) << 16;
    }
  }

  unsigned srcReg() { return pick(60); }
  unsigned dstReg(bool isPair) {
    for (;;) {
      unsigned r = pick(60);
      if (isPair)
        r &= ~1u;
      if (r >= kBaseReg && r <= kPtrReg + 1)
        continue; // the reserved registers (and r24, the high half of a pair at r23)
      if (isPair && r == 0)
        continue;
      return r;
    }
  }

  // An address offset for an access of `size` bytes: almost always in range and aligned.
  int32_t offset(uint32_t size) {
    if (pick(50) == 0)
      return int32_t(pick(kMemSize + 16)) - 8;
    return int32_t(size * pick((kMemSize - 128) / size));
  }

  static uint32_t accessSize(Opcode op) {
    switch (op) {
    case Opcode::Ld8s:
    case Opcode::Ld8u:
    case Opcode::St8:
    case Opcode::Ld8sp:
    case Opcode::Ld8up:
    case Opcode::St8p:
      return 1;
    case Opcode::Ld64:
    case Opcode::St64:
    case Opcode::Ld64p:
    case Opcode::St64p:
      return 8;
    case Opcode::Ld32:
    case Opcode::St32:
    case Opcode::Ld32p:
    case Opcode::St32p:
      return 4;
    default:
      return 2;
    }
  }

  Insn instruction() {
    for (;;) {
      const auto op = static_cast<Opcode>(pick(isa::kNumOpcodes));
      // print would write random memory to stdout; OpcodeTests covers it.
      if ((isa::info(op).flags & isa::CTL) || op == Opcode::Print)
        continue;
      if (auto in = tryInstruction(op))
        return *in;
    }
  }
  Insn instructionOf(Opcode op) {
    for (;;)
      if (auto in = tryInstruction(op))
        return *in;
  }

  // Random operands for `op`, or nothing if they do not validate.
  std::optional<Insn> tryInstruction(Opcode op) {
    Insn in;
    in.op = op;
    const isa::OpcodeInfo &oi = isa::info(in.op);
    const Format f = oi.format;
    if (isa::usesRd(f))
      in.rd = uint8_t(dstReg(oi.flags & isa::PD));
    if (isa::usesRa(f))
      in.ra = uint8_t((oi.flags & isa::PA) ? srcReg() & ~1u : srcReg());
    if (isa::usesRb(f))
      in.rb = uint8_t((oi.flags & isa::PB) ? srcReg() & ~1u : srcReg());
    if (isa::usesRc(f))
      in.rc = uint8_t((oi.flags & isa::PC) ? srcReg() & ~1u : srcReg());
    if (isa::usesImm(f))
      in.imm = pick(2) ? int32_t(pick(64)) - 32 : int32_t(value());
    const uint32_t size = accessSize(in.op);
    if (f == Format::Load || f == Format::Store) {
      in.ra = kBaseReg;
      in.imm = offset(size);
    } else if (f == Format::LoadPost || f == Format::StorePost) {
      in.ra = kPtrReg;
      in.imm = int32_t(size) * (int32_t(pick(9)) - 4);
    } else if (in.op == Opcode::Ampwf32 || in.op == Opcode::Ampwf16) {
      in.ra = kBaseReg;
    } else if (in.op == Opcode::Ampget || in.op == Opcode::Ampput) {
      in.imm = int32_t(pick(8));
    } else if (in.op == Opcode::Spadd) {
      in.imm = 8 * (int32_t(pick(9)) - 6);
    }
    if (isa::validate(in))
      return std::nullopt;
    return in;
  }

  void emit(std::ostream &os, const Insn &in) { os << isa::disassemble(in, 0) << "\n"; }

  void fusedPair(std::ostream &os) {
    const auto &rows = interp::fusionRows();
    const interp::FusionRow &row = rows[pick(unsigned(rows.size()))];
    emit(os, instructionOf(row.first));
    emit(os, instructionOf(row.second));
  }

  // `movi count; rpt` over a sum or dot body. Registers are usually distinct (the kernel
  // runs) and sometimes not (the plain body runs); pointers walk [r23] and [r20] by +-4.
  void kernelRpt(std::ostream &os) {
    const unsigned shape = pick(4), len = shape == 0 ? 2 : shape == 3 ? 4 : 3;
    const unsigned x = dstReg(false), y = dstReg(false), m = dstReg(false), a = dstReg(false);
    const int step = pick(6) == 0 ? 4 * (int(pick(5)) - 2) : 4;
    os << "movi r" << kRptReg << ", " << pick(40) << "\nrpt r" << kRptReg << ", " << len << "\n";
    os << "ld32p r" << x << ", [r" << kPtrReg << "+=" << step << "]\n";
    if (shape == 0 || shape == 1) { // sum, sum stored through r20
      os << "fadd r" << a << ", "
         << (pick(2) ? "r" + std::to_string(a) + ", r" + std::to_string(x)
                     : "r" + std::to_string(x) + ", r" + std::to_string(a))
         << "\n";
      if (shape == 1)
        os << "st32 r" << a << ", [r" << kBaseReg << "+" << 4 * pick(kMemSize / 4 + 2) << "]\n";
      return;
    }
    os << "ld32p r" << y << ", [r" << kBaseReg << "+=" << step << "]\n";
    if (shape == 2) { // dot with fma
      os << "fma r" << a << ", r" << x << ", r" << y << ", r" << a << "\n";
      return;
    }
    os << "fmul r" << m << ", r" << y << ", r" << x << "\nfadd r" << a << ", r" << a << ", r" << m
       << "\n";
  }

  // ampcfg, a coefficient load and a run over a few positions; strides and shapes are
  // usually valid, and sometimes not (the traps must match too).
  void ampPass(std::ostream &os) {
    const bool f32 = pick(2);
    const unsigned size = f32 ? 4 : 2, oc = 1 + pick(f32 ? 8 : 16), ic = 1 + pick(16);
    const unsigned shape = oc | ic << 8 | (oc + pick(3)) << 16;
    const unsigned a = dstReg(false), b = dstReg(false), d = dstReg(false);
    os << "movi r" << a << ", " << size * pick(20) << "\nmovi r" << b << ", "
       << (pick(8) ? 4 : 2) * pick(20) << "\nampcfg r" << d << ", r" << a << ", r" << b << "\n";
    os << "movi r" << a << ", " << (pick(10) ? shape : value()) << "\n"
       << (f32 ? "ampw32 r" : "ampw16 r") << d << ", r" << kBaseReg << ", r" << a << "\n";
    const char *run = f32 ? "amp32" : pick(2) ? "amp16" : "amp16h";
    // Up to 8 positions: the host kernel interleaves blocks of 4, then runs the rest one by one.
    os << "movi r" << a << ", " << (pick(9) | (pick(2) << 31)) << "\n"
       << run << " r" << d << ", r" << kPtrReg << ", r" << kBaseReg << ", r" << a << "\n";
  }

  void body(std::ostream &os, unsigned n) {
    for (unsigned i = 0; i < n; ++i)
      emit(os, instruction());
  }
};

void expectSame(const RunResult &want, const RunResult &got, const char *what) {
  EXPECT_EQ(std::string(interp::trapName(want.trap)), interp::trapName(got.trap)) << what;
  EXPECT_EQ(want.pc, got.pc) << what;
  EXPECT_EQ(want.cycles, got.cycles) << what;
  EXPECT_EQ(want.instructions, got.instructions) << what;
  EXPECT_EQ(want.result, got.result) << what;
  EXPECT_EQ(want.address, got.address) << what;
}

void expectSameState(const RefState &ref, const interp::WorkerState &st,
                     const std::vector<uint8_t> &mem, const char *what) {
  for (unsigned r = 0; r < 64; ++r)
    EXPECT_EQ(ref.r[r], st.regs[r]) << what << " r" << r;
  for (unsigned i = 0; i < 16; ++i)
    EXPECT_EQ(F(ref.acc[i]), F(st.acc[i])) << what << " acc" << i;
  for (unsigned i = 0; i < 64; ++i)
    EXPECT_EQ(F(ref.w[i]), F(st.weights[i])) << what << " w" << i;
  EXPECT_TRUE(ref.mem == mem) << what << " memory differs";
}

TEST(Differential, RandomProgramsMatchReference) {
  Generator gen(12345);
  unsigned traps = 0, exits = 0, budgetOuts = 0, withFused = 0, withKernel = 0, kernelExits = 0;
  unsigned nativeRuns = 0, nativeHandOvers = 0;
  double nativeCompileSeconds = 0;
  for (unsigned iter = 0; iter < 6000; ++iter) {
    const std::string text = gen.program();
    SCOPED_TRACE("program " + std::to_string(iter) + ":\n" + text);
    const auto words = assembleOrDie(text);
    ASSERT_FALSE(words.empty());
    RefState ref;
    interp::WorkerState st0;
    gen.initState(ref, st0);
    const uint64_t budget = gen.budget();
    const std::vector<uint8_t> mem0 = ref.mem;
    const RunResult want = referenceRun(words, 0, ref, budget);
    (want.trap == Trap::None ? exits : traps)++;
    budgetOuts += want.trap == Trap::BudgetExceeded;
    {
      const auto fused = interp::decodeCode(words);
      bool pair = false, kernel = false;
      for (const auto &d : fused.insns) {
        pair |= d.op >= interp::kOpFirstFused && d.op < interp::kOpFirstKernel;
        kernel |= d.op >= interp::kOpFirstKernel;
      }
      withFused += pair;
      withKernel += kernel;
      kernelExits += kernel && want.trap == Trap::None;
    }

    // Fused (pairs, unrolled rpt copies, kernels) and plain decodes, on both dispatchers.
    for (bool fuse : {true, false}) {
      const auto code = interp::decodeCode(words, fuse);
      for (Dispatch d : {Dispatch::ComputedGoto, Dispatch::Switch}) {
        const char *what = d == Dispatch::ComputedGoto ? (fuse ? "goto fused" : "goto plain")
                                                       : (fuse ? "switch fused" : "switch plain");
        interp::WorkerState st = st0;
        std::vector<uint8_t> mem = mem0;
        const RunResult got =
            interp::execute(code, 0, {kBase, mem.data(), kMemSize}, st, budget, d);
        expectSame(want, got, what);
        expectSameState(ref, st, mem, what);
      }
    }
    // The memory-checked loop with the whole memory allowed: the same run.
    {
      const auto code = interp::decodeCode(words);
      interp::AccessMap all;
      all.allow(kBase, kMemSize, true);
      all.seal();
      interp::WorkerState st = st0;
      std::vector<uint8_t> mem = mem0;
      const RunResult got =
          interp::execute(code, 0, {kBase, mem.data(), kMemSize}, st, budget, all);
      expectSame(want, got, "memory-checked");
      expectSameState(ref, st, mem, "memory-checked");
    }
    // The native tier on every fourth program (a JIT compile each), alone or handing over to
    // the interpreter at one opcode.
    if (iter % 4 == 0) {
      const auto code = interp::decodeCode(words);
      std::vector<isa::Opcode> interpreted;
      const uint16_t op = code.insns[iter / 12 % code.numWords].plainOp;
      if (iter % 12 == 8 && op < isa::kNumOpcodes)
        interpreted.push_back(Opcode(op));
      const auto native = compileNativeOrFail(code, 0, interpreted);
      ASSERT_TRUE(native);
      const char *what = interpreted.empty() ? "native" : "native with a hand-over";
      interp::WorkerState st = st0;
      std::vector<uint8_t> mem = mem0;
      const RunResult got =
          interp::executeNative(*native, code, 0, {kBase, mem.data(), kMemSize}, st, budget);
      expectSame(want, got, what);
      expectSameState(ref, st, mem, what);
      nativeCompileSeconds += native->compileSeconds();
      nativeRuns++;
      nativeHandOvers += native->handedOver() > 0;
    }
    if (HasFailure()) {
      ADD_FAILURE() << "budget " << budget << " trap " << interp::trapName(want.trap) << " pc "
                    << want.pc << " after " << want.instructions << " instructions";
      return;
    }
  }
  // The generator must exercise both clean exits and faults, or the test proves little.
  EXPECT_GT(exits, 2000u);
  EXPECT_GT(traps, 200u);
  // ... and fused pairs, whole-rpt kernels (some run to the end) and budgets that run out
  // part-way through blocks, pairs and rpts.
  EXPECT_GT(withFused, 2000u);
  EXPECT_GT(withKernel, 600u);
  EXPECT_GT(kernelExits, 200u);
  EXPECT_GT(budgetOuts, 300u);
  // ... and the native tier, some of its runs handing over to the interpreter.
  EXPECT_EQ(nativeRuns, 1500u);
  EXPECT_GT(nativeHandOvers, 200u);
  std::printf("exits %u traps %u (budget %u); programs with fused pairs %u, with kernels %u "
              "(%u exit); native %u (%u with hand-overs), compiled in %.1f s\n",
              exits, traps, budgetOuts, withFused, withKernel, kernelExits, nativeRuns,
              nativeHandOvers, nativeCompileSeconds);
}

// Half conversions: the interpreter's bit-twiddling against the reference's arithmetic, for
// every half and for floats around every rounding boundary.
TEST(Differential, HalfConversionsMatchReference) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    ASSERT_EQ(F(isa::halfToFloat(uint16_t(h))), F(refHalfToFloat(uint16_t(h)))) << h;
    const float x = refHalfToFloat(uint16_t(h));
    for (int delta = -2; delta <= 2; ++delta) {
      const float y = AsF(F(x) + uint32_t(delta) * 0x1000u); // steps of half an f16 ulp
      ASSERT_EQ(isa::floatToHalf(y), refFloatToHalf(y)) << std::hex << F(y);
    }
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 200000; ++i) {
    const float y = AsF(uint32_t(rng()));
    ASSERT_EQ(isa::floatToHalf(y), refFloatToHalf(y)) << std::hex << F(y);
  }
}

} // namespace
} // namespace poplar::isatest
