// Bad inputs through the public API: each must throw the exact poplar_error type with a message
// naming the API or object and the offending values, and leave the objects usable.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <sstream>
#include <string>
#include <typeinfo>
#include <unistd.h>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

Device smallDevice(unsigned tiles = 4) {
  IPUModel model;
  model.tilesPerIPU = tiles;
  return model.createDevice();
}

/// Runs `f`, which must throw exactly `E` (not a subclass) with every part of `parts` in its
/// message. Returns the message for further checks.
template <class E>
std::string expectError(const std::function<void()> &f, std::initializer_list<std::string> parts) {
  try {
    f();
  } catch (const E &e) {
    std::string msg = e.what();
    EXPECT_EQ(typeid(e), typeid(E)) << "a subclass of the expected type was thrown: " << msg;
    for (const auto &p : parts)
      EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' is not in: " << msg;
    return msg;
  } catch (const std::exception &e) {
    ADD_FAILURE() << "wrong exception type " << typeid(e).name() << ": " << e.what();
    return "";
  }
  ADD_FAILURE() << "nothing was thrown";
  return "";
}

/// A 4-tile graph with a variable `v` (INT {4}) mapped to tile 0.
class Errors : public ::testing::Test {
protected:
  Errors() : device(smallDevice()), graph(device.getTarget()) {
    v = graph.addVariable(INT, {4}, "v");
    graph.setTileMapping(v, 0);
  }
  Device device;
  Graph graph;
  Tensor v;
};

// ---- Graph construction ---------------------------------------------------------------------

TEST_F(Errors, UnmappedVariableAtEngineConstruction) {
  Tensor w = graph.addVariable(FLOAT, {6}, "weights");
  expectError<graph_program_compilation_error>([&] { Engine e(graph, Sequence()); },
                                               {"weights", "[0, 6)", "setTileMapping"});
  // Mapping it fixes the graph.
  graph.setTileMapping(w, 1);
  EXPECT_NO_THROW(Engine(graph, Sequence()));
}

TEST_F(Errors, PartiallyMappedVariable) {
  Tensor w = graph.addVariable(FLOAT, {2, 4}, "partial");
  graph.setTileMapping(w[0], 1);
  graph.setTileMapping(w[1].slice(3, 4), 2);
  expectError<graph_program_compilation_error>([&] { Engine e(graph, Sequence()); },
                                               {"partial", "[4, 7)", "8 elements"});
}

TEST_F(Errors, UnmappedConstant) {
  graph.addConstant<float>(FLOAT, {3}, {1.0, 2.0, 3.0}, "myConst");
  expectError<graph_program_compilation_error>([&] { Engine e(graph, Sequence()); },
                                               {"constant", "myConst", "[0, 3)"});
}

TEST_F(Errors, TileOutOfRangeInSetTileMapping) {
  expectError<invalid_tile_mapping>([&] { graph.setTileMapping(v, 4); },
                                    {"setTileMapping", "tile 4", "4 tiles"});
  // The old mapping is kept.
  EXPECT_EQ(graph.getTileMapping(v)[0], (std::vector<Interval>{Interval(0, 4)}));
}

TEST_F(Errors, MappingIntervalOutsideTheTensor) {
  TileToTensorMapping m(4);
  m[1] = {Interval(0, 2)};
  m[2] = {Interval(2, 9)};
  expectError<invalid_tile_mapping>([&] { graph.setTileMapping(v, m); },
                                    {"setTileMapping", "tile 2", "4 elements"});
}

TEST_F(Errors, FailedMappingListChangesNothing) {
  // Regression: setTileMapping(t, mapping) applied the intervals before the bad one.
  TileToTensorMapping m(4);
  m[1] = {Interval(0, 2)};
  m[2] = {Interval(2, 9)};
  EXPECT_THROW(graph.setTileMapping(v, m), invalid_tile_mapping);
  EXPECT_EQ(graph.getTileMapping(v)[0], (std::vector<Interval>{Interval(0, 4)}));
  EXPECT_TRUE(graph.getTileMapping(v)[1].empty());
}

TEST_F(Errors, MappingListWithTooManyTiles) {
  TileToTensorMapping m(5);
  m[4] = {Interval(0, 4)};
  expectError<invalid_tile_mapping>([&] { graph.setTileMapping(v, m); }, {"5 tiles", "4"});
}

