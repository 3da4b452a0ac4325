// The .gp codelet object: in-memory model, writer and checked reader (format: docs/gp-format.md).
#ifndef poplar_gp_GpFile_hpp
#define poplar_gp_GpFile_hpp

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace poplar::gp {

/// Version written by this library. A reader accepts any minor version of its major version
/// (unknown sections are skipped) and rejects other majors.
constexpr std::uint16_t VersionMajor = 1;
constexpr std::uint16_t VersionMinor = 0;

/// The code section is a sequence of little-endian instruction words of this many bytes
/// (poplar/isa). Code positions (entry points, line table pcs, code symbols) count
/// instructions, as the interpreter's pc does; relocation offsets count bytes.
constexpr std::uint32_t InstructionBytes = 8;

/// A malformed, truncated or corrupted .gp: where in the file, and what was expected there.
class GpFormatError : public std::runtime_error {
public:
  GpFormatError(std::size_t offset, const std::string &detail, const std::string &path = "");
  /// Byte offset in the file where the defect was found.
  std::size_t offset() const { return offset_; }
  /// What was expected there, without the offset and path.
  const std::string &detail() const { return detail_; }

private:
  std::size_t offset_;
  std::string detail_;
};

enum class VertexKind : std::uint8_t { Vertex, MultiVertex, SupervisorVertex };

/// Who writes the data a field refers to. State fields are not edges: the host sets them with
/// setInitialValue (and setFieldSize for vectors).
enum class FieldDirection : std::uint8_t { Input, Output, InOut, State };

/// What the field's bytes in the vertex state hold (docs/gp-format.md, "Vertex state layout").
enum class FieldKind : std::uint8_t {
  Scalar,        ///< edge to one element: 32-bit address
  Vector,        ///< edge or state vector: 32-bit address, then 32-bit count if Span/ShortSpan
  VectorList,    ///< 32-bit address of an array of {address, count} pairs, 32-bit pair count
  VectorOfEdges, ///< Vector (outer layout) whose elements are edges to vectors (inner layout)
  Value          ///< plain scalar member stored inline in the state
};

/// Storage layout of a vector field; values mirror poplar::VectorLayout and VectorListLayout.
enum class Layout : std::uint8_t {
  NotAVector,
  OnePtr,
  ScaledPtr32,
  ScaledPtr64,
  ScaledPtr128,
  CompactPtr,
  ShortSpan,
  Span,
  ListOnePtr,
  ListScaledPtr32,
  ListScaledPtr64,
  ListScaledPtr128,
  ListDeltaN,
  ListDeltaNElements,
  ListCompactDeltaN
};

/// True when a vector with this layout stores its element count after its address.
bool layoutHasSize(Layout layout);

struct Field {
  std::string name;
  FieldDirection direction = FieldDirection::State;
  FieldKind kind = FieldKind::Value;
  Layout layout = Layout::NotAVector; ///< of the vector or list (outer vector for VectorOfEdges)
  Layout innerLayout = Layout::NotAVector; ///< of each inner vector, VectorOfEdges only
  std::string elementType;                 ///< Poplar type name: "float", "half", "unsigned int"...
  std::uint32_t elementSize = 0;           ///< bytes per element
  std::uint32_t offset = 0;                ///< byte offset of the field in the state block
  std::uint32_t size = 0;                  ///< bytes the field occupies in the state block
  std::uint32_t minAlign = 1;              ///< alignment (bytes) the connected data must have

  friend bool operator==(const Field &, const Field &);
};

struct Vertex {
  std::string name; ///< as addVertex names it: "SumVertex", "popops::Foo<float,true>"
  VertexKind kind = VertexKind::Vertex;
  std::uint32_t stateSize = 0;
  std::uint32_t stateAlign = 4;
  std::uint32_t entry = 0;     ///< pc (instruction index) of the entry point
  std::uint32_t stackSize = 0; ///< bytes of stack the entry and its callees need at most
  std::vector<Field> fields;

  const Field *findField(std::string_view fieldName) const;
  friend bool operator==(const Vertex &, const Vertex &);
};

enum class Section : std::uint8_t { Code, Data };

/// Patch applied when the runtime places the sections: the 32-bit little-endian word at
/// `offset` in `section` becomes (address of `target` section) + `addend`.
struct Relocation {
  Section section = Section::Code;
  std::uint32_t offset = 0;
  Section target = Section::Data;
  std::uint32_t addend = 0;

  friend bool operator==(const Relocation &, const Relocation &);
};

/// A named range of a section (functions in code, globals in data), for disassembly and traps.
/// Offset and size count instructions in the code section and bytes in the data section.
struct Symbol {
  std::string name;
  Section section = Section::Code;
  std::uint32_t offset = 0;
  std::uint32_t size = 0;

  friend bool operator==(const Symbol &, const Symbol &);
};

/// From instruction `pc` up to the next entry, instructions come from file:line:column
/// (line 0: no source position, e.g. compiler-generated code).
struct LineEntry {
  std::uint32_t pc = 0;
  std::uint32_t file = 0; ///< index into GpFile::files
  std::uint32_t line = 0;
  std::uint32_t column = 0;

  friend bool operator==(const LineEntry &, const LineEntry &);
};

struct GpFile {
  std::string target;   ///< "ipu1", "ipu2" or "ipu21"
  std::string producer; ///< tool and version that wrote the file
  std::vector<Vertex> vertices;
  std::vector<std::uint8_t> code; ///< encoded tile instructions (poplar/isa)
  std::vector<std::uint8_t> data; ///< initial image of globals, tables and constants
  std::uint32_t dataAlign = 4;    ///< alignment the data section must be placed at
  std::vector<Relocation> relocations;
  std::vector<Symbol> symbols;
  std::vector<std::string> files;
  std::vector<LineEntry> lines; ///< sorted by pc

  const Vertex *findVertex(std::string_view vertexName) const;
  std::uint32_t numInstructions() const {
    return static_cast<std::uint32_t>(code.size() / InstructionBytes);
  }
  /// The source position of the instruction at `pc`, or nullptr if unknown.
  const LineEntry *lineFor(std::uint32_t pc) const;
  /// The code symbol that contains `pc`, or nullptr.
  const Symbol *symbolFor(std::uint32_t pc) const;

  friend bool operator==(const GpFile &, const GpFile &);
};

/// Serialises `file`. Throws std::invalid_argument if it breaks an invariant the reader checks
/// (field outside the state block, relocation outside its section, unsorted lines...).
std::vector<std::uint8_t> writeGp(const GpFile &file);
/// Writes `file` to `path` atomically (temporary file, then rename). Throws std::runtime_error.
void writeGpFile(const GpFile &file, const std::string &path);

/// Parses and validates a .gp image. Throws GpFormatError on any defect; never reads outside
/// [bytes, bytes + size).
GpFile readGp(const std::uint8_t *bytes, std::size_t size);
GpFile readGp(const std::vector<std::uint8_t> &bytes);
/// Reads and parses the file at `path`; an unreadable file is a GpFormatError at offset 0.
GpFile readGpFile(const std::string &path);

/// Names used in diagnostics, the disassembler and docs.
const char *toString(VertexKind kind);
const char *toString(FieldDirection direction);
const char *toString(FieldKind kind);
const char *toString(Layout layout);

} // namespace poplar::gp

#endif
