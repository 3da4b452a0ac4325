// Engine behaviour on a small IPUModel: host streams and callbacks, cycles and determinism,
// executables, the profile summary and POPLAR_ENGINE_OPTIONS reports.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <sstream>
#include <string>
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

std::string printedBy(Engine &engine, unsigned prog = 0) {
  std::ostringstream os;
  engine.setPrintStream(os);
  engine.run(prog);
  return os.str();
}

/// tut1's stream: 10 ints per copy into v4, printed after each copy.
struct Tut1Stream {
  Tut1Stream() : device(smallDevice()), graph(device.getTarget()) {
    v4 = graph.addVariable(INT, {10}, "v4");
    graph.setTileMapping(v4, 0);
    DataStream in = graph.addHostToDeviceFIFO("v4-input-stream", INT, 10);
    prog = Sequence{Copy(in, v4), PrintTensor("v4-0", v4), Copy(in, v4), PrintTensor("v4-1", v4)};
  }
  Device device;
  Graph graph;
  Tensor v4;
  Sequence prog;
};

TEST(Engine, CircularBufferStreamWrapsAround) {
  Tut1Stream t;
  Engine engine(t.graph, t.prog);
  engine.load(t.device);
  std::vector<int> data(30);
  std::iota(data.begin(), data.end(), 0);
  engine.connectStream("v4-input-stream", &data[0], &data[30]);
  EXPECT_EQ(printedBy(engine), "v4-0: [0 1 2 3 4 5 6 7 8 9]\n"
                               "v4-1: [10 11 12 13 14 15 16 17 18 19]\n");
  // The position persists across runs and wraps from the end to the beginning.
  EXPECT_EQ(printedBy(engine), "v4-0: [20 21 22 23 24 25 26 27 28 29]\n"
                               "v4-1: [0 1 2 3 4 5 6 7 8 9]\n");
}

TEST(Engine, PointerStreamReadsTheSameAddressEachCopy) {
  Tut1Stream t;
  Engine engine(t.graph, t.prog);
  engine.load(t.device);
  std::vector<int> data(10, 3);
  engine.connectStream("v4-input-stream", data.data());
  EXPECT_EQ(printedBy(engine), "v4-0: [3 3 3 3 3 3 3 3 3 3]\nv4-1: [3 3 3 3 3 3 3 3 3 3]\n");
  // The host may change the buffer between runs.
  data.assign(10, 4);
  EXPECT_EQ(printedBy(engine), "v4-0: [4 4 4 4 4 4 4 4 4 4]\nv4-1: [4 4 4 4 4 4 4 4 4 4]\n");
}

TEST(Engine, StreamsCanBeReconnectedBetweenRuns) {
  Tut1Stream t;
  Engine engine(t.graph, t.prog);
  engine.load(t.device);
  std::vector<int> a(20, 1), b(10, 2);
  engine.connectStream("v4-input-stream", a.data(), a.data() + a.size());
  EXPECT_EQ(printedBy(engine), "v4-0: [1 1 1 1 1 1 1 1 1 1]\nv4-1: [1 1 1 1 1 1 1 1 1 1]\n");
  engine.connectStream("v4-input-stream", b.data());
  EXPECT_EQ(printedBy(engine), "v4-0: [2 2 2 2 2 2 2 2 2 2]\nv4-1: [2 2 2 2 2 2 2 2 2 2]\n");
  // Reconnecting a circular buffer starts again at its beginning.
  std::iota(a.begin(), a.end(), 100);
  engine.connectStream("v4-input-stream", a.data(), a.data() + 10);
  engine.connectStream("v4-input-stream", a.data(), a.data() + 20);
  EXPECT_EQ(printedBy(engine), "v4-0: [100 101 102 103 104 105 106 107 108 109]\n"
                               "v4-1: [110 111 112 113 114 115 116 117 118 119]\n");
}

TEST(Engine, ConnectStreamByDataStream) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(FLOAT, {2}, "v");
  graph.setTileMapping(v, 1);
  DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 2);
  Engine engine(graph, Sequence{Copy(in, v), PrintTensor("v", v)});
  engine.load(device);
  float data[] = {0.5f, 0.25f};
  engine.connectStream(in, data, data + 2);
  EXPECT_EQ(printedBy(engine), "v: [0.5000000 0.2500000]\n");
}

