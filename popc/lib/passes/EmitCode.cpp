// Encodes machine IR into the code section, with symbols and a pc -> file:line table.
#include "passes/EmitCode.hpp"

#include "Diagnostics.hpp"

#include <map>
#include <set>
#include <vector>

namespace popc {

using poplar::isa::Opcode;

namespace {

/// Stack sizes over the call graph's strongly connected components (Tarjan's algorithm gives
/// them callees first): a function's frame plus its deepest callee's stack, and for a recursive
/// component every member's frame `recursionDepth` times over, the deepest stack it calls
/// outside the component added.
class StackSizes {
public:
  explicit StackSizes(unsigned recursionDepth) : depth_(recursionDepth) {}

  void visit(mir::Function &f) {
    index_[&f] = low_[&f] = next_++;
    stack_.push_back(&f);
    onStack_.insert(&f);
    for (mir::Function *callee : callees(f)) {
      if (!index_.count(callee)) {
        visit(*callee);
        low_[&f] = std::min(low_[&f], low_[callee]);
      } else if (onStack_.count(callee)) {
        low_[&f] = std::min(low_[&f], index_[callee]);
      }
    }
    if (low_[&f] != index_[&f])
      return;
    std::vector<mir::Function *> component;
    mir::Function *member;
    do {
      member = stack_.back();
      stack_.pop_back();
      onStack_.erase(member);
      component.push_back(member);
    } while (member != &f);
    size(component);
  }

  bool visited(const mir::Function &f) const { return index_.count(&f); }

private:
  static std::vector<mir::Function *> callees(const mir::Function &f) {
    std::vector<mir::Function *> out;
    for (const auto &b : f.blocks)
      for (const mir::Inst &i : b->insts)
        if (i.callee)
          out.push_back(const_cast<mir::Function *>(i.callee));
    return out;
  }

  void size(const std::vector<mir::Function *> &component) {
    std::set<const mir::Function *> members(component.begin(), component.end());
    bool recursive = component.size() > 1;
    std::uint32_t frames = 0, deepestOutside = 0;
    for (mir::Function *f : component) {
      frames += f->frameSize;
      for (mir::Function *callee : callees(*f)) {
        if (members.count(callee))
          recursive = true;
        else
          deepestOutside = std::max(deepestOutside, callee->stackSize);
      }
    }
    std::uint32_t stack = (recursive ? depth_ * frames : frames) + deepestOutside;
    for (mir::Function *f : component)
      f->stackSize = stack;
  }

  unsigned depth_;
  unsigned next_ = 0;
  std::map<const mir::Function *, unsigned> index_, low_;
  std::vector<mir::Function *> stack_;
  std::set<const mir::Function *> onStack_;
};

} // namespace

bool emitCode(mir::Module &m, poplar::gp::GpFile &out, SourceDiagnostics &diags,
              unsigned recursionDepth) {
  std::map<const mir::Block *, std::uint32_t> blockPc;
  std::uint32_t pc = 0;
  for (auto &f : m.functions) {
    f->entryPc = pc;
    for (auto &b : f->blocks) {
      blockPc[b.get()] = pc;
      pc += static_cast<std::uint32_t>(b->insts.size());
    }
  }
  StackSizes sizes(recursionDepth);
  for (auto &f : m.functions)
    if (!sizes.visited(*f))
      sizes.visit(*f);

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
