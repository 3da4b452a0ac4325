// Tile memory layout of variables, tensor location, and the out-of-memory check.
#include "compiler/Layout.hpp"

#include "core/Errors.hpp"
#include "graph/TensorImpl.hpp"

#include <algorithm>
#include <map>

namespace poplar::detail {

void checkAllMapped(const GraphState &graph) {
  for (const auto &var : graph.vars) {
    std::size_t pos = 0;
    for (const auto &[begin, ti] : var.mapping) {
      if (begin > pos)
        break;
      pos = std::max(pos, ti.end);
    }
    if (pos < var.numElements) {
      // The gap runs to the next mapped interval (intervals are keyed by their start).
      auto next = var.mapping.lower_bound(pos);
      std::size_t end = next == var.mapping.end() ? var.numElements : next->first;
      raise<graph_program_compilation_error>("Engine: ", var.isConstant ? "constant" : "variable",
                                             " '", var.name, "' (", var.type, ", ", var.numElements,
                                             " elements) is not completely mapped to tiles: "
                                             "elements [",
                                             pos, ", ", end,
                                             ") have no tile; call Graph::setTileMapping");
    }
  }
}

namespace {

/// The alignment vertices' fields ask of each variable piece (keyed by variable and the piece's
/// first element) that they read or write in place: a field whose data is one run of the piece
/// on the vertex's tile, at a distance from the piece's start that the field's alignment
/// divides. Poplar places a variable to suit the vertices that use it; a misaligned piece would
/// cost a buffer and a copy in or out around each compute set (the AMP's 64-bit partials stores).
std::map<std::pair<std::size_t, std::size_t>, std::uint32_t>
fieldAlignments(const GraphState &graph) {
  std::map<std::pair<std::size_t, std::size_t>, std::uint32_t> wanted;
  for (const auto &v : graph.vertices) {
    const auto &info = graph.vertexTypes.at(v.type);
    const auto &gv = graph.codeletObjects[info.codeletObject]->vertices[info.vertexIndex];
    for (const auto &c : v.connections) {
      const gp::Field *f = gv.findField(c.field);
      const auto &regions = c.tensor.getImpl().regions;
      if (!f || regions.size() != 1)
        continue;
      const std::uint32_t align = std::max(f->minAlign, f->elementSize);
      const auto &r = regions.front();
      const auto &var = graph.vars[r.var];
      auto piece = var.mapping.upper_bound(r.begin);
      if (piece == var.mapping.begin())
        continue;
      --piece;
      const auto &ti = piece->second;
      const std::uint64_t distance = (r.begin - ti.begin) * var.type.size();
      if (ti.tile == v.tile && r.end <= ti.end && distance % align == 0) {
        auto &a = wanted[{r.var, ti.begin}];
        a = std::max(a, align);
      }
    }
  }
  return wanted;
}

} // namespace

void layOutVariables(const GraphState &graph, const Liveness &liveness, CompiledGraph &out,
                     TileAllocator &alloc) {
  out.variables.clear();
  out.variables.reserve(graph.vars.size());
  // A not-always-live variable's pieces on one tile form one shared block, laid out inside it
  // as the bump allocator would, so the variable stays as contiguous as before.
  struct Piece {
    std::size_t var, placement;
    unsigned handle;
    std::uint64_t offsetInBlock;
  };
  std::vector<Piece> pieces;
  const auto wanted = fieldAlignments(graph);
  for (std::size_t v = 0; v < graph.vars.size(); ++v) {
    const auto &var = graph.vars[v];
    CompiledVariable cv;
    cv.name = var.name;
    cv.type = var.type.id();
    cv.numElements = var.numElements;
    cv.isConstant = var.isConstant;
    std::uint32_t elemSize = var.type.size();
    // Each piece is aligned to its element size (at least 4 bytes, the atomic store
    // granularity) so vertices can use natural loads, or more where its vertices ask.
    const std::uint32_t elemAlign = std::max<std::uint32_t>(4, elemSize);
    auto category = var.isConstant ? MemoryCategory::constants : MemoryCategory::variables;
    bool shared = !liveness.alwaysLive[v];
    std::map<unsigned, std::uint64_t> blockBytes; // tile -> bytes of this variable's block
    std::map<unsigned, std::uint32_t> blockAlign; // tile -> alignment of that block
    for (const auto &[begin, ti] : var.mapping) {
      std::uint64_t bytes = (ti.end - ti.begin) * elemSize;
      const auto field = wanted.find({v, ti.begin});
      const std::uint32_t align =
          field == wanted.end() ? elemAlign : std::max(elemAlign, field->second);
      std::uint32_t offset = 0;
      if (shared) {
        auto &used = blockBytes[ti.tile];
        used = (used + align - 1) / align * align;
        pieces.push_back({v, cv.placements.size(), 0, used});
        used += bytes;
        blockAlign[ti.tile] = std::max(blockAlign[ti.tile], align);
      } else {
        offset = alloc.allocate(ti.tile, bytes, align, category);
        if (!var.initialData.empty())
          alloc.write(ti.tile, offset, var.initialData.data() + ti.begin * elemSize, bytes);
      }
      cv.placements.push_back({ti.begin, ti.end, ti.tile, offset});
    }
    std::map<unsigned, unsigned> handles;
    for (const auto &[tile, bytes] : blockBytes)
      handles[tile] =
          alloc.allocateShared(tile, bytes, blockAlign[tile], category, {liveness.varRange[v]});
    for (auto it = pieces.rbegin(); it != pieces.rend() && it->var == v; ++it)
      it->handle = handles.at(cv.placements[it->placement].tile);
    out.variables.push_back(std::move(cv));
  }
  alloc.placeShared();
  for (const auto &p : pieces)
    out.variables[p.var].placements[p.placement].offset =
        std::uint32_t(alloc.sharedOffset(p.handle) + p.offsetInBlock);
}

void checkTileMemory(const CompiledGraph &out) {
  const auto &memory = out.profile.tileMemory;
  std::uint64_t capacity = out.target.bytesPerTile;
  std::vector<unsigned> over;
  for (unsigned t = 0; t < memory.size(); ++t)
    if (memory[t].includingGaps() > capacity)
      over.push_back(t);
  if (over.empty())
    return;
  std::stable_sort(over.begin(), over.end(), [&](unsigned a, unsigned b) {
    return memory[a].includingGaps() > memory[b].includingGaps();
  });
  std::ostringstream os;
  os << "Out of memory: Cannot fit all variable data onto one or more tiles. " << over.size()
     << " tile(s) out of memory (" << capacity << " bytes per tile).";
  for (std::size_t i = 0; i < std::min<std::size_t>(over.size(), 5); ++i) {
    unsigned t = over[i];
    os << " Tile " << t << ": " << memory[t].includingGaps() << " bytes needed (";
    bool first = true;
    for (unsigned c = 0; c < kNumMemoryCategories; ++c)
      if (memory[t].bytes[c]) {
        os << (first ? "" : ", ") << memoryCategoryLabel(MemoryCategory(c)) << ' '
           << memory[t].bytes[c];
        first = false;
      }
    if (memory[t].gaps)
      os << (first ? "" : ", ") << "gaps " << memory[t].gaps;
    os << "; largest:";
    // Name the biggest variables on the tile, which is what a user needs to act.
    std::vector<std::pair<std::uint64_t, std::string>> vars;
    for (const auto &v : out.variables)
      for (const auto &p : v.placements)
        if (p.tile == t)
          vars.emplace_back((p.end - p.begin) * Type(v.type).size(), v.name);
    std::sort(vars.rbegin(), vars.rend());
    for (std::size_t k = 0; k < std::min<std::size_t>(vars.size(), 3); ++k)
      os << (k ? "," : "") << " '" << vars[k].second << "' " << vars[k].first << " B";
    os << ").";
  }
  throw graph_memory_allocation_error(os.str());
}

TensorLocation locate(const CompiledGraph &cg, const Tensor &t) {
  TensorLocation loc;
  loc.type = t.elementType().id();
  for (auto d : t.shape())
    loc.shape.push_back(d);
  std::uint32_t elemSize = t.elementType().size();
  auto push = [&](std::uint32_t tile, std::uint32_t offset, std::uint32_t bytes) {
    if (!loc.runs.empty()) {
      auto &last = loc.runs.back();
      if (last.tile == tile && last.offset + last.bytes == offset) {
        last.bytes += bytes;
        return;
      }
    }
    loc.runs.push_back({tile, offset, bytes});
  };
  for (const auto &r : t.getImpl().regions) {
    if (r.var >= cg.variables.size())
      raise<graph_program_compilation_error>(
          "Engine: a tensor used by the programs refers to variable ", r.var, " but the graph has ",
          cg.variables.size(), " variables; was it created by another graph?");
    const auto &placements = cg.variables[r.var].placements;
    auto it = std::upper_bound(placements.begin(), placements.end(), r.begin,
                               [](std::size_t v, const Placement &p) { return v < p.end; });
    for (std::size_t pos = r.begin; pos < r.end; ++it) {
      if (it == placements.end() || it->begin > pos)
        raise<graph_program_compilation_error>("Engine: element ", pos, " of variable '",
                                               cg.variables[r.var].name, "' is not mapped");
      std::size_t stop = std::min<std::size_t>(r.end, it->end);
      push(it->tile, std::uint32_t(it->offset + (pos - it->begin) * elemSize),
           std::uint32_t((stop - pos) * elemSize));
      pos = stop;
    }
  }
  return loc;
}

} // namespace poplar::detail
