// Graph: records variables, constants, mappings, compute sets, vertices and host streams,
// checking each call's arguments as it is made.
#include "core/Errors.hpp"
#include "core/HostConvert.hpp"
#include "graph/Codelets.hpp"
#include "graph/GraphState.hpp"
#include "graph/Mapping.hpp"
#include "graph/TensorImpl.hpp"
#include "support/CheckedMath.hpp"

#include <poplar/Graph.hpp>

#include <algorithm>

namespace poplar {

using namespace detail;

namespace {

std::size_t product(ArrayRef<std::size_t> shape, const char *api) {
  return popsdk::support::shapeElements<overflow_error>(shape, api);
}

Tensor wholeVariable(Type type, ArrayRef<std::size_t> shape, unsigned var, std::size_t n) {
  auto impl = std::make_shared<TensorImpl>();
  impl->type = type;
  impl->shape = shape.vec();
  if (n > 0) {
    impl->regions.push_back({var, 0, n});
    impl->starts.push_back(0);
  }
  return Tensor(std::move(impl));
}

/// A tensor made by another graph names variables this graph may not have; indexing with them
/// would read out of bounds.
void checkOwned(const GraphState &state, const Tensor &t, const char *api) {
  for (const auto &r : t.getImpl().regions)
    if (r.var >= state.vars.size())
      raise<poplar_error>("Graph::", api, ": tensor ", t.shapeToString(), " refers to variable ",
                          r.var, " but this graph has ", state.vars.size(),
                          " variables; was it created by another graph?");
}

} // namespace

Graph::Graph(const Target &target, replication_factor r)
    : state_(std::make_shared<GraphState>()), target_(std::make_unique<Target>(target)),
      tileOffset_(0), topLevel_(nullptr) {
  if (r.value != 1)
    raise<poplar_error>("Graph: replication factor ", r.value, " is not supported yet (only 1)");
  state_->target = target.getImpl();
  state_->publicTarget = target;
}

Graph::Graph(const Device &device, replication_factor r) : Graph(device.getTarget(), r) {}

Graph::Graph(std::shared_ptr<GraphState> state, unsigned tileOffset, unsigned numTiles)
    : state_(std::move(state)), tileOffset_(tileOffset), topLevel_(nullptr) {
  auto desc = state_->target;
  desc.numIPUs = 1;
  desc.tilesPerIPU = numTiles;
  target_ = std::make_unique<Target>(std::make_shared<TargetDesc>(desc));
}

Graph::Graph(Graph &&) noexcept = default;
Graph &Graph::operator=(Graph &&) noexcept = default;
Graph::~Graph() = default;

const Target &Graph::getTarget() const { return *target_; }
unsigned Graph::getReplicationFactor() const { return 1; }

Graph Graph::createVirtualGraph(unsigned lowerTile, unsigned upperTile) {
  unsigned n = getTarget().getNumTiles();
  if (lowerTile >= upperTile || upperTile > n)
    raise<poplar_error>("Graph::createVirtualGraph: tile range [", lowerTile, ", ", upperTile,
                        ") is empty or beyond the graph's ", n, " tiles");
  Graph g(state_, tileOffset_ + lowerTile, upperTile - lowerTile);
  g.topLevel_ = topLevel_ ? topLevel_ : this;
  return g;
}

Graph Graph::createVirtualGraph(unsigned numTilesPerIPU) {
  return createVirtualGraph(0, numTilesPerIPU);
}

Graph &Graph::getTopLevelGraph() { return topLevel_ ? *topLevel_ : *this; }

// ---- Codelets -------------------------------------------------------------------------------

bool Graph::addCodelets(StringRef src, CodeletFileType type, StringRef compileFlags,
                        StringRef targetName) {
  loadCodelets(*state_, src.str(), type, compileFlags.str(), targetName.str());
  return true;
}

void Graph::addCodelets(ArrayRef<std::string> xs, StringRef compileFlags) {
  for (const auto &x : xs)
    addCodelets(x, CodeletFileType::Auto, compileFlags);
}

void Graph::addCodelets(std::stringstream &stream, StringRef compileFlags, CodeletFileType type,
                        StringRef targetName) {
  loadCodeletSource(*state_, stream.str(), type, compileFlags.str(), targetName.str());
}

bool Graph::hasCodelet(StringRef codeletName) const {
  return state_->vertexTypes.count(codeletName.str()) != 0;
}

// ---- Variables and constants ----------------------------------------------------------------

Tensor Graph::addVariable(const Type &type, ArrayRef<std::size_t> shape, const DebugContext &dc) {
  if (!type.isValid())
    raise<tensor_creation_error>("Graph::addVariable: invalid element type for variable '",
                                 dc.getPathName(), "'");
  VariableDesc v;
  v.type = type;
  // The byte size too: layout and host transfers multiply the count by the element size.
  popsdk::support::shapeBytes<overflow_error>(shape, type.size(), "Graph::addVariable");
  v.numElements = product(shape, "Graph::addVariable");
  v.name =
      dc.getPathName().empty() ? "var" + std::to_string(state_->vars.size()) : dc.getPathName();
  state_->vars.push_back(std::move(v));
  unsigned id = unsigned(state_->vars.size() - 1);
  return wholeVariable(type, shape, id, state_->vars.back().numElements);
}

Tensor Graph::addVariable(const Type &type, ArrayRef<std::size_t> shape,
                          VariableMappingMethod mappingMethod, const DebugContext &dc) {
  if (mappingMethod == VariableMappingMethod::LINEAR)
    return addLinearlyMappedVariable(type, shape, dc);
  return addVariable(type, shape, dc);
}

Tensor Graph::addLinearlyMappedVariable(const Type &type, ArrayRef<std::size_t> shape,
                                        const DebugContext &dc) {
  Tensor t = addVariable(type, shape, dc);
  // Spread elements evenly, in order, over the tiles (grain of one element).
  std::size_t n = t.numElements();
  unsigned tiles = getTarget().getNumTiles();
  auto &var = state_->vars.back();
  std::size_t perTile = (n + tiles - 1) / std::max(1u, tiles);
  for (unsigned tile = 0; perTile && tile * perTile < n; ++tile)
    assignTile(var, tile * perTile, std::min(n, (tile + 1) * perTile), tileOffset_ + tile);
  return t;
}

void Graph::checkConstantSize(ArrayRef<std::size_t> shape, std::size_t n, const char *api) const {
  std::size_t elements = product(shape, ("Graph::" + std::string(api)).c_str());
  if (elements != n)
    raise<tensor_creation_error>("Graph::", api, ": ", n, " values given for shape ",
                                 shapeText(shape.vec()), " of ", elements, " elements");
}

Tensor Graph::addConstantImpl(const Type &type, ArrayRef<std::size_t> shape, const void *values,
                              HostType hostType, bool isArray, const DebugContext &dc) {
  if (!type.isValid())
    raise<tensor_creation_error>("Graph::addConstant: invalid element type for constant '",
                                 dc.getPathName(), "'");
  std::size_t bytes =
      popsdk::support::shapeBytes<overflow_error>(shape, type.size(), "Graph::addConstant");
  if (isArray)
    checkHostPointer<tensor_creation_error>(values, bytes, "Graph::addConstant", "values",
                                            "constant " + shapeText(shape.vec()));
  Tensor t = addVariable(type, shape, dc);
  auto &var = state_->vars.back();
  var.isConstant = true;
  var.initialData.resize(var.numElements * type.size());
  if (isArray) {
    convertHostToDevice(hostType, values, var.numElements, type, var.initialData.data());
  } else {
    std::vector<std::uint8_t> one(type.size());
    convertHostToDevice(hostType, values, 1, type, one.data());
    for (std::size_t i = 0; i < var.numElements; ++i)
      std::copy(one.begin(), one.end(), var.initialData.begin() + i * one.size());
  }
  return t;
}

Tensor Graph::addConstantHalf(const Type &type, ArrayRef<std::size_t> shape, uint16_t value,
                              const DebugContext &dc) {
  // `value` is an IEEE half bit pattern, not a number to convert.
  std::vector<uint16_t> values(product(shape, "Graph::addConstantHalf"), value);
  return addConstantHalf(type, shape, values.data(), dc);
}

Tensor Graph::addConstantHalf(const Type &type, ArrayRef<std::size_t> shape, const uint16_t *values,
                              const DebugContext &dc) {
  if (type != HALF)
    raise<type_error>("Graph::addConstantHalf: type must be half, not ", type);
  checkHostPointer<tensor_creation_error>(
      values, popsdk::support::shapeBytes<overflow_error>(shape, 2, "Graph::addConstantHalf"),
      "Graph::addConstantHalf", "values", "constant " + shapeText(shape.vec()));
  Tensor t = addVariable(type, shape, dc);
  auto &var = state_->vars.back();
  var.isConstant = true;
  auto *bytes = reinterpret_cast<const std::uint8_t *>(values);
  var.initialData.assign(bytes, bytes + var.numElements * 2);
  return t;
}

Tensor Graph::clone(const Tensor &t, const DebugContext &dc, TensorCloneMethod method) {
  return clone(t.elementType(), t, dc, method);
}

Tensor Graph::clone(const Type &type, const Tensor &t, const DebugContext &dc, TensorCloneMethod) {
  if (!t.valid())
    raise<tensor_creation_error>("Graph::clone: the tensor to clone is not valid");
  Tensor c = addVariable(type, t.shape(), dc);
  bool complete = true;
  auto mapping = getTileMapping(t, &complete);
  auto &var = state_->vars.back();
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &i : mapping[tile])
      assignTile(var, i.begin(), i.end(), tileOffset_ + tile);
  return c;
}

