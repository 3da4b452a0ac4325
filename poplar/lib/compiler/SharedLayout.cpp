// Interference-graph colouring of a tile's not-always-live blocks with Boost.Graph.
#include "compiler/SharedLayout.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/sequential_vertex_coloring.hpp>

#include <algorithm>
#include <numeric>
#include <set>

namespace poplar::detail {

namespace {

using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::undirectedS>;
using Vertex = boost::graph_traits<Graph>::vertex_descriptor;

std::uint64_t alignUp(std::uint64_t n, std::uint32_t a) { return (n + a - 1) / a * a; }

/// Edges between blocks whose live ranges meet: a sweep over ranges sorted by their first step,
/// keeping the ranges still open, so disjoint blocks cost no comparison.
Graph interferenceGraph(const std::vector<SharedBlock> &blocks) {
  struct Live {
    StepRange r;
    std::size_t block;
  };
  std::vector<Live> ranges;
  for (std::size_t b = 0; b < blocks.size(); ++b)
    for (const auto &r : blocks[b].live)
      ranges.push_back({r, b});
  std::sort(ranges.begin(), ranges.end(), [](const Live &a, const Live &b) {
    return std::tie(a.r.first, a.block) < std::tie(b.r.first, b.block);
  });
  std::set<std::pair<std::size_t, std::size_t>> edges;
  std::vector<Live> open;
  for (const auto &x : ranges) {
    open.erase(std::remove_if(open.begin(), open.end(),
                              [&](const Live &o) { return o.r.last < x.r.first; }),
               open.end());
    for (const auto &o : open)
      if (o.block != x.block)
        edges.insert(std::minmax(o.block, x.block));
    open.push_back(x);
  }
  Graph g(blocks.size());
  for (const auto &[a, b] : edges)
    boost::add_edge(a, b, g);
  return g;
}

} // namespace

SharedLayout layOutShared(const std::vector<SharedBlock> &blocks) {
  SharedLayout out;
  out.offsets.assign(blocks.size(), 0);
  if (blocks.empty())
    return out;
  Graph g = interferenceGraph(blocks);
  // Largest first, so the big blocks pick the colours and small ones fill in beside them.
  std::vector<Vertex> order(blocks.size());
  std::iota(order.begin(), order.end(), Vertex(0));
  std::stable_sort(order.begin(), order.end(),
                   [&](Vertex a, Vertex b) { return blocks[a].bytes > blocks[b].bytes; });
  std::vector<std::size_t> colour(blocks.size());
  auto colourMap = boost::make_iterator_property_map(colour.begin(), get(boost::vertex_index, g));
  // Boost reads the order as position -> vertex.
  auto orderMap = boost::make_iterator_property_map(order.begin(), get(boost::vertex_index, g));
  std::size_t numColours = boost::sequential_vertex_coloring(g, orderMap, colourMap);
  // One slot per colour, as big and as aligned as its largest member.
  std::vector<std::uint64_t> slotBytes(numColours, 0), slotOffset(numColours, 0);
  std::vector<std::uint32_t> slotAlign(numColours, 1);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    slotBytes[colour[b]] = std::max(slotBytes[colour[b]], blocks[b].bytes);
    slotAlign[colour[b]] = std::max(slotAlign[colour[b]], blocks[b].align);
  }
  for (std::size_t c = 0; c < numColours; ++c) {
    out.size = alignUp(out.size, slotAlign[c]);
    slotOffset[c] = out.size;
    out.size += slotBytes[c];
    out.align = std::max(out.align, slotAlign[c]);
  }
  for (std::size_t b = 0; b < blocks.size(); ++b)
    out.offsets[b] = slotOffset[colour[b]];
  return out;
}

} // namespace poplar::detail
