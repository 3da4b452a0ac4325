// Executable: a CompiledGraph that serialises as a CBOR description (record tables packed as
// byte strings) followed by raw tile images.
#include "compiler/CompiledGraph.hpp"
#include "core/Errors.hpp"
#include "support/BoundedJson.hpp"
#include "support/CheckedMath.hpp"
#include "target/TargetCheck.hpp"

#include <poplar/Executable.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstring>
#include <optional>

namespace poplar::detail {

/// Vectors of small records are packed: each vector one CBOR byte string, each record's fields
/// one after another in host byte order. A convolution's copies and a big program's vertices run
/// to millions of records: as arrays of maps they cost a JSON node per field (gigabytes in
/// memory, hundreds of megabytes on disk); packed, their own size.
template <typename T> struct Packed : std::false_type {};

#define POPSDK_PACK_FIELD(field) visit(record.field);
/// Like NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE, for a record whose vectors are packed.
#define POPSDK_PACKED_RECORD(Record, ...)                                                          \
  template <> struct Packed<Record> : std::true_type {};                                           \
  template <typename F> void forEachField(Record &record, F &&visit) {                             \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(POPSDK_PACK_FIELD, __VA_ARGS__))                      \
  }                                                                                                \
  template <typename F> void forEachField(const Record &record, F &&visit) {                       \
    NLOHMANN_JSON_EXPAND(NLOHMANN_JSON_PASTE(POPSDK_PACK_FIELD, __VA_ARGS__))                      \
  }

POPSDK_PACKED_RECORD(MemRun, tile, offset, bytes)
POPSDK_PACKED_RECORD(CopyRun, srcTile, srcOffset, dstTile, dstOffset, bytes)
POPSDK_PACKED_RECORD(Placement, begin, end, tile, offset)
POPSDK_PACKED_RECORD(VertexInstance, vertexType, id, tile, stateOffset, stateBytes, perfEstimate,
                     firstRegion, regions)
POPSDK_PACKED_RECORD(FieldRegion, offset, bytes, variable, element, field, kind)
POPSDK_PACKED_RECORD(Step, kind, arg, target)

template <typename Record> std::size_t packedBytes() {
  std::size_t n = 0;
  forEachField(Record{}, [&](const auto &field) { n += sizeof field; });
  return n;
}

} // namespace poplar::detail

template <typename Record>
struct nlohmann::adl_serializer<std::vector<Record>,
                                std::enable_if_t<poplar::detail::Packed<Record>::value>> {
  static void to_json(json &j, const std::vector<Record> &records) {
    std::vector<std::uint8_t> bytes(records.size() * poplar::detail::packedBytes<Record>());
    std::uint8_t *p = bytes.data();
    for (const Record &r : records)
      forEachField(r, [&](const auto &field) {
        std::memcpy(p, &field, sizeof field);
        p += sizeof field;
      });
    j = json::binary(std::move(bytes));
  }

  static void from_json(const json &j, std::vector<Record> &records) {
    const std::size_t recordBytes = poplar::detail::packedBytes<Record>();
    if (!j.is_binary() || j.get_binary().size() % recordBytes != 0)
      poplar::detail::raise<poplar::poplar_error>(
          "Executable::deserialize: corrupt description: a table of ", recordBytes,
          "-byte records is not a byte string of whole records");
    const auto &bytes = j.get_binary();
    records.assign(bytes.size() / recordBytes, Record{});
    const std::uint8_t *p = bytes.data();
    for (Record &r : records)
      forEachField(r, [&](auto &field) {
        std::memcpy(&field, p, sizeof field);
        p += sizeof field;
      });
  }
};

namespace poplar {
namespace detail {

NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TargetDesc, type, arch, numIPUs, tilesPerIPU, bytesPerTile,
                                   numWorkerContexts, exchangeBytesPerCycle, clockHz,
                                   tilesPerSuperTile, superTileSendReceive, minIPUSyncDelay,
                                   relativeSyncDelayNone, globalSyncCycles, hostBytesPerSecond)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledVariable, name, type, numElements, isConstant,
                                   placements)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TensorLocation, type, shape, runs)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledCodelet, gpBytes, dataOffset)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledVertexType, name, codelet, entry, multiVertex)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TileStacks, offset, bytesPerWorker)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledComputeSet, name, vertices, regions, copyIn, copyOut,
                                   copyInCycles, copyOutCycles)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledExchange, name, runs, exchangeCycles, syncCycles,
                                   firstTile, lastTile, staged)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledStreamCopy, name, stream, toDevice, runs, hostCycles,
                                   syncCycles)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledStream, handle, type, numElements, toDevice)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledPrint, title, tensor)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ScalarRef, type, tile, offset)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledSwitch, control, cases, defaultTarget)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(CompiledError, message, debugTensor)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(HostAccess, tensor, isWrite)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(TileMemoryUsage, bytes, gaps, sharedBytes, notAlwaysLive)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(VertexTypeUsage, name, instances, stateBytes, cycles,
                                   edgePointerBytes)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProfileStep, kind, name, firstTile, lastTile)
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(ProfileData, targetType, arch, numIPUs, tilesPerIPU, numTiles,
                                   numWorkerContexts, bytesPerTile, clockHz, poplarVersion,
                                   numReplicas, numVertices, numEdges, numVariables, numComputeSets,
                                   tileMemory, vertexTypes, steps)

