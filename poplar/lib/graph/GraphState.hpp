// Everything a Graph records: variables, mappings, compute sets, vertices, streams, functions.
#pragma once

#include "gp/GpFile.hpp"
#include "target/TargetDesc.hpp"

#include <poplar/GraphElements.hpp>
#include <poplar/Program.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace poplar::detail {

constexpr unsigned kUnmapped = ~0u;

/// Elements [begin, end) of a variable live on `tile`.
struct TileInterval {
  std::size_t begin, end;
  unsigned tile;
};

struct VariableDesc {
  Type type;
  std::size_t numElements = 0;
  std::string name;
  bool isConstant = false;
  /// Device-layout bytes set by addConstant/setInitialValue; empty means all zero.
  std::vector<std::uint8_t> initialData;
  /// Keyed by begin; non-overlapping; elements not covered are unmapped. An ordered map keeps
  /// mapping in any order O(log n) per call (tut6 maps a matrix column-segment by row).
  std::map<std::size_t, TileInterval> mapping;
};

struct StreamDesc {
  unsigned id = 0;
  std::string handle;
  Type type;
  std::size_t numElements = 0;
  bool hostToDevice = true;
};

enum class FieldDirection { Input, Output, InOut, State };
enum class VertexKind { Vertex, MultiVertex, SupervisorVertex };

/// What a codelet declares about one field (filled from the .gp by the codelet loader).
struct FieldInfo {
  std::string name;
  FieldDirection direction = FieldDirection::Input;
  Type elementType;
  bool isScalar = true;      // Input<float> as opposed to Input<Vector<float>>
  bool isVectorList = false; // Input<VectorList<float, ...>>
};

struct VertexTypeInfo {
  std::string name;
  VertexKind kind = VertexKind::Vertex;
  std::vector<FieldInfo> fields;
  /// The codelet object (GraphState::codeletObjects) and its vertex that define this type.
  unsigned codeletObject = 0;
  unsigned vertexIndex = 0;
  const FieldInfo *findField(const std::string &fieldName) const {
    for (const auto &f : fields)
      if (f.name == fieldName)
        return &f;
    return nullptr;
  }
};

struct FieldConnection {
  std::string field;
  std::size_t index = ~std::size_t(0); // element of a VectorList, or none
  Tensor tensor;
};

struct VertexDesc {
  std::string type;
  unsigned computeSet = 0;
  unsigned tile = kUnmapped;
  std::vector<FieldConnection> connections;
  std::map<std::string, std::size_t> fieldSizes;
  std::map<std::string, std::vector<std::uint8_t>> initialValues;
  std::optional<std::uint64_t> perfEstimate;
};

struct ComputeSetDesc {
  std::string name;
  std::vector<unsigned> vertices;
};

struct HostAccessDesc {
  std::string handle;
  Tensor tensor;
  bool isWrite = true; // createHostWrite (host -> device) or createHostRead
};

struct GraphState {
  TargetDesc target;
  Target publicTarget;
  std::vector<VariableDesc> vars;
  std::vector<ComputeSetDesc> computeSets;
  std::vector<VertexDesc> vertices;
  std::map<std::string, std::shared_ptr<StreamDesc>> streams;
  std::map<std::string, HostAccessDesc> hostAccess;
  std::vector<program::Program> functions;
  std::map<std::string, VertexTypeInfo> vertexTypes;
  /// Loaded .gp objects, with the hash of their bytes so loading one twice adds nothing.
  std::vector<std::shared_ptr<const gp::GpFile>> codeletObjects;
  std::vector<std::uint64_t> codeletHashes;
};

} // namespace poplar::detail