void Graph::setInitialValueImpl(const Tensor &t, const void *values, HostType hostType,
                                bool isArray, std::size_t count) {
  if (!t.valid())
    raise<tensor_creation_error>("Graph::setInitialValue: the tensor is not valid");
  checkOwned(*state_, t, "setInitialValue");
  if (isArray && count != t.numElements())
    raise<tensor_creation_error>("Graph::setInitialValue: ", count, " values given for tensor ",
                                 t.shapeToString(), " of ", t.numElements(), " elements");
  const auto &impl = t.getImpl();
  unsigned size = t.elementType().size();
  std::vector<std::uint8_t> converted(t.numElements() * size);
  if (isArray) {
    convertHostToDevice(hostType, values, count, t.elementType(), converted.data());
  } else {
    for (std::size_t i = 0; i < t.numElements(); ++i)
      convertHostToDevice(hostType, values, 1, t.elementType(), converted.data() + i * size);
  }
  for (std::size_t k = 0; k < impl.regions.size(); ++k) {
    const auto &r = impl.regions[k];
    auto &var = state_->vars[r.var];
    if (var.initialData.empty())
      var.initialData.assign(var.numElements * size, 0);
    std::copy_n(converted.begin() + impl.starts[k] * size, r.size() * size,
                var.initialData.begin() + r.begin * size);
  }
}