namespace {

// Version 2: record tables packed (PackedRecords). Version 3: vertices' field regions.
// Version 4: the target's superTileSendReceive (exchange cycles depend on it).
constexpr char kMagic[8] = {'P', 'O', 'P', 'E', 'X', 'E', 'C', '4'};

nlohmann::json describe(const CompiledGraph &cg) {
  nlohmann::json j;
  j["target"] = cg.target;
  j["variables"] = cg.variables;
  j["codelets"] = cg.codelets;
  j["vertexTypes"] = cg.vertexTypes;
  j["stacks"] = cg.stacks;
  j["computeSets"] = cg.computeSets;
  j["exchanges"] = cg.exchanges;
  j["streamCopies"] = cg.streamCopies;
  j["streams"] = cg.streams;
  j["prints"] = cg.prints;
  j["scalars"] = cg.scalars;
  j["switches"] = cg.switches;
  j["errors"] = cg.errors;
  j["steps"] = cg.steps;
  j["programEntries"] = cg.programEntries;
  j["programNames"] = cg.programNames;
  j["programStreams"] = cg.programStreams;
  j["hostAccess"] = cg.hostAccess;
  j["profile"] = cg.profile;
  j["numTileImages"] = cg.tileImages.size();
  return j;
}

void restore(const nlohmann::json &j, CompiledGraph &cg) {
  j.at("target").get_to(cg.target);
  j.at("variables").get_to(cg.variables);
  j.at("codelets").get_to(cg.codelets);
  j.at("vertexTypes").get_to(cg.vertexTypes);
  j.at("stacks").get_to(cg.stacks);
  j.at("computeSets").get_to(cg.computeSets);
  j.at("exchanges").get_to(cg.exchanges);
  j.at("streamCopies").get_to(cg.streamCopies);
  j.at("streams").get_to(cg.streams);
  j.at("prints").get_to(cg.prints);
  j.at("scalars").get_to(cg.scalars);
  j.at("switches").get_to(cg.switches);
  j.at("errors").get_to(cg.errors);
  j.at("steps").get_to(cg.steps);
  j.at("programEntries").get_to(cg.programEntries);
  j.at("programNames").get_to(cg.programNames);
  j.at("programStreams").get_to(cg.programStreams);
  j.at("hostAccess").get_to(cg.hostAccess);
  j.at("profile").get_to(cg.profile);
}

/// A description that decodes can still point outside its own tables or tile images; running
/// it would read or write host memory, so every index and byte range is checked first.
void validate(const CompiledGraph &cg) {
  auto fail = [](const std::string &what) {
    raise<poplar_error>("Executable::deserialize: corrupt executable: ", what);
  };
  auto checkRun = [&](std::uint32_t tile, std::uint64_t offset, std::uint64_t bytes) {
    if (tile >= cg.tileImages.size() || offset + bytes > cg.tileImages[tile].size())
      fail("a copy reaches outside the memory of tile " + std::to_string(tile));
  };
  // An element type id is an index into the type table, so one past FLOAT would read outside it.
  auto checkType = [&](Type::Id id) {
    if (id == Type::Id::INVALID || unsigned(id) > unsigned(Type::Id::FLOAT))
      fail("unknown element type id " + std::to_string(unsigned(id)));
  };
  // Host reads and prints index a location's bytes by its shape: the two must agree.
  auto checkLocation = [&](const TensorLocation &loc) {
    for (const auto &r : loc.runs)
      checkRun(r.tile, r.offset, r.bytes);
    if (loc.runs.empty() && loc.shape.empty())
      return; // no tensor (an Error program without a debug tensor)
    checkType(loc.type);
    std::optional<std::size_t> bytes = Type(loc.type).size();
    for (auto d : loc.shape)
      if (bytes)
        bytes = popsdk::support::checkedMul(*bytes, d);
    if (!bytes || *bytes != loc.numBytes())
      fail("a tensor's shape " + shapeText(loc.shape) + " does not match its " +
           std::to_string(loc.numBytes()) + " bytes");
  };
  auto checkCopies = [&](const std::vector<CopyRun> &runs) {
    for (const auto &r : runs) {
      checkRun(r.srcTile, r.srcOffset, r.bytes);
      checkRun(r.dstTile, r.dstOffset, r.bytes);
    }
  };
  if (cg.tileImages.size() != cg.target.numTiles() || cg.stacks.size() > cg.tileImages.size())
    fail("tile count does not match the target");
  for (const auto &e : cg.exchanges)
    checkCopies(e.runs);
  for (const auto &cs : cg.computeSets) {
    checkCopies(cs.copyIn);
    checkCopies(cs.copyOut);
    for (const auto &v : cs.vertices) {
      if (v.vertexType >= cg.vertexTypes.size() || v.tile >= cg.stacks.size())
        fail("a vertex refers to an unknown type or tile");
      checkRun(v.tile, v.stateOffset, v.stateBytes);
      if (std::uint64_t(v.firstRegion) + v.regions > cs.regions.size())
        fail("a vertex refers to field regions outside its compute set's table");
      for (std::uint32_t r = v.firstRegion; r < v.firstRegion + v.regions; ++r) {
        const auto &region = cs.regions[r];
        checkRun(v.tile, region.offset, region.bytes);
        if (region.kind > RegionKind::Descriptors ||
            (region.variable != ~0u && region.variable >= cg.variables.size()))
          fail("a field region has an unknown kind or variable");
      }
    }
  }
  for (const auto &t : cg.vertexTypes)
    if (t.codelet >= cg.codelets.size())
      fail("a vertex type refers to an unknown codelet object");
  for (const auto &v : cg.variables)
    checkType(v.type);
  for (const auto &st : cg.streams) {
    checkType(st.type);
    if (!popsdk::support::checkedMul(st.numElements, Type(st.type).size()))
      fail("stream '" + st.handle + "' has more bytes than a size_t holds");
  }
  for (const auto &sc : cg.streamCopies) {
    if (sc.stream >= cg.streams.size())
      fail("a stream copy refers to an unknown stream");
    for (const auto &r : sc.runs)
      checkRun(r.tile, r.offset, r.bytes);
  }
  for (const auto &p : cg.prints)
    checkLocation(p.tensor);
  for (const auto &e : cg.errors)
    checkLocation(e.debugTensor.tensor);
  for (const auto &[handle, access] : cg.hostAccess)
    checkLocation(access.tensor);
  auto checkScalar = [&](const ScalarRef &r) {
    checkType(r.type);
    checkRun(r.tile, r.offset, Type(r.type).size());
  };
  for (const auto &r : cg.scalars)
    checkScalar(r);
  std::size_t n = cg.steps.size();
  for (const auto &sw : cg.switches) {
    checkScalar(sw.control);
    if (sw.defaultTarget >= n)
      fail("a switch jumps outside the program");
    for (const auto &c : sw.cases)
      if (c.second >= n)
        fail("a switch jumps outside the program");
  }
  auto tableSize = [&](StepKind k) -> std::size_t {
    switch (k) {
    case StepKind::Compute:
      return cg.computeSets.size();
    case StepKind::Exchange:
      return cg.exchanges.size();
    case StepKind::StreamCopy:
      return cg.streamCopies.size();
    case StepKind::Print:
      return cg.prints.size();
    case StepKind::BranchIfZero:
    case StepKind::BranchIfNonZero:
      return cg.scalars.size();
    case StepKind::Switch:
      return cg.switches.size();
    case StepKind::Error:
      return cg.errors.size();
    default:
      return SIZE_MAX;
    }
  };
  for (const auto &step : cg.steps) {
    if (step.target >= n || step.arg >= tableSize(step.kind))
      fail(std::string("a ") + toString(step.kind) + " step refers outside its tables");
  }
  if (cg.programStreams.size() != cg.programEntries.size() ||
      cg.programNames.size() != cg.programEntries.size())
    fail("program tables disagree");
  for (auto entry : cg.programEntries)
    if (entry >= n)
      fail("a program starts outside the step list");
  for (const auto &streams : cg.programStreams)
    for (auto s : streams)
      if (s >= cg.streams.size())
        fail("a program uses an unknown stream");
}

void writeU64(std::ostream &out, std::uint64_t v) {
  out.write(reinterpret_cast<const char *>(&v), sizeof v);
}

std::uint64_t readU64(std::istream &in, const char *what) {
  std::uint64_t v = 0;
  if (!in.read(reinterpret_cast<char *>(&v), sizeof v))
    raise<poplar_error>("Executable::deserialize: the stream ends inside ", what);
  return v;
}

/// The bytes left in `in` if it can seek (a file or a string), else nullopt (a pipe).
std::optional<std::uint64_t> remainingBytes(std::istream &in) {
  auto here = in.tellg();
  if (here >= 0 && in.seekg(0, std::ios::end)) {
    auto end = in.tellg();
    if (in.seekg(here) && end >= here)
      return std::uint64_t(end - here);
  }
  in.clear();
  return std::nullopt;
}

/// Checks that `n` bytes said to follow in `in` can be there before anything is sized by `n`.
void checkRemaining(std::istream &in, std::uint64_t n, const char *what) {
  auto left = remainingBytes(in);
  if (left && n > *left)
    raise<poplar_error>("Executable::deserialize: the stream ends inside ", what, ": it claims ", n,
                        " bytes but only ", *left, " remain");
}

/// Reads `n` bytes in pieces, so that a stream that cannot seek (and so was not checked by
/// checkRemaining) costs no more memory than the data it really holds.
std::vector<std::uint8_t> readBytes(std::istream &in, std::uint64_t n, const char *what) {
  constexpr std::uint64_t kPiece = 1 << 20;
  std::vector<std::uint8_t> bytes;
  while (bytes.size() < n) {
    std::size_t start = bytes.size();
    std::size_t piece = std::size_t(std::min<std::uint64_t>(kPiece, n - start));
    bytes.resize(start + piece);
    if (!in.read(reinterpret_cast<char *>(bytes.data() + start), std::streamsize(piece)))
      raise<poplar_error>("Executable::deserialize: the stream ends inside ", what);
  }
  return bytes;
}

} // namespace
} // namespace detail