TEST(Engine, DeviceToHostFifo) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(INT, {2, 2}, "v");
  graph.setTileMapping(v[0], 1);
  graph.setTileMapping(v[1], 3);
  Tensor c = graph.addConstant<int>(INT, {2, 2}, {1, 2, 3, 4});
  graph.setTileMapping(c, 0);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 4);
  // The second copy sends the transpose: a stream copy gathers a view in element order.
  Engine engine(graph, Sequence{Copy(c, v), Copy(v, out), Copy(v.transpose(), out)});
  engine.load(device);
  std::vector<int> ring(8, -1);
  engine.connectStream("out", ring.data(), ring.data() + ring.size());
  engine.run();
  EXPECT_EQ(ring, (std::vector<int>{1, 2, 3, 4, 1, 3, 2, 4}));
  std::vector<int> single(4, -1);
  engine.connectStream("out", single.data());
  engine.run();
  EXPECT_EQ(single, (std::vector<int>{1, 3, 2, 4})); // the last copy wins
}

/// Records every call and feeds consecutive values, 100, 101, ...
class RecordingCallback : public StreamCallback {
public:
  RecordingCallback(std::vector<std::string> &log, bool canPrefetch)
      : log_(log), canPrefetch_(canPrefetch) {}
  Result prefetch(void *p) override {
    if (!canPrefetch_) {
      log_.push_back("prefetch:none");
      return Result::NotAvailable;
    }
    int v = next_++;
    *static_cast<int *>(p) = v;
    log_.push_back("prefetch:" + std::to_string(v));
    return Result::Success;
  }
  void fetch(void *p) override {
    int v = next_++;
    *static_cast<int *>(p) = v;
    log_.push_back("fetch:" + std::to_string(v));
  }
  void complete() override { log_.push_back("complete"); }
  void invalidatePrefetched() override { log_.push_back("invalidate"); }

private:
  std::vector<std::string> &log_;
  bool canPrefetch_;
  int next_ = 100;
};

/// Three copies from "in", each printed.
struct CallbackGraph {
  CallbackGraph() : device(smallDevice()), graph(device.getTarget()) {
    Tensor x = graph.addVariable(INT, {1}, "x");
    graph.setTileMapping(x, 2);
    DataStream in = graph.addHostToDeviceFIFO("in", INT, 1);
    prog = Repeat(3, Sequence{Copy(in, x), PrintTensor("x", x)});
  }
  Device device;
  Graph graph;
  Program prog;
};

TEST(Engine, StreamCallbackPrefetchFetchCompleteOrder) {
  CallbackGraph g;
  Engine engine(g.graph, g.prog);
  engine.load(g.device);
  std::vector<std::string> log;
  engine.connectStreamToCallback("in",
                                 std::unique_ptr<StreamCallback>(new RecordingCallback(log, true)));
  EXPECT_EQ(printedBy(engine), "x: [100]\nx: [101]\nx: [102]\n");
  // The first copy has nothing prefetched; each later copy uses the block prefetched after
  // the previous one completed.
  EXPECT_EQ(log, (std::vector<std::string>{"fetch:100", "complete", "prefetch:101", "complete",
                                           "prefetch:102", "complete", "prefetch:103"}));
  // The block prefetched at the end of a run is used by the next run.
  log.clear();
  EXPECT_EQ(printedBy(engine), "x: [103]\nx: [104]\nx: [105]\n");
  // Reconnecting drops the unused prefetched block.
  log.clear();
  std::vector<std::string> log2;
  engine.connectStreamToCallback(
      "in", std::unique_ptr<StreamCallback>(new RecordingCallback(log2, true)));
  EXPECT_EQ(log, std::vector<std::string>{"invalidate"});
  EXPECT_EQ(printedBy(engine), "x: [100]\nx: [101]\nx: [102]\n");
}

TEST(Engine, StreamCallbackWithoutPrefetchFetchesEveryTime) {
  CallbackGraph g;
  Engine engine(g.graph, g.prog);
  engine.load(g.device);
  std::vector<std::string> log;
  engine.connectStreamToCallback(
      "in", 0, std::unique_ptr<StreamCallback>(new RecordingCallback(log, false)));
  EXPECT_EQ(printedBy(engine), "x: [100]\nx: [101]\nx: [102]\n");
  EXPECT_EQ(log, (std::vector<std::string>{"fetch:100", "complete", "prefetch:none", "fetch:101",
                                           "complete", "prefetch:none", "fetch:102", "complete",
                                           "prefetch:none"}));
  // Nothing prefetched: reconnecting has nothing to invalidate.
  log.clear();
  int value = 9;
  engine.connectStream("in", &value);
  EXPECT_TRUE(log.empty());
  EXPECT_EQ(printedBy(engine), "x: [9]\nx: [9]\nx: [9]\n");
}

