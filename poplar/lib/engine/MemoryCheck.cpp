// debug.checkMemoryAccess at the Engine: memory maps from the compiled field regions, and the
// nearest range named in a stray access's error.
#include "engine/MemoryCheck.hpp"

#include "core/Errors.hpp"

#include <sstream>

namespace poplar::detail {

namespace {

bool writable(RegionKind kind) {
  return kind == RegionKind::Output || kind == RegionKind::InOut || kind == RegionKind::State;
}

// A data region's kind is its field's direction, so that errors use the .gp's names.
static_assert(unsigned(RegionKind::Input) == unsigned(gp::FieldDirection::Input) &&
              unsigned(RegionKind::Output) == unsigned(gp::FieldDirection::Output) &&
              unsigned(RegionKind::InOut) == unsigned(gp::FieldDirection::InOut) &&
              unsigned(RegionKind::State) == unsigned(gp::FieldDirection::State));

/// A range the vertex has, as an error names it.
struct Named {
  std::uint64_t lo = 0, hi = 0;
  std::string name;
  bool writable = true;
};

} // namespace

MemoryChecker::MemoryChecker(const CompiledGraph &cg, const std::vector<LoadedCodelet> &codelets)
    : cg_(cg), codelets_(codelets) {
  for (const auto &t : cg.vertexTypes)
    gpVertex_.push_back(codelets.at(t.codelet).file.findVertex(t.name));
  for (const auto &cs : cg.computeSets)
    for (const auto &v : cs.vertices)
      for (std::uint32_t r = v.firstRegion; r < v.firstRegion + v.regions; ++r)
        if (const gp::Vertex *gv = gpVertex_[v.vertexType];
            gv && cs.regions[r].field >= gv->fields.size())
          raise<poplar_error>("Engine: corrupt executable: a field region of vertex '", gv->name,
                              "' names field ", cs.regions[r].field, " of ", gv->fields.size());
}

void MemoryChecker::mapFor(const CompiledComputeSet &cs, const VertexInstance &v,
                           interp::AccessMap &map) const {
  map.clear();
  for (std::uint32_t r = v.firstRegion; r < v.firstRegion + v.regions; ++r) {
    const FieldRegion &region = cs.regions[r];
    map.allow(kTileMemoryBase + region.offset, region.bytes, writable(region.kind));
  }
  map.allow(kTileMemoryBase + v.stateOffset, v.stateBytes, true);
  const LoadedCodelet &codelet = codelets_[cg_.vertexTypes[v.vertexType].codelet];
  map.allow(codelet.dataAddress, std::uint32_t(codelet.file.data.size()), true);
  map.seal();
}

std::string MemoryChecker::describe(const CompiledComputeSet &cs, const VertexInstance &v,
                                    const interp::Launch &launch, const interp::WorkerState &state,
                                    const interp::RunResult &r) const {
  // Field regions first: on a tie they are what the author thinks in.
  std::vector<Named> ranges;
  const gp::Vertex *gv = gpVertex_[v.vertexType];
  for (std::uint32_t i = v.firstRegion; i < v.firstRegion + v.regions; ++i) {
    const FieldRegion &region = cs.regions[i];
    std::ostringstream name;
    const std::string field =
        gv ? "'" + gv->fields[region.field].name + "'" : "#" + std::to_string(region.field);
    if (region.kind == RegionKind::Descriptors) {
      name << "the descriptors of field " << field << " (" << region.bytes << " bytes)";
    } else {
      if (region.element != ~0u)
        name << "element " << region.element << " of ";
      name << gp::toString(gp::FieldDirection(region.kind)) << " field " << field << " (";
      if (region.variable != ~0u)
        name << "tensor '" << cg_.variables[region.variable].name << "', ";
      else if (region.kind == RegionKind::State)
        name << "the vertex's own data, ";
      name << region.bytes << " bytes)";
    }
    const std::uint64_t lo = kTileMemoryBase + std::uint64_t(region.offset);
    ranges.push_back({lo, lo + region.bytes, name.str(), writable(region.kind)});
  }
  const std::uint64_t block = kTileMemoryBase + std::uint64_t(v.stateOffset);
  ranges.push_back({block, block + v.stateBytes,
                    "the vertex state (" + std::to_string(v.stateBytes) + " bytes)", true});
  const LoadedCodelet &codelet = codelets_[cg_.vertexTypes[v.vertexType].codelet];
  ranges.push_back({codelet.dataAddress, codelet.dataAddress + codelet.file.data.size(),
                    "the codelet's data (" + std::to_string(codelet.file.data.size()) + " bytes)",
                    true});
  // The live stack: below sp is no frame's.
  const std::uint64_t sp = state.regs[isa::kRegSp], top = launch.stackBase + launch.stackSize;
  ranges.push_back({sp, top,
                    "the live stack of worker " + std::to_string(launch.workerId) + " (" +
                        std::to_string(top - sp) + " of " + std::to_string(launch.stackSize) +
                        " bytes in use)",
                    true});

  const std::uint64_t a = r.address, end = a + r.accessBytes;
  std::ostringstream os;
  const Named *nearest = nullptr;
  std::uint64_t best = ~std::uint64_t(0);
  for (const Named &n : ranges) {
    if (n.hi <= n.lo)
      continue;
    const std::uint64_t miss = a < n.lo ? n.lo - a : end > n.hi ? end - n.hi : 0;
    if (miss < best) {
      best = miss;
      nearest = &n;
    }
  }
  if (!nearest)
    return "the vertex has no memory";
  if (a < nearest->lo)
    os << best << " bytes before the start of " << nearest->name;
  else if (end > nearest->hi)
    os << best << " bytes past the end of " << nearest->name;
  else
    os << "into " << nearest->name << ", which the vertex may only read";
  return os.str();
}

} // namespace poplar::detail
