// Executable::deserialize rejects descriptions that decode but point outside their own tables
// or tile memory, instead of running them over host memory.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstring>
#include <sstream>

using namespace poplar;

namespace {

std::string serializedCopyProgram() {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {8}, "a"), b = graph.addVariable(FLOAT, {8}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  std::stringstream out;
  compileGraph(graph, {program::Copy(a, b)}).serialize(out);
  return out.str();
}

/// Decodes the CBOR description, lets `edit` change it, and re-encodes the file around it.
std::string tamper(const std::string &file, const std::function<void(nlohmann::json &)> &edit) {
  std::uint64_t size = 0;
  std::memcpy(&size, file.data() + 8, 8);
  auto j = nlohmann::json::from_cbor(file.substr(16, size));
  edit(j);
  auto cbor = nlohmann::json::to_cbor(j);
  std::uint64_t newSize = cbor.size();
  std::string out = file.substr(0, 8);
  out.append(reinterpret_cast<const char *>(&newSize), 8);
  out.append(cbor.begin(), cbor.end());
  out.append(file.substr(16 + size));
  return out;
}

/// Sets the 32-bit field `byteOffset` bytes into record `index` of a packed table (record
/// fields are packed one after another: a Step is kind (1 byte), arg, target; a CopyRun is
/// srcTile, srcOffset, dstTile, dstOffset, bytes).
void setPackedU32(nlohmann::json &table, std::size_t recordBytes, std::size_t index,
                  std::size_t byteOffset, std::uint32_t value) {
  std::memcpy(table.get_binary().data() + index * recordBytes + byteOffset, &value, 4);
}
constexpr std::size_t kStepBytes = 9, kCopyRunBytes = 20;

void expectRejected(const std::string &file, const std::string &what) {
  std::istringstream in(file);
  try {
    Executable::deserialize(in);
    FAIL() << "a corrupt executable was accepted";
  } catch (const poplar_error &e) {
    EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
  }
}

} // namespace

TEST(Executable, UntamperedRoundTripLoads) {
  std::istringstream in(serializedCopyProgram());
  EXPECT_NO_THROW(Executable::deserialize(in));
}

TEST(Executable, PackedTableOfPartRecordsIsRejected) {
  expectRejected(tamper(serializedCopyProgram(),
                        [](nlohmann::json &j) { j["steps"].get_binary().pop_back(); }),
                 "not a byte string of whole records");
  expectRejected(tamper(serializedCopyProgram(),
                        [](nlohmann::json &j) {
                          j["steps"] = {1, 2};
                        }),
                 "not a byte string of whole records");
}

TEST(Executable, Regression_JumpOutsideTheProgramIsRejected) {
  expectRejected(
      tamper(serializedCopyProgram(),
             [](nlohmann::json &j) { setPackedU32(j["steps"], kStepBytes, 0, 5, 1000000); }),
      "refers outside its tables");
}

TEST(Executable, Regression_CopyOutsideTileMemoryIsRejected) {
  expectRejected(tamper(serializedCopyProgram(),
                        [](nlohmann::json &j) {
                          setPackedU32(j["exchanges"][0]["runs"], kCopyRunBytes, 0, 12, 600000);
                        }),
                 "outside the memory of tile");
}

TEST(Executable, Regression_UnknownTableIndexIsRejected) {
  expectRejected(tamper(serializedCopyProgram(),
                        [](nlohmann::json &j) { setPackedU32(j["steps"], kStepBytes, 0, 1, 7); }),
                 "refers outside its tables");
}

// A small file must not make the reader allocate what its counts claim: each count is checked
// against the target and the bytes left before anything is sized by it.
TEST(Executable, Regression_HugeTileImageCountIsRejectedBeforeAllocating) {
  for (std::uint64_t count : {std::uint64_t(1) << 40, std::uint64_t(5), std::uint64_t(0)})
    expectRejected(
        tamper(serializedCopyProgram(), [&](nlohmann::json &j) { j["numTileImages"] = count; }),
        "tile images for a target of 4 tiles");
  // A target that claims a million tiles, backed by a few hundred bytes.
  expectRejected(tamper(serializedCopyProgram(),
                        [](nlohmann::json &j) {
                          j["target"]["tilesPerIPU"] = 1 << 20;
                          j["numTileImages"] = 1 << 20;
                        }),
                 "the tile image table: it claims 8388608 bytes");
  expectRejected(tamper(serializedCopyProgram(),
                        [](nlohmann::json &j) {
                          j["target"]["tilesPerIPU"] = 1u << 31;
                          j["numTileImages"] = 1u << 31;
                        }),
                 "numIPUs x tilesPerIPU is 2147483648");
}

