// The tile ISA: instruction format, register conventions and the C++ view of Opcodes.def.
//
// Every instruction is one 64-bit little-endian word:
//
//    63                              32 31    26 25    20 19    14 13     8 7       0
//   +----------------------------------+--------+--------+--------+--------+---------+
//   |              imm32               |   rc   |   rb   |   ra   |   rd   | opcode  |
//   +----------------------------------+--------+--------+--------+--------+---------+
//
//   opcode  8 bits: (position of the row in Opcodes.def) + 1; 0 is never valid, so zeroed
//           memory does not decode as code.
//   rd      destination register; ra, rb, rc source registers (6 bits each: r0..r63).
//   imm32   signed immediate, memory offset, post-increment, rpt body length, or a branch
//           displacement relative to the branch's own pc (target = pc + imm).
// Fields a format does not use must be zero. A pc is an instruction index, not a byte address:
// code is not in tile memory.
//
// Registers: 64 x 32 bits, each holding an integer or an f32 bit pattern. A 64-bit operand
// (f32v2, f16v4, ld64/st64) is an even pair rN:rN+1 with the low lane/word in rN.
//   r0        zero: reads 0, writes are discarded (a pair destination may not be r0)
//   r1        argument 0 and return value; holds the vertex state address at entry
//   r2..r8    arguments 1..7 (r2 = worker id at entry); r1:r2 returns 64-bit values
//   r9..r31   caller-saved temporaries
//   r32..r59  callee-saved (but by a vertex's entry function: the host keeps nothing in them)
//   r60 fp    frame pointer (callee-saved; optional)
//   r61 gp    global pointer: base of the code object's data (globals, lookup tables)
//   r62 sp    stack pointer: starts at the top of the caller's stack region, grows down,
//             8-byte aligned; adjust it only with spadd, which traps on overflow
//   r63 lr    link register: call writes pc + 1; starts as kExitLr so that `ret` from the
//             entry function ends the vertex with result r1 (a C++ compute() can just return)
// All other registers are 0 at entry; see poplar/interp/Interpreter.hpp for the entry API.
//
// Loads and stores use 32-bit tile addresses and are naturally aligned; the interpreter checks
// each access against the tile's memory window (which starts at 0x40000, so null faults).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace poplar::isa {

constexpr unsigned kNumRegs = 64;
constexpr unsigned kRegZero = 0;
constexpr unsigned kRegArg0 = 1; // vertex state address at entry; return value
constexpr unsigned kRegArg1 = 2; // worker id at entry
constexpr unsigned kRegFp = 60;
constexpr unsigned kRegGp = 61;
constexpr unsigned kRegSp = 62;
constexpr unsigned kRegLr = 63;
constexpr unsigned kFirstCalleeSaved = 32, kLastCalleeSaved = 60;
constexpr uint32_t kExitLr = 0xffffffffu;      // lr value meaning "return to the host"
constexpr uint32_t kTileMemoryBase = 0x40000u; // first tile address (TMEM_REGION0_BASE-like)
constexpr unsigned kNumAccumulators = 16;      // AMP accumulator file (acc[0..15])
constexpr unsigned kNumWeights = 64;           // AMP weight state w[16][4] (f32 uses w[8][2])
// Thread cycles an AMP pass (amp32, amp16, amp16h) adds per field position, beyond its issue
// (Opcodes.def, group AmpPass): 128 f32 or 256 f16 MACs at 16 or 64 per cycle.
constexpr unsigned kAmpF32CyclesPerPosition = 8;
constexpr unsigned kAmpF16CyclesPerPosition = 4;
// f32 arithmetic that yields a NaN yields this one (RISC-V's rule), so results never depend on
// which input NaN a host propagates; f16 arithmetic likewise yields 0x7e00.
constexpr uint32_t kCanonicalNaN = 0x7fc00000u;
// `trap kTrapAssertion` is a failed assert() in a codelet: the interpreter reports it as
// Trap::AssertionFailed rather than Trap::Explicit. Any other immediate is an explicit trap.
constexpr int32_t kTrapAssertion = 0x0a55e417;

