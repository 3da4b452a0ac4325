// popc compile time per codelet file through Graph::addCodelets: cold (a fresh, empty
// POPLAR_CODELET_CACHE, so popc runs as a subprocess) and cached (the .gp comes from the cache).
//
// Time is wall time of one addCodelets call (manual timing: popc runs in a child process, so
// this thread's CPU time would miss it); counter child_cpu_ms is the CPU time of the popc
// processes (user + system, from getrusage(RUSAGE_CHILDREN)). POPC overrides the popc used.
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <benchmark/benchmark.h>

#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// The files, relative to the source tree; the argument of each benchmark indexes this list.
const char *const kFiles[] = {"tutorials/tut3_vertices/complete/tut3_codelets.cpp",
                              "bench/codelets/BenchVertices.cpp", "test/popc/lit/templates.cpp"};

double childCpuSeconds() {
  rusage ru;
  getrusage(RUSAGE_CHILDREN, &ru);
  return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         1e-6 * double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

struct Environment {
  Environment() {
    if (!std::getenv("POPC"))
      setenv("POPC", POPSDK_BENCH_POPC, 1);
    root = fs::temp_directory_path() / ("popc_compile_bench." + std::to_string(getpid()));
    fs::create_directories(root);
  }
  ~Environment() {
    std::error_code ec;
    fs::remove_all(root, ec);
  }
  /// A new, empty cache directory, made the current one.
  void freshCache() {
    fs::path dir = root / std::to_string(next++);
    fs::create_directories(dir);
    setenv("POPLAR_CODELET_CACHE", dir.c_str(), 1);
  }
  fs::path root;
  unsigned next = 0;
};

Environment &environment() {
  static Environment e;
  return e;
}

double addCodeletsSeconds(poplar::Graph &graph, const std::string &path) {
  auto start = std::chrono::steady_clock::now();
  graph.addCodelets(path);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void run(benchmark::State &state, bool cold) {
  const std::string path = std::string(POPSDK_SOURCE_DIR) + "/" + kFiles[state.range(0)];
  poplar::IPUModel model("ipu2");
  model.numIPUs = 1;
  model.tilesPerIPU = 4;
  poplar::Device device = model.createDevice();
  Environment &env = environment();
  env.freshCache();
  if (!cold) { // fill the cache once
    poplar::Graph graph(device.getTarget());
    graph.addCodelets(path);
  }
  double child = 0;
  for (auto _ : state) {
    if (cold)
      env.freshCache();
    poplar::Graph graph(device.getTarget());
    double before = childCpuSeconds();
    state.SetIterationTime(addCodeletsSeconds(graph, path));
    child += childCpuSeconds() - before;
  }
  state.counters["child_cpu_ms"] = 1e3 * child / double(state.iterations());
  state.SetLabel(fs::path(path).filename().string());
}

void BM_PopcCold(benchmark::State &state) { run(state, true); }
void BM_PopcCached(benchmark::State &state) { run(state, false); }

// Argument: index into kFiles.
BENCHMARK(BM_PopcCold)->DenseRange(0, 2)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PopcCached)->DenseRange(0, 2)->UseManualTime()->Unit(benchmark::kMillisecond);

} // namespace
