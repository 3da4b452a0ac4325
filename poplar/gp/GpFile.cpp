// The .gp model: lookups, comparisons and names (serialisation is in GpWriter/GpReader).
#include "GpFile.hpp"

#include <algorithm>
#include <tuple>

namespace poplar::gp {

GpFormatError::GpFormatError(std::size_t offset, const std::string &detail, const std::string &path)
    : std::runtime_error("invalid .gp file" + (path.empty() ? "" : " '" + path + "'") +
                         ": at offset " + std::to_string(offset) + ": " + detail),
      offset_(offset), detail_(detail) {}

bool layoutHasSize(Layout layout) { return layout == Layout::Span || layout == Layout::ShortSpan; }

const Field *Vertex::findField(std::string_view fieldName) const {
  for (const Field &f : fields)
    if (f.name == fieldName)
      return &f;
  return nullptr;
}

const Vertex *GpFile::findVertex(std::string_view vertexName) const {
  for (const Vertex &v : vertices)
    if (v.name == vertexName)
      return &v;
  return nullptr;
}

const LineEntry *GpFile::lineFor(std::uint32_t pc) const {
  // Entries are sorted by pc; the one in force is the last at or before pc.
  auto it = std::upper_bound(lines.begin(), lines.end(), pc,
                             [](std::uint32_t p, const LineEntry &e) { return p < e.pc; });
  if (it == lines.begin())
    return nullptr;
  return &*std::prev(it);
}

const Symbol *GpFile::symbolFor(std::uint32_t pc) const {
  for (const Symbol &s : symbols)
    if (s.section == Section::Code && pc >= s.offset && pc - s.offset < s.size)
      return &s;
  return nullptr;
}

bool operator==(const Field &a, const Field &b) {
  return std::tie(a.name, a.direction, a.kind, a.layout, a.innerLayout, a.elementType,
                  a.elementSize, a.offset, a.size, a.minAlign) ==
         std::tie(b.name, b.direction, b.kind, b.layout, b.innerLayout, b.elementType,
                  b.elementSize, b.offset, b.size, b.minAlign);
}

bool operator==(const Vertex &a, const Vertex &b) {
  return std::tie(a.name, a.kind, a.stateSize, a.stateAlign, a.entry, a.stackSize, a.fields) ==
         std::tie(b.name, b.kind, b.stateSize, b.stateAlign, b.entry, b.stackSize, b.fields);
}

bool operator==(const Relocation &a, const Relocation &b) {
  return std::tie(a.section, a.offset, a.target, a.addend) ==
         std::tie(b.section, b.offset, b.target, b.addend);
}

bool operator==(const Symbol &a, const Symbol &b) {
  return std::tie(a.name, a.section, a.offset, a.size) ==
         std::tie(b.name, b.section, b.offset, b.size);
}

bool operator==(const LineEntry &a, const LineEntry &b) {
  return std::tie(a.pc, a.file, a.line, a.column) == std::tie(b.pc, b.file, b.line, b.column);
}

bool operator==(const GpFile &a, const GpFile &b) {
  return std::tie(a.target, a.producer, a.vertices, a.code, a.data, a.dataAlign, a.relocations,
                  a.symbols, a.files, a.lines) == std::tie(b.target, b.producer, b.vertices, b.code,
                                                           b.data, b.dataAlign, b.relocations,
                                                           b.symbols, b.files, b.lines);
}

const char *toString(VertexKind kind) {
  switch (kind) {
  case VertexKind::Vertex:
    return "Vertex";
  case VertexKind::MultiVertex:
    return "MultiVertex";
  case VertexKind::SupervisorVertex:
    return "SupervisorVertex";
  }
  return "?";
}

const char *toString(FieldDirection direction) {
  switch (direction) {
  case FieldDirection::Input:
    return "Input";
  case FieldDirection::Output:
    return "Output";
  case FieldDirection::InOut:
    return "InOut";
  case FieldDirection::State:
    return "State";
  }
  return "?";
}

const char *toString(FieldKind kind) {
  switch (kind) {
  case FieldKind::Scalar:
    return "Scalar";
  case FieldKind::Vector:
    return "Vector";
  case FieldKind::VectorList:
    return "VectorList";
  case FieldKind::VectorOfEdges:
    return "VectorOfEdges";
  case FieldKind::Value:
    return "Value";
  }
  return "?";
}

const char *toString(Layout layout) {
  switch (layout) {
  case Layout::NotAVector:
    return "NOT_A_VECTOR";
  case Layout::OnePtr:
    return "ONE_PTR";
  case Layout::ScaledPtr32:
    return "SCALED_PTR32";
  case Layout::ScaledPtr64:
    return "SCALED_PTR64";
  case Layout::ScaledPtr128:
    return "SCALED_PTR128";
  case Layout::CompactPtr:
    return "COMPACT_PTR";
  case Layout::ShortSpan:
    return "SHORT_SPAN";
  case Layout::Span:
    return "SPAN";
  case Layout::ListOnePtr:
    return "LIST_ONE_PTR";
  case Layout::ListScaledPtr32:
    return "LIST_SCALED_PTR32";
  case Layout::ListScaledPtr64:
    return "LIST_SCALED_PTR64";
  case Layout::ListScaledPtr128:
    return "LIST_SCALED_PTR128";
  case Layout::ListDeltaN:
    return "DELTAN";
  case Layout::ListDeltaNElements:
    return "DELTANELEMENTS";
  case Layout::ListCompactDeltaN:
    return "COMPACT_DELTAN";
  }
  return "?";
}

} // namespace poplar::gp