TEST_F(Errors, ConstantWithTooFewValues) {
  expectError<tensor_creation_error>(
      [&] {
        graph.addConstant<int>(INT, {2, 3}, {1, 2, 3, 4});
      },
      {"addConstant", "4 values", "{2,3}", "6 elements"});
}

TEST_F(Errors, SetInitialValueWithTheWrongCount) {
  expectError<tensor_creation_error>(
      [&] {
        graph.setInitialValue(v, ArrayRef<int>({1, 2}));
      },
      {"setInitialValue", "2 values", "4 elements"});
}

TEST_F(Errors, VirtualGraphOutOfRange) {
  expectError<poplar_error>([&] { graph.createVirtualGraph(2, 6); },
                            {"createVirtualGraph", "[2, 6)", "4 tiles"});
}

TEST_F(Errors, DuplicateHandleNames) {
  graph.createHostWrite("h", v);
  expectError<poplar_error>([&] { graph.createHostRead("h", v); },
                            {"createHostRead", "'h'", "already in use"});
  graph.addHostToDeviceFIFO("s", INT, 4);
  expectError<poplar_error>([&] { graph.addDeviceToHostFIFO("s", FLOAT, 1); },
                            {"addDeviceToHostFIFO", "'s'", "already in use"});
  expectError<poplar_error>([&] { graph.createHostWrite("s", v); }, {"createHostWrite", "'s'"});
  // Fresh names still work.
  EXPECT_NO_THROW(graph.createHostRead("h2", v));
}

// ---- Tensor views ---------------------------------------------------------------------------

TEST_F(Errors, SliceEndBeyondDimension) {
  expectError<index_error>([&] { v.slice(2, 6); }, {"end 6", "size 4"});
  Tensor m = graph.addVariable(INT, {2, 3});
  expectError<index_error>([&] { m.slice(0, 4, 1); }, {"end 4", "dimension 1", "size 3"});
}

TEST_F(Errors, SliceBeginAfterEnd) {
  expectError<index_error>([&] { v.slice(3, 1); }, {"begin 3", "end 1"});
}

TEST_F(Errors, MultiDimensionalSliceOutOfRange) {
  Tensor m = graph.addVariable(INT, {2, 3});
  expectError<index_error>([&] { m.slice({0, 1}, {2, 4}); }, {"[1, 4)", "dimension 1"});
}

TEST_F(Errors, IndexOutOfRange) {
  expectError<index_error>([&] { v[4]; }, {"index 4", "size 4"});
  Tensor m = graph.addVariable(INT, {2, 3});
  expectError<index_error>([&] { m[1][3]; }, {"index 3", "size 3"});
  expectError<index_error>([&] { v[0][0]; }, {"rank-0"});
}

TEST_F(Errors, ReshapeWithTheWrongElementCount) {
  expectError<poplar_error>([&] { v.reshape({3, 2}); }, {"reshape", "{4}", "{3,2}"});
}

TEST_F(Errors, TransposeOfRank3) {
  Tensor t = graph.addVariable(INT, {2, 3, 4});
  expectError<poplar_error>([&] { t.transpose(); }, {"transpose", "{2,3,4}", "rank 3"});
}

TEST_F(Errors, DimShuffleBadPermutation) {
  Tensor t = graph.addVariable(INT, {2, 3, 4});
  expectError<poplar_error>([&] { t.dimShuffle({0, 1}); }, {"dimShuffle", "{0,1}"});
  expectError<poplar_error>([&] { t.dimShuffle({0, 1, 1}); }, {"dimShuffle", "1", "twice"});
}

TEST_F(Errors, ConcatTypeMismatch) {
  Tensor f = graph.addVariable(FLOAT, {4});
  expectError<poplar_error>([&] { concat(v, f); }, {"concat", "float", "int"});
}

TEST_F(Errors, ConcatShapeMismatch) {
  Tensor a = graph.addVariable(INT, {2, 3});
  Tensor b = graph.addVariable(INT, {2, 4});
  expectError<poplar_error>([&] { concat(a, b, 0); }, {"concat", "{2,4}", "{2,3}"});
  EXPECT_EQ(concat(a, b, 1).shape(), (std::vector<std::size_t>{2, 7}));
}

// ---- Programs -------------------------------------------------------------------------------

TEST_F(Errors, CopyTypeMismatch) {
  Tensor f = graph.addVariable(FLOAT, {4}, "f");
  expectError<type_error>([&] { Copy(v, f); }, {"Copy", "int", "float"});
}