TEST(Executable, Regression_HugeSizesAreCheckedAgainstTheBytesLeft) {
  std::string file = serializedCopyProgram();
  std::string huge = file;
  std::uint64_t size = std::uint64_t(1) << 31;
  std::memcpy(huge.data() + 8, &size, 8);
  expectRejected(huge, "the description: it claims 2147483648 bytes but only");
  // The first tile image's size, just after the description.
  std::uint64_t described = 0;
  std::memcpy(&described, file.data() + 8, 8);
  std::string image = file;
  std::uint64_t imageSize = 600000; // within the tile memory, far beyond the file
  std::memcpy(image.data() + 16 + described, &imageSize, 8);
  expectRejected(image, "a tile image: it claims 600000 bytes but only");
}

// Zeros that would divide by zero or size nothing later are rejected up front, naming the field.
TEST(Executable, Regression_ZeroTargetFieldsAreRejected) {
  for (const char *field :
       {"numWorkerContexts", "exchangeBytesPerCycle", "bytesPerTile", "tilesPerIPU", "numIPUs",
        "tilesPerSuperTile", "clockHz", "hostBytesPerSecond"}) {
    SCOPED_TRACE(field);
    std::istringstream in(
        tamper(serializedCopyProgram(), [&](nlohmann::json &j) { j["target"][field] = 0; }));
    try {
      Executable::deserialize(in);
      ADD_FAILURE() << "accepted";
    } catch (const invalid_machine_model &e) {
      EXPECT_NE(std::string(e.what()).find(std::string(field) + " is 0"), std::string::npos)
          << e.what();
    }
  }
}

// Today's model and the file's differ only in tile memory: the message must say so, not print
// two identical descriptions.
TEST(Executable, Regression_TargetMismatchNamesTheField) {
  std::istringstream in(serializedCopyProgram());
  Engine engine(Executable::deserialize(in));
  IPUModel model;
  model.tilesPerIPU = 4;
  model.memoryBytesPerTile = 1 << 17;
  Device device = model.createDevice();
  try {
    engine.load(device);
    FAIL() << "loaded onto a device with other tile memory";
  } catch (const poplar_error &e) {
    EXPECT_NE(std::string(e.what()).find("bytesPerTile: the device has 131072, the executable " +
                                         std::to_string(IPUModel().memoryBytesPerTile)),
              std::string::npos)
        << e.what();
  }
  IPUModel other;
  other.tilesPerIPU = 8;
  try {
    engine.load(other.createDevice());
    FAIL() << "loaded onto a device with more tiles";
  } catch (const poplar_error &e) {
    EXPECT_NE(std::string(e.what()).find("numTiles: the device has 8, the executable 4"),
              std::string::npos)
        << e.what();
  }
}

// A type id is an index into the type table; a tensor's shape indexes its bytes on the host.
TEST(Executable, Regression_UnknownTypeAndInconsistentShapeAreRejected) {
  expectRejected(
      tamper(serializedCopyProgram(), [](nlohmann::json &j) { j["variables"][0]["type"] = 200; }),
      "unknown element type id 200");
  std::string withRead = [] {
    IPUModel model;
    model.tilesPerIPU = 4;
    Graph graph(model.createDevice().getTarget());
    Tensor a = graph.addVariable(FLOAT, {8}, "a");
    graph.setTileMapping(a, 0);
    graph.createHostRead("a", a);
    std::stringstream out;
    compileGraph(graph, {program::Sequence()}).serialize(out);
    return out.str();
  }();
  {
    std::istringstream in(withRead);
    EXPECT_NO_THROW(Executable::deserialize(in));
  }
  expectRejected(tamper(withRead,
                        [](nlohmann::json &j) {
                          j["hostAccess"]["a"]["tensor"]["shape"] = {1ull << 62, 4};
                        }),
                 "does not match its 32 bytes");
  expectRejected(
      tamper(withRead, [](nlohmann::json &j) { j["hostAccess"]["a"]["tensor"]["shape"] = {9}; }),
      "shape {9} does not match its 32 bytes");
}

// A copy of every other element is 2,000 runs of 4 bytes. Each run used to be a CBOR map of
// five named fields (about 70 bytes), so a small CNN's description reached hundreds of
// megabytes and gigabytes of JSON nodes while it was written; packed, a run is 20 bytes.
TEST(Executable, Regression_CopyRunsArePacked) {
  IPUModel model;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {4000}, "a"), b = graph.addVariable(FLOAT, {2000}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  std::stringstream out;
  compileGraph(graph, {program::Copy(a.subSample(2, 0), b)}).serialize(out);
  std::uint64_t descriptionBytes = 0;
  std::memcpy(&descriptionBytes, out.str().data() + 8, 8);
  EXPECT_GT(descriptionBytes, 2000u * 20);
  EXPECT_LT(descriptionBytes, 2000u * 20 + 8192);
  std::istringstream in(out.str());
  EXPECT_NO_THROW(Executable::deserialize(in));
}
