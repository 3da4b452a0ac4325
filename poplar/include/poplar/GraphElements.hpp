// Handles to graph objects: compute sets, vertices, fields, data streams, functions.
#ifndef poplar_GraphElements_hpp
#define poplar_GraphElements_hpp

#include <poplar/StringRef.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <memory>
#include <string>

namespace poplar {

class Graph;
class FieldRef;

namespace detail {
struct GraphState;
struct StreamDesc;
}

class ComputeSet {
public:
  ComputeSet() : id_(~0u) {}
  explicit ComputeSet(unsigned id) : id_(id) {}
  unsigned getId() const { return id_; }
  friend bool operator==(ComputeSet a, ComputeSet b) { return a.id_ == b.id_; }

private:
  unsigned id_;
};

class VertexRef {
public:
  VertexRef() : graph_(nullptr), id_(~0u) {}
  VertexRef(Graph *graph, unsigned id) : graph_(graph), id_(id) {}
  /// The field `name` of this vertex, for Graph::connect and friends.
  FieldRef operator[](StringRef name) const;
  unsigned getId() const { return id_; }
  Graph *getGraph() const { return graph_; }

private:
  Graph *graph_;
  unsigned id_;
};

class FieldRef {
public:
  FieldRef() : index_(~std::size_t(0)) {}
  FieldRef(VertexRef v, StringRef name, std::size_t index = ~std::size_t(0))
      : vertex_(v), name_(name.str()), index_(index) {}
  /// Element `i` of a VectorList field.
  FieldRef operator[](std::size_t i) const { return FieldRef(vertex_, name_, i); }
  VertexRef getVertex() const { return vertex_; }
  const std::string &getName() const { return name_; }
  bool isIndexed() const { return index_ != ~std::size_t(0); }
  std::size_t getIndex() const { return index_; }

private:
  VertexRef vertex_;
  std::string name_;
  std::size_t index_;
};

inline FieldRef VertexRef::operator[](StringRef name) const { return FieldRef(*this, name); }

/// A host stream: a FIFO between host memory and the device, named by its handle.
class DataStream {
public:
  DataStream();
  explicit DataStream(std::shared_ptr<const detail::StreamDesc> desc);
  std::string handle() const;
  Type elementType() const;
  std::size_t numElements() const;
  /// Internal.
  const detail::StreamDesc &getImpl() const;

private:
  std::shared_ptr<const detail::StreamDesc> desc_;
};

class Function {
public:
  Function() : id_(~0u) {}
  explicit Function(unsigned id) : id_(id) {}
  unsigned getId() const { return id_; }

private:
  unsigned id_;
};

enum class CodeletFileType { PreprocessedAsmSource, AsmSource, CSource, CppSource, IrSource, Object, Auto };

enum class ReplicatedStreamMode { REPLICATE, BROADCAST };

enum class VariableMappingMethod { NONE, LINEAR };

enum class TensorCloneMethod {
  PRESERVE_ORDER_AND_ALIASES,
  CREATE_NEW_ORDER,
  PRESERVE_ORDER_UNLESS_ALIASES,
  GATHER_AND_PRESERVE_TILE_ORDER_AND_ALIASES
};

enum class SyncType { INTERNAL, EXTERNAL, GLOBAL };

} // namespace poplar

#endif
