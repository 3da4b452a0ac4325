// Threads that share nothing but the process: each with its own Graph and Engine, compiling the
// same and different codelets into one empty cache at the same moment, then running programs
// whose steps go to the executor's worker pool. Under ThreadSanitizer (.ci/tsan) any data race
// in libpoplar fails the run; everywhere, every thread must get its own right answer. A tile
// split into parts (engine/StepPlans.hpp) runs its parts on the pool too.
#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <condition_variable>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <sstream>
#include <thread>
#include <unistd.h>

using namespace poplar;
using namespace poplar::program;
namespace fs = std::filesystem;

namespace {

constexpr unsigned kThreads = 4;
constexpr unsigned kTiles = 16;
constexpr std::size_t kPerTile = 8;
constexpr unsigned kRepeats = 3;

/// The same text in every thread: one cache entry, compiled by whichever thread gets there
/// first while the others wait for it or compile it too.
const char *kScaleSource = R"(#include <poplar/Vertex.hpp>
class Scale : public poplar::MultiVertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<poplar::Vector<float>> out;
  float factor;
  bool compute(unsigned worker) {
    for (unsigned i = worker; i < in.size(); i += numWorkers())
      out[i] = in[i] * factor;
    return true;
  }
};
)";

/// A different text per thread: as many compiles as threads, at once.
std::string addSource(unsigned thread) {
  return "#include <poplar/Vertex.hpp>\n"
         "class AddConstant : public poplar::Vertex {\n"
         "public:\n"
         "  poplar::InOut<poplar::Vector<float>> x;\n"
         "  bool compute() {\n"
         "    for (unsigned i = 0; i < x.size(); ++i)\n"
         "      x[i] += " +
         std::to_string(thread + 1) +
         ".0f;\n"
         "    return true;\n"
         "  }\n"
         "};\n";
}

/// Lets every thread go at once, so that the compiles and the runs overlap.
class StartLine {
public:
  explicit StartLine(unsigned n) : waiting_(n) {}
  void arriveAndWait() {
    std::unique_lock<std::mutex> lock(m_);
    if (--waiting_ == 0)
      cv_.notify_all();
    cv_.wait(lock, [&] { return waiting_ == 0; });
  }

private:
  std::mutex m_;
  std::condition_variable cv_;
  unsigned waiting_;
};

/// One thread's program: x = (x * factor + thread + 1) kRepeats times, with x moving one tile
/// along between repeats. Returns x as read back from the device.
std::vector<float> runThread(unsigned thread, StartLine &start) {
  IPUModel model("ipu2");
  model.tilesPerIPU = kTiles;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  start.arriveAndWait();
  std::stringstream scale(kScaleSource), add(addSource(thread));
  graph.addCodelets(scale);
  graph.addCodelets(add);

  Tensor x = graph.addVariable(FLOAT, {kTiles, kPerTile}, "x");
  Tensor y = graph.addVariable(FLOAT, {kTiles, kPerTile}, "y");
  ComputeSet scaleCs = graph.addComputeSet("scale"), addCs = graph.addComputeSet("add");
  for (unsigned t = 0; t < kTiles; ++t) {
    graph.setTileMapping(x[t], t);
    graph.setTileMapping(y[t], t);
    auto s = graph.addVertex(scaleCs, "Scale", {{"in", x[t]}, {"out", y[t]}});
    graph.setInitialValue(s["factor"], float(thread + 2));
    graph.setTileMapping(s, t);
    auto a = graph.addVertex(addCs, "AddConstant", {{"x", y[t]}});
    graph.setTileMapping(a, t);
  }
  // Row t of y goes to row t + 1 of x: every tile exchanges with another.
  Sequence body{Execute(scaleCs), Execute(addCs),
                Copy(concat(y.slice(kTiles - 1, kTiles), y.slice(0, kTiles - 1)), x)};
  graph.createHostWrite("xin", x);
  graph.createHostRead("xout", x);
  Engine engine(graph, Repeat(kRepeats, body), {{"executor.hostThreads", "3"}});
  engine.load(device);
  std::vector<float> values(x.numElements());
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = float(i % 7);
  engine.writeTensor("xin", values.data(), values.data() + values.size());
  engine.run();
  engine.readTensor("xout", values.data(), values.data() + values.size());
  return values;
}

/// What runThread must give, computed on the host.
std::vector<float> expected(unsigned thread) {
  std::vector<float> x(kTiles * kPerTile);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = float(i % 7);
  for (unsigned r = 0; r < kRepeats; ++r) {
    std::vector<float> y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
      y[i] = x[i] * float(thread + 2) + float(thread + 1);
    for (std::size_t i = 0; i < x.size(); ++i)
      x[(i + kPerTile) % x.size()] = y[i];
  }
  return x;
}