TEST_F(Errors, CopyElementCountMismatch) {
  Tensor w = graph.addVariable(INT, {2, 3}, "w");
  expectError<poplar_error>([&] { Copy(v, w); }, {"Copy", "{4}", "{2,3}", "4 and 6"});
}

TEST_F(Errors, StreamCopyOfTheWrongSize) {
  DataStream s = graph.addHostToDeviceFIFO("in5", INT, 5);
  expectError<poplar_error>([&] { Copy(s, v); }, {"Copy", "'in5'", "5 elements", "{4}"});
}

TEST_F(Errors, StreamCopyOfTheWrongType) {
  DataStream s = graph.addHostToDeviceFIFO("inf", FLOAT, 4);
  expectError<type_error>([&] { Copy(s, v); }, {"Copy", "'inf'", "float", "int"});
}

TEST_F(Errors, StreamCopyInTheWrongDirection) {
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 4);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 4);
  expectError<poplar_error>([&] { Copy(v, in); }, {"Copy", "'in'", "host-to-device"});
  expectError<poplar_error>([&] { Copy(out, v); }, {"Copy", "'out'", "device-to-host"});
}

TEST_F(Errors, IfWithAFloatPredicate) {
  Tensor f = graph.addVariable(FLOAT, {}, "f");
  expectError<type_error>([&] { If(f, Sequence(), Sequence()); }, {"If", "predicate", "float"});
}

TEST_F(Errors, IfWithAMultiElementPredicate) {
  expectError<poplar_error>([&] { If(v, Sequence(), Sequence()); }, {"If", "one element", "{4}"});
  expectError<poplar_error>([&] { RepeatWhileTrue(Sequence(), v, Sequence()); },
                            {"RepeatWhileTrue", "{4}"});
}

TEST_F(Errors, SwitchWithAFloatOrMultiElementControl) {
  Tensor f = graph.addVariable(FLOAT, {1}, "f");
  expectError<type_error>([&] { Switch sw(f); }, {"Switch", "float"});
  expectError<poplar_error>([&] { Switch sw(v); }, {"Switch", "{4}"});
  Tensor b = graph.addVariable(BOOL, {1}, "b");
  expectError<type_error>([&] { Switch sw(b); }, {"Switch", "bool"});
}

TEST_F(Errors, DuplicateSwitchCase) {
  Tensor c = graph.addVariable(INT, {}, "c");
  graph.setTileMapping(c, 1);
  Switch sw(c);
  sw.add(3, Sequence());
  expectError<poplar_error>([&] { sw.add(3, Sequence()); }, {"Switch", "case 3", "already"});
  expectError<poplar_error>([&] { Switch(c, {{1, Sequence()}, {1, Sequence()}}); }, {"case 1"});
  // The switch is unchanged and still usable.
  sw.add(4, Sequence());
  EXPECT_NO_THROW(Engine(graph, sw));
}

TEST_F(Errors, InvalidComputeSetAndFunction) {
  expectError<poplar_error>([&] { Execute{ComputeSet()}; }, {"Execute", "compute set"});
  expectError<poplar_error>([&] { Call{Function()}; }, {"Call", "function"});
  expectError<graph_program_compilation_error>([&] { Engine e(graph, Execute(ComputeSet(7))); },
                                               {"Execute", "compute set 7"});
}

// ---- Vertices and codelets (error paths only) -----------------------------------------------

TEST_F(Errors, AddVertexWithAnUnknownType) {
  ComputeSet cs = graph.addComputeSet("cs");
  expectError<unknown_vertex_type>([&] { graph.addVertex(cs, "NoSuchVertex"); },
                                   {"addVertex", "'NoSuchVertex'", "addCodelets"});
  EXPECT_EQ(graph.getNumVertices(), 0u);
}

TEST_F(Errors, AddVertexOnAnInvalidComputeSet) {
  expectError<poplar_error>([&] { graph.addVertex(ComputeSet(42), "SumVertex"); },
                            {"addVertex", "compute set", "42"});
}

TEST_F(Errors, AddCodeletsOnAMissingFile) {
  expectError<graph_object_load_error>(
      [&] { graph.addCodelets("/nonexistent/dir/missing_codelets.cpp"); },
      {"addCodelets", "/nonexistent/dir/missing_codelets.cpp"});
}

// ---- Memory ---------------------------------------------------------------------------------

