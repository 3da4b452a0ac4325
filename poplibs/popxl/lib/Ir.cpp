// The Ir: graphs, tensors, ops and streams, and op creation through the op table.
#include <popxl/Ir.hpp>

#include "OpTable.hpp"
#include "support/CheckedMath.hpp"

#include <algorithm>
#include <sstream>

namespace popxl {

namespace {

struct DTypeRow {
  DType type;
  const char *name;
  std::size_t bytes;
};

const DTypeRow kDTypes[] = {
#define POPXL_DTYPE(name, popxlName, numpyName, poplarType, bytes) {DType::name, popxlName, bytes},
#include <popxl/DTypes.def>
};

} // namespace

const char *dtypeName(DType t) { return kDTypes[int(t)].name; }
std::size_t dtypeSize(DType t) { return kDTypes[int(t)].bytes; }

DType dtypeNamed(const std::string &name) {
  for (const auto &row : kDTypes)
    if (name == row.name)
      return row.type;
  throw error("popxl: unsupported dtype '" + name + "'");
}

std::size_t TensorSpec::numElements() const {
  std::vector<std::size_t> dims(shape.begin(), shape.end());
  return popsdk::support::shapeElements<error>(dims, "popxl: TensorSpec::numElements");
}

std::string toString(const TensorSpec &spec) {
  std::ostringstream os;
  os << "(";
  for (std::size_t i = 0; i < spec.shape.size(); ++i)
    os << (i ? ", " : "") << spec.shape[i];
  os << (spec.shape.size() == 1 ? ",)" : ")") << " " << dtypeName(spec.dtype);
  return os.str();
}

Ir::Ir() { createGraph("main_graph"); }

GraphId Ir::createGraph(const std::string &name) {
  GraphInfo info;
  info.name = name;
  graphs_.push_back(std::move(info));
  return graphs_.size() - 1;
}

const GraphInfo &Ir::graph(GraphId g) const {
  if (g >= graphs_.size())
    throw error("popxl: no graph " + std::to_string(g));
  return graphs_[g];
}

const TensorInfo &Ir::tensor(TensorId t) const {
  if (t >= tensors_.size())
    throw error("popxl: no tensor " + std::to_string(t));
  return tensors_[t];
}

const StreamInfo &Ir::stream(StreamId s) const {
  if (s >= streams_.size())
    throw error("popxl: no stream " + std::to_string(s));
  return streams_[s];
}

TensorId Ir::addTensor(TensorInfo info) {
  for (auto d : info.spec.shape)
    if (d < 0)
      throw error("popxl: tensor '" + info.name + "' has a negative dimension in " +
                  toString(info.spec));
  tensors_.push_back(std::move(info));
  return tensors_.size() - 1;
}

static void checkData(const std::string &what, const std::string &name, const TensorSpec &spec,
                      const std::vector<std::uint8_t> &data) {
  if (data.size() != spec.numElements() * dtypeSize(spec.dtype))
    throw error("popxl: " + what + " '" + name + "' of " + toString(spec) + " needs " +
                std::to_string(spec.numElements() * dtypeSize(spec.dtype)) +
                " bytes of data, got " + std::to_string(data.size()));
}

TensorId Ir::addVariable(GraphId g, const std::string &name, const TensorSpec &spec,
                         std::vector<std::uint8_t> data) {
  graph(g);
  if (g != mainGraph())
    throw error("popxl.variable: variables can only be created in the main graph (creating '" +
                name + "' in '" + graphs_[g].name +
                "'); create a graph input or use a constant instead");
  checkData("variable", name, spec, data);
  return addTensor({name, spec, TensorKind::Variable, g, std::move(data)});
}

TensorId Ir::addConstant(GraphId g, const std::string &name, const TensorSpec &spec,
                         std::vector<std::uint8_t> data) {
  graph(g);
  checkData("constant", name, spec, data);
  return addTensor({name, spec, TensorKind::Constant, g, std::move(data)});
}

TensorId Ir::addGraphInput(GraphId g, const std::string &name, const TensorSpec &spec, bool byRef) {
  graph(g);
  TensorId t = addTensor({name, spec, TensorKind::GraphInput, g, {}});
  graphs_[g].inputs.push_back(t);
  graphs_[g].inputByRef.push_back(byRef);
  return t;
}

void Ir::addGraphOutput(GraphId g, TensorId t) {
  if (tensor(t).graph != g)
    throw error("popxl.graph_output: tensor '" + tensors_[t].name + "' is not in graph '" +
                graph(g).name + "'");
  std::vector<OpId> calls;
  for (const OpInfo &op : ops_) {
    if (std::find(op.calledGraphs.begin(), op.calledGraphs.end(), g) == op.calledGraphs.end())
      continue;
    if (op.type != "call")
      throw error("popxl.graph_output: graph '" + graphs_[g].name + "' cannot gain output '" +
                  tensors_[t].name + "': " + op.type + " '" + op.name +
                  "' calls it, and carries its outputs to its inputs");
    calls.push_back(op.id);
  }
  graphs_[g].outputs.push_back(t);
  const TensorSpec spec = tensors_[t].spec;
  for (OpId o : calls)
    addOutput(ops_[o], spec, true);
}

StreamId Ir::addStream(const std::string &name, const TensorSpec &spec, bool hostToDevice) {
  streams_.push_back({name, spec, hostToDevice});
  return streams_.size() - 1;
}

void Ir::setData(TensorId t, std::vector<std::uint8_t> data) {
  const auto &info = tensor(t);
  if (info.kind != TensorKind::Variable)
    throw error("popxl: '" + info.name + "' is not a variable");
  checkData("variable", info.name, info.spec, data);
  tensors_[t].data = std::move(data);
}

std::vector<TensorId> Ir::createOp(GraphId g, const std::string &type,
                                   const std::vector<TensorId> &inputs, const Attributes &attrs,
                                   const std::string &name,
                                   const std::vector<GraphId> &calledGraphs) {
  graph(g);
  const auto &row = internal::opRow(type);
  OpInfo op{type, name.empty() ? type : name, g, inputs, {}, attrs, calledGraphs, ops_.size()};
  for (TensorId t : inputs)
    if (tensor(t).graph != g)
      throw error("popxl.ops." + type + ": input '" + tensors_[t].name + "' is in graph '" +
                  graphs_[tensors_[t].graph].name + "', not in '" + graphs_[g].name + "'");
  const std::vector<TensorSpec> outs = row.infer(*this, op);
  for (const TensorSpec &spec : outs)
    addOutput(op, spec, outs.size() > 1);
  ops_.push_back(op);
  graphs_[g].ops.push_back(op.id);
  sequenceOp(g, op.id);
  return ops_.back().outputs;
}

void Ir::addOutput(OpInfo &op, const TensorSpec &spec, bool numbered) {
  const std::string suffix = numbered ? ":" + std::to_string(op.outputs.size()) : "";
  TensorInfo info{op.name + suffix, spec, TensorKind::Intermediate, op.graph, {}};
  info.producer = op.id;
  op.outputs.push_back(addTensor(std::move(info)));
}

void Ir::addTopoCon(OpId before, OpId after) {
  if (before >= ops_.size() || after >= ops_.size())
    throw error("popxl: topological constraint between ops " + std::to_string(before) + " and " +
                std::to_string(after) + ": the Ir has " + std::to_string(ops_.size()) + " ops");
  const OpInfo &a = ops_[before], &b = ops_[after];
  if (a.graph != b.graph)
    throw error("popxl: topological constraint between " + a.type + " '" + a.name + "' in graph '" +
                graphs_[a.graph].name + "' and " + b.type + " '" + b.name + "' in graph '" +
                graphs_[b.graph].name + "': both ops must be in one graph");
  if (before == after)
    throw error("popxl: topological constraint of " + a.type + " '" + a.name + "' with itself");
  graphs_[a.graph].topoCons.emplace_back(before, after);
}

void Ir::pushInSequence(bool enabled) { sequenceScopes_.push_back({enabled, {}}); }

void Ir::popInSequence() {
  if (sequenceScopes_.empty())
    throw error("popxl.in_sequence: no in-sequence scope is open");
  const SequenceScope done = std::move(sequenceScopes_.back());
  sequenceScopes_.pop_back();
  if (sequenceScopes_.empty())
    return;
  const std::size_t parent = sequenceScopes_.size() - 1;
  for (const auto &[g, f] : done.graphs) {
    if (f.tail.empty())
      continue;
    SequenceFrontier &p = frontier(parent, g);
    if (sequenceScopes_[parent].enabled) // the scope's ops as one block after the parent's
      p.tail = f.tail;
    else
      p.tail.insert(p.tail.end(), f.tail.begin(), f.tail.end());
  }
}

Ir::SequenceFrontier &Ir::frontier(std::size_t scope, GraphId g) {
  auto &graphs = sequenceScopes_[scope].graphs;
  auto it = graphs.find(g);
  if (it != graphs.end())
    return it->second;
  SequenceFrontier f;
  if (scope > 0) { // the scope's first op in `g` follows what its parent ordered before it
    const SequenceFrontier &parent = frontier(scope - 1, g);
    f.entry =
        sequenceScopes_[scope - 1].enabled && !parent.tail.empty() ? parent.tail : parent.entry;
  }
  return graphs.emplace(g, std::move(f)).first->second;
}

void Ir::sequenceOp(GraphId g, OpId op) {
  if (sequenceScopes_.empty())
    return;
  const std::size_t top = sequenceScopes_.size() - 1;
  SequenceFrontier &f = frontier(top, g);
  const bool enabled = sequenceScopes_[top].enabled;
  for (OpId before : enabled && !f.tail.empty() ? f.tail : f.entry)
    addTopoCon(before, op);
  if (enabled)
    f.tail = {op};
  else
    f.tail.push_back(op);
}

} // namespace popxl