TEST(Engine, ConnectStreamToCallbackWithAFunction) {
  CallbackGraph g;
  Engine engine(g.graph, g.prog);
  engine.load(g.device);
  int calls = 0;
  std::function<void(void *)> f = [&calls](void *p) { *static_cast<int *>(p) = 7 * ++calls; };
  engine.connectStreamToCallback("in", f);
  EXPECT_EQ(printedBy(engine), "x: [7]\nx: [14]\nx: [21]\n");
  EXPECT_EQ(calls, 3);
}

TEST(Engine, DeviceToHostCallbackReceivesTheData) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor c = graph.addConstant<int>(INT, {2}, {5, 6});
  graph.setTileMapping(c, 1);
  DataStream out = graph.addDeviceToHostFIFO("out", INT, 2);
  Engine engine(graph, Sequence{Copy(c, out), Copy(c.reverse(0), out)});
  engine.load(device);
  std::vector<int> got;
  engine.connectStreamToCallback("out", [&got](void *p) {
    got.push_back(static_cast<int *>(p)[0]);
    got.push_back(static_cast<int *>(p)[1]);
  });
  engine.run();
  EXPECT_EQ(got, (std::vector<int>{5, 6, 6, 5}));
}

TEST(Engine, DisconnectedStreamMustBeReconnected) {
  Tut1Stream t;
  Engine engine(t.graph, t.prog);
  engine.load(t.device);
  std::vector<int> data(10, 1);
  engine.connectStream("v4-input-stream", data.data());
  engine.disconnectStream("v4-input-stream");
  EXPECT_THROW(engine.run(), stream_connection_error);
  engine.connectStream("v4-input-stream", data.data());
  EXPECT_NO_THROW(printedBy(engine));
}

TEST(Engine, MultipleProgramsByIndex) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(INT, {1}, "v");
  graph.setTileMapping(v, 0);
  Tensor one = graph.addConstant<int>(INT, {1}, {1});
  Tensor two = graph.addConstant<int>(INT, {1}, {2});
  graph.setTileMapping(one, 1);
  graph.setTileMapping(two, 2);
  std::vector<Program> progs{Copy(one, v), Copy(two, v), PrintTensor("v", v)};
  Engine engine(graph, progs);
  engine.load(device);
  engine.run(1);
  EXPECT_EQ(printedBy(engine, 2), "v: [2]\n");
  engine.run(0);
  EXPECT_EQ(printedBy(engine, 2), "v: [1]\n");
  Engine braced(graph, std::vector<Program>{Copy(two, v), PrintTensor("w", v)});
  braced.load(device);
  EXPECT_EQ(printedBy(braced, 1), "w: [0]\n"); // a new engine starts from zeroed variables
}

TEST(Engine, EngineIsMovable) {
  Tut1Stream t;
  auto engine = Engine{t.graph, t.prog, {{"debug.retainDebugInformation", "true"}}};
  Engine moved = std::move(engine);
  moved.load(t.device);
  std::vector<int> data(10, 5);
  moved.connectStream("v4-input-stream", data.data());
  EXPECT_NE(printedBy(moved).find("v4-1: [5 5"), std::string::npos);
  EXPECT_THROW(engine.run(), poplar_error); // NOLINT(bugprone-use-after-move)
}

TEST(Engine, ReloadResetsDeviceMemory) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor v = graph.addVariable(INT, {2}, "v");
  graph.setTileMapping(v, 3);
  graph.setInitialValue(v, ArrayRef<int>({8, 9}));
  graph.createHostWrite("w", v);
  graph.createHostRead("r", v);
  Engine engine(graph, Sequence());
  engine.load(device);
  int in[2] = {1, 2}, out[2] = {};
  engine.writeTensor("w", in, in + 2);
  engine.readTensor("r", out, out + 2);
  EXPECT_EQ(out[1], 2);
  engine.load(device);
  engine.readTensor("r", out, out + 2);
  EXPECT_EQ(out[0], 8);
  EXPECT_EQ(out[1], 9);
}