// ---- Tile mapping ---------------------------------------------------------------------------

static void checkTile(const Graph &g, unsigned tile, const char *api) {
  if (tile >= g.getTarget().getNumTiles())
    raise<invalid_tile_mapping>("Graph::", api, ": tile ", tile,
                                " is out of range (the target has ", g.getTarget().getNumTiles(),
                                " tiles)");
}

void Graph::setTileMapping(const Tensor &t, unsigned tileNum) {
  if (!t.valid())
    raise<invalid_tile_mapping>("Graph::setTileMapping: the tensor is not valid");
  checkOwned(*state_, t, "setTileMapping");
  checkTile(*this, tileNum, "setTileMapping");
  for (const auto &r : t.getImpl().regions)
    assignTile(state_->vars[r.var], r.begin, r.end, tileOffset_ + tileNum);
}

void Graph::setTileMapping(const Tensor &t, const TileToTensorMapping &mapping) {
  if (!t.valid())
    raise<invalid_tile_mapping>("Graph::setTileMapping: the tensor is not valid");
  checkOwned(*state_, t, "setTileMapping");
  if (mapping.size() > getTarget().getNumTiles())
    raise<invalid_tile_mapping>("Graph::setTileMapping: mapping has ", mapping.size(),
                                " tiles but the target has ", getTarget().getNumTiles());
  auto flat = t.flatten();
  // Check every interval before mapping any, so a bad list leaves the mapping unchanged.
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &i : mapping[tile])
      if (i.end() > flat.numElements() || i.begin() > i.end())
        raise<invalid_tile_mapping>("Graph::setTileMapping: interval ", i, " for tile ", tile,
                                    " is outside the tensor's ", flat.numElements(), " elements");
  for (unsigned tile = 0; tile < mapping.size(); ++tile)
    for (const auto &i : mapping[tile])
      if (i.size())
        setTileMapping(flat.slice(i.begin(), i.end()), tile);
}

void Graph::setTileMapping(VertexRef v, unsigned tileNum) {
  if (v.getId() >= state_->vertices.size())
    raise<poplar_error>("Graph::setTileMapping: unknown vertex ", v.getId());
  checkTile(*this, tileNum, "setTileMapping");
  state_->vertices[v.getId()].tile = tileOffset_ + tileNum;
}

