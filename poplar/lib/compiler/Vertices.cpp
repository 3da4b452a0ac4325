// Vertex compilation: the state block layout follows docs/gp-format.md ("Vertex state layout"):
// scalar edge = address; vector = address (+ element count for sized layouts); VectorList =
// address of {address, count} pairs + pair count; Vector of edges = a vector of inner vectors,
// each laid out by its own layout; plain members inline.
#include "compiler/Vertices.hpp"

#include "compiler/ExchangePlan.hpp"
#include "compiler/Layout.hpp"
#include "compiler/VertexCodeCharge.hpp"
#include "core/Errors.hpp"
#include "graph/TensorImpl.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <set>

namespace poplar::detail {

namespace {

/// Worker stacks are at least this big: popc's stack bound covers the vertex code, and the
/// margin covers the entry sequence (ipu-model.md: poplar's default worker stack is similar).
constexpr std::uint32_t kMinWorkerStackBytes = 64;

void put32(std::vector<std::uint8_t> &state, std::uint32_t offset, std::uint32_t value) {
  std::memcpy(state.data() + offset, &value, 4);
}

std::uint32_t address(std::uint32_t offset) { return kTileMemoryBase + offset; }

/// A field's address as bound: a fixed tile address, or a shared copy buffer whose address is
/// known only once the tile's shared region is laid out.
struct Bound {
  std::uint32_t address = 0;
  int buffer = -1; // TileAllocator shared handle, or -1
};

/// A copy run whose local side is in shared buffer `buffer`, planned at offset 0 of it.
struct BufferRun {
  bool copyIn;
  std::size_t run;
  unsigned buffer;
};

struct Binder {
  TileAllocator &alloc;
  CompiledComputeSet &cs;
  std::string where; // "field 'x' of vertex 'T' (id n) on tile t", for messages
  /// Steps that run the compute set, when its buffers are live only there (else always-live).
  const std::vector<StepRange> *sharedLive = nullptr;
  std::vector<BufferRun> *bufferRuns = nullptr;