/// A graph with copies between many tiles, big enough for the parallel copy path.
struct BigCopyGraph {
  /// The default size (256 KiB of floats) takes the threaded copy path.
  explicit BigCopyGraph(unsigned tiles = 16, std::size_t n = 64 * 1024)
      : device(smallDevice(tiles)), graph(device.getTarget()) {
    a = graph.addVariable(FLOAT, {n}, VariableMappingMethod::LINEAR, "a");
    b = graph.addVariable(FLOAT, {n}, "b");
    // b's elements sit on tiles in the reverse order of a's, so every element moves.
    std::size_t per = n / tiles;
    for (unsigned t = 0; t < tiles; ++t)
      graph.setTileMapping(b.slice(t * per, (t + 1) * per), tiles - 1 - t);
    graph.createHostWrite("a", a);
    graph.createHostRead("b", b);
    in = graph.addHostToDeviceFIFO("in", FLOAT, n);
    prog = Sequence{Copy(in, a), Repeat(3, Sequence{Copy(a.reverse(0), b), Copy(b, a)})};
  }
  Device device;
  Graph graph;
  Tensor a, b;
  DataStream in;
  Program prog;
};

std::vector<float> runBig(BigCopyGraph &g, std::uint64_t &cycles) {
  Engine engine(g.graph, g.prog);
  engine.load(g.device);
  std::vector<float> data(g.a.numElements());
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = float(i) * 0.5f;
  engine.connectStream("in", data.data());
  engine.run();
  cycles = engine.getLastRunCycles();
  std::vector<float> out(data.size());
  engine.readTensor("b", out.data(), out.data() + out.size());
  return out;
}

TEST(Engine, ResultsAndCyclesAreDeterministic) {
  BigCopyGraph g;
  std::uint64_t c1 = 0, c2 = 0;
  auto r1 = runBig(g, c1);
  auto r2 = runBig(g, c2);
  EXPECT_GT(c1, 0u);
  EXPECT_EQ(c1, c2);
  EXPECT_EQ(r1, r2);
  // After three reverse-and-copy-back rounds b is the reversed input.
  const std::size_t n = r1.size();
  EXPECT_EQ(r1[0], float(n - 1) * 0.5f);
  EXPECT_EQ(r1[n - 1], 0.0f);
  EXPECT_EQ(r1[1234], float(n - 1 - 1234) * 0.5f);
}

TEST(Engine, CyclesAreIdenticalAcrossRunsAndGrowWithWork) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addVariable(FLOAT, {256}, "a");
  Tensor b = graph.addVariable(FLOAT, {256}, "b");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 1);
  Engine engine(graph, std::vector<Program>{Copy(a, b), Repeat(4, Copy(a, b)),
                                            Copy(a.slice(0, 8), b.slice(0, 8))});
  engine.load(device);
  engine.run(0);
  std::uint64_t one = engine.getLastRunCycles();
  EXPECT_GT(one, 0u);
  engine.run(0);
  EXPECT_EQ(engine.getLastRunCycles(), one);
  EXPECT_EQ(engine.getTotalCycles(), 2 * one);
  engine.run(1);
  EXPECT_GE(engine.getLastRunCycles(), 4 * one);
  engine.run(2);
  EXPECT_LT(engine.getLastRunCycles(), one); // fewer bytes, fewer exchange cycles
  EXPECT_DOUBLE_EQ(engine.getTileClockFrequency(), 1.33e9);
}

// A tile sends each byte once however many tiles receive it (the exchange broadcasts), so
// copying one tile's data to three tiles costs what copying it to one does; three tiles sending
// to one tile cost three times as much, as that tile receives three times the bytes.
TEST(Engine, BroadcastCostsOneSendButGatherCostsEveryReceive) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor src = graph.addVariable(FLOAT, {1024}, "src");
  graph.setTileMapping(src, 0);
  Tensor dst = graph.addVariable(FLOAT, {3, 1024}, "dst");
  for (unsigned t = 0; t < 3; ++t)
    graph.setTileMapping(dst[t], t + 1);
  Tensor gathered = graph.addVariable(FLOAT, {3, 1024}, "gathered");
  graph.setTileMapping(gathered, 0);
  Engine engine(graph, std::vector<Program>{Copy(src, dst[0]),
                                            Copy(src.broadcast(3, 0).reshape({3, 1024}), dst),
                                            Copy(dst, gathered)});
  engine.load(device);
  engine.run(0);
  const std::uint64_t one = engine.getLastRunCycles();
  engine.run(1);
  EXPECT_EQ(engine.getLastRunCycles(), one);
  engine.run(2);
  EXPECT_GT(engine.getLastRunCycles(), 2 * one);
}

