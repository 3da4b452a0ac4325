// Machine IR: tile instructions over virtual registers, the form the back-end passes share.
#ifndef popc_MIR_hpp
#define popc_MIR_hpp

#include "isa/Isa.hpp"

#include "gp/GpFile.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace popc::mir {

/// Registers 0..63 are the physical ones (isa::kReg*); from FirstVirtual on they are virtual.
using Reg = std::uint32_t;
constexpr Reg FirstVirtual = 64;
inline bool isVirtual(Reg r) { return r >= FirstVirtual; }

/// Argument registers r1..r8; r9..r11 and the pairs r26:27..r30:31 are kept free for spill
/// code (an instruction reads at most three registers or three pairs).
constexpr unsigned NumArgRegs = 8;
constexpr Reg SpillScratch[3] = {9, 10, 11};
constexpr Reg SpillScratchPairs[3] = {26, 28, 30};
constexpr Reg FirstCallerSaved = 1, LastCallerSaved = 31;

struct SourceLoc {
  std::uint32_t file = 0; ///< index into Module::files
  std::uint32_t line = 0; ///< 0: no position
  std::uint32_t column = 0;
};

struct Block;
struct Function;

struct Inst {
  poplar::isa::Opcode op = poplar::isa::Opcode::Nop;
  Reg rd = 0, ra = 0, rb = 0, rc = 0;
  std::int32_t imm = 0;
  Block *target = nullptr;          ///< Br/Brz/Brnz: the destination block
  const Function *callee = nullptr; ///< Call
  unsigned callArgs = 0;            ///< Call: r1..r<callArgs> are read by the callee
  bool callResult = false;          ///< Call: r1 holds a result afterwards; Ret: r1 is read
  bool wideResult = false;          ///< with callResult: an i64 result, high word in r2
  int slot = -1;                    ///< >= 0: imm is relative to this frame slot's offset from sp
  SourceLoc loc;
};

struct Block {
  std::string name;
  std::vector<Inst> insts;
};

struct FrameSlot {
  std::uint32_t size = 4;
  std::uint32_t align = 4;
  std::int32_t offset = -1; ///< from sp after the prologue; set by layoutFrame
};

/// A register pair (the ISA's rX:2 operands: f32v2, f16v4, ld64, st64) is two consecutive
/// virtual registers, head and head + 1, that the allocator places in an even physical pair.
/// Either half may also be read or written alone as a 32-bit register. An instruction names a
/// pair operand by its head; usesOf/defsOf list both halves.
struct Function {
  std::string name;
  std::vector<std::unique_ptr<Block>> blocks; ///< blocks[0] is the entry; order is the layout
  std::vector<FrameSlot> slots;
  Reg nextVirtual = FirstVirtual;
  std::uint32_t frameSize = 0; ///< set by layoutFrame
  std::uint32_t stackSize = 0; ///< frame + deepest callee; set by emitCode
  std::uint32_t entryPc = 0;   ///< set by emitCode
  /// A vertex's entry function: only the host calls it, and the host keeps nothing in registers
  /// across a vertex run (every register but the entry arguments is 0 at entry), so it need not
  /// save the callee-saved registers it writes, as a worker's code on the IPU ends in `exit`.
  bool vertexEntry = false;
  SourceLoc loc;

  std::vector<bool> pairHeads; ///< indexed by virtual register

  Reg newVirtual() { return nextVirtual++; }
  Reg newPair() {
    Reg head = nextVirtual;
    nextVirtual += 2;
    pairHeads.resize(nextVirtual);
    pairHeads[head] = true;
    return head;
  }
  bool isPairHead(Reg r) const { return r < pairHeads.size() && pairHeads[r]; }
  /// The head of the pair `r` belongs to, or 0 if it is a lone register.
  Reg pairOf(Reg r) const {
    if (isPairHead(r))
      return r;
    return r > 0 && isPairHead(r - 1) ? r - 1 : 0;
  }
  int newSlot(std::uint32_t size, std::uint32_t align) {
    slots.push_back({size, align, -1});
    return static_cast<int>(slots.size() - 1);
  }
};

struct Module {
  std::vector<std::unique_ptr<Function>> functions;
  std::vector<std::uint8_t> data; ///< globals, tables and constants, addressed from gp
  std::uint32_t dataAlign = 4;
  std::vector<poplar::gp::Relocation> dataRelocations;
  std::vector<poplar::gp::Symbol> dataSymbols;
  std::vector<std::string> files;
};

/// Whether the operand field `r` (a pointer into `inst`) names a register pair by its head.
bool isPairOperand(const Inst &inst, const Reg *r);

/// The registers an instruction reads and writes, including the implicit ones of call and ret
/// and the second halves of pair operands.
/// Post-increment forms and brnzdec both read and write ra.
void usesOf(const Inst &inst, std::vector<Reg> &uses);
void defsOf(const Inst &inst, std::vector<Reg> &defs);
/// Pointers to the operand fields that name registers read (uses) or written (defs).
void useOperands(Inst &inst, std::vector<Reg *> &uses);
void defOperands(Inst &inst, std::vector<Reg *> &defs);

/// One line per instruction with virtual registers as %N, for POPC_DUMP.
std::string print(const Function &function);

} // namespace popc::mir

#endif