using namespace detail;

Executable::Executable(std::unique_ptr<CompiledGraph> impl) : impl_(std::move(impl)) {}
Executable::Executable(Executable &&) noexcept = default;
Executable &Executable::operator=(Executable &&) noexcept = default;
Executable::~Executable() = default;

std::unique_ptr<CompiledGraph> Executable::release() {
  if (!impl_)
    raise<poplar_error>("Executable: already used to build an Engine (or moved from)");
  return std::move(impl_);
}

void Executable::serialize(std::ostream &out) const {
  if (!impl_)
    raise<poplar_error>("Executable::serialize: the executable is empty (moved from)");
  auto cbor = nlohmann::json::to_cbor(describe(*impl_));
  out.write(kMagic, sizeof kMagic);
  writeU64(out, cbor.size());
  out.write(reinterpret_cast<const char *>(cbor.data()), std::streamsize(cbor.size()));
  for (const auto &image : impl_->tileImages) {
    writeU64(out, image.size());
    out.write(reinterpret_cast<const char *>(image.data()), std::streamsize(image.size()));
  }
  if (!out)
    raise<poplar_error>("Executable::serialize: writing to the stream failed");
}

Executable Executable::deserialize(std::istream &in) {
  char magic[sizeof kMagic] = {};
  if (!in.read(magic, sizeof magic) || !std::equal(magic, magic + sizeof magic, kMagic))
    raise<poplar_error>("Executable::deserialize: not a serialised executable (bad magic)");
  std::uint64_t size = readU64(in, "the header");
  checkRemaining(in, size, "the description");
  std::vector<std::uint8_t> cbor = readBytes(in, size, "the description");
  auto cg = std::make_unique<CompiledGraph>();
  std::uint64_t numImages = 0;
  try {
    nlohmann::json j;
    if (!popsdk::support::parseBounded(cbor, nlohmann::json::input_format_t::cbor, j))
      raise<poplar_error>("Executable::deserialize: corrupt description: nested more than ",
                          popsdk::support::kMaxJsonDepth, " levels deep");
    restore(j, *cg);
    numImages = j.at("numTileImages").get<std::uint64_t>();
  } catch (const nlohmann::json::exception &e) {
    raise<poplar_error>("Executable::deserialize: corrupt description: ", e.what());
  }
  // The target sizes everything after it (tile images, stacks, cycle figures), so it is checked
  // first; a zero here would divide by zero or size nothing at run time.
  std::string bad = invalidTargetField(cg->target);
  if (!bad.empty())
    raise<invalid_machine_model>("Executable::deserialize: the executable's target is invalid: ",
                                 bad);
  if (numImages != cg->target.numTiles())
    raise<poplar_error>("Executable::deserialize: corrupt executable: ", numImages,
                        " tile images for a target of ", cg->target.numTiles(), " tiles");
  // Each image has at least its 8-byte size ahead of it.
  checkRemaining(in, numImages * 8, "the tile image table");
  for (std::uint64_t t = 0; t < numImages; ++t) {
    std::uint64_t n = readU64(in, "a tile image");
    if (n > cg->target.bytesPerTile)
      raise<poplar_error>("Executable::deserialize: the image of tile ", t, " has ", n,
                          " bytes, more than the tile memory of ", cg->target.bytesPerTile);
    checkRemaining(in, n, "a tile image");
    cg->tileImages.push_back(readBytes(in, n, "a tile image"));
  }
  validate(*cg);
  return Executable(std::move(cg));
}

} // namespace poplar
