// Readable listing of a code object: vertex table, then code with symbols and source lines.
#include "Pipeline.hpp"

#include "isa/Asm.hpp"
#include "isa/CoIssue.hpp"

#include <cstdio>
#include <map>
#include <sstream>
#include <vector>

namespace popc {

namespace gp = poplar::gp;

std::string listing(const gp::GpFile &f) {
  std::ostringstream os;
  os << "; target " << f.target << ", produced by " << f.producer << "\n";
  for (const gp::Vertex &v : f.vertices) {
    os << "; vertex " << v.name << " (" << gp::toString(v.kind) << "): entry @" << v.entry
       << ", state " << v.stateSize << " bytes align " << v.stateAlign << ", stack " << v.stackSize
       << " bytes\n";
    for (const gp::Field &fd : v.fields) {
      os << ";   field " << fd.name << ": " << gp::toString(fd.direction) << " "
         << gp::toString(fd.kind);
      if (fd.layout != gp::Layout::NotAVector)
        os << " " << gp::toString(fd.layout);
      if (fd.innerLayout != gp::Layout::NotAVector)
        os << " of " << gp::toString(fd.innerLayout);
      os << " <" << fd.elementType << "> at " << fd.offset << " size " << fd.size << " align "
         << fd.minAlign << "\n";
    }
  }
  std::map<std::uint32_t, std::string> labels;
  for (const gp::Symbol &s : f.symbols)
    if (s.section == gp::Section::Code)
      labels[s.offset] = s.name;
  const gp::LineEntry *shown = nullptr;
  std::vector<std::uint64_t> words(f.numInstructions());
  for (std::uint32_t pc = 0; pc < words.size(); ++pc)
    for (unsigned k = 0; k < gp::InstructionBytes; ++k)
      words[pc] |= std::uint64_t(f.code[pc * gp::InstructionBytes + k]) << (8 * k);
  // The second half of a bundle is marked "||": it issues with the line above, at no cost.
  const std::vector<bool> seconds = poplar::isa::bundleSeconds(words.data(), words.size());
  for (std::uint32_t pc = 0; pc < f.numInstructions(); ++pc) {
    auto label = labels.find(pc);
    if (label != labels.end())
      os << label->second << ":\n";
    const gp::LineEntry *line = f.lineFor(pc);
    if (line && line != shown && line->pc == pc && line->file < f.files.size()) {
      os << "    ; " << f.files[line->file] << ":" << line->line << ":" << line->column << "\n";
      shown = line;
    }
    char prefix[16];
    std::snprintf(prefix, sizeof prefix, "%6u: %s", pc, seconds[pc] ? "|| " : "");
    os << prefix << poplar::isa::disassembleWord(words[pc], pc) << "\n";
  }
  if (!f.data.empty()) {
    os << "; data: " << f.data.size() << " bytes, align " << f.dataAlign << "\n";
    for (const gp::Symbol &s : f.symbols)
      if (s.section == gp::Section::Data)
        os << ";   " << s.name << " at gp+" << s.offset << ", " << s.size << " bytes\n";
    for (const gp::Relocation &r : f.relocations)
      os << ";   reloc data+" << r.offset << " = &data+" << r.addend << "\n";
  }
  return os.str();
}

} // namespace popc