TileToTensorMapping Graph::getTileMapping(const Tensor &t, bool *isComplete) const {
  if (!t.valid())
    raise<invalid_tile_mapping>("Graph::getTileMapping: the tensor is not valid");
  checkOwned(*state_, t, "getTileMapping");
  unsigned numTiles = getTarget().getNumTiles();
  TileToTensorMapping result(numTiles);
  bool complete = true;
  const auto &impl = t.getImpl();
  for (std::size_t k = 0; k < impl.regions.size(); ++k) {
    const auto &r = impl.regions[k];
    std::size_t flatBase = impl.starts[k] - r.begin;
    forEachMappedPiece(
        state_->vars[r.var], r.begin, r.end, [&](std::size_t b, std::size_t e, unsigned tile) {
          if (tile == kUnmapped || tile < tileOffset_ || tile - tileOffset_ >= numTiles) {
            complete = false;
            return;
          }
          auto &list = result[tile - tileOffset_];
          if (!list.empty() && list.back().end() == flatBase + b)
            list.back() = Interval(list.back().begin(), flatBase + e);
          else
            list.emplace_back(flatBase + b, flatBase + e);
        });
  }
  if (isComplete)
    *isComplete = complete;
  else if (!complete)
    raise<invalid_tile_mapping>("Graph::getTileMapping: tensor ", t.shapeToString(),
                                " is not completely mapped to tiles of this graph");
  return result;
}

TileToTensorMapping Graph::getTileMapping(const Tensor &t, bool requireComplete) const {
  bool complete = true;
  auto m = getTileMapping(t, &complete);
  if (requireComplete && !complete)
    return getTileMapping(t, static_cast<bool *>(nullptr)); // throws with the message
  return m;
}

unsigned Graph::getTileMapping(VertexRef v) const {
  if (v.getId() >= state_->vertices.size())
    raise<poplar_error>("Graph::getTileMapping: unknown vertex ", v.getId());
  return state_->vertices[v.getId()].tile - tileOffset_;
}

// ---- Host access ----------------------------------------------------------------------------

static void checkNewHandle(const GraphState &s, const std::string &handle, const char *api) {
  if (handle.empty())
    raise<poplar_error>("Graph::", api, ": the handle is empty");
  if (s.streams.count(handle) || s.hostAccess.count(handle))
    raise<poplar_error>("Graph::", api, ": handle '", handle, "' is already in use");
}

void Graph::createHostWrite(StringRef handle, const Tensor &t, bool) {
  checkNewHandle(*state_, handle, "createHostWrite");
  if (!t.valid())
    raise<poplar_error>("Graph::createHostWrite: tensor for '", handle, "' is not valid");
  checkOwned(*state_, t, "createHostWrite");
  state_->hostAccess[handle] = HostAccessDesc{handle, t, true};
}

void Graph::createHostRead(StringRef handle, const Tensor &t, bool) {
  checkNewHandle(*state_, handle, "createHostRead");
  if (!t.valid())
    raise<poplar_error>("Graph::createHostRead: tensor for '", handle, "' is not valid");
  checkOwned(*state_, t, "createHostRead");
  state_->hostAccess[handle] = HostAccessDesc{handle, t, false};
}

static DataStream addStream(GraphState &s, StringRef handle, const Type &type, std::size_t n,
                            bool toDevice, const char *api) {
  checkNewHandle(s, handle, api);
  if (!type.isValid())
    raise<poplar_error>("Graph::", api, ": invalid element type for stream '", handle, "'");
  auto desc = std::make_shared<StreamDesc>();
  desc->id = unsigned(s.streams.size());
  desc->handle = handle;
  desc->type = type;
  desc->numElements = n;
  desc->hostToDevice = toDevice;
  s.streams[handle] = desc;
  return DataStream(desc);
}

DataStream Graph::addHostToDeviceFIFO(StringRef handle, const Type &elementType,
                                      std::size_t numElements, ReplicatedStreamMode,
                                      const OptionFlags &) {
  return addStream(*state_, handle, elementType, numElements, true, "addHostToDeviceFIFO");
}

DataStream Graph::addDeviceToHostFIFO(StringRef handle, const Type &elementType,
                                      std::size_t numElements, const OptionFlags &) {
  return addStream(*state_, handle, elementType, numElements, false, "addDeviceToHostFIFO");
}

Function Graph::addFunction(const program::Program &program) {
  state_->functions.push_back(program);
  return Function(unsigned(state_->functions.size() - 1));
}

} // namespace poplar
