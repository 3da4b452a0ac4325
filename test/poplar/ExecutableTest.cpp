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

TEST(Executable, Regression_JumpOutsideTheProgramIsRejected) {
  expectRejected(tamper(serializedCopyProgram(), [](nlohmann::json &j) {
                   j["steps"][0]["target"] = 1000000;
                 }),
                 "refers outside its tables");
}

TEST(Executable, Regression_CopyOutsideTileMemoryIsRejected) {
  expectRejected(tamper(serializedCopyProgram(), [](nlohmann::json &j) {
                   j["exchanges"][0]["runs"][0]["dstOffset"] = 600000;
                 }),
                 "outside the memory of tile");
}

TEST(Executable, Regression_UnknownTableIndexIsRejected) {
  expectRejected(tamper(serializedCopyProgram(), [](nlohmann::json &j) {
                   j["steps"][0]["arg"] = 7;
                 }),
                 "refers outside its tables");
}