TEST(ErrorsMemory, OutOfTileMemoryNamesTileAndVariable) {
  Device device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  Tensor small = graph.addVariable(FLOAT, {16}, "small");
  graph.setTileMapping(small, 3);
  Tensor big = graph.addVariable(CHAR, {700000}, "bigVariable");
  graph.setTileMapping(big, 3);
  std::string msg = expectError<graph_memory_allocation_error>(
      [&] { Engine e(graph, Sequence()); },
      {"Out of memory", "Tile 3", "bigVariable", "700000", "638976"});
  EXPECT_EQ(msg.find("Tile 0"), std::string::npos) << msg;
}

/// Sets POPLAR_ENGINE_OPTIONS for one scope.
class ScopedEngineOptions {
public:
  explicit ScopedEngineOptions(const std::string &json) {
    ::setenv("POPLAR_ENGINE_OPTIONS", json.c_str(), 1);
  }
  ~ScopedEngineOptions() { ::unsetenv("POPLAR_ENGINE_OPTIONS"); }
};

TEST(ErrorsMemory, Regression_OutOfMemoryProfileIsWritten) {
  // The error said "Profile saved to: <dir>/profile.pop" but no file was written there.
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("poplar-oom-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  Device device = IPUModel("ipu2").createDevice();
  Graph graph(device.getTarget());
  Tensor big = graph.addVariable(FLOAT, {175000}, "big");
  graph.setTileMapping(big, 1);
  {
    ScopedEngineOptions env(R"({"autoReport.all":"true","autoReport.directory":")" + dir.string() +
                            R"("})");
    try {
      Engine e(graph, Sequence());
      ADD_FAILURE() << "out of memory was not reported";
    } catch (const graph_memory_allocation_error &e) {
      std::string expected = (dir / "profile.pop").string();
      EXPECT_EQ(e.profilePath, expected);
      EXPECT_NE(std::string(e.what()).find("Profile saved to: " + expected), std::string::npos)
          << e.what();
    }
  }
  EXPECT_TRUE(fs::exists(dir / "profile.pop"));
  fs::remove_all(dir);
}

// ---- Engine options -------------------------------------------------------------------------

TEST_F(Errors, InvalidEngineOptionKey) {
  expectError<invalid_option>(
      [&] {
        Engine e(graph, Sequence(), {{"debug.noSuchOption", "true"}});
      },
      {"debug.noSuchOption", "true"});
}

TEST_F(Errors, NonBooleanAutoReportAll) {
  expectError<invalid_option>(
      [&] {
        Engine e(graph, Sequence(), {{"autoReport.all", "yes"}});
      },
      {"autoReport.all", "'yes'"});
  ScopedEngineOptions env(R"({"autoReport.all": "maybe"})");
  expectError<invalid_option>([&] { Engine e(graph, Sequence()); }, {"autoReport.all", "maybe"});
}

// Known keys with values of the wrong type or range are rejected, naming key, value and what
// was expected (regression: they used to be accepted silently).
TEST_F(Errors, EngineOptionValuesAreValidated) {
  expectError<invalid_option>(
      [&] {
        Engine e(graph, Sequence(), {{"opt.maxCompilationThreads", "banana"}});
      },
      {"Engine", "opt.maxCompilationThreads", "'banana'", "integer"});
  expectError<invalid_option>(
      [&] {
        Engine e(graph, Sequence(), {{"target.hostSyncTimeout", "-5"}});
      },
      {"target.hostSyncTimeout", "'-5'"});
  expectError<invalid_option>(
      [&] {
        Engine e(graph, Sequence(), {{"profiler.format", "v9"}});
      },
      {"profiler.format", "'v9'", "v1 v2 v3"});
}

TEST_F(Errors, MalformedEngineOptionsJson) {
  {
    ScopedEngineOptions env(R"({"autoReport.all": "true")");
    expectError<parse_error>([&] { Engine e(graph, Sequence()); }, {"POPLAR_ENGINE_OPTIONS"});
  }
  {
    ScopedEngineOptions env(R"(["autoReport.all"])");
    expectError<parse_error>([&] { Engine e(graph, Sequence()); },
                             {"POPLAR_ENGINE_OPTIONS", "object"});
  }
  EXPECT_NO_THROW(Engine(graph, Sequence()));
}

// ---- Engine use -----------------------------------------------------------------------------

/// `v` readable and writable from the host, a stream "in" of 4 ints and an output "out".
class EngineErrors : public Errors {
protected:
  EngineErrors() {
    graph.createHostWrite("v-write", v);
    graph.createHostRead("v-read", v);
    DataStream in = graph.addHostToDeviceFIFO("in", INT, 4);
    DataStream out = graph.addDeviceToHostFIFO("out", INT, 4);
    engine.reset(new Engine(graph, std::vector<Program>{Copy(in, v), Copy(v, out), Sequence()}));
  }
  std::unique_ptr<Engine> engine;
};

