// Encoder, decoder, disassembler and assembler round trips for every opcode, and rejected words.
#include "IsaTestUtil.hpp"

#include <random>

namespace poplar::isatest {
namespace {

using isa::Format;
using isa::Insn;
using isa::Opcode;

// A random well-formed instance of `op` (fields the format does not use stay zero).
Insn randomInsn(Opcode op, std::mt19937 &rng) {
  for (;;) {
    Insn in;
    in.op = op;
    const isa::OpcodeInfo &oi = isa::info(op);
    auto reg = [&](bool isPair) { return uint8_t(isPair ? rng() % 64 & ~1u : rng() % 64); };
    if (isa::usesRd(oi.format))
      in.rd = reg(oi.flags & isa::PD);
    if (isa::usesRa(oi.format))
      in.ra = reg(oi.flags & isa::PA);
    if (isa::usesRb(oi.format))
      in.rb = reg(oi.flags & isa::PB);
    if (isa::usesRc(oi.format))
      in.rc = reg(oi.flags & isa::PC);
    if (isa::usesImm(oi.format))
      in.imm = rng() % 2 ? int32_t(rng()) : int32_t(rng() % 200) - 100;
    if (op == Opcode::Ampget || op == Opcode::Ampput)
      in.imm = int32_t(rng() % 8);
    if (!isa::validate(in))
      return in;
  }
}

TEST(RoundTrip, EncodeDecodeDisassembleAssembleEveryOpcode) {
  std::mt19937 rng(1);
  for (unsigned i = 0; i < isa::kNumOpcodes; ++i) {
    const Opcode op = static_cast<Opcode>(i);
    for (int k = 0; k < 50; ++k) {
      const Insn in = randomInsn(op, rng);
      const uint64_t word = isa::encode(in);
      EXPECT_EQ(word & 0xff, i + 1) << "opcode field";
      auto back = isa::decode(word);
      ASSERT_TRUE(back) << isa::kOpcodeInfo[i].mnemonic;
      EXPECT_TRUE(*back == in) << isa::kOpcodeInfo[i].mnemonic;
      const uint32_t pc = 1000;
      const std::string text = isa::disassemble(in, pc);
      EXPECT_EQ(text.rfind(isa::kOpcodeInfo[i].mnemonic, 0), 0u) << text;
      // Assemble at the same pc (after `pc` nops) so relative targets come out the same.
      std::string program;
      for (uint32_t n = 0; n < pc; ++n)
        program += "nop\n";
      isa::AsmResult as = isa::assemble(program + text);
      ASSERT_TRUE(as.ok()) << as.error << ": " << text;
      EXPECT_EQ(as.words.back(), word) << text;
      EXPECT_EQ(isa::disassembleWord(word, pc), text);
    }
  }
}

TEST(RoundTrip, RejectsMalformedWords) {
  EXPECT_FALSE(isa::decode(0)) << "opcode 0 is reserved";
  EXPECT_FALSE(isa::decode(isa::kNumOpcodes + 1)) << "opcode past the table";
  EXPECT_FALSE(isa::decode(0xff));
  const uint64_t nop = isa::encode(Insn{});
  EXPECT_TRUE(isa::decode(nop));
  EXPECT_FALSE(isa::decode(nop | uint64_t(1) << isa::kRdShift)) << "unused rd set";
  EXPECT_FALSE(isa::decode(nop | uint64_t(1) << isa::kImmShift)) << "unused imm set";
  Insn v2{Opcode::F32v2add, 2, 4, 6, 0, 0};
  EXPECT_TRUE(isa::decode(isa::encode(v2)));
  v2.ra = 5;
  EXPECT_FALSE(isa::decode(isa::encode(v2))) << "odd pair";
  v2.ra = 4;
  v2.rd = 0;
  EXPECT_FALSE(isa::decode(isa::encode(v2))) << "pair destination r0";
  EXPECT_FALSE(isa::decode(isa::encode(Insn{Opcode::Ld32p, 3, 3, 0, 0, 4}))) << "writes base";
  EXPECT_FALSE(isa::decode(isa::encode(Insn{Opcode::Ld32p, 3, 0, 0, 0, 4}))) << "r0 base";
  EXPECT_FALSE(isa::decode(isa::encode(Insn{Opcode::Rpt, 0, 1, 0, 0, 0}))) << "empty rpt";
  EXPECT_FALSE(isa::decode(isa::encode(Insn{Opcode::Ampget, 2, 0, 0, 0, 8}))) << "acc pair 8";
  EXPECT_EQ(isa::disassembleWord(0, 0), ".word 0x0000000000000000");
}

TEST(Assembler, LabelsAliasesAndErrors) {
  auto r = isa::assemble("start: movi sp, 1.5f ; comment\n  loop: # another\n"
                         "brnzdec lr, loop // third\nbr start\nbr .-1\nbr @0\nld32 r1, [gp-8]\n");
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.words.size(), 6u);
  EXPECT_EQ(r.labels.at("loop"), 1u);
  EXPECT_EQ(isa::decode(r.words[0])->imm, int32_t(F(1.5f)));
  EXPECT_EQ(isa::decode(r.words[0])->rd, isa::kRegSp);
  EXPECT_EQ(isa::decode(r.words[1])->imm, 0) << "branch to itself";
  EXPECT_EQ(isa::decode(r.words[2])->imm, -2);
  EXPECT_EQ(isa::decode(r.words[3])->imm, -1);
  EXPECT_EQ(isa::decode(r.words[4])->imm, -4);
  EXPECT_EQ(isa::disassembleWord(r.words[5], 5), "ld32 r1, [gp-8]");

  EXPECT_EQ(isa::assemble("frob r1").error, "line 1: unknown mnemonic 'frob'");
  EXPECT_EQ(isa::assemble("nop\nadd r1, r2").error, "line 2: 'add' takes 3 operands");
  EXPECT_EQ(isa::assemble("br nowhere").error, "line 1: unknown label 'nowhere'");
  EXPECT_EQ(isa::assemble("add r1, r2, r64").error, "line 1: bad register 'r64'");
  EXPECT_EQ(isa::assemble("a:\na: nop").error, "line 2: duplicate label 'a'");
  EXPECT_EQ(isa::assemble("ld32p r1, [r2+4]").error,
            "line 1: post-increment form needs [reg+=imm]");
  EXPECT_EQ(isa::assemble("f32v2add r3, r4, r6").error,
            "line 1: register pair must start at an even register");
  EXPECT_EQ(isa::assemble("movi r1, 0x100000000").error, "line 1: bad immediate '0x100000000'");
}

} // namespace
} // namespace poplar::isatest
