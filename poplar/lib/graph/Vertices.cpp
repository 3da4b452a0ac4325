// Graph's compute sets and vertices: creation, field connection and per-vertex settings.
#include "core/Errors.hpp"
#include "core/HostConvert.hpp"
#include "graph/GraphState.hpp"

#include <poplar/Graph.hpp>

namespace poplar {

using namespace detail;

namespace {

VertexDesc &vertexOf(GraphState &s, const VertexRef &v, const char *api) {
  if (v.getId() >= s.vertices.size())
    raise<poplar_error>("Graph::", api, ": unknown vertex id ", v.getId());
  return s.vertices[v.getId()];
}

const FieldInfo &fieldOf(const GraphState &s, const VertexDesc &v, const std::string &name,
                         const char *api) {
  auto type = s.vertexTypes.find(v.type);
  if (type == s.vertexTypes.end())
    raise<unknown_vertex_type>("Graph::", api, ": unknown vertex type '", v.type, "'");
  const FieldInfo *f = type->second.findField(name);
  if (!f) {
    std::string known;
    for (const auto &field : type->second.fields)
      known += (known.empty() ? "" : ", ") + field.name;
    raise<unknown_field>("Graph::", api, ": vertex type '", v.type, "' has no field '", name,
                         "' (fields: ", known.empty() ? "none" : known, ")");
  }
  return *f;
}

} // namespace

ComputeSet Graph::addComputeSet(const DebugContext &dc) {
  auto id = unsigned(state_->computeSets.size());
  state_->computeSets.push_back(
      {dc.getPathName().empty() ? "cs" + std::to_string(id) : dc.getPathName(), {}});
  return ComputeSet(id);
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType) {
  if (cs.getId() >= state_->computeSets.size())
    raise<poplar_error>("Graph::addVertex: unknown compute set id ", cs.getId(), " for vertex '",
                        vertexType, "'");
  if (!state_->vertexTypes.count(vertexType.str())) {
    std::string known;
    for (const auto &kv : state_->vertexTypes)
      known += (known.empty() ? "" : ", ") + kv.first;
    raise<unknown_vertex_type>("Graph::addVertex: unknown vertex type '", vertexType,
                               "' (loaded codelets define: ", known.empty() ? "none" : known,
                               "); did you call addCodelets?");
  }
  VertexDesc v;
  v.type = vertexType;
  v.computeSet = cs.getId();
  state_->vertices.push_back(std::move(v));
  auto id = unsigned(state_->vertices.size() - 1);
  state_->computeSets[cs.getId()].vertices.push_back(id);
  return VertexRef(this, id);
}

VertexRef Graph::addVertex(ComputeSet cs, StringRef vertexType,
                           ArrayRef<ConnectionDesc> connections) {
  VertexRef v = addVertex(cs, vertexType);
  for (const auto &c : connections)
    connect(v[c.field], c.tensor);
  return v;
}

void Graph::connect(FieldRef field, const Tensor &tensor) {
  auto &v = vertexOf(*state_, field.getVertex(), "connect");
  const auto &f = fieldOf(*state_, v, field.getName(), "connect");
  auto where = "field '" + field.getName() + "' of vertex '" + v.type + "'";
  if (!tensor.valid())
    raise<graph_connection_error>("Graph::connect: the tensor for ", where, " is not valid");
  if (f.direction == FieldDirection::State)
    raise<graph_connection_error>("Graph::connect: ", where,
                                  " is vertex state; set it with setInitialValue");
  if (tensor.elementType() != f.elementType)
    raise<type_error>("Graph::connect: ", where, " has type ", f.elementType,
                      " but the tensor has type ", tensor.elementType());
  if (f.isVectorList && !field.isIndexed())
    raise<graph_connection_error>("Graph::connect: ", where,
                                  " is a VectorList; connect its elements with field[i] or "
                                  "pass a list of tensors");
  if (f.isScalar && tensor.numElements() != 1)
    raise<graph_connection_error>("Graph::connect: ", where,
                                  " is a scalar but the tensor has shape ", tensor.shapeToString(),
                                  " (", tensor.numElements(), " elements)");
  for (const auto &c : v.connections)
    if (c.field == field.getName() && c.index == field.getIndex())
      raise<graph_connection_error>("Graph::connect: ", where, " is already connected");
  v.connections.push_back({field.getName(), field.getIndex(), tensor});
}

void Graph::connect(FieldRef field, ArrayRef<Tensor> tensors) {
  auto &v = vertexOf(*state_, field.getVertex(), "connect");
  const auto &f = fieldOf(*state_, v, field.getName(), "connect");
  if (!f.isVectorList)
    raise<graph_connection_error>("Graph::connect: field '", field.getName(), "' of vertex '",
                                  v.type, "' is not a VectorList; a list of ", tensors.size(),
                                  " tensors cannot be connected to it");
  v.fieldSizes[field.getName()] = tensors.size();
  for (std::size_t i = 0; i < tensors.size(); ++i)
    connect(field[i], tensors[i]);
}

void Graph::setFieldSize(FieldRef field, std::size_t size) {
  auto &v = vertexOf(*state_, field.getVertex(), "setFieldSize");
  fieldOf(*state_, v, field.getName(), "setFieldSize");
  v.fieldSizes[field.getName()] = size;
}

void Graph::setPerfEstimate(const VertexRef &v, std::uint64_t cycles, std::uint64_t) {
  vertexOf(*state_, v, "setPerfEstimate").perfEstimate = cycles;
}

void Graph::setFieldInitialValueImpl(const FieldRef &field, const void *values, HostType hostType,
                                     std::size_t count) {
  auto &v = vertexOf(*state_, field.getVertex(), "setInitialValue");
  const auto &f = fieldOf(*state_, v, field.getName(), "setInitialValue");
  if (f.direction != FieldDirection::State)
    raise<graph_connection_error>("Graph::setInitialValue: field '", field.getName(),
                                  "' of vertex '", v.type,
                                  "' is an edge; connect a tensor to it instead");
  std::vector<std::uint8_t> bytes(count * f.elementType.size());
  convertHostToDevice(hostType, values, count, f.elementType, bytes.data());
  v.initialValues[field.getName()] = std::move(bytes);
}

std::size_t Graph::getNumVertices() const { return state_->vertices.size(); }
std::size_t Graph::getNumComputeSets() const { return state_->computeSets.size(); }

} // namespace poplar