TEST_F(EngineErrors, RunBeforeLoad) {
  expectError<poplar_error>([&] { engine->run(2); }, {"run", "load"});
  expectError<poplar_error>(
      [&] {
        int x[4];
        engine->readTensor("v-read", x, x + 4);
      },
      {"readTensor", "load"});
  engine->load(device);
  EXPECT_NO_THROW(engine->run(2));
}

TEST_F(EngineErrors, RunWithABadProgramIndex) {
  engine->load(device);
  expectError<poplar_error>([&] { engine->run(3); }, {"run", "index 3", "3 program"});
  EXPECT_NO_THROW(engine->run(2));
}

TEST_F(EngineErrors, StreamNotConnectedAtRun) {
  engine->load(device);
  expectError<stream_connection_error>([&] { engine->run(0); }, {"'in'", "not connected"});
  expectError<stream_connection_error>([&] { engine->run(1); }, {"'out'", "not connected"});
  int data[4] = {1, 2, 3, 4};
  engine->connectStream("in", data);
  EXPECT_NO_THROW(engine->run(0));
}

TEST_F(EngineErrors, UnknownStreamHandle) {
  int data[4];
  expectError<stream_connection_error>([&] { engine->connectStream("inn", data); },
                                       {"connectStream", "'inn'", "'in'", "'out'"});
  expectError<stream_connection_error>(
      [&] { engine->connectStreamToCallback("nope", [](void *) {}); },
      {"connectStreamToCallback", "'nope'"});
}

