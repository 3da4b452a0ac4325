// Encodes machine IR into the code section, with symbols and a pc -> file:line table.
#include "passes/EmitCode.hpp"

#include "Diagnostics.hpp"

#include <map>

namespace popc {

using poplar::isa::Opcode;

namespace {

std::uint32_t stackSizeOf(mir::Function &f, std::map<const mir::Function *, bool> &done) {
  if (done[&f])
    return f.stackSize;
  std::uint32_t deepest = 0;
  for (auto &b : f.blocks)
    for (const mir::Inst &i : b->insts)
      if (i.callee)
        deepest = std::max(deepest, stackSizeOf(const_cast<mir::Function &>(*i.callee), done));
  f.stackSize = f.frameSize + deepest;
  done[&f] = true;
  return f.stackSize;
}

} // namespace

bool emitCode(mir::Module &m, poplar::gp::GpFile &out, SourceDiagnostics &diags) {
  std::map<const mir::Block *, std::uint32_t> blockPc;
  std::uint32_t pc = 0;
  for (auto &f : m.functions) {
    f->entryPc = pc;
    for (auto &b : f->blocks) {
      blockPc[b.get()] = pc;
      pc += static_cast<std::uint32_t>(b->insts.size());
    }
  }
  std::map<const mir::Function *, bool> done;
  for (auto &f : m.functions)
    stackSizeOf(*f, done);

  out.files = m.files;
  pc = 0;
  bool ok = true;
  const mir::SourceLoc *last = nullptr;
  for (auto &f : m.functions) {
    std::uint32_t start = pc;
    for (auto &b : f->blocks)
      for (const mir::Inst &i : b->insts) {
        poplar::isa::Insn insn;
        insn.op = i.op;
        insn.rd = static_cast<std::uint8_t>(i.rd);
        insn.ra = static_cast<std::uint8_t>(i.ra);
        insn.rb = static_cast<std::uint8_t>(i.rb);
        insn.rc = static_cast<std::uint8_t>(i.rc);
        insn.imm = i.imm;
        if (i.target)
          insn.imm = static_cast<std::int32_t>(blockPc.at(i.target) - pc);
        if (i.callee)
          insn.imm = static_cast<std::int32_t>(i.callee->entryPc - pc);
        if (const char *problem = poplar::isa::validate(insn)) {
          diags.error("", 0, 0,
                      "internal error: popc generated an invalid '" +
                          std::string(poplar::isa::info(i.op).mnemonic) + "' in '" + f->name +
                          "': " + problem);
          ok = false;
        }
        std::uint64_t word = poplar::isa::encode(insn);
        for (unsigned k = 0; k < poplar::gp::InstructionBytes; ++k)
          out.code.push_back(static_cast<std::uint8_t>(word >> (8 * k)));
        if (i.loc.line && (!last || last->file != i.loc.file || last->line != i.loc.line ||
                           last->column != i.loc.column)) {
          out.lines.push_back({pc, i.loc.file, i.loc.line, i.loc.column});
          last = &i.loc;
        }
        ++pc;
      }
    out.symbols.push_back({f->name, poplar::gp::Section::Code, start, pc - start});
  }
  return ok;
}

} // namespace popc
