// Invariants of a .gp shared by the writer (refuses to write) and the reader (rejects the file).
#include "GpBinary.hpp"

#include <zlib.h>

namespace poplar::gp::binary {

std::uint32_t checksum(const std::uint8_t *bytes, std::size_t size) {
  uLong crc = crc32(0L, Z_NULL, 0);
  crc = crc32(crc, bytes, static_cast<uInt>(ChecksumOffset));
  crc = crc32(crc, bytes + ChecksumOffset + 4, static_cast<uInt>(size - ChecksumOffset - 4));
  return static_cast<std::uint32_t>(crc);
}

static bool isPowerOfTwo(std::uint32_t x) { return x != 0 && (x & (x - 1)) == 0; }

static bool isVectorLayout(Layout l) { return l >= Layout::OnePtr && l <= Layout::Span; }
static bool isListLayout(Layout l) {
  return l >= Layout::ListOnePtr && l <= Layout::ListCompactDeltaN;
}

/// Bytes the state block must reserve for a field of this kind and layout, 0 for Value.
static std::uint32_t stateBytes(const Field &f) {
  switch (f.kind) {
  case FieldKind::Scalar:
    return 4;
  case FieldKind::Vector:
  case FieldKind::VectorOfEdges:
    return layoutHasSize(f.layout) ? 8 : 4;
  case FieldKind::VectorList:
    return 8;
  case FieldKind::Value:
    return 0;
  }
  return 0;
}

std::string checkField(const Field &f, const Vertex &v) {
  std::string where = "field '" + f.name + "' of vertex '" + v.name + "': ";
  if (f.name.empty())
    return "a field of vertex '" + v.name + "' has no name";
  if (f.direction > FieldDirection::State)
    return where + "unknown direction " + std::to_string(unsigned(f.direction));
  if (f.kind > FieldKind::Value)
    return where + "unknown kind " + std::to_string(unsigned(f.kind));
  if (f.layout > Layout::ListCompactDeltaN || f.innerLayout > Layout::ListCompactDeltaN)
    return where + "unknown layout";
  bool layoutOk = true;
  switch (f.kind) {
  case FieldKind::Scalar:
  case FieldKind::Value:
    layoutOk = f.layout == Layout::NotAVector && f.innerLayout == Layout::NotAVector;
    break;
  case FieldKind::Vector:
    layoutOk = isVectorLayout(f.layout) && f.innerLayout == Layout::NotAVector;
    break;
  case FieldKind::VectorList:
    layoutOk = isListLayout(f.layout) && f.innerLayout == Layout::NotAVector;
    break;
  case FieldKind::VectorOfEdges:
    layoutOk = isVectorLayout(f.layout) && isVectorLayout(f.innerLayout);
    break;
  }
  if (!layoutOk)
    return where + std::string("layout ") + toString(f.layout) + "/" + toString(f.innerLayout) +
           " does not fit kind " + toString(f.kind);
  bool isEdgeKind = f.kind == FieldKind::Scalar || f.kind == FieldKind::VectorOfEdges;
  if (isEdgeKind && f.direction == FieldDirection::State)
    return where + "a " + std::string(toString(f.kind)) + " field must be an edge";
  if (f.kind == FieldKind::Value && f.direction != FieldDirection::State)
    return where + "a Value field must have direction State";
  if (f.elementType.empty() || f.elementSize == 0)
    return where + "no element type";
  if (!isPowerOfTwo(f.minAlign))
    return where + "alignment " + std::to_string(f.minAlign) + " is not a power of two";
  std::uint32_t need = f.kind == FieldKind::Value ? f.elementSize : stateBytes(f);
  if (f.size != need)
    return where + "occupies " + std::to_string(f.size) + " bytes, its kind needs " +
           std::to_string(need);
  if (std::uint64_t(f.offset) + f.size > v.stateSize)
    return where + "bytes [" + std::to_string(f.offset) + ", " +
           std::to_string(std::uint64_t(f.offset) + f.size) + ") lie outside the state block of " +
           std::to_string(v.stateSize) + " bytes";
  return {};
}

std::string checkCodeSize(std::size_t codeSize) {
  if (codeSize % InstructionBytes)
    return "the code section holds " + std::to_string(codeSize) + " bytes, not a whole number of " +
           std::to_string(InstructionBytes) + "-byte instructions";
  return {};
}

std::string checkVertex(const Vertex &v, std::size_t codeSize) {
  if (v.name.empty())
    return "a vertex has no name";
  if (v.kind > VertexKind::SupervisorVertex)
    return "vertex '" + v.name + "': unknown kind " + std::to_string(unsigned(v.kind));
  if (!isPowerOfTwo(v.stateAlign))
    return "vertex '" + v.name + "': state alignment is not a power of two";
  if (v.entry >= codeSize / InstructionBytes)
    return "vertex '" + v.name + "': entry pc " + std::to_string(v.entry) +
           " is outside the code section of " + std::to_string(codeSize / InstructionBytes) +
           " instructions";
  for (const Field &f : v.fields) {
    std::string e = checkField(f, v);
    if (!e.empty())
      return e;
  }
  return {};
}

static std::size_t sectionBytes(Section s, std::size_t codeSize, std::size_t dataSize) {
  return s == Section::Code ? codeSize : dataSize;
}

/// Size in the units symbols use: instructions for code, bytes for data.
static std::size_t sectionUnits(Section s, std::size_t codeSize, std::size_t dataSize) {
  return s == Section::Code ? codeSize / InstructionBytes : dataSize;
}

std::string checkRelocation(const Relocation &r, std::size_t codeSize, std::size_t dataSize) {
  if (r.section > Section::Data || r.target > Section::Data)
    return "relocation names an unknown section";
  if (std::uint64_t(r.offset) + 4 > sectionBytes(r.section, codeSize, dataSize))
    return "relocation at " + std::to_string(r.offset) + " lies outside its section";
  if (r.addend > sectionBytes(r.target, codeSize, dataSize))
    return "relocation addend " + std::to_string(r.addend) + " lies outside its target section";
  return {};
}

std::string checkSymbol(const Symbol &s, std::size_t codeSize, std::size_t dataSize) {
  if (s.section > Section::Data)
    return "symbol '" + s.name + "' names an unknown section";
  if (std::uint64_t(s.offset) + s.size > sectionUnits(s.section, codeSize, dataSize))
    return "symbol '" + s.name + "' lies outside its section";
  return {};
}

std::string checkLine(const LineEntry &l, const LineEntry *previous, std::size_t numFiles,
                      std::size_t codeSize) {
  if (l.file >= numFiles)
    return "line entry names file " + std::to_string(l.file) + " of " + std::to_string(numFiles);
  if (l.pc >= codeSize / InstructionBytes)
    return "line entry pc " + std::to_string(l.pc) + " is outside the code section";
  if (previous && l.pc <= previous->pc)
    return "line entries are not sorted by pc";
  return {};
}

} // namespace poplar::gp::binary