TEST_F(EngineErrors, CircularBufferNotAMultipleOfTheCopySize) {
  engine->load(device);
  int good[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int bad[6] = {};
  engine->connectStream("in", good, good + 8);
  expectError<stream_connection_error>([&] { engine->connectStream("in", bad, bad + 6); },
                                       {"'in'", "24 bytes", "16 bytes"});
  // The earlier connection is still in place.
  engine->run(0);
  int out[4];
  engine->readTensor("v-read", out, out + 4);
  EXPECT_EQ(out[3], 4);
}

TEST_F(EngineErrors, CallbackForAnotherReplica) {
  expectError<stream_connection_error>(
      [&] { engine->connectStreamToCallback("in", 1, [](void *) {}); },
      {"replica index 1", "'in'"});
}

TEST_F(EngineErrors, WriteAndReadTensorOfTheWrongSize) {
  engine->load(device);
  int buf[5] = {9, 8, 7, 6, 5};
  expectError<poplar_error>([&] { engine->writeTensor("v-write", buf, buf + 5); },
                            {"writeTensor", "'v-write'", "20 bytes", "16"});
  expectError<poplar_error>([&] { engine->readTensor("v-read", buf, buf + 3); },
                            {"readTensor", "'v-read'", "12 bytes", "16"});
  // A correct write and read work afterwards.
  engine->writeTensor("v-write", buf, buf + 4);
  int out[4] = {};
  engine->readTensor("v-read", out, out + 4);
  EXPECT_EQ(std::vector<int>(out, out + 4), (std::vector<int>{9, 8, 7, 6}));
}

TEST_F(EngineErrors, UnknownHostHandle) {
  engine->load(device);
  int buf[4];
  expectError<poplar_error>([&] { engine->readTensor("v-raed", buf, buf + 4); },
                            {"readTensor", "'v-raed'", "'v-read'"});
}

TEST_F(EngineErrors, ReadOnAWriteHandle) {
  engine->load(device);
  int buf[4];
  expectError<poplar_error>([&] { engine->readTensor("v-write", buf, buf + 4); },
                            {"readTensor", "'v-write'"});
  expectError<poplar_error>([&] { engine->writeTensor("v-read", buf, buf + 4); },
                            {"writeTensor", "'v-read'"});
}

TEST_F(EngineErrors, EmptyDeviceUse) {
  Device empty;
  expectError<poplar_error>([&] { engine->load(empty); }, {"load", "empty"});
  expectError<poplar_error>([&] { empty.getTarget(); }, {"getTarget", "empty"});
  Device moved = std::move(device);
  expectError<poplar_error>([&] { engine->load(device); }, {"load", "empty"});
  EXPECT_NO_THROW(engine->load(moved));
}

TEST_F(EngineErrors, LoadOntoADeviceOfADifferentTarget) {
  Device bigger = smallDevice(8);
  expectError<poplar_error>([&] { engine->load(bigger); }, {"load", "8 tiles", "4 tiles"});
  Device ipu1 = [] {
    IPUModel m("ipu1");
    m.tilesPerIPU = 4;
    return m.createDevice();
  }();
  expectError<poplar_error>([&] { engine->load(ipu1); }, {"load", "ipu1", "ipu2"});
  EXPECT_NO_THROW(engine->load(device));
}

TEST_F(EngineErrors, LoadOntoAnUnattachedDevice) {
  Graph full(Target::createIPUTarget(1, "ipu2"));
  Tensor x = full.addVariable(INT, {1});
  full.setTileMapping(x, 0);
  Engine e(full, Sequence());
  auto devices = DeviceManager::createDeviceManager().getDevices(TargetType::IPU, 1);
  ASSERT_FALSE(devices.empty());
  expectError<poplar_error>([&] { e.load(devices.back()); }, {"load", "attach"});
  ASSERT_TRUE(devices.back().attach());
  EXPECT_NO_THROW(e.load(devices.back()));
}

TEST_F(EngineErrors, MovedFromEngine) {
  Engine other = std::move(*engine);
  expectError<poplar_error>([&] { engine->run(0); }, {"run", "moved"});
  EXPECT_NO_THROW(other.load(device));
}

TEST(ErrorsOwnership, Regression_TensorFromAnotherGraph) {
  // A tensor of another graph indexed this graph's variables out of bounds.
  Device device = smallDevice();
  Graph g1(device.getTarget()), g2(device.getTarget());
  g1.addVariable(INT, {4}, "a");
  Tensor b = g1.addVariable(INT, {4}, "b");
  g1.setTileMapping(b, 0);
  Tensor c = g2.addVariable(INT, {4}, "c");
  g2.setTileMapping(c, 1);
  expectError<poplar_error>([&] { g2.setTileMapping(b, 1); },
                            {"setTileMapping", "variable 1", "1 variables", "another graph"});
  expectError<poplar_error>([&] { g2.getTileMapping(b); }, {"getTileMapping", "another graph"});
  expectError<poplar_error>([&] { g2.setInitialValue(b, 3); }, {"setInitialValue"});
  expectError<poplar_error>([&] { g2.createHostRead("b", b); }, {"createHostRead"});
  expectError<graph_program_compilation_error>([&] { Engine e(g2, Copy(c, b)); },
                                               {"variable 1", "another graph"});
  EXPECT_NO_THROW(Engine(g2, Copy(c, c.reverse(0))));
}

// ---- Executables ----------------------------------------------------------------------------

TEST_F(Errors, DeserializeGarbage) {
  std::stringstream garbage("this is not an executable at all");
  expectError<poplar_error>([&] { Executable::deserialize(garbage); },
                            {"deserialize", "bad magic"});
  std::stringstream empty;
  expectError<poplar_error>([&] { Executable::deserialize(empty); }, {"deserialize"});
}

TEST_F(Errors, DeserializeTruncated) {
  std::stringstream file;
  compileGraph(graph, std::vector<Program>{Copy(v, v.reverse(0))}).serialize(file);
  std::string bytes = file.str();
  for (std::size_t keep : {std::size_t(12), bytes.size() / 2, bytes.size() - 1}) {
    std::stringstream cut(bytes.substr(0, keep));
    expectError<poplar_error>([&] { Executable::deserialize(cut); }, {"deserialize", "ends"});
  }
  // Corrupt the description (after the magic and its size) but keep the length.
  std::string corrupt = bytes;
  for (std::size_t i = 16; i < 48 && i < corrupt.size(); ++i)
    corrupt[i] = '\xff';
  std::stringstream bad(corrupt);
  expectError<poplar_error>([&] { Executable::deserialize(bad); }, {"deserialize"});
  // The intact bytes still load and run.
  std::stringstream good(bytes);
  Engine e(Executable::deserialize(good));
  e.load(device);
  EXPECT_NO_THROW(e.run());
}

TEST_F(Errors, ExecutableUsedTwice) {
  Executable exe = compileGraph(graph, std::vector<Program>{Sequence()});
  Engine first(std::move(exe));
  expectError<poplar_error>([&] { Engine second(std::move(exe)); }, {"Executable"});
}

} // namespace
