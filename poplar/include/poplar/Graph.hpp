// Graph: variables, constants, tile mappings, compute sets, vertices and host streams.
#ifndef poplar_Graph_hpp
#define poplar_Graph_hpp

#include <poplar/ArrayRef.hpp>
#include <poplar/DebugContext.hpp>
#include <poplar/Device.hpp>
#include <poplar/GraphElements.hpp>
#include <poplar/Interval.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/StringRef.hpp>
#include <poplar/Target.hpp>
#include <poplar/Tensor.hpp>
#include <poplar/Type.hpp>

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace poplar {

typedef std::vector<std::vector<Interval>> TileToTensorMapping;

struct replication_factor {
  explicit replication_factor(unsigned n) : value(n) {}
  unsigned value;
};

class Graph {
public:
  /// Poplar names the mapping type both in the namespace and in Graph.
  using TileToTensorMapping = poplar::TileToTensorMapping;

  struct ConnectionDesc {
    std::string field;
    Tensor tensor;
    ConnectionDesc(StringRef field, Tensor t) : field(field.str()), tensor(std::move(t)) {}
    ConnectionDesc(const char *field, Tensor t) : field(field), tensor(std::move(t)) {}
  };

  Graph(const Target &target, replication_factor r = replication_factor(1));
  Graph(const Device &device, replication_factor r = replication_factor(1));
  Graph(Graph &&) noexcept;
  Graph &operator=(Graph &&) noexcept;
  ~Graph();

  const Target &getTarget() const;
  unsigned getReplicationFactor() const;

  /// A graph over tiles [lowerTile, upperTile) of this one: same variables, tile numbers offset.
  Graph createVirtualGraph(unsigned lowerTile, unsigned upperTile);
  Graph createVirtualGraph(unsigned numTilesPerIPU);
  Graph &getTopLevelGraph();

  // Codelets: C++ sources (compiled by popc) or .gp objects.
  bool addCodelets(StringRef src, CodeletFileType type = CodeletFileType::Auto,
                   StringRef compileFlags = "", StringRef targetName = "");
  void addCodelets(ArrayRef<std::string> xs, StringRef compileFlags = "");
  void addCodelets(std::stringstream &stream, StringRef compileFlags = "",
                   CodeletFileType type = CodeletFileType::CppSource, StringRef targetName = "");
  bool hasCodelet(StringRef codeletName) const;

  // Variables and constants.
  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape, const DebugContext &dc = {});
  Tensor addVariable(const Type &type, ArrayRef<std::size_t> shape,
                     VariableMappingMethod mappingMethod, const DebugContext &dc = {});
  Tensor addLinearlyMappedVariable(const Type &type, ArrayRef<std::size_t> shape,
                                   const DebugContext &dc = {});

  template <class T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape, ArrayRef<T> values,
                     const DebugContext &dc = {"<const>"}) {
    checkConstantSize(shape, values.size(), "addConstant");
    return addConstantImpl(type, shape, values.data(), detail::HostTypeOf<T>::value, true, dc);
  }
  template <class T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape, T value,
                     const DebugContext &dc = {"<const>"}) {
    return addConstantImpl(type, shape, &value, detail::HostTypeOf<T>::value, false, dc);
  }
  template <class T>
  Tensor addConstant(const Type &type, ArrayRef<std::size_t> shape, const T *values,
                     const DebugContext &dc = {"<const>"}) {
    return addConstantImpl(type, shape, values, detail::HostTypeOf<T>::value, true, dc);
  }
  /// A HALF constant from raw IEEE half bit patterns.
  Tensor addConstantHalf(const Type &type, ArrayRef<std::size_t> shape, uint16_t value,
                         const DebugContext &dc = {"<const>"});
  Tensor addConstantHalf(const Type &type, ArrayRef<std::size_t> shape, const uint16_t *values,
                         const DebugContext &dc = {"<const>"});

  /// A new variable with `t`'s type, shape and tile mapping.
  Tensor clone(const Tensor &t, const DebugContext &dc = {},
               TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);
  Tensor clone(const Type &type, const Tensor &t, const DebugContext &dc = {},
               TensorCloneMethod method = TensorCloneMethod::PRESERVE_ORDER_UNLESS_ALIASES);

  template <class T> void setInitialValue(const Tensor &t, T value) {
    setInitialValueImpl(t, &value, detail::HostTypeOf<T>::value, false, 1);
  }
  template <class T> void setInitialValue(const Tensor &t, ArrayRef<T> values) {
    setInitialValueImpl(t, values.data(), detail::HostTypeOf<T>::value, true, values.size());
  }
  template <class T> void setInitialValue(const FieldRef &field, T value) {
    setFieldInitialValueImpl(field, &value, detail::HostTypeOf<T>::value, 1);
  }
  template <class T> void setInitialValue(const FieldRef &field, ArrayRef<T> values) {
    setFieldInitialValueImpl(field, values.data(), detail::HostTypeOf<T>::value, values.size());
  }

  // Tile mapping.
  void setTileMapping(const Tensor &t, unsigned tileNum);
  void setTileMapping(const Tensor &t, const TileToTensorMapping &mapping);
  void setTileMapping(VertexRef v, unsigned tileNum);
  /// For each tile, the intervals of the flattened tensor mapped there. Throws if part of `t`
  /// is unmapped unless `isComplete` is given, which then reports it.
  TileToTensorMapping getTileMapping(const Tensor &t, bool *isComplete = nullptr) const;
  TileToTensorMapping getTileMapping(const Tensor &t, bool requireComplete) const;
  unsigned getTileMapping(VertexRef v) const;

  // Compute sets and vertices.
  ComputeSet addComputeSet(const DebugContext &dc = {});
  VertexRef addVertex(ComputeSet cs, StringRef vertexType);
  VertexRef addVertex(ComputeSet cs, StringRef vertexType,
                      ArrayRef<ConnectionDesc> connections);
  void connect(FieldRef field, const Tensor &tensor);
  void connect(FieldRef field, ArrayRef<Tensor> tensors);
  void setFieldSize(FieldRef field, std::size_t size);
  void setPerfEstimate(const VertexRef &v, std::uint64_t cycles, std::uint64_t flops = 0);
  std::size_t getNumVertices() const;
  std::size_t getNumComputeSets() const;

  // Host access.
  void createHostWrite(StringRef handle, const Tensor &t, bool rearrangeOnHost = false);
  void createHostRead(StringRef handle, const Tensor &t, bool rearrangeOnHost = false);
  DataStream addHostToDeviceFIFO(StringRef handle, const Type &elementType,
                                 std::size_t numElements,
                                 ReplicatedStreamMode mode = ReplicatedStreamMode::REPLICATE,
                                 const OptionFlags &options = {});
  DataStream addDeviceToHostFIFO(StringRef handle, const Type &elementType,
                                 std::size_t numElements, const OptionFlags &options = {});

  Function addFunction(const program::Program &program);

  /// Internal.
  detail::GraphState &getState() const { return *state_; }
  unsigned getTileOffset() const { return tileOffset_; }

private:
  Graph(std::shared_ptr<detail::GraphState> state, unsigned tileOffset, unsigned numTiles);
  void checkConstantSize(ArrayRef<std::size_t> shape, std::size_t n, const char *api) const;
  Tensor addConstantImpl(const Type &type, ArrayRef<std::size_t> shape, const void *values,
                         detail::HostType hostType, bool isArray, const DebugContext &dc);
  void setInitialValueImpl(const Tensor &t, const void *values, detail::HostType hostType,
                           bool isArray, std::size_t count);
  void setFieldInitialValueImpl(const FieldRef &field, const void *values,
                                detail::HostType hostType, std::size_t count);

  std::shared_ptr<detail::GraphState> state_;
  std::unique_ptr<Target> target_; // differs from the top-level target for virtual graphs
  unsigned tileOffset_;
  Graph *topLevel_;
};

} // namespace poplar

#endif