TEST(Engine, ExecutableRoundTripGivesTheSameResults) {
  BigCopyGraph g(8, 4096);
  std::uint64_t direct = 0;
  auto expected = runBig(g, direct);

  Executable exe = compileGraph(g.graph, std::vector<Program>{g.prog});
  std::stringstream file;
  exe.serialize(file);
  Executable loaded = Executable::deserialize(file);
  Engine engine(std::move(loaded));
  engine.load(g.device);
  std::vector<float> data(g.a.numElements());
  for (std::size_t i = 0; i < data.size(); ++i)
    data[i] = float(i) * 0.5f;
  engine.connectStream("in", data.data());
  engine.run();
  EXPECT_EQ(engine.getLastRunCycles(), direct);
  std::vector<float> out(data.size());
  engine.readTensor("b", out.data(), out.data() + out.size());
  EXPECT_EQ(out, expected);
}

TEST(Engine, ExecutableKeepsConstantsPrintsAndControlFlow) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor c = graph.addConstant<float>(FLOAT, {2, 2}, {5.0, 4.5, 4.0, 3.5});
  graph.setTileMapping(c, 2);
  Tensor v = graph.addVariable(FLOAT, {2, 2}, "v");
  graph.setTileMapping(v, 1);
  Tensor sel = graph.addVariable(INT, {}, "sel");
  graph.setTileMapping(sel, 0);
  graph.createHostWrite("sel", sel);
  Function f = graph.addFunction(PrintTensor("v3", v));
  Sequence prog{Switch(sel, {{1, Copy(c, v)}}), Call(f)};
  std::stringstream file;
  compileGraph(graph, std::vector<Program>{prog}).serialize(file);
  Engine engine(Executable::deserialize(file));
  engine.load(device);
  int one = 1;
  engine.writeTensor("sel", &one, &one + 1);
  EXPECT_EQ(printedBy(engine), "v3: [\n  [5.0000000 4.5000000]\n  [4.0000000 3.5000000]\n]\n");
}

TEST(Engine, PrintProfileSummarySections) {
  Tut1Stream t;
  Engine engine(t.graph, t.prog);
  engine.load(t.device);
  std::vector<int> data(10, 1);
  engine.connectStream("v4-input-stream", data.data());
  printedBy(engine);
  std::ostringstream os;
  engine.printProfileSummary(os, {{"showExecutionSteps", "true"}});
  std::string s = os.str();
  for (const char *section : {"Target:", "Graph:", "Memory Usage:", "Execution:", "Total cycles:"})
    EXPECT_NE(s.find(section), std::string::npos) << section << " missing from:\n" << s;
  EXPECT_LT(s.find("Target:"), s.find("Memory Usage:"));
  EXPECT_LT(s.find("Memory Usage:"), s.find("Total cycles:"));
}

/// A fresh directory under the system temp dir, removed afterwards.
class TempDir {
public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("poplar-engine-test-" + std::to_string(::getpid()) + "-" + std::to_string(count_++));
    std::filesystem::remove_all(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string str() const { return path_.string(); }

private:
  std::filesystem::path path_;
  static inline unsigned count_ = 0;
};

/// Sets POPLAR_ENGINE_OPTIONS for one scope.
class ScopedEngineOptions {
public:
  explicit ScopedEngineOptions(const std::string &json) {
    ::setenv("POPLAR_ENGINE_OPTIONS", json.c_str(), 1);
  }
  ~ScopedEngineOptions() { ::unsetenv("POPLAR_ENGINE_OPTIONS"); }
};

TEST(Engine, AutoReportWritesProfilePop) {
  TempDir dir;
  {
    ScopedEngineOptions env(R"({"autoReport.all":"true","autoReport.directory":")" + dir.str() +
                            R"("})");
    Tut1Stream t;
    Engine engine(t.graph, t.prog);
    engine.load(t.device);
    std::vector<int> data(10, 1);
    engine.connectStream("v4-input-stream", data.data());
    printedBy(engine);
  }
  auto file = std::filesystem::path(dir.str()) / "profile.pop";
  ASSERT_TRUE(std::filesystem::exists(file));
  EXPECT_GT(std::filesystem::file_size(file), 0u);
}

TEST(Engine, AutoReportOffWritesNothing) {
  TempDir dir;
  {
    ScopedEngineOptions env(R"({"autoReport.all":false,"autoReport.directory":")" + dir.str() +
                            R"("})");
    Tut1Stream t;
    Engine engine(t.graph, t.prog);
  }
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(dir.str()) / "profile.pop"));
}

