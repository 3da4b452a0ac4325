// Ir::schedule: the order a graph's ops run in, a topological sort (Boost.Graph's depth-first
// search) of the graph of their dependencies: data, topological constraints, and the order of
// accesses to tensors written in place and to host streams.
#include <popxl/Ir.hpp>

#include "AliasClasses.hpp"
#include "OpTable.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/depth_first_search.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

namespace popxl {

namespace {

using Dag = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using Vertex = boost::graph_traits<Dag>::vertex_descriptor;
using Edge = boost::graph_traits<Dag>::edge_descriptor;

/// Accesses to one resource (an alias class, or a host stream) in creation order: readers
/// after the last write, a write after every earlier access.
struct AccessOrder {
  std::optional<Vertex> lastWrite;
  std::vector<Vertex> readsSinceWrite;
};

/// Depth-first visitor: the finish order (a reverse topological order), and on a back edge the
/// cycle it closes, from the tree path to it.
class ScheduleVisitor : public boost::default_dfs_visitor {
public:
  ScheduleVisitor(std::vector<Vertex> &finished, std::vector<Vertex> &parent,
                  std::vector<Vertex> &cycle)
      : finished_(finished), parent_(parent), cycle_(cycle) {}
  void tree_edge(Edge e, const Dag &g) { parent_[boost::target(e, g)] = boost::source(e, g); }
  void back_edge(Edge e, const Dag &g) {
    if (!cycle_.empty())
      return;
    const Vertex from = boost::source(e, g), to = boost::target(e, g);
    for (Vertex v = from; v != to; v = parent_[v])
      cycle_.push_back(v);
    cycle_.push_back(to);
    std::reverse(cycle_.begin(), cycle_.end());
  }
  void finish_vertex(Vertex v, const Dag &) { finished_.push_back(v); }

private:
  std::vector<Vertex> &finished_, &parent_, &cycle_;
};

} // namespace

std::vector<OpId> Ir::schedule(GraphId g) const {
  const GraphInfo &info = graph(g);
  const std::vector<OpId> &ops = info.ops;
  std::unordered_map<OpId, Vertex> vertexOf;
  for (Vertex v = 0; v < ops.size(); ++v)
    vertexOf[ops[v]] = v;
  Dag dag(ops.size());

  std::vector<internal::Effects> effects;
  internal::AliasClasses aliases;
  for (OpId o : ops) {
    const OpInfo &op = this->op(o);
    effects.push_back(internal::opRow(op.type).effects(*this, op));
    if (effects.back().outputAliasesInput)
      aliases.join(op.outputs.at(0), op.inputs.at(0));
  }

  // Resources: alias classes by their root tensor, streams after all tensors.
  std::map<std::size_t, AccessOrder> accesses;
  auto access = [&](std::size_t resource, Vertex v, bool write) {
    AccessOrder &a = accesses[resource];
    if (a.lastWrite && *a.lastWrite != v)
      boost::add_edge(*a.lastWrite, v, dag);
    if (!write) {
      a.readsSinceWrite.push_back(v);
      return;
    }
    for (Vertex r : a.readsSinceWrite)
      if (r != v)
        boost::add_edge(r, v, dag);
    a.readsSinceWrite.clear();
    a.lastWrite = v;
  };
  for (Vertex v = 0; v < ops.size(); ++v) {
    const OpInfo &op = this->op(ops[v]);
    const internal::Effects &e = effects[v];
    for (std::size_t i = 0; i < op.inputs.size(); ++i) {
      const TensorInfo &in = tensor(op.inputs[i]);
      if (in.producer != ~std::size_t(0) && vertexOf.count(in.producer))
        boost::add_edge(vertexOf[in.producer], v, dag);
      const bool write =
          std::find(e.modifiedInputs.begin(), e.modifiedInputs.end(), i) != e.modifiedInputs.end();
      access(aliases.root(op.inputs[i]), v, write);
    }
    for (StreamId s : e.streams)
      access(numTensors() + s, v, true);
  }
  for (const auto &[before, after] : info.topoCons)
    boost::add_edge(vertexOf.at(before), vertexOf.at(after), dag);

  std::vector<Vertex> finished, parent(ops.size()), cycle;
  std::vector<boost::default_color_type> colours(ops.size());
  boost::depth_first_search(dag, boost::visitor(ScheduleVisitor(finished, parent, cycle))
                                     .color_map(boost::make_iterator_property_map(
                                         colours.begin(), boost::get(boost::vertex_index, dag))));
  if (!cycle.empty()) {
    std::string text;
    for (Vertex v : cycle)
      text += op(ops[v]).type + " '" + op(ops[v]).name + "' -> ";
    text += op(ops[cycle.front()]).type + " '" + op(ops[cycle.front()]).name + "'";
    throw error("popxl: the ops of graph '" + info.name +
                "' cannot be ordered: their data, in-place accesses and topological "
                "constraints (in_sequence) form a cycle: " +
                text);
  }
  std::vector<OpId> order;
  for (auto it = finished.rbegin(); it != finished.rend(); ++it)
    order.push_back(ops[*it]);
  return order;
}

} // namespace popxl
