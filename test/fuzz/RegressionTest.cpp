// Regression tests for what the fuzz targets found (docs/reliability.md); each input is also
// kept in test/fuzz/corpus/<target>/regression-*, which CorpusTest replays.
#include "ExpectThrows.hpp"
#include "VertexFieldsInput.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/OptionFlags.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

using namespace popsdk::fuzz;
using namespace poplar;
using popsdk::test::expectThrowsWith;
namespace gp = poplar::gp;

namespace {

/// A .gp file holding `vertex`, removed at the end of the test.
class ObjectFile {
public:
  explicit ObjectFile(const gp::Vertex &vertex)
      : path_(std::filesystem::temp_directory_path() /
              ("fuzz_tests-" + std::to_string(::getpid()) + ".gp")) {
    gp::writeGpFile(objectWith(vertex), path_.string());
  }
  ~ObjectFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

private:
  std::filesystem::path path_;
};

Device twoTiles() {
  IPUModel model("ipu2");
  model.tilesPerIPU = 2;
  return model.createDevice();
}

gp::Vertex vertexNamed(const char *name) {
  gp::Vertex v;
  v.name = name;
  return v;
}

} // namespace

// fuzz_vertex_fields: a state of 2^32 - 1 bytes was accepted and the compiler allocated it on
// the host to lay it out; a stack of 2^32 - 1 bytes wrapped to a 64-byte one ((n + 7) / 8 * 8
// in 32 bits).
TEST(FuzzVertexFields, Regression_StateOrStackBiggerThanATileIsRefusedAtLoad) {
  Device device = twoTiles();
  gp::Vertex state = vertexNamed("HugeState");
  state.stateSize = 0xffffffffu;
  gp::Vertex stack = vertexNamed("HugeStack");
  stack.stackSize = 0xffffffffu;
  gp::Vertex oneByteTooMany = vertexNamed("JustTooBig");
  oneByteTooMany.stateSize = device.getTarget().getBytesPerTile() + 1;
  for (const auto &[vertex, parts] :
       {std::pair{state, std::vector<std::string>{"HugeState", "state of 4294967295 bytes",
                                                  "638976 bytes"}},
        {stack, {"HugeStack", "stack of 4294967295 bytes", "6 workers"}},
        {oneByteTooMany, {"JustTooBig", "state of 638977 bytes"}}}) {
    ObjectFile object(vertex);
    Graph graph(device.getTarget());
    expectThrowsWith<graph_object_load_error>(
        [&] { graph.addCodelets(object.path()); },
        {"Graph::addCodelets", object.path(), parts[0], parts[1], parts.back()});
    EXPECT_FALSE(graph.hasCodelet(vertex.name)) << "the graph changed";
  }
  // A state that fills the tile loads (and is then out of memory at compile, with the rest).
  gp::Vertex fits = vertexNamed("Fits");
  fits.stateSize = device.getTarget().getBytesPerTile();
  ObjectFile object(fits);
  Graph graph(device.getTarget());
  graph.addCodelets(object.path());
  EXPECT_TRUE(graph.hasCodelet("Fits"));
}

// fuzz_vertex_fields: setInitialValue with no values on a plain (Value) field passed the empty
// vector's null data() to memcpy, which UBSan reports (the sanitizer job failed here).
TEST(FuzzVertexFields, Regression_EmptyInitialValueOfAValueField) {
  VertexFieldsInput input;
  input.vertex.name = "V";
  input.vertex.stateSize = 4;
  input.vertex.fields.push_back({"f0", gp::FieldDirection::State, gp::FieldKind::Value,
                                 gp::Layout::NotAVector, gp::Layout::NotAVector, "float", 4, 0, 4,
                                 4});
  input.uses.push_back({true, 0, 1, 0});
  ObjectFile object(input.vertex);
  EXPECT_EQ(buildAndRun(input, object.path()), "");
}

// nlohmann's readers, DOM and dump() recurse once per nesting level. The fuzzers' inputs stay
// short, so these inputs were made by hand after reading the parsers: a megabyte of nesting
// overflowed the stack (a segmentation fault) in Executable::deserialize and in readJSON.
TEST(FuzzExecutable, Regression_DeeplyNestedDescriptionIsAnErrorNotAStackOverflow) {
  Device device = twoTiles();
  Graph graph(device.getTarget());
  std::ostringstream valid;
  compileGraph(graph, {program::Sequence{}}).serialize(valid);
  const std::string magic = valid.str().substr(0, 8);
  for (std::size_t depth : {std::size_t(129), std::size_t(1) << 20}) {
    std::string body(depth, '\x81'); // CBOR: an array of one element, nested `depth` times
    body += '\0';
    std::string file = magic;
    for (unsigned b = 0; b < 8; ++b)
      file += char((std::uint64_t(body.size()) >> (8 * b)) & 0xff);
    std::istringstream in(file + body);
    expectThrowsWith<poplar_error>([&] { Executable::deserialize(in); },
                                   {"Executable::deserialize", "nested more than 128 levels"});
  }
}

TEST(FuzzOptions, Regression_DeeplyNestedOptionsAreAParseErrorNotAStackOverflow) {
  for (std::size_t depth : {std::size_t(129), std::size_t(1) << 20}) {
    std::string deep = "{\"a\":" + std::string(depth, '[') + std::string(depth, ']') + "}";
    OptionFlags flags;
    expectThrowsWith<parse_error>([&] { readJSON(deep, flags); },
                                  {"readJSON", "nested more than 128 levels"});
    std::istringstream stream(deep);
    expectThrowsWith<parse_error>([&] { readJSON(stream, flags); },
                                  {"readJSON", "nested more than 128 levels"});
    EXPECT_TRUE(flags.empty());
  }
  // Nesting within the bound is read, and refused only because an option is not a scalar.
  OptionFlags flags;
  expectThrowsWith<parse_error>([&] { readJSON("{\"a\":[[[1]]]}", flags); },
                                {"readJSON", "\"a\"", "must be a string, boolean or number"});
}

// fuzz_options: a number too big for a double ({"a":55555555555555e5555}) made nlohmann throw
// its out_of_range, which readJSON let through instead of a poplar parse_error.
TEST(FuzzOptions, Regression_NumberBeyondADoubleIsAParseError) {
  for (const char *text : {"{\"a\":55555555555555e5555}", "{\"a\":1e999}", "{\"a\":-1e999}"}) {
    SCOPED_TRACE(text);
    OptionFlags flags;
    expectThrowsWith<parse_error>([&] { readJSON(text, flags); },
                                  {"readJSON", "malformed JSON options", "number overflow"});
    std::istringstream stream(text);
    expectThrowsWith<parse_error>([&] { readJSON(stream, flags); },
                                  {"readJSON", "number overflow"});
    EXPECT_TRUE(flags.empty());
  }
}