  /// The tile address at which the vertex sees `loc`'s data contiguously and aligned; adds a
  /// local buffer with copy-in/copy-out when the data is not already like that on `tile`.
  Bound bind(const TensorLocation &loc, unsigned tile, std::uint32_t align,
             FieldDirection direction) {
    std::uint64_t bytes = loc.numBytes();
    if (bytes == 0)
      return {address(0)};
    if (loc.runs.size() == 1 && loc.runs[0].tile == tile && loc.runs[0].offset % align == 0)
      return {address(loc.runs[0].offset)};
    align = std::max<std::uint32_t>(align, 4);
    // The buffer is filled (or its output copied out) in its compute set's own step, so it
    // matters only while that compute set runs: matmul and convolution temporaries share.
    int buffer = -1;
    std::uint32_t offset = 0;
    if (sharedLive)
      buffer = int(
          alloc.allocateShared(tile, bytes, align, MemoryCategory::vertexFieldData, *sharedLive));
    else
      offset = alloc.allocate(tile, bytes, align, MemoryCategory::vertexFieldData);
    TensorLocation local;
    local.runs.push_back({tile, offset, std::uint32_t(bytes)});
    auto add = [&](std::vector<CopyRun> &to, std::vector<CopyRun> runs, bool in) {
      for (const auto &r : runs) {
        if (buffer >= 0)
          bufferRuns->push_back({in, to.size(), unsigned(buffer)});
        to.push_back(r);
      }
    };
    if (direction == FieldDirection::Input || direction == FieldDirection::InOut)
      add(cs.copyIn, planCopy(loc, local), true);
    if (direction == FieldDirection::Output || direction == FieldDirection::InOut)
      add(cs.copyOut, planCopy(local, loc), false);
    return {address(offset), buffer};
  }
};

/// What a field's data is to the vertex, for debug.checkMemoryAccess.
RegionKind regionKind(FieldDirection direction) {
  switch (direction) {
  case FieldDirection::Output:
    return RegionKind::Output;
  case FieldDirection::InOut:
    return RegionKind::InOut;
  case FieldDirection::State:
    return RegionKind::State;
  default:
    return RegionKind::Input;
  }
}

/// The variable of a tensor's first element, which names the data in memory-check errors.
std::uint32_t firstVariable(const Tensor &t) {
  const auto &regions = t.getImpl().regions;
  return regions.empty() ? ~0u : std::uint32_t(regions.front().var);
}

const FieldConnection *findConnection(const VertexDesc &v, const std::string &field,
                                      std::size_t index = ~std::size_t(0)) {
  for (const auto &c : v.connections)
    if (c.field == field && c.index == index)
      return &c;
  return nullptr;
}

} // namespace

void placeCodeletData(const GraphState &graph, CompiledGraph &out, TileAllocator &alloc) {
  std::set<unsigned> usedObjects;
  std::set<unsigned> tilesWithVertices;
  // tile -> object -> entry pcs of the vertex types the tile runs
  std::map<unsigned, std::map<unsigned, std::set<std::uint32_t>>> tileEntries;
  for (const auto &v : graph.vertices) {
    const auto &info = graph.vertexTypes.at(v.type);
    usedObjects.insert(info.codeletObject);
    if (v.tile != kUnmapped) {
      tilesWithVertices.insert(v.tile);
      tileEntries[v.tile][info.codeletObject].insert(
          graph.codeletObjects[info.codeletObject]->vertices[info.vertexIndex].entry);
    }
  }
  // Every loaded object keeps its index; unused ones simply take no memory.
  std::uint32_t offset = 0;
  for (unsigned o = 0; o < graph.codeletObjects.size(); ++o) {
    const auto &file = *graph.codeletObjects[o];
    CompiledCodelet cc;
    cc.gpBytes = gp::writeGp(file);
    if (usedObjects.count(o)) {
      std::uint32_t align = std::max<std::uint32_t>(file.dataAlign, 8);
      offset = (offset + align - 1) / align * align;
      cc.dataOffset = offset;
      offset += std::uint32_t(file.data.size());
    }
    out.codelets.push_back(std::move(cc));
  }
  for (const auto &[name, info] : graph.vertexTypes) {
    const auto &vertex = graph.codeletObjects[info.codeletObject]->vertices[info.vertexIndex];
    out.vertexTypes.push_back(
        {name, info.codeletObject, vertex.entry, info.kind == VertexKind::MultiVertex});
  }
  std::map<std::pair<unsigned, std::set<std::uint32_t>>, std::uint64_t> codeBytes;
  for (unsigned tile : tilesWithVertices) {
    // Offset 0 on every such tile: this is each tile's first allocation.
    alloc.allocate(tile, offset, 8, MemoryCategory::constants);
    for (unsigned o : usedObjects) {
      const auto &file = *graph.codeletObjects[o];
      alloc.write(tile, out.codelets[o].dataOffset, file.data.data(), file.data.size());
      // Data-to-data relocations (pointers in tables) are fixed here; code ones at load.
      for (const auto &r : file.relocations)
        if (r.section == gp::Section::Data && r.target == gp::Section::Data) {
          std::uint32_t value = address(out.codelets[o].dataOffset) + r.addend;
          alloc.write(tile, out.codelets[o].dataOffset + r.offset,
                      reinterpret_cast<const std::uint8_t *>(&value), 4);
        }
    }
    for (const auto &[o, entries] : tileEntries[tile]) {
      // Many tiles run the same vertex types: walk each object's call graph once per set.
      auto [it, isNew] = codeBytes.try_emplace({o, entries}, 0);
      if (isNew)
        it->second = codeBytesForEntries(*graph.codeletObjects[o], entries);
      alloc.account(tile, it->second, MemoryCategory::vertexCode);
    }
  }
}

void compileVertices(const GraphState &graph, const Liveness &liveness, CompiledGraph &out,
                     TileAllocator &alloc) {
  unsigned numTiles = graph.target.numTiles();
  auto typeIndex = [&](const std::string &name) {
    for (std::uint32_t i = 0; i < out.vertexTypes.size(); ++i)
      if (out.vertexTypes[i].name == name)
        return i;
    raise<unknown_vertex_type>("Engine: unknown vertex type '", name, "'");
  };
  // Stacks: one per worker context on each tile that runs vertices, as deep as the deepest
  // vertex type there needs.
  out.stacks.assign(numTiles, TileStacks());
  std::vector<std::uint32_t> stackNeed(numTiles, 0);
  std::vector<std::uint64_t> vertexCount(out.vertexTypes.size(), 0),
      stateBytes(out.vertexTypes.size(), 0);
  for (const auto &v : graph.vertices) {
    if (v.tile == kUnmapped)
      continue;
    const auto &info = graph.vertexTypes.at(v.type);
    const auto &gv = graph.codeletObjects[info.codeletObject]->vertices[info.vertexIndex];
    stackNeed[v.tile] = std::max(stackNeed[v.tile], gv.stackSize);
  }
  for (const auto &v : graph.vertices)
    if (v.tile != kUnmapped && out.stacks[v.tile].bytesPerWorker == 0) {
      std::uint32_t per = std::max(kMinWorkerStackBytes, (stackNeed[v.tile] + 7) / 8 * 8);
      out.stacks[v.tile] = {alloc.allocate(v.tile,
                                           std::uint64_t(per) * graph.target.numWorkerContexts, 8,
                                           MemoryCategory::stack),
                            per};
    }

  std::vector<std::vector<BufferRun>> bufferRuns(graph.computeSets.size());
  // Field regions in shared buffers: {compute set, region, buffer}, placed with the buffers.
  struct RegionBuffer {
    std::size_t computeSet, region;
    unsigned buffer;
  };
  std::vector<RegionBuffer> regionBuffers;
  for (std::size_t csIndex = 0; csIndex < graph.computeSets.size(); ++csIndex) {
    const auto &csDesc = graph.computeSets[csIndex];
    CompiledComputeSet cs;
    cs.name = csDesc.name;
    std::vector<unsigned> order = csDesc.vertices;
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return graph.vertices[a].tile < graph.vertices[b].tile;
    });
    for (unsigned id : order) {
      const auto &v = graph.vertices[id];
      std::string vertexName = "vertex '" + v.type + "' (id " + std::to_string(id) + ")";
      if (v.tile == kUnmapped)
        raise<graph_connection_error>("Engine: ", vertexName, " in compute set '", cs.name,
                                      "' is not mapped to a tile; call "
                                      "Graph::setTileMapping(vertex, tile)");
      const auto &info = graph.vertexTypes.at(v.type);
      const auto &gv = graph.codeletObjects[info.codeletObject]->vertices[info.vertexIndex];
      std::vector<std::uint8_t> state(gv.stateSize, 0);
      Binder binder{alloc, cs, ""};
      if (!liveness.computeSetAlwaysLive[csIndex]) {
        binder.sharedLive = &liveness.computeSetSteps[csIndex];
        binder.bufferRuns = &bufferRuns[csIndex];
      }
      // Pointers to shared buffers, by byte offset in the state and by descriptor entry.
      std::vector<std::pair<std::uint32_t, unsigned>> stateBuffers;
      const auto firstRegion = std::uint32_t(cs.regions.size());
      for (std::uint16_t fieldIndex = 0; fieldIndex < gv.fields.size(); ++fieldIndex) {
        const auto &f = gv.fields[fieldIndex];
        // Records the bytes the vertex is given through this field (or list element).
        auto addRegion = [&](Bound bound, std::uint64_t bytes, RegionKind kind,
                             std::uint32_t variable, std::uint32_t element) {
          if (bytes == 0)
            return;
          if (bound.buffer >= 0)
            regionBuffers.push_back({csIndex, cs.regions.size(), unsigned(bound.buffer)});
          cs.regions.push_back({bound.address - kTileMemoryBase, std::uint32_t(bytes), variable,
                                element, fieldIndex, kind});
        };
        binder.where =
            "field '" + f.name + "' of " + vertexName + " on tile " + std::to_string(v.tile);
        std::uint32_t align = std::max<std::uint32_t>(f.minAlign, f.elementSize);
        auto direction = info.findField(f.name)->direction;
        if (f.kind == gp::FieldKind::Value || f.direction == gp::FieldDirection::State) {
          auto init = v.initialValues.find(f.name);
          if (f.kind == gp::FieldKind::Vector) {
            // A Vector that is not an edge: the runtime owns its data, filled from
            // setInitialValue (docs/gp-format.md); without one it is empty.
            std::uint32_t where = address(0), count = 0;
            if (init != v.initialValues.end() && !init->second.empty()) {
              auto offset =
                  alloc.allocate(v.tile, init->second.size(), std::max<std::uint32_t>(align, 4),
                                 MemoryCategory::vertexFieldData);
              alloc.write(v.tile, offset, init->second.data(), init->second.size());
              where = address(offset);
              addRegion({where}, init->second.size(), RegionKind::State, ~0u, ~0u);
              count = std::uint32_t(init->second.size() / f.elementSize);
            }
            put32(state, f.offset, where);
            if (gp::layoutHasSize(f.layout))
              put32(state, f.offset + 4, count);
            continue;
          }
          if (f.kind != gp::FieldKind::Value)
            raise<graph_connection_error>("Engine: ", binder.where,
                                          " is a VectorList state field, which is not supported");
          // An empty initial value (setInitialValue with no values) leaves the zeros; its
          // data() may be null, which memcpy must not be given even for 0 bytes.
          if (init != v.initialValues.end() && !init->second.empty())
            std::memcpy(state.data() + f.offset, init->second.data(),
                        std::min<std::size_t>(init->second.size(), f.size));
          continue;
        }
        if (f.kind == gp::FieldKind::Scalar || f.kind == gp::FieldKind::Vector) {
          const auto *c = findConnection(v, f.name);
          if (!c)
            raise<graph_connection_error>("Engine: ", binder.where,
                                          " is not connected; call Graph::connect");
          auto loc = locate(out, c->tensor);
          auto bound = binder.bind(loc, v.tile, align, direction);
          addRegion(bound, loc.numBytes(), regionKind(direction), firstVariable(c->tensor), ~0u);
          put32(state, f.offset, bound.address);
          if (bound.buffer >= 0)
            stateBuffers.emplace_back(f.offset, unsigned(bound.buffer));
          if (f.kind == gp::FieldKind::Vector && gp::layoutHasSize(f.layout))
            put32(state, f.offset + 4, std::uint32_t(c->tensor.numElements()));
          continue;
        }
        // VectorList and Vector of edges: a descriptor array with one entry per inner vector.
        // A list's entries are {address, count} and its state {array, count}; a Vector of edges
        // is laid out as the Vector<Edge, L1> it is in C++: entries {address} or {address,
        // count} as the inner layout keeps a count, state {array} or {array, count} as L1 does.
        bool list = f.kind == gp::FieldKind::VectorList;
        bool entryHasCount = list || gp::layoutHasSize(f.innerLayout);
        bool stateHasCount = list || gp::layoutHasSize(f.layout);
        auto sizeIt = v.fieldSizes.find(f.name);
        std::size_t n = sizeIt == v.fieldSizes.end() ? 0 : sizeIt->second;
        if (n == 0)
          for (const auto &c : v.connections)
            if (c.field == f.name)
              n = std::max(n, c.index + 1);
        std::vector<std::uint32_t> entries;
        std::vector<std::pair<std::uint32_t, unsigned>> entryBuffers;
        for (std::size_t i = 0; i < n; ++i) {
          const auto *c = findConnection(v, f.name, i);
          if (!c)
            raise<graph_connection_error>("Engine: element ", i, " of ", binder.where,
                                          " is not connected (the list has ", n, " elements)");
          auto loc = locate(out, c->tensor);
          auto bound = binder.bind(loc, v.tile, align, direction);
          addRegion(bound, loc.numBytes(), regionKind(direction), firstVariable(c->tensor),
                    std::uint32_t(i));
          if (bound.buffer >= 0)
            entryBuffers.emplace_back(std::uint32_t(entries.size() * 4), unsigned(bound.buffer));
          entries.push_back(bound.address);
          if (entryHasCount)
            entries.push_back(std::uint32_t(c->tensor.numElements()));
        }
        auto descriptors =
            alloc.allocate(v.tile, entries.size() * 4, 4, MemoryCategory::vectorListDescriptor);
        alloc.write(v.tile, descriptors, reinterpret_cast<const std::uint8_t *>(entries.data()),
                    entries.size() * 4);
        for (const auto &[at, buffer] : entryBuffers)
          alloc.writeAddressOf(v.tile, descriptors + at, buffer, kTileMemoryBase);
        addRegion({address(descriptors)}, entries.size() * 4, RegionKind::Descriptors, ~0u, ~0u);
        put32(state, f.offset, address(descriptors));
        if (stateHasCount)
          put32(state, f.offset + 4, std::uint32_t(n));
      }
      std::uint32_t stateAlign = std::max<std::uint32_t>(gv.stateAlign, 4);
      auto stateOffset =
          alloc.allocate(v.tile, state.size(), stateAlign, MemoryCategory::vertexInstanceState);
      alloc.write(v.tile, stateOffset, state.data(), state.size());
      for (const auto &[at, buffer] : stateBuffers)
        alloc.writeAddressOf(v.tile, stateOffset + at, buffer, kTileMemoryBase);
      auto type = typeIndex(v.type);
      vertexCount[type] += 1;
      stateBytes[type] += state.size();
      cs.vertices.push_back({type, id, v.tile, stateOffset, std::uint32_t(state.size()),
                             v.perfEstimate ? std::int64_t(*v.perfEstimate) : -1, firstRegion,
                             std::uint32_t(cs.regions.size()) - firstRegion});
    }
    cs.copyInCycles = costOfExchange(out.target, cs.copyIn).exchangeCycles;
    cs.copyOutCycles = costOfExchange(out.target, cs.copyOut).exchangeCycles;
    out.computeSets.push_back(std::move(cs));
  }
  // Every always-live allocation is made: the shared buffers go after them, then the copies
  // planned at offset 0 of a buffer move to where it landed.
  alloc.placeShared();
  for (std::size_t c = 0; c < bufferRuns.size(); ++c)
    for (const auto &b : bufferRuns[c]) {
      auto base = alloc.sharedOffset(b.buffer);
      if (b.copyIn)
        out.computeSets[c].copyIn[b.run].dstOffset += base;
      else
        out.computeSets[c].copyOut[b.run].srcOffset += base;
    }
  for (const auto &r : regionBuffers)
    out.computeSets[r.computeSet].regions[r.region].offset += alloc.sharedOffset(r.buffer);
  // One profile entry per vertex type, in the same order, so runs can add cycles by index.
  for (std::size_t t = 0; t < out.vertexTypes.size(); ++t)
    out.profile.vertexTypes.push_back({out.vertexTypes[t].name, vertexCount[t], stateBytes[t], 0});
}

} // namespace poplar::detail
