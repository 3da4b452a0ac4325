// The vertex_fields fuzz input: byte form, the .gp it becomes, and the program that uses it.
#include "VertexFieldsInput.hpp"

#include "isa/Asm.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <fstream>
#include <stdexcept>

namespace popsdk::fuzz {

namespace {

constexpr unsigned kFieldNames = 4; // "f0".."f3": two fields may share a name
constexpr unsigned kMaxFields = 4;
constexpr unsigned kTiles = 2;
/// Entries per list field. Each entry on another tile gets a copy buffer, and laying out the
/// buffers of one compute set is quadratic in their number (an interference graph): 4 fields of
/// 255 entries take seconds under ASan, which a loaded machine turns into a fuzzer timeout
/// without a fault behind it.
constexpr unsigned kMaxListEntries = 32;

/// Reads little-endian values; past the end every byte is 0.
class Bytes {
public:
  Bytes(const std::uint8_t *data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t u8() { return pos_ < size_ ? data_[pos_++] : 0; }
  std::uint16_t u16() { return std::uint16_t(u8() | (u8() << 8)); }
  std::uint32_t u32() { return std::uint32_t(u16()) | (std::uint32_t(u16()) << 16); }

private:
  const std::uint8_t *data_;
  std::size_t size_, pos_ = 0;
};

void put8(std::vector<std::uint8_t> &out, unsigned v) { out.push_back(std::uint8_t(v)); }
void put16(std::vector<std::uint8_t> &out, unsigned v) {
  put8(out, v & 0xff);
  put8(out, (v >> 8) & 0xff);
}
void put32(std::vector<std::uint8_t> &out, std::uint32_t v) {
  put16(out, v & 0xffff);
  put16(out, v >> 16);
}

/// Alignments: a byte below 32 is a power of two's exponent, any other byte is taken as it is
/// (mostly not a power of two, which the writer refuses).
std::uint32_t alignment(std::uint8_t b) { return b < 32 ? 1u << b : b; }
unsigned alignmentByte(std::uint32_t a) {
  for (unsigned e = 0; e < 32; ++e)
    if (a == 1u << e)
      return e;
  if (a >= 32 && a < 256)
    return a;
  throw std::invalid_argument("alignment " + std::to_string(a) + " has no byte form");
}

unsigned typeIndex(const std::string &name) {
  for (unsigned i = 0; i < elementTypes().size(); ++i)
    if (name == elementTypes()[i].name)
      return i;
  throw std::invalid_argument("element type '" + name + "' has no byte form");
}

} // namespace

const std::vector<ElementType> &elementTypes() {
  using namespace poplar;
  static const std::vector<ElementType> types = {{"bool", 1, BOOL},
                                                 {"char", 1, CHAR},
                                                 {"signed char", 1, SIGNED_CHAR},
                                                 {"unsigned char", 1, UNSIGNED_CHAR},
                                                 {"short", 2, SHORT},
                                                 {"unsigned short", 2, UNSIGNED_SHORT},
                                                 {"int", 4, INT},
                                                 {"unsigned int", 4, UNSIGNED_INT},
                                                 {"long long", 8, LONGLONG},
                                                 {"unsigned long long", 8, UNSIGNED_LONGLONG},
                                                 {"half", 2, HALF},
                                                 {"float", 4, FLOAT},
                                                 {"double", 8, Type()}};
  return types;
}

VertexFieldsInput decode(const std::uint8_t *data, std::size_t size) {
  Bytes in(data, size);
  VertexFieldsInput input;
  gp::Vertex &v = input.vertex;
  v.name = "V";
  v.kind = gp::VertexKind(in.u8() % 3);
  v.stateSize = in.u32();
  v.stateAlign = alignment(in.u8());
  v.stackSize = in.u32();
  input.vertexTile = in.u8() % kTiles;
  unsigned numFields = in.u8() % (kMaxFields + 1);
  for (unsigned i = 0; i < numFields; ++i) {
    gp::Field f;
    f.name = "f" + std::to_string(in.u8() % kFieldNames);
    f.direction = gp::FieldDirection(in.u8() % 4);
    f.kind = gp::FieldKind(in.u8() % 5);
    f.layout = gp::Layout(in.u8() % 15);
    f.innerLayout = gp::Layout(in.u8() % 15);
    const ElementType &type = elementTypes()[in.u8() % elementTypes().size()];
    f.elementType = type.name;
    std::uint8_t elementSize = in.u8();
    f.elementSize = elementSize ? elementSize : type.size;
    f.offset = in.u16();
    f.size = in.u8();
    f.minAlign = alignment(in.u8());
    FieldUse use;
    use.connect = in.u8() & 1;
    use.count = in.u8();
    use.perEntry = in.u8();
    use.tile = in.u8() % kTiles;
    v.fields.push_back(f);
    input.uses.push_back(use);
  }
  return input;
}

std::vector<std::uint8_t> encode(const VertexFieldsInput &input) {
  const gp::Vertex &v = input.vertex;
  if (v.fields.size() > kMaxFields || input.uses.size() != v.fields.size())
    throw std::invalid_argument("encode: at most 4 fields, each with its use");
  std::vector<std::uint8_t> out;
  put8(out, unsigned(v.kind));
  put32(out, v.stateSize);
  put8(out, alignmentByte(v.stateAlign));
  put32(out, v.stackSize);
  put8(out, input.vertexTile);
  put8(out, unsigned(v.fields.size()));
  for (std::size_t i = 0; i < v.fields.size(); ++i) {
    const gp::Field &f = v.fields[i];
    const FieldUse &use = input.uses[i];
    if (f.name.size() != 2 || f.name[0] != 'f' || unsigned(f.name[1] - '0') >= kFieldNames ||
        f.offset > 0xffff || f.size > 0xff)
      throw std::invalid_argument("encode: field '" + f.name + "' has no byte form");
    put8(out, unsigned(f.name[1] - '0'));
    put8(out, unsigned(f.direction));
    put8(out, unsigned(f.kind));
    put8(out, unsigned(f.layout));
    put8(out, unsigned(f.innerLayout));
    unsigned type = typeIndex(f.elementType);
    put8(out, type);
    put8(out, f.elementSize == elementTypes()[type].size ? 0 : f.elementSize);
    put16(out, f.offset);
    put8(out, f.size);
    put8(out, alignmentByte(f.minAlign));
    put8(out, use.connect ? 1 : 0);
    put8(out, use.count);
    put8(out, use.perEntry);
    put8(out, use.tile);
  }
  return out;
}

gp::GpFile objectWith(const gp::Vertex &vertex) {
  static const std::vector<std::uint64_t> code = [] {
    auto program = poplar::isa::assemble("movi r1, 1\nret\n");
    if (!program.ok())
      throw std::logic_error("vertex_fields: " + program.error);
    return program.words;
  }();
  gp::GpFile file;
  file.target = "ipu2";
  file.producer = "popsdk fuzz";
  for (std::uint64_t word : code)
    for (unsigned b = 0; b < gp::InstructionBytes; ++b)
      file.code.push_back(std::uint8_t(word >> (8 * b)));
  file.vertices.push_back(vertex);
  file.vertices.back().entry = 0;
  return file;
}

std::string buildAndRun(const VertexFieldsInput &input, const std::string &gpPath) {
  using namespace poplar;
  std::vector<std::uint8_t> bytes;
  try {
    bytes = gp::writeGp(objectWith(input.vertex));
  } catch (const std::invalid_argument &e) {
    return std::string("writeGp: ") + e.what(); // popc would not write it either
  }
  {
    std::ofstream out(gpPath, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()), std::streamsize(bytes.size()));
  }
  IPUModel model("ipu2");
  model.tilesPerIPU = kTiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  try {
    graph.addCodelets(gpPath);
    ComputeSet cs = graph.addComputeSet("cs");
    VertexRef v = graph.addVertex(cs, input.vertex.name);
    graph.setTileMapping(v, input.vertexTile);
    for (std::size_t i = 0; i < input.vertex.fields.size(); ++i) {
      const gp::Field &f = input.vertex.fields[i];
      const FieldUse &use = input.uses[i];
      if (!use.connect)
        continue;
      Type type = elementTypes()[typeIndex(f.elementType)].type;
      if (f.direction == gp::FieldDirection::State || f.kind == gp::FieldKind::Value) {
        std::vector<float> values(use.count, 1.0f);
        graph.setInitialValue(v[f.name], ArrayRef<float>(values));
        continue;
      }
      auto variable = [&](std::size_t elements) {
        Tensor t = graph.addVariable(type, {elements}, f.name);
        graph.setTileMapping(t, use.tile);
        return t;
      };
      if (f.kind == gp::FieldKind::VectorList || f.kind == gp::FieldKind::VectorOfEdges) {
        std::vector<Tensor> entries;
        for (unsigned e = 0; e < std::min<unsigned>(use.count, kMaxListEntries); ++e)
          entries.push_back(variable(use.perEntry));
        graph.connect(v[f.name], entries);
        continue;
      }
      graph.connect(v[f.name], variable(use.count));
      if (f.kind == gp::FieldKind::Vector && !gp::layoutHasSize(f.layout))
        graph.setFieldSize(v[f.name], use.count);
    }
    Engine engine(graph, program::Execute(cs), {{"executor.hostThreads", "1"}});
    engine.load(device);
    engine.run();
  } catch (const poplar_error &e) {
    return e.what();
  }
  return "";
}

} // namespace popsdk::fuzz