/// An empty codelet cache for the test, and this build's popc unless $POPC is set.
class FreshCache {
public:
  FreshCache() {
    std::string pattern = (fs::temp_directory_path() / "concurrency-cache-XXXXXX").string();
    if (!::mkdtemp(pattern.data()))
      throw std::runtime_error("mkdtemp failed for " + pattern);
    dir_ = pattern;
    ::setenv("POPLAR_CODELET_CACHE", dir_.c_str(), 1);
    ::setenv("POPC", POPC_PATH, 0);
  }
  ~FreshCache() {
    ::unsetenv("POPLAR_CODELET_CACHE");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  const fs::path &dir() const { return dir_; }

private:
  fs::path dir_;
};

} // namespace

TEST(Concurrency, ThreadsWithTheirOwnGraphAndEngineShareOneCodeletCache) {
  FreshCache cache;
  StartLine start(kThreads);
  std::vector<std::vector<float>> results(kThreads);
  std::vector<std::string> errors(kThreads);
  std::vector<std::thread> threads;
  for (unsigned i = 0; i < kThreads; ++i)
    threads.emplace_back([&, i] {
      try {
        results[i] = runThread(i, start);
      } catch (const std::exception &e) {
        errors[i] = e.what();
      }
    });
  for (auto &t : threads)
    t.join();
  for (unsigned i = 0; i < kThreads; ++i) {
    EXPECT_EQ(errors[i], "") << "thread " << i;
    EXPECT_EQ(results[i], expected(i)) << "thread " << i;
  }
  // One entry for the shared source and one per thread's own: nothing compiled twice is kept
  // twice, and no temporary file is left.
  unsigned objects = 0;
  for (const auto &e : fs::directory_iterator(cache.dir())) {
    auto ext = e.path().extension();
    EXPECT_TRUE(ext == ".gp" || ext == ".d") << "left behind: " << e.path();
    objects += ext == ".gp";
  }
  EXPECT_EQ(objects, kThreads + 1);
}

TEST(Concurrency, ASplitTilesPartsRunOnThePoolsThreads) {
  // One tile of two long Scale MultiVertex runs and an AddConstant: from its second run the
  // executor splits the tile into parts that the pool's threads run side by side.
  FreshCache cache;
  constexpr std::size_t kN = 20000;
  IPUModel model("ipu2");
  model.tilesPerIPU = 1;
  Device device = model.createDevice();
  Graph graph(device.getTarget());
  std::stringstream scale(kScaleSource), add(addSource(0));
  graph.addCodelets(scale);
  graph.addCodelets(add);
  Tensor x = graph.addVariable(FLOAT, {2, kN}, "x"), y = graph.addVariable(FLOAT, {2, kN}, "y");
  Tensor z = graph.addVariable(FLOAT, {kPerTile}, "z");
  for (const Tensor &t : {x, y, z})
    graph.setTileMapping(t, 0);
  ComputeSet cs = graph.addComputeSet("busy");
  for (unsigned i = 0; i < 2; ++i) {
    auto s = graph.addVertex(cs, "Scale", {{"in", x[i]}, {"out", y[i]}});
    graph.setInitialValue(s["factor"], float(i + 2));
    graph.setTileMapping(s, 0);
  }
  graph.setTileMapping(graph.addVertex(cs, "AddConstant", {{"x", z}}), 0);
  std::vector<float> xs(x.numElements()), zs(kPerTile, 0.5f);
  for (std::size_t i = 0; i < xs.size(); ++i)
    xs[i] = float(i % 13);
  graph.setInitialValue(x, ArrayRef<float>(xs));
  graph.setInitialValue(z, ArrayRef<float>(zs));
  graph.createHostRead("y", y);
  graph.createHostRead("z", z);
  constexpr unsigned kRuns = 6;
  Engine engine(graph, Repeat(kRuns, Execute(cs)), {{"executor.hostThreads", "3"}});
  engine.load(device);
  engine.run();
  std::vector<float> ys(y.numElements());
  engine.readTensor("y", ys.data(), ys.data() + ys.size());
  engine.readTensor("z", zs.data(), zs.data() + zs.size());
  for (std::size_t i = 0; i < ys.size(); ++i)
    ASSERT_EQ(ys[i], xs[i] * float(i / kN + 2)) << i;
  EXPECT_EQ(zs, std::vector<float>(kPerTile, 0.5f + kRuns));
}
