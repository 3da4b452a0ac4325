// The code bytes a tile is charged for one codelet object: a worklist over its call graph.
#include "compiler/VertexCodeCharge.hpp"

#include "isa/Isa.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <vector>

namespace poplar::detail {

namespace {

/// Instructions [begin, end) of the code section: one function, or a stretch no symbol covers.
struct Piece {
  std::uint32_t begin = 0, end = 0;
  bool covered = false; // by a code symbol
};

/// The code section cut into disjoint pieces sorted by begin, covering every instruction.
/// Overlapping symbols are clipped to where the previous one ends.
std::vector<Piece> cutIntoPieces(const gp::GpFile &file) {
  std::uint32_t numInstructions = file.numInstructions();
  std::vector<Piece> symbols;
  for (const auto &sym : file.symbols)
    if (sym.section == gp::Section::Code && sym.size > 0 && sym.offset < numInstructions)
      symbols.push_back(
          {sym.offset, sym.offset + std::min(sym.size, numInstructions - sym.offset), true});
  std::sort(symbols.begin(), symbols.end(),
            [](const Piece &a, const Piece &b) { return a.begin < b.begin; });
  std::vector<Piece> pieces;
  std::uint32_t pc = 0;
  for (Piece p : symbols) {
    p.begin = std::max(p.begin, pc);
    if (p.begin >= p.end)
      continue;
    if (pc < p.begin)
      pieces.push_back({pc, p.begin, false});
    pieces.push_back(p);
    pc = p.end;
  }
  if (pc < numInstructions)
    pieces.push_back({pc, numInstructions, false});
  return pieces;
}

/// Index of the piece holding instruction `pc` (pieces cover the whole code section).
std::size_t pieceAt(const std::vector<Piece> &pieces, std::uint32_t pc) {
  auto it = std::upper_bound(pieces.begin(), pieces.end(), pc,
                             [](std::uint32_t v, const Piece &p) { return v < p.begin; });
  return std::size_t(it - pieces.begin()) - 1;
}

/// Where the instruction at `pc` may transfer control to outside the straight line: the target
/// of a call or a branch (a tail call may be a branch), or nothing.
std::optional<std::int64_t> directTarget(const gp::GpFile &file, std::uint32_t pc) {
  std::uint64_t word;
  std::memcpy(&word, file.code.data() + std::size_t(pc) * gp::InstructionBytes, sizeof word);
  auto insn = isa::decode(word);
  if (!insn)
    return std::nullopt;
  isa::Format format = isa::info(insn->op).format;
  if (format != isa::Format::Jump && format != isa::Format::AJump)
    return std::nullopt;
  return std::int64_t(pc) + insn->imm;
}

} // namespace

std::uint64_t codeBytesForEntries(const gp::GpFile &file, const std::set<std::uint32_t> &entries) {
  std::vector<Piece> pieces = cutIntoPieces(file);
  auto isFunctionAt = [&](std::uint32_t pc) {
    if (pc >= file.numInstructions())
      return false;
    const Piece &p = pieces[pieceAt(pieces, pc)];
    return p.covered && p.begin == pc;
  };
  for (const auto &v : file.vertices)
    if (!isFunctionAt(v.entry))
      return file.code.size(); // no size known: charge the whole object

  std::vector<bool> charged(pieces.size(), false);
  std::vector<std::size_t> worklist;
  auto reach = [&](std::size_t piece) {
    if (!charged[piece]) {
      charged[piece] = true;
      worklist.push_back(piece);
    }
  };
  for (std::uint32_t pc : entries)
    reach(pieceAt(pieces, pc));
  for (std::size_t i = 0; i < pieces.size(); ++i)
    if (!pieces[i].covered)
      reach(i);
  std::uint64_t instructions = 0;
  while (!worklist.empty()) {
    const Piece piece = pieces[worklist.back()];
    worklist.pop_back();
    instructions += piece.end - piece.begin;
    for (std::uint32_t pc = piece.begin; pc < piece.end; ++pc) {
      auto target = directTarget(file, pc);
      if (target && *target >= 0 && *target < file.numInstructions() &&
          (*target < piece.begin || *target >= piece.end))
        reach(pieceAt(pieces, std::uint32_t(*target)));
    }
  }
  return instructions * gp::InstructionBytes;
}

} // namespace poplar::detail
