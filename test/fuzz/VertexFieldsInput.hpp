// The vertex_fields fuzz input: a vertex's field and layout description, as popc writes it into
// a .gp, with the tensors a program connects to each field. Decoded from bytes by the fuzz target,
// encoded by the seed generator.
#ifndef popsdk_fuzz_VertexFieldsInput_hpp
#define popsdk_fuzz_VertexFieldsInput_hpp

#include "gp/GpFile.hpp"

#include <poplar/Type.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace popsdk::fuzz {

namespace gp = poplar::gp;

/// How the program uses one field: the tensor (or list of tensors) connected to it, or the
/// initial value of a state field.
struct FieldUse {
  bool connect = true;
  std::uint8_t count = 1;    ///< elements of the tensor; entries of a list
  std::uint8_t perEntry = 1; ///< elements of each list entry
  std::uint8_t tile = 0;
};

struct VertexFieldsInput {
  gp::Vertex vertex;          ///< name, kind, state size and alignment, stack, fields (entry is 0)
  std::vector<FieldUse> uses; ///< one per field
  std::uint8_t vertexTile = 0;
};

/// The element types a field may name, with their sizes; the last one is no Poplar type.
struct ElementType {
  const char *name;
  std::uint32_t size;
  poplar::Type type; ///< invalid for the last entry
};
const std::vector<ElementType> &elementTypes();

/// Reads an input from any bytes (missing bytes read as 0), so every byte string is an input.
VertexFieldsInput decode(const std::uint8_t *data, std::size_t size);
/// The bytes decode() reads back to `input` (for the seed corpus).
std::vector<std::uint8_t> encode(const VertexFieldsInput &input);

/// A .gp holding `vertex`, whose code returns success at once ("movi r1, 1; ret").
gp::GpFile objectWith(const gp::Vertex &vertex);

/// Loads the vertex from a .gp at `gpPath` (written here) into a 2-tile graph, connects its
/// fields as `input` says, compiles, loads and runs it. Every rejection must be a poplar_error;
/// returns what was rejected, or "" when the program ran.
std::string buildAndRun(const VertexFieldsInput &input, const std::string &gpPath);

} // namespace popsdk::fuzz

#endif