TEST(Engine, EnvironmentOptionsAreMergedOverCodeOptions) {
  TempDir dir;
  {
    ScopedEngineOptions env(R"({"autoReport.all":"true","autoReport.directory":")" + dir.str() +
                            R"("})");
    Tut1Stream t;
    Engine engine(t.graph, t.prog, {{"autoReport.all", "false"}});
  }
  EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(dir.str()) / "profile.pop"));
}

TEST(Engine, OptionsRealProgramsPassAreAccepted) {
  Tut1Stream t;
  OptionFlags opts{{"debug.retainDebugInformation", "true"},
                   {"debug.instrument", "true"},
                   {"debug.allowOutOfMemory", "true"},
                   {"exchange.streamBufferOverlap", "none"},
                   {"profiler.blocks.filter", ".*"},
                   {"debug.instrumentExternalExchange", "true"},
                   {"autoReport.outputExecutionProfile", "false"},
                   {"autoReport.outputGraphProfile", "false"},
                   {"target.saveArchive", "archive.a"}};
  EXPECT_NO_THROW(Engine(t.graph, t.prog, opts));
}

TEST(Engine, StreamsOfOtherProgramsNeedNoConnection) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor x = graph.addVariable(INT, {2}, "x");
  graph.setTileMapping(x, 1);
  DataStream in = graph.addHostToDeviceFIFO("in", INT, 2);
  DataStream fin = graph.addHostToDeviceFIFO("fin", INT, 2);
  Function f = graph.addFunction(Copy(fin, x));
  Engine engine(graph, std::vector<Program>{PrintTensor("x", x), Copy(in, x), Call(f)});
  engine.load(device);
  EXPECT_EQ(printedBy(engine, 0), "x: [0 0]\n");
  EXPECT_THROW(engine.run(1), stream_connection_error);
  // A stream used only inside a called function is needed by the caller.
  try {
    engine.run(2);
    ADD_FAILURE() << "the function's stream was not required";
  } catch (const stream_connection_error &e) {
    EXPECT_NE(std::string(e.what()).find("'fin'"), std::string::npos) << e.what();
  }
  int data[2] = {3, 4};
  engine.connectStream("fin", data);
  engine.run(2);
  EXPECT_EQ(printedBy(engine, 0), "x: [3 4]\n");
}

TEST(Engine, EngineOverAVirtualGraph) {
  Device device = smallDevice(8);
  Graph graph(device.getTarget());
  Graph half = graph.createVirtualGraph(4, 8);
  Tensor v = half.addVariable(INT, {2}, "v");
  half.setTileMapping(v[0], 0);
  half.setTileMapping(v[1], 3);
  Tensor c = half.addConstant<int>(INT, {2}, {5, 6});
  half.setTileMapping(c, 2);
  half.createHostRead("v", v);
  Engine engine(half, Sequence{Copy(c, v)});
  engine.load(device);
  engine.run();
  int out[2];
  engine.readTensor("v", out, out + 2);
  EXPECT_EQ(out[0], 5);
  EXPECT_EQ(out[1], 6);
}

TEST(Engine, CopiesBetweenIpusOfAMultiIpuModel) {
  IPUModel model;
  model.numIPUs = 2;
  model.tilesPerIPU = 4;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  Tensor a = graph.addConstant<float>(FLOAT, {3}, {1.0, 2.0, 3.0});
  graph.setTileMapping(a, 0);
  Tensor b = graph.addVariable(FLOAT, {3}, "b");
  graph.setTileMapping(b, 7); // the second IPU
  Engine engine(graph, Sequence{Copy(a, b), PrintTensor("b", b)});
  engine.load(device);
  EXPECT_EQ(printedBy(engine), "b: [1.0000000 2.0000000 3.0000000]\n");
}

TEST(Engine, ZeroElementTensors) {
  Device device = smallDevice();
  Graph graph(device.getTarget());
  Tensor e = graph.addVariable(FLOAT, {0}, "e");
  Tensor f = graph.addVariable(FLOAT, {0}, "f");
  graph.createHostRead("e", e);
  Engine engine(graph, Sequence{Copy(e, f), PrintTensor("e", e)});
  engine.load(device);
  EXPECT_EQ(printedBy(engine), "e: []\n");
  float none = 0;
  EXPECT_NO_THROW(engine.readTensor("e", &none, &none));
}

TEST(Engine, ProgressCallbackIsCalled) {
  Tut1Stream t;
  int calls = 0;
  Engine engine(t.graph, t.prog, {}, [&calls](int, int) { ++calls; });
  EXPECT_GT(calls, 0);
}

} // namespace