// Operand syntax, and which fields are used.
enum class Format : uint8_t {
  None,      // nop
  D,         // rd
  A,         // ra
  I,         // imm
  DI,        // rd, imm
  DA,        // rd, ra
  DAB,       // rd, ra, rb
  DABC,      // rd, ra, rb, rc
  DAI,       // rd, ra, imm
  AI,        // ra, imm
  Load,      // rd, [ra+imm]
  LoadPost,  // rd, [ra+=imm]
  Store,     // rb, [ra+imm]
  StorePost, // rb, [ra+=imm]
  Jump,      // target
  AJump,     // ra, target
};

// Operand flags of a row (bitmask).
enum : uint8_t {
  PD = 1,  // rd is a register pair
  PA = 2,  // ra is a register pair
  PB = 4,  // rb is a register pair
  PC = 8,  // rc is a register pair
  CTL = 16 // control flow: ends a basic block; not allowed in a rpt body
};

enum class Opcode : uint8_t {
#define POPLAR_OPCODE(name, mnemonic, format, flags, cycles, rtl) name,
#include "isa/Opcodes.def"
};

constexpr unsigned kNumOpcodes = 0
#define POPLAR_OPCODE(name, mnemonic, format, flags, cycles, rtl) +1
#include "isa/Opcodes.def"
    ;
static_assert(kNumOpcodes < 256, "the opcode field is 8 bits and 0 is reserved");

struct OpcodeInfo {
  const char *mnemonic;
  Format format;
  uint8_t flags;
  uint16_t cycles; // thread cycles
  const char *rtl; // register-transfer semantics
};

inline constexpr OpcodeInfo kOpcodeInfo[kNumOpcodes] = {
#define POPLAR_OPCODE(name, mnemonic, format, flags, cycles, rtl)                                  \
  {mnemonic, Format::format, flags, cycles, rtl},
#include "isa/Opcodes.def"
};

constexpr const OpcodeInfo &info(Opcode op) { return kOpcodeInfo[static_cast<unsigned>(op)]; }
constexpr uint16_t cycles(Opcode op) { return info(op).cycles; }

// The POPLAR_OPGROUP sections of Opcodes.def.
enum class OpGroup : uint8_t {
#define POPLAR_OPGROUP(id, pipe, title, costSource) id,
#include "isa/Opcodes.def"
};

// Each opcode's group: the last POPLAR_OPGROUP row above it in Opcodes.def.
inline constexpr std::array<OpGroup, kNumOpcodes> kOpcodeGroup = [] {
  struct Row {
    bool isGroup;
    OpGroup group;
  };
  constexpr Row rows[] = {
#define POPLAR_OPGROUP(id, pipe, title, costSource) {true, OpGroup::id},
#define POPLAR_OPCODE(name, mnemonic, format, flags, cycles, rtl) {false, OpGroup{}},
#include "isa/Opcodes.def"
  };
  std::array<OpGroup, kNumOpcodes> groups{};
  OpGroup current{};
  unsigned op = 0;
  for (const Row &r : rows) {
    if (r.isGroup)
      current = r.group;
    else
      groups[op++] = current;
  }
  return groups;
}();
constexpr OpGroup group(Opcode op) { return kOpcodeGroup[static_cast<unsigned>(op)]; }
std::optional<Opcode> opcodeFromMnemonic(std::string_view mnemonic);

// Which fields a format uses.
bool usesRd(Format f);
bool usesRa(Format f);
bool usesRb(Format f);
bool usesRc(Format f);
bool usesImm(Format f);

// One instruction, unpacked. imm of a branch is the displacement from the branch's pc.
struct Insn {
  Opcode op = Opcode::Nop;
  uint8_t rd = 0, ra = 0, rb = 0, rc = 0;
  int32_t imm = 0;
  bool operator==(const Insn &o) const {
    return op == o.op && rd == o.rd && ra == o.ra && rb == o.rb && rc == o.rc && imm == o.imm;
  }
};

// Bit positions of the fields in a word.
constexpr unsigned kOpcodeShift = 0, kRdShift = 8, kRaShift = 14, kRbShift = 20, kRcShift = 26,
                   kImmShift = 32;

// Packs an instruction; the caller guarantees it is valid (see validate).
uint64_t encode(const Insn &insn);
// Unpacks a word; nullopt if the opcode is unknown or the operands break the format's rules.
std::optional<Insn> decode(uint64_t word);
// Why an instruction is malformed (unused field set, odd or r0 pair, r0 as a written base...),
// or nullptr if it is well-formed. Branch targets are checked by the interpreter's decoder.
const char *validate(const Insn &insn);

} // namespace poplar::isa
