// One tiny program per opcode, run on both dispatchers, checking registers, memory and traps.
#include "IsaTestUtil.hpp"

#include <cmath>
#include <set>

namespace poplar::isatest {
namespace {

constexpr uint32_t P8(uint32_t i) { return (i * 7 + 3) & 0xff; } // Machine's memory pattern
constexpr uint32_t PW(uint32_t o) {
  return P8(o) | P8(o + 1) << 8 | P8(o + 2) << 16 | P8(o + 3) << 24;
}
constexpr uint32_t M7 = 0xfffffff9u; // -7

struct OpCase {
  const char *name;
  const char *text;
  std::vector<std::pair<unsigned, uint32_t>> init;
  std::vector<std::pair<unsigned, uint32_t>> expect;
  std::vector<std::pair<uint32_t, uint32_t>> mem = {}; // offset -> expected word
  Trap trap = Trap::None;
  int64_t result = -1; // checked if >= 0
};

const float kNaN = std::nanf("");

std::vector<OpCase> cases() {
  const uint32_t a = F(1.5f), b = F(-2.25f);
  const uint32_t sp0 = kBase + 256;
  return {
      {"nop", "nop", {}, {{1, 0}}},
      {"movi", "movi r3, 0x12345678\nmovi r4, -2.5f", {}, {{3, 0x12345678}, {4, F(-2.5f)}}},
      {"mov", "mov r3, r1\nmov zero, r1", {{1, 5}}, {{3, 5}, {0, 0}}},
      {"wid", "wid r3", {}, {{3, 3}}},
      {"spadd", "spadd -16", {}, {{62, sp0 - 16}}},
      {"exit", "exit r1", {{1, 9}}, {}, {}, Trap::None, 9},
      {"trap", "trap 7", {}, {}, {}, Trap::Explicit, 7},
      {"trap assertion", "trap 0x0a55e417", {}, {}, {}, Trap::AssertionFailed, 0x0a55e417},
      // Format "%d\n" at r20 (the word 0x000a6425), argument 7 at r20+4: "7\n", 2 chars.
      {"print",
       "movi r1, 0x0a6425\nst32 r1, [r20]\nmovi r1, 7\nst32 r1, [r20+4]\n"
       "addi r2, r20, 4\nprint r3, r20, r2",
       {},
       {{3, 2}}},
      {"add", "add r3, r1, r2", {{1, M7}, {2, 3}}, {{3, uint32_t(-4)}}},
      {"sub", "sub r3, r1, r2", {{1, M7}, {2, 3}}, {{3, uint32_t(-10)}}},
      {"mul", "mul r3, r1, r2", {{1, M7}, {2, 3}}, {{3, uint32_t(-21)}}},
      {"mulhs", "mulhs r3, r1, r2", {{1, M7}, {2, 3}}, {{3, 0xffffffff}}},
      {"mulhu", "mulhu r3, r1, r2", {{1, M7}, {2, 3}}, {{3, 2}}},
      {"divs",
       "divs r3, r1, r2\ndivs r4, r5, r6",
       {{1, M7}, {2, 5}, {5, 0x80000000}, {6, uint32_t(-1)}},
       {{3, uint32_t(-1)}, {4, 0x80000000}}},
      {"divu", "divu r3, r1, r2", {{1, M7}, {2, 5}}, {{3, 858993457}}},
      {"rems",
       "rems r3, r1, r2\nrems r4, r5, r6",
       {{1, M7}, {2, 5}, {5, 0x80000000}, {6, uint32_t(-1)}},
       {{3, uint32_t(-2)}, {4, 0}}},
      {"remu", "remu r3, r1, r2", {{1, M7}, {2, 5}}, {{3, 4}}},
      {"and", "and r3, r1, r2", {{1, M7}, {2, 3}}, {{3, 1}}},
      {"or", "or r3, r1, r2", {{1, M7}, {2, 3}}, {{3, 0xfffffffb}}},
      {"xor", "xor r3, r1, r2", {{1, M7}, {2, 3}}, {{3, 0xfffffffa}}},
      {"shl", "shl r3, r1, r2", {{1, M7}, {2, 35}}, {{3, 0xffffffc8}}},
      {"shr", "shr r3, r1, r2", {{1, M7}, {2, 35}}, {{3, 0x1fffffff}}},
      {"sra", "sra r3, r1, r2", {{1, M7}, {2, 35}}, {{3, 0xffffffff}}},
      {"mins", "mins r3, r1, r2", {{1, M7}, {2, 3}}, {{3, M7}}},
      {"maxs", "maxs r3, r1, r2", {{1, M7}, {2, 3}}, {{3, 3}}},
      {"minu", "minu r3, r1, r2", {{1, M7}, {2, 3}}, {{3, 3}}},
      {"maxu", "maxu r3, r1, r2", {{1, M7}, {2, 3}}, {{3, M7}}},
      {"clz", "clz r3, r1\nclz r4, zero", {{1, 0x10000}}, {{3, 15}, {4, 32}}},
      {"ctz", "ctz r3, r1\nctz r4, zero", {{1, 0x10000}}, {{3, 16}, {4, 32}}},
      {"popc", "popc r3, r1", {{1, 0xf0f0}}, {{3, 8}}},
      {"sext8", "sext8 r3, r1", {{1, 0x1ff80}}, {{3, 0xffffff80}}},
      {"sext16", "sext16 r3, r1", {{1, 0x18000}}, {{3, 0xffff8000}}},
      {"zext8", "zext8 r3, r1", {{1, 0x1ff80}}, {{3, 0x80}}},
      {"zext16", "zext16 r3, r1", {{1, 0x18000}}, {{3, 0x8000}}},
      {"addi", "addi r3, r1, -1", {{1, M7}}, {{3, uint32_t(-8)}}},
      {"muli", "muli r3, r1, 6", {{1, M7}}, {{3, uint32_t(-42)}}},
      {"divsi", "divsi r3, r1, 2", {{1, M7}}, {{3, uint32_t(-3)}}},
      {"divui", "divui r3, r1, 16", {{1, M7}}, {{3, 0x0fffffff}}},
      {"remsi", "remsi r3, r1, 4", {{1, M7}}, {{3, uint32_t(-3)}}},
      {"remui", "remui r3, r1, 16", {{1, M7}}, {{3, 9}}},
      {"andi", "andi r3, r1, 0xff", {{1, M7}}, {{3, 0xf9}}},
      {"ori", "ori r3, r1, 6", {{1, M7}}, {{3, 0xffffffff}}},
      {"xori", "xori r3, r1, -1", {{1, M7}}, {{3, 6}}},
      {"shli", "shli r3, r1, 4", {{1, M7}}, {{3, 0xffffff90}}},
      {"shri", "shri r3, r1, 28", {{1, M7}}, {{3, 0xf}}},
      {"srai", "srai r3, r1, 1", {{1, M7}}, {{3, uint32_t(-4)}}},
      {"cmpeq", "cmpeq r3, r1, r2\ncmpeq r4, r1, r1", {{1, M7}, {2, 3}}, {{3, 0}, {4, 1}}},
      {"cmpne", "cmpne r3, r1, r2\ncmpne r4, r1, r1", {{1, M7}, {2, 3}}, {{3, 1}, {4, 0}}},
      {"cmplt", "cmplt r3, r1, r2\ncmplt r4, r1, r1", {{1, M7}, {2, 3}}, {{3, 1}, {4, 0}}},
      {"cmple", "cmple r3, r1, r2\ncmple r4, r2, r1", {{1, M7}, {2, 3}}, {{3, 1}, {4, 0}}},
      {"cmpgt", "cmpgt r3, r1, r2\ncmpgt r4, r2, r1", {{1, M7}, {2, 3}}, {{3, 0}, {4, 1}}},
      {"cmpge", "cmpge r3, r1, r2\ncmpge r4, r1, r1", {{1, M7}, {2, 3}}, {{3, 0}, {4, 1}}},
      {"cmpltu", "cmpltu r3, r1, r2\ncmpltu r4, r2, r1", {{1, M7}, {2, 3}}, {{3, 0}, {4, 1}}},
      {"cmpleu", "cmpleu r3, r1, r2\ncmpleu r4, r1, r1", {{1, M7}, {2, 3}}, {{3, 0}, {4, 1}}},
      {"cmpgtu", "cmpgtu r3, r1, r2\ncmpgtu r4, r1, r1", {{1, M7}, {2, 3}}, {{3, 1}, {4, 0}}},
      {"cmpgeu", "cmpgeu r3, r1, r2\ncmpgeu r4, r2, r1", {{1, M7}, {2, 3}}, {{3, 1}, {4, 0}}},
      {"cmpeqi", "cmpeqi r3, r1, -7\ncmpeqi r4, r1, 7", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"cmpnei", "cmpnei r3, r1, -7\ncmpnei r4, r1, 7", {{1, M7}}, {{3, 0}, {4, 1}}},
      {"cmplti", "cmplti r3, r1, 3\ncmplti r4, r1, -7", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"cmplei", "cmplei r3, r1, -7\ncmplei r4, r1, -8", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"cmpgti", "cmpgti r3, r1, -8\ncmpgti r4, r1, 3", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"cmpgei", "cmpgei r3, r1, -7\ncmpgei r4, r1, 3", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"cmpltui", "cmpltui r3, r1, 3\ncmpltui r4, r1, -1", {{1, M7}}, {{3, 0}, {4, 1}}},
      {"cmpleui", "cmpleui r3, r1, -7\ncmpleui r4, r1, 3", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"cmpgtui", "cmpgtui r3, r1, 3\ncmpgtui r4, r1, -7", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"cmpgeui", "cmpgeui r3, r1, -7\ncmpgeui r4, r1, -6", {{1, M7}}, {{3, 1}, {4, 0}}},
      {"sel",
       "sel r3, r1, r2, r4\nsel r5, r1, r2, zero",
       {{1, 10}, {2, 20}, {4, 1}},
       {{3, 10}, {5, 20}}},
      {"fadd", "fadd r3, r1, r2", {{1, a}, {2, b}}, {{3, F(-0.75f)}}},
      {"fsub", "fsub r3, r1, r2", {{1, a}, {2, b}}, {{3, F(3.75f)}}},
      {"fmul", "fmul r3, r1, r2", {{1, a}, {2, b}}, {{3, F(-3.375f)}}},
      {"fdiv",
       "fdiv r3, r1, r2\nfdiv r4, r1, zero",
       {{1, a}, {2, b}},
       {{3, F(-2.0f / 3.0f)}, {4, F(INFINITY)}}},
      // (1 + 2^-12)^2 - 1 is 2^-11 + 2^-24 only if the product is not rounded first.
      {"fma",
       "fma r3, r1, r1, r2",
       {{1, F(1 + 0x1p-12f)}, {2, F(-1)}},
       {{3, F(0x1p-11f + 0x1p-24f)}}},
      {"fmin",
       "fmin r3, r1, r2\nfmin r4, r5, r1\nfmin r6, r7, zero",
       {{1, a}, {2, b}, {5, F(kNaN)}, {7, 0x80000000}},
       {{3, b}, {4, a}, {6, 0x80000000}}},
      {"fmax",
       "fmax r3, r1, r2\nfmax r4, r1, r5\nfmax r6, r7, zero",
       {{1, a}, {2, b}, {5, F(kNaN)}, {7, 0x80000000}},
       {{3, a}, {4, a}, {6, 0}}},
      {"fabs", "fabs r3, r2", {{2, b}}, {{3, F(2.25f)}}},
      {"fneg", "fneg r3, r1", {{1, a}}, {{3, F(-1.5f)}}},
      {"fsqrt", "fsqrt r3, r1", {{1, F(6.25f)}}, {{3, F(2.5f)}}},
      {"fexp", "fexp r3, zero\nfexp r4, r1", {{1, F(-INFINITY)}}, {{3, F(1)}, {4, 0}}},
      {"flog", "flog r3, r1\nflog r4, zero", {{1, F(1)}}, {{3, 0}, {4, F(-INFINITY)}}},
      {"ftanh", "ftanh r3, r1", {{1, F(20)}}, {{3, F(1)}}},
      {"fsin", "fsin r3, r1", {{1, F(1.57079637f)}}, {{3, F(1)}}},
      {"fcos", "fcos r3, zero", {}, {{3, F(1)}}},
      {"fpow", "fpow r3, r1, r2", {{1, F(2)}, {2, F(10)}}, {{3, F(1024)}}},
      {"ffloor", "ffloor r3, r1", {{1, b}}, {{3, F(-3)}}},
      {"fceil", "fceil r3, r1", {{1, b}}, {{3, F(-2)}}},
      {"fround",
       "fround r3, r1\nfround r4, r2",
       {{1, F(-2.5f)}, {2, F(2.4f)}},
       {{3, F(-3)}, {4, F(2)}}},
      {"ftrunc", "ftrunc r3, r1", {{1, F(-1.7f)}}, {{3, F(-1)}}},
      {"feq", "feq r3, r1, r1\nfeq r4, r5, r5", {{1, a}, {5, F(kNaN)}}, {{3, 1}, {4, 0}}},
      {"fne", "fne r3, r1, r1\nfne r4, r5, r5", {{1, a}, {5, F(kNaN)}}, {{3, 0}, {4, 1}}},
      {"flt", "flt r3, r2, r1\nflt r4, r1, r5", {{1, a}, {2, b}, {5, F(kNaN)}}, {{3, 1}, {4, 0}}},
      {"fle", "fle r3, r1, r1\nfle r4, r1, r2", {{1, a}, {2, b}}, {{3, 1}, {4, 0}}},
      {"fgt", "fgt r3, r1, r2\nfgt r4, r5, r1", {{1, a}, {2, b}, {5, F(kNaN)}}, {{3, 1}, {4, 0}}},
      {"fge", "fge r3, r1, r1\nfge r4, r5, r1", {{1, a}, {5, F(kNaN)}}, {{3, 1}, {4, 0}}},
      {"ford",
       "ford r3, r1, r2\nford r4, r1, r5",
       {{1, a}, {2, b}, {5, F(kNaN)}},
       {{3, 1}, {4, 0}}},
      {"funo",
       "funo r3, r1, r2\nfuno r4, r1, r5",
       {{1, a}, {2, b}, {5, F(kNaN)}},
       {{3, 0}, {4, 1}}},
      {"ftoi",
       "ftoi r3, r1\nftoi r4, r2\nftoi r5, r6",
       {{1, F(-3.7f)}, {2, F(3e9f)}, {6, F(kNaN)}},
       {{3, uint32_t(-3)}, {4, 0x7fffffff}, {5, 0}}},
      {"ftou", "ftou r3, r1\nftou r4, r2", {{1, F(3e9f)}, {2, F(-5)}}, {{3, 3000000000u}, {4, 0}}},
      {"itof", "itof r3, r1", {{1, M7}}, {{3, F(-7)}}},
      {"utof", "utof r3, r1", {{1, 0xffffffff}}, {{3, F(4294967296.0f)}}},
      {"ftoh", "ftoh r3, r1\nftoh r4, r2", {{1, a}, {2, F(65520)}}, {{3, 0x3e00}, {4, 0x7c00}}},
      {"htof", "htof r3, r1\nhtof r4, r2", {{1, 0xffff3e00}, {2, 1}}, {{3, a}, {4, F(0x1p-24f)}}},
      {"f32v2add",
       "f32v2add r10, r4, r6",
       {{4, a}, {5, F(2)}, {6, F(0.5f)}, {7, F(-4)}},
       {{10, F(2)}, {11, F(-2)}}},
      {"f32v2sub",
       "f32v2sub r10, r4, r6",
       {{4, a}, {5, F(2)}, {6, F(0.5f)}, {7, F(-4)}},
       {{10, F(1)}, {11, F(6)}}},
      {"f32v2mul",
       "f32v2mul r4, r4, r6",
       {{4, a}, {5, F(2)}, {6, F(0.5f)}, {7, F(-4)}},
       {{4, F(0.75f)}, {5, F(-8)}}},
      {"f32v2fma",
       "f32v2fma r10, r4, r6, r8",
       {{4, a}, {5, F(2)}, {6, F(0.5f)}, {7, F(-4)}, {8, F(1)}, {9, F(1)}},
       {{10, F(1.75f)}, {11, F(-7)}}},
      {"f32v2sum", "f32v2sum r10, r4", {{4, a}, {5, F(2)}}, {{10, F(3.5f)}}},
      {"f16v4add",
       "f16v4add r10, r4, r6",
       {{4, 0x40003e00}, {5, 0x4400b800}, {6, 0x40004000}, {7, 0x40004000}},
       {{10, 0x44004300}, {11, 0x46003e00}}},
      {"f16v4mul",
       "f16v4mul r10, r4, r6",
       {{4, 0x40003e00}, {5, 0x4400b800}, {6, 0x40004000}, {7, 0x40004000}},
       {{10, 0x44004200}, {11, 0x4800bc00}}},
      {"f16v4fma",
       "f16v4fma r10, r4, r6, r6",
       {{4, 0x40003e00}, {5, 0x4400b800}, {6, 0x40004000}, {7, 0x40004000}},
       {{10, 0x46004500}, {11, 0x49003c00}}},
      {"f16v4sum", "f16v4sum r10, r4", {{4, 0x40003e00}, {5, 0x4400b800}}, {{10, F(7)}}},
      {"f16v2tof32v2", "f16v2tof32v2 r10, r4", {{4, 0x40003e00}}, {{10, a}, {11, F(2)}}},
      {"f32v2tof16v2", "f32v2tof16v2 r10, r12", {{12, a}, {13, F(2)}}, {{10, 0x40003e00}}},
      {"ld8s", "ld8s r3, [r20+20]", {}, {{3, 0xffffff00 | P8(20)}}},
      {"ld8u", "ld8u r3, [r20+20]", {}, {{3, P8(20)}}},
      {"ld16s", "ld16s r3, [r20+20]", {}, {{3, 0xffff0000 | P8(21) << 8 | P8(20)}}},
      {"ld16u", "ld16u r3, [r20+20]", {}, {{3, P8(21) << 8 | P8(20)}}},
      {"ld32", "ld32 r3, [r20+4]\nld32 r4, [r21-4]", {{21, kBase + 12}}, {{3, PW(4)}, {4, PW(8)}}},
      {"ld64", "ld64 r4, [r20+8]", {}, {{4, PW(8)}, {5, PW(12)}}},
      {"ldh", "movi r5, 0x3e00\nst16 r5, [r20+2]\nldh r3, [r20+2]", {}, {{3, a}}},
      {"st8", "st8 r1, [r20+1]", {{1, 0x12345678}}, {}, {{0, (PW(0) & 0xffff00ff) | 0x7800}}},
      {"st16", "st16 r1, [r20+2]", {{1, 0x12345678}}, {}, {{0, (PW(0) & 0xffff) | 0x56780000}}},
      {"st32", "st32 r1, [r20+8]", {{1, 0x12345678}}, {}, {{8, 0x12345678}}},
      {"st64", "st64 r4, [r20+8]", {{4, 1}, {5, 2}}, {}, {{8, 1}, {12, 2}}},
      {"sth", "sth r1, [r20+2]", {{1, a}}, {}, {{0, (PW(0) & 0xffff) | 0x3e000000}}},
      {"ld8sp",
       "ld8sp r3, [r21+=3]",
       {{21, kBase + 20}},
       {{3, 0xffffff00 | P8(20)}, {21, kBase + 23}}},
      {"ld8up", "ld8up r3, [r21+=-1]", {{21, kBase + 20}}, {{3, P8(20)}, {21, kBase + 19}}},
      {"ld16sp",
       "ld16sp r3, [r21+=2]",
       {{21, kBase + 20}},
       {{3, 0xffff0000 | P8(21) << 8 | P8(20)}, {21, kBase + 22}}},
      {"ld16up",
       "ld16up r3, [r21+=2]",
       {{21, kBase + 20}},
       {{3, P8(21) << 8 | P8(20)}, {21, kBase + 22}}},
      {"ld32p",
       "ld32p r3, [r21+=4]\nld32p r4, [r21+=4]",
       {{21, kBase + 4}},
       {{3, PW(4)}, {4, PW(8)}, {21, kBase + 12}}},
      {"ld64p",
       "ld64p r4, [r21+=8]",
       {{21, kBase + 8}},
       {{4, PW(8)}, {5, PW(12)}, {21, kBase + 16}}},
      {"ldhp",
       "movi r5, 0x3e00\nst16 r5, [r20+2]\nldhp r3, [r21+=6]",
       {{21, kBase + 2}},
       {{3, a}, {21, kBase + 8}}},
      {"st8p",
       "st8p r1, [r21+=1]",
       {{1, 0x12345678}, {21, kBase + 1}},
       {{21, kBase + 2}},
       {{0, (PW(0) & 0xffff00ff) | 0x7800}}},
      {"st16p",
       "st16p r1, [r21+=2]",
       {{1, 0x12345678}, {21, kBase + 2}},
       {{21, kBase + 4}},
       {{0, (PW(0) & 0xffff) | 0x56780000}}},
      {"st32p", "st32p r21, [r21+=-4]", {{21, kBase + 16}}, {{21, kBase + 12}}, {{16, kBase + 16}}},
      {"st64p",
       "st64p r4, [r21+=8]",
       {{4, 1}, {5, 2}, {21, kBase + 8}},
       {{21, kBase + 16}},
       {{8, 1}, {12, 2}}},
      {"sthp",
       "sthp r1, [r21+=2]",
       {{1, a}, {21, kBase + 2}},
       {{21, kBase + 4}},
       {{0, (PW(0) & 0xffff) | 0x3e000000}}},
      {"br", "br skip\nmovi r3, 1\nskip: movi r4, 2", {}, {{3, 0}, {4, 2}}},
      {"brz",
       "brz r1, s1\nmovi r3, 1\ns1: brz r2, s2\nmovi r4, 1\ns2:",
       {{2, 1}},
       {{3, 0}, {4, 1}}},
      {"brnz",
       "brnz r1, s1\nmovi r3, 1\ns1: brnz r2, s2\nmovi r4, 1\ns2:",
       {{2, 1}},
       {{3, 1}, {4, 0}}},
      {"brnzdec", "movi r1, 4\nl: addi r3, r3, 1\nbrnzdec r1, l", {}, {{1, 0}, {3, 5}}},
      {"call", "call f\nmovi r4, 2\nexit zero\nf: movi r3, 1\nret", {}, {{3, 1}, {4, 2}, {63, 1}}},
      {"ret", "movi r1, 5\nret", {}, {}, {}, Trap::None, 5},
      {"rpt",
       "movi r1, 3\nrpt r1, 2\naddi r3, r3, 1\naddi r3, r3, 10\nrpt zero, 1\nmovi r5, 1\n"
       "movi r4, 9",
       {},
       {{3, 33}, {4, 9}, {5, 0}}},
      // AMP f32: w[i] = (i, i + 0.5) from memory; x = (2, 3); acc[i] = 2 * (5i + 1.5).
      {"ampwf32",
       "movi r30, 7\nmovi r31, 0\nmovi r21, 0x40000\nfill: itof r4, r31\nmovi r6, 0.5f\n"
       "fadd r5, r4, r6\nst64p r4, [r21+=8]\naddi r31, r31, 1\nbrnzdec r30, fill\n"
       "ampclr\nampwf32 r20\nmovi r4, 2.0f\nmovi r5, 3.0f\nampf32 r4\nampf32 r4\n"
       "ampget r10, 0\nampget r12, 3",
       {{30, 7}},
       {{10, F(3)}, {11, F(13)}, {12, F(63)}, {13, F(73)}}},
      {"ampf32", "movi r4, 1.0f\nmovi r5, 1.0f\nampf32 r4\nampget r10, 0", {}, {{10, 0}, {11, 0}}},
      // AMP f16: w[i][j] = i - j; x = (1, 2, 3, 4); acc[i] = 10i - 20, plus the put values.
      {"ampwf16",
       "movi r30, 63\nmovi r21, 0x40000\nfill: shri r4, r31, 2\nandi r5, r31, 3\nsub r4, r4, r5\n"
       "itof r4, r4\nsthp r4, [r21+=2]\naddi r31, r31, 1\nbrnzdec r30, fill\nampclr\n"
       "ampwf16 r20\nmovi r4, 0x40003c00\nmovi r5, 0x44004200\nampf16 r4\nampget r10, 0\n"
       "ampget r12, 7",
       {},
       {{10, F(-20)}, {11, F(-10)}, {12, F(120)}, {13, F(130)}}},
      // AMP pass: W = [[1, 2], [3, 4]] stored input-major (1, 3, 2, 4; stride 2) at +0, inputs (1,
      // 1) and (2, 0.5) at +64 (stride 8), outputs at +128 (stride 8): out = (3, 7) and (3, 8).
      {"ampcfg", "movi r4, 8\nmovi r5, 4\nampcfg r10, r4, r5", {{10, 9}}, {{10, 0}}},
      {"ampw32",
       "movi r4, 1.0f\nst32 r4, [r20+0]\nst32 r4, [r20+64]\nst32 r4, [r20+68]\n"
       "movi r4, 2.0f\nst32 r4, [r20+8]\nst32 r4, [r20+72]\nmovi r4, 0.5f\nst32 r4, [r20+76]\n"
       "movi r4, 3.0f\nst32 r4, [r20+4]\nmovi r4, 4.0f\nst32 r4, [r20+12]\n"
       "movi r4, 8\nampcfg r0, r4, r4\nmovi r5, 0x20202\nampw32 r11, r20, r5\naddi r21, r20, 64\n"
       "addi r22, r20, 128\nmovi r6, 0x80000002\namp32 r10, r21, r22, r6",
       {},
       {{10, 2}, {11, 4}},
       {{128, F(3)}, {132, F(7)}, {136, F(3)}, {140, F(8)}}},
      {"amp32",
       "movi r5, 0x10101\nampw32 r11, r20, r5\nmovi r5, 0x11\nampw32 r11, r20, r5",
       {},
       {{11, 1}},
       {},
       Trap::BadInstruction},
      {"ampw16",
       "movi r4, 0x42003c00\nst32 r4, [r20+0]\nmovi r4, 0x44004000\nst32 r4, [r20+4]\n"
       "movi r4, 0x3c003c00\nst32 r4, [r20+64]\nmovi r4, 0x38004000\nst32 r4, [r20+72]\n"
       "movi r4, 8\nampcfg r0, r4, r4\nmovi r5, 0x20202\nampw16 r11, r20, r5\naddi r21, r20, 64\n"
       "addi r22, r20, 128\nmovi r6, 0x80000002\namp16 r10, r21, r22, r6",
       {},
       {{10, 2}, {11, 4}},
       {{128, F(3)}, {132, F(7)}, {136, F(3)}, {140, F(8)}}},
      {"amp16",
       "movi r4, 0x42003c00\nst32 r4, [r20+0]\nmovi r4, 0x44004000\nst32 r4, [r20+4]\n"
       "movi r4, 0x3c003c00\nst32 r4, [r20+64]\nmovi r4, 0x38004000\nst32 r4, [r20+72]\n"
       "movi r4, 0x3c003c00\nst32 r4, [r20+128]\nst32 r0, [r20+136]\nmovi r5, 0x20202\n"
       "ampw16 r11, r20, r5\n"
       "movi r4, 8\nampcfg r0, r4, r4\naddi r21, r20, 64\naddi r22, r20, 128\nmovi r6, 2\n"
       "amp16h r10, r21, r22, r6",
       {},
       {{10, 2}},
       // (1, 1) + (3, 7) and (0, 0) + (3, 8), in f16
       {{128, 0x48004400}, {136, 0x48004200}}},
      {"amp16h", "movi r6, 0\namp16h r10, r21, r22, r6", {{10, 5}}, {{10, 0}}},
      {"ampf16",
       "ampput r4, 1\nmovi r4, 0\nmovi r5, 0\nampf16 r4\nampget r10, 1",
       {{4, F(1)}, {5, F(2)}},
       {{10, F(1)}, {11, F(2)}}},
      {"ampclr", "ampput r4, 2\nampclr\nampget r10, 2", {{4, F(1)}, {5, F(2)}}, {{10, 0}, {11, 0}}},
      {"ampget", "ampput r4, 5\nampget r10, 5", {{4, F(1)}, {5, F(2)}}, {{10, F(1)}, {11, F(2)}}},
      {"ampput", "ampput r4, 7\nampget r10, 7", {{4, F(-1)}, {5, F(8)}}, {{10, F(-1)}, {11, F(8)}}},
  };
}

class OpcodeTest : public testing::TestWithParam<Tier> {};

TEST_P(OpcodeTest, EveryCase) {
  for (const OpCase &c : cases()) {
    SCOPED_TRACE(c.name);
    Machine m;
    m.state.workerId = 3;
    m.r(20) = kBase;
    for (auto [reg, value] : c.init)
      m.r(reg) = value;
    RunResult r = m.run(std::string(c.text) + "\nexit zero", GetParam());
    EXPECT_EQ(r.trap, c.trap) << interp::trapName(r.trap) << " at pc " << r.pc;
    if (c.result >= 0) {
      EXPECT_EQ(r.result, uint32_t(c.result));
    }
    for (auto [reg, value] : c.expect)
      EXPECT_EQ(m.r(reg), value) << "r" << reg;
    for (auto [offset, value] : c.mem)
      EXPECT_EQ(m.word(kBase + offset), value) << "word at +" << offset;
  }
}

// Every opcode is exercised by some case (the table above is the per-opcode test list).
TEST(OpcodeCoverage, EveryOpcodeHasACase) {
  std::set<unsigned> seen;
  for (const OpCase &c : cases())
    for (uint64_t w : assembleOrDie(c.text))
      seen.insert(static_cast<unsigned>(isa::decode(w)->op));
  for (unsigned op = 0; op < isa::kNumOpcodes; ++op)
    EXPECT_TRUE(seen.count(op)) << "no test program uses " << isa::kOpcodeInfo[op].mnemonic;
}

TEST_P(OpcodeTest, RptCountsBodyCyclesOnly) {
  Machine m;
  RunResult r =
      m.run("movi r1, 3\nrpt r1, 2\nfdiv r3, r3, r3\naddi r4, r4, 1\nexit zero", GetParam());
  EXPECT_EQ(r.trap, Trap::None);
  EXPECT_EQ(r.instructions, 2u + 3 * 2 + 1);
  EXPECT_EQ(r.cycles, 2u + 3 * (3 + 1) + 1);
  EXPECT_EQ(m.r(4), 3u);
}

INSTANTIATE_TEST_SUITE_P(Tier, OpcodeTest, kAllTiers, tierName);

} // namespace
} // namespace poplar::isatest
