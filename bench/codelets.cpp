// Codelets native vs interpreted: one source (codelets/BenchVertices.cpp) built by the host
// compiler into this program and by popc into a .gp that runs on the tile interpreter.
//
// Each benchmark runs one vertex on one tile, the way the Engine's VertexRunner does (decoded
// code relocated to its data section, vertex state filled from the .gp field layout, one
// interpreter run per worker), the same on the native tier (the vertex's ISA compiled to host
// code by libpoplar_native.so), and the same compute() natively over host arrays. Counters, all
// from thread CPU time (median of batches, so a busy machine's preemptions stay out):
// interp_ns, tier_ns and native_ns (one compute, all workers), ratio = interp_ns / native_ns,
// tier_ratio = tier_ns / native_ns, memcheck_ns and memcheck_ratio = memcheck_ns / interp_ns
// (the memory-checked loop of debug.checkMemoryAccess, with the vertex's arrays, state and data
// as its map), jit_ms (the native tier's compile of the vertex), cycles
// (simulated thread cycles, summed over workers), insns and insns_per_elem (interpreted
// instructions), ns_per_insn. POPSDK_BENCH_GP=<file.gp> runs another build of the vertices.
// Before timing, each vertex also runs through the Engine on test/support's VertexTester (the
// harness the vertex tests use): the direct run must give its outputs and thread cycles.
#include "BenchCommon.hpp"
#include "VertexTester.hpp"
#include "gp/GpFile.hpp"
#include "interp/Interpreter.hpp"
#include "interp/MemCheck.hpp"
#include "interp/NativeTier.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// The native build: the codelet source as-is, against the host poplar/Vertex.hpp.
#include "codelets/BenchVertices.cpp"

namespace {

using namespace poplar;

// ---- timing ----

double threadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e9 + double(ts.tv_nsec);
}

/// Median thread-CPU nanoseconds per call of `fn`, over batches of about a millisecond, for at
/// least 7 batches and 20 ms.
template <typename Fn> double medianNsPerCall(Fn &&fn) {
  unsigned calls = 1;
  for (;;) {
    double t0 = threadCpuNs();
    for (unsigned k = 0; k < calls; ++k)
      fn();
    if (threadCpuNs() - t0 > 1e6 || calls >= (1u << 24))
      break;
    calls *= 2;
  }
  std::vector<double> perCall;
  double begin = threadCpuNs();
  while (perCall.size() < 7 || threadCpuNs() - begin < 2e7) {
    double t0 = threadCpuNs();
    for (unsigned k = 0; k < calls; ++k)
      fn();
    perCall.push_back((threadCpuNs() - t0) / calls);
  }
  return popsdk::bench::median(perCall);
}

// ---- host shim: the field storage of the native vertices ----

/// Points a host Vector field (address, then count if its layout keeps one) at `n` elements
/// from `p`.
template <typename Field, typename T> void bindVector(Field &field, T *p, unsigned n) {
  struct Span {
    T *ptr;
    unsigned size;
  };
  static_assert(sizeof(Field) == sizeof(Span) || sizeof(Field) == sizeof(T *),
                "host Vector layout changed");
  Span s{p, n};
  std::memcpy(static_cast<void *>(&field), &s, sizeof(Field));
}

/// Points a host scalar edge field at `p`.
template <typename Field, typename T> void bindScalar(Field &field, T *p) {
  static_assert(sizeof(Field) == sizeof(T *), "host scalar edge layout changed");
  std::memcpy(static_cast<void *>(&field), &p, sizeof p);
}

template <typename V> __attribute__((noinline)) bool runNative(V &v) { return v.compute(); }
template <typename V> __attribute__((noinline)) bool runNativeMulti(V &v) {
  bool ok = true;
  for (unsigned w = 0; w < V::numWorkers(); ++w)
    ok &= v.compute(w);
  return ok;
}

// ---- the interpreted build ----

struct Codelets {
  gp::GpFile file;
  std::vector<std::uint64_t> words; // code before relocation
};

/// The .gp of the vertices: this build's, or POPSDK_BENCH_GP.
std::string gpPath() {
  const char *path = std::getenv("POPSDK_BENCH_GP");
  return path ? path : POPSDK_BENCH_VERTICES_GP;
}

const Codelets &codelets() {
  static const Codelets c = [] {
    Codelets c;
    c.file = gp::readGpFile(gpPath());
    c.words.resize(c.file.code.size() / 8);
    std::memcpy(c.words.data(), c.file.code.data(), c.words.size() * 8);
    return c;
  }();
  return c;
}

/// One tile: the codelet's data section, one vertex state, the arrays, then worker stacks.
class Tile {
public:
  static constexpr std::uint32_t kBytes = 256 * 1024, kStackBytes = 2048;

  explicit Tile(const std::string &vertexName) : memory_(kBytes) {
    const Codelets &c = codelets();
    vertex_ = c.file.findVertex(vertexName);
    if (!vertex_)
      throw std::runtime_error("no vertex " + vertexName + " in the .gp");
    std::memcpy(memory_.data(), c.file.data.data(), c.file.data.size());
    dataAddress_ = isa::kTileMemoryBase;
    access_.allow(dataAddress_, std::uint32_t(c.file.data.size()), true);
    std::vector<std::uint8_t> code = c.file.code;
    for (const auto &r : c.file.relocations)
      if (r.section == gp::Section::Code) {
        std::uint32_t value = r.target == gp::Section::Data ? dataAddress_ + r.addend : r.addend;
        std::memcpy(code.data() + r.offset, &value, 4);
      }
    std::vector<std::uint64_t> words(code.size() / 8);
    std::memcpy(words.data(), code.data(), words.size() * 8);
    code_ = interp::decodeCode(words);
    next_ = align(std::uint32_t(c.file.data.size()), 64);
    state_ = allocate(vertex_->stateSize);
  }

  /// Tile address of a fresh, 64-byte aligned array holding `values`.
  template <typename T> std::uint32_t array(const std::vector<T> &values) {
    std::uint32_t a = allocate(std::uint32_t(values.size() * sizeof(T)));
    std::memcpy(at(a), values.data(), values.size() * sizeof(T));
    return a;
  }
  void setVector(const char *field, std::uint32_t address, std::uint32_t count) {
    const gp::Field &f = fieldNamed(field);
    std::memcpy(at(state_ + f.offset), &address, 4);
    if (gp::layoutHasSize(f.layout))
      std::memcpy(at(state_ + f.offset + 4), &count, 4);
  }
  void setScalarEdge(const char *field, std::uint32_t address) {
    std::memcpy(at(state_ + fieldNamed(field).offset), &address, 4);
  }
  template <typename T> void setValue(const char *field, T value) {
    static_assert(sizeof(T) == 4, "scalar fields are 4 bytes");
    std::memcpy(at(state_ + fieldNamed(field).offset), &value, 4);
  }
  float *floats(std::uint32_t address) { return reinterpret_cast<float *>(at(address)); }
  half *halves(std::uint32_t address) { return reinterpret_cast<half *>(at(address)); }

  /// Compiles the vertex for the native tier; returns the compile time in seconds.
  double compileNative() {
    std::string error;
    native_ = interp::compileNative(code_, vertex_->entry, error);
    if (!native_)
      throw std::runtime_error(error);
    return native_->compileSeconds();
  }

  enum class Mode { Interpreted, NativeTier, MemChecked };
  /// Runs the vertex once (on every worker for a MultiVertex), interpreted, on the native tier
  /// or memory-checked, reusing one worker state as the Engine does; sums cycles and
  /// instructions.
  interp::RunResult run(Mode mode = Mode::Interpreted) {
    unsigned workers = vertex_->kind == gp::VertexKind::MultiVertex ? 6 : 1;
    if (!stacks_) {
      stacks_ = next_ + isa::kTileMemoryBase; // not in the map: the live stack is checked apart
      next_ = align(next_ + workers * kStackBytes, 64);
      if (next_ > kBytes)
        throw std::runtime_error("benchmark tile memory exhausted");
      access_.seal();
    }
    interp::TileMemory mem{isa::kTileMemoryBase, memory_.data(), kBytes};
    interp::RunResult total;
    for (unsigned w = 0; w < workers; ++w) {
      interp::Launch launch;
      launch.vertexState = state_;
      launch.workerId = w;
      launch.stackBase = stacks_ + w * kStackBytes;
      launch.stackSize = kStackBytes;
      launch.globals = dataAddress_;
      interp::RunResult r =
          mode == Mode::MemChecked
              ? interp::runChecked(code_, vertex_->entry, mem, launch, scratch_, access_)
              : interp::run(code_, vertex_->entry, mem, launch, scratch_,
                            mode == Mode::NativeTier ? native_.get() : nullptr);
      if (r.trap != interp::Trap::None || r.result == 0)
        throw std::runtime_error(std::string("vertex ") + vertex_->name + " failed: " +
                                 interp::trapName(r.trap) + " at pc " + std::to_string(r.pc));
      total.cycles += r.cycles;
      total.instructions += r.instructions;
    }
    return total;
  }

private:
  static std::uint32_t align(std::uint32_t x, std::uint32_t a) { return (x + a - 1) / a * a; }
  /// Bytes for the vertex's state or an array: memory it may access.
  std::uint32_t allocate(std::uint32_t bytes) {
    std::uint32_t offset = next_;
    next_ = align(next_ + bytes, 64);
    if (next_ > kBytes)
      throw std::runtime_error("benchmark tile memory exhausted");
    access_.allow(isa::kTileMemoryBase + offset, bytes, true);
    return isa::kTileMemoryBase + offset;
  }
  std::uint8_t *at(std::uint32_t address) {
    return memory_.data() + (address - isa::kTileMemoryBase);
  }
  const gp::Field &fieldNamed(const char *name) {
    const gp::Field *f = vertex_->findField(name);
    if (!f)
      throw std::runtime_error(std::string("no field ") + name);
    return *f;
  }

  std::vector<std::uint8_t> memory_;
  const gp::Vertex *vertex_ = nullptr;
  interp::DecodedCode code_;
  std::unique_ptr<interp::NativeCode> native_;
  interp::WorkerState scratch_;
  interp::AccessMap access_;
  std::uint32_t dataAddress_ = 0, next_ = 0, state_ = 0, stacks_ = 0;
};

// This build's libpoplar_native.so unless POPLAR_NATIVE_LIBRARY says otherwise. Set before
// anything runs: the Engine (tier auto) tries the library once, and this benchmark links
// the interpreter statically, so the library is not beside the code that loads it.
[[maybe_unused]] const bool kNativeLibrarySet =
    setenv("POPLAR_NATIVE_LIBRARY", POPSDK_NATIVE_LIBRARY, 0) == 0;

std::vector<float> inputs(unsigned n, unsigned seed) {
  std::vector<float> v(n);
  for (unsigned i = 0; i < n; ++i)
    v[i] = float((i * 7 + seed) % 17) * 0.25f - 1.5f;
  return v;
}

/// The vertex run through the Engine by the harness the tests use (test/support's VertexTester),
/// with its output and thread cycles. The direct tile run above must reproduce both, so the timed
/// loop is exactly what the simulator runs.
struct ViaEngine {
  popsdk::test::RunResult run;
  std::string output;
  template <typename T> bool agrees(const interp::RunResult &r, const T *tileOutput) const {
    const auto &values = run.output(output);
    for (std::size_t i = 0; i < values.size(); ++i)
      if (float(values[i]) != float(tileOutput[i]))
        return false;
    return run.threadCycles == r.cycles;
  }
};

template <typename T> std::vector<double> asDoubles(const std::vector<T> &v) {
  return {v.begin(), v.end()};
}

/// Times the interpreted build, the native tier and the native build, checks that they agree
/// bit for bit (and that the direct run agrees with the Engine's), and sets the counters.
template <typename Native, typename Compare, typename T>
void measure(benchmark::State &state, Tile &tile, Native &&native, Compare &&sameResults,
             const ViaEngine &viaEngine, const T *tileOutput, unsigned elements) {
  interp::RunResult r = tile.run();
  native();
  if (!sameResults()) {
    state.SkipWithError("interpreted and native results differ");
    return;
  }
  if (!viaEngine.agrees(r, tileOutput)) {
    state.SkipWithError("the direct tile run and the Engine's run of the vertex differ");
    return;
  }
  const double compileSeconds = tile.compileNative();
  const interp::RunResult onTier = tile.run(Tile::Mode::NativeTier);
  if (!sameResults() || onTier.cycles != r.cycles || onTier.instructions != r.instructions) {
    state.SkipWithError("the native tier's results or cycles differ from the interpreter's");
    return;
  }
  const interp::RunResult checked = tile.run(Tile::Mode::MemChecked);
  if (!sameResults() || checked.cycles != r.cycles || checked.instructions != r.instructions) {
    state.SkipWithError("the memory-checked run's results or cycles differ");
    return;
  }
  for (auto _ : state)
    benchmark::DoNotOptimize(tile.run().cycles);
  double interpNs = medianNsPerCall([&] { benchmark::DoNotOptimize(tile.run().cycles); });
  double tierNs =
      medianNsPerCall([&] { benchmark::DoNotOptimize(tile.run(Tile::Mode::NativeTier).cycles); });
  double checkedNs =
      medianNsPerCall([&] { benchmark::DoNotOptimize(tile.run(Tile::Mode::MemChecked).cycles); });
  double nativeNs = medianNsPerCall([&] {
    benchmark::DoNotOptimize(native());
    benchmark::ClobberMemory();
  });
  state.counters["interp_ns"] = interpNs;
  state.counters["tier_ns"] = tierNs;
  state.counters["native_ns"] = nativeNs;
  state.counters["ratio"] = interpNs / nativeNs;
  state.counters["tier_ratio"] = tierNs / nativeNs;
  state.counters["memcheck_ns"] = checkedNs;
  state.counters["memcheck_ratio"] = checkedNs / interpNs;
  state.counters["jit_ms"] = compileSeconds * 1e3;
  state.counters["cycles"] = double(r.cycles);
  state.counters["insns"] = double(r.instructions);
  state.counters["insns_per_elem"] = double(r.instructions) / elements;
  state.counters["cycles_per_elem"] = double(r.cycles) / elements;
  state.counters["ns_per_insn"] = interpNs / double(r.instructions);
}

/// measure() for a vertex whose output is a float vector: `out` natively, at `tileOut` on the
/// tile.
template <typename Native>
void measureVector(benchmark::State &state, Tile &tile, Native &&native,
                   const std::vector<float> &out, std::uint32_t tileOut,
                   const ViaEngine &viaEngine) {
  const float *onTile = tile.floats(tileOut);
  measure(
      state, tile, native, [&] { return std::memcmp(out.data(), onTile, out.size() * 4) == 0; },
      viaEngine, onTile, unsigned(out.size()));
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, 4) == 0; }

void BM_Sum(benchmark::State &state) {
  unsigned n = unsigned(state.range(0));
  std::vector<float> in = inputs(n, 1);
  float out = 0;
  SumVertex v;
  bindVector(v.in, in.data(), n);
  bindScalar(v.out, &out);

  Tile tile("SumVertex");
  std::uint32_t tin = tile.array(in), tout = tile.array(std::vector<float>{0.f});
  tile.setVector("in", tin, n);
  tile.setScalarEdge("out", tout);
  ViaEngine viaEngine{popsdk::test::VertexTester(gpPath(), "SumVertex")
                          .input("in", FLOAT, asDoubles(in))
                          .scalarOutput("out", FLOAT)
                          .run(),
                      "out"};
  measure(
      state, tile, [&] { return runNative(v); }, [&] { return sameBits(out, *tile.floats(tout)); },
      viaEngine, tile.floats(tout), n);
}

void BM_Dot(benchmark::State &state) {
  unsigned n = unsigned(state.range(0));
  std::vector<float> a = inputs(n, 1), b = inputs(n, 5);
  float out = 0;
  DotProductVertex v;
  bindVector(v.a, a.data(), n);
  bindVector(v.b, b.data(), n);
  bindScalar(v.out, &out);

  Tile tile("DotProductVertex");
  std::uint32_t ta = tile.array(a), tb = tile.array(b), tout = tile.array(std::vector<float>{0.f});
  tile.setVector("a", ta, n);
  tile.setVector("b", tb, n);
  tile.setScalarEdge("out", tout);
  ViaEngine viaEngine{popsdk::test::VertexTester(gpPath(), "DotProductVertex")
                          .input("a", FLOAT, asDoubles(a))
                          .input("b", FLOAT, asDoubles(b))
                          .scalarOutput("out", FLOAT)
                          .run(),
                      "out"};
  measure(
      state, tile, [&] { return runNative(v); }, [&] { return sameBits(out, *tile.floats(tout)); },
      viaEngine, tile.floats(tout), n);
}

void BM_AxpyMulti(benchmark::State &state) {
  unsigned n = unsigned(state.range(0));
  std::vector<float> x = inputs(n, 1), y = inputs(n, 5), out(n, 0.f);
  const float a = 0.75f;
  AxpyMultiVertex v;
  bindVector(v.x, x.data(), n);
  bindVector(v.y, y.data(), n);
  bindVector(v.out, out.data(), n);
  v.a = a;

  Tile tile("AxpyMultiVertex");
  std::uint32_t tx = tile.array(x), ty = tile.array(y), tout = tile.array(out);
  tile.setVector("x", tx, n);
  tile.setVector("y", ty, n);
  tile.setVector("out", tout, n);
  tile.setValue("a", a);
  ViaEngine viaEngine{popsdk::test::VertexTester(gpPath(), "AxpyMultiVertex")
                          .input("x", FLOAT, asDoubles(x))
                          .input("y", FLOAT, asDoubles(y))
                          .output("out", FLOAT, n)
                          .state("a", FLOAT, a)
                          .run(),
                      "out"};
  measureVector(
      state, tile, [&] { return runNativeMulti(v); }, out, tout, viaEngine);
}

/// a * x + y on vectors of T, `width` lanes per instruction: also reports elements per cycle
/// against the IPU's vector width (2 floats or 4 halves per f32v2 / f16v4 instruction).
template <typename Vertex, typename T>
void axpyVector(benchmark::State &state, const char *name, poplar::Type type, unsigned width) {
  unsigned n = unsigned(state.range(0));
  std::vector<float> xs = inputs(n, 1), ys = inputs(n, 5);
  std::vector<T> x(xs.begin(), xs.end()), y(ys.begin(), ys.end()), out(n, T(0));
  const float a = 0.75f;
  Vertex v;
  bindVector(v.x, x.data(), n);
  bindVector(v.y, y.data(), n);
  bindVector(v.out, out.data(), n);
  v.a = a;

  Tile tile(name);
  std::uint32_t tx = tile.array(x), ty = tile.array(y), tout = tile.array(out);
  tile.setVector("x", tx, n);
  tile.setVector("y", ty, n);
  tile.setVector("out", tout, n);
  tile.setValue("a", a);
  ViaEngine viaEngine{popsdk::test::VertexTester(gpPath(), name)
                          .input("x", type, asDoubles(x))
                          .input("y", type, asDoubles(y))
                          .output("out", type, n)
                          .state("a", FLOAT, a)
                          .run(),
                      "out"};
  const T *tileOut = reinterpret_cast<const T *>(tile.floats(tout));
  measure(
      state, tile, [&] { return runNative(v); },
      [&] { return std::memcmp(out.data(), tileOut, n * sizeof(T)) == 0; }, viaEngine, tileOut, n);
  double elementsPerCycle = n / state.counters["cycles"];
  state.counters["elems_per_cycle"] = elementsPerCycle;
  state.counters["of_vector_width"] = elementsPerCycle / width;
}

void BM_AxpyFloat2(benchmark::State &state) {
  axpyVector<AxpyFloat2Vertex, float>(state, "AxpyFloat2Vertex", FLOAT, 2);
}
void BM_AxpyHalf4(benchmark::State &state) {
  axpyVector<AxpyHalf4Vertex, half>(state, "AxpyHalf4Vertex", HALF, 4);
}

/// A rows x 64 block: its transpose, rows * 64 elements.
void BM_Transpose(benchmark::State &state) {
  const unsigned n = unsigned(state.range(0)), cols = 64, rows = (n + cols - 1) / cols;
  std::vector<float> in = inputs(rows * cols, 3), out(rows * cols, 0.f);
  TransposeVertex v;
  bindVector(v.in, in.data(), rows * cols);
  bindVector(v.out, out.data(), rows * cols);
  v.rows = rows;
  v.cols = cols;

  Tile tile("TransposeVertex");
  std::uint32_t tin = tile.array(in), tout = tile.array(out);
  tile.setVector("in", tin, rows * cols);
  tile.setVector("out", tout, rows * cols);
  tile.setValue("rows", rows);
  tile.setValue("cols", cols);
  ViaEngine viaEngine{popsdk::test::VertexTester(gpPath(), "TransposeVertex")
                          .input("in", FLOAT, asDoubles(in))
                          .output("out", FLOAT, rows * cols)
                          .state("rows", UNSIGNED_INT, rows)
                          .state("cols", UNSIGNED_INT, cols)
                          .run(),
                      "out"};
  measureVector(
      state, tile, [&] { return runNative(v); }, out, tout, viaEngine);
}

void BM_Map3(benchmark::State &state) {
  unsigned n = unsigned(state.range(0));
  std::vector<float> a = inputs(n, 1), b = inputs(n, 5), c = inputs(n, 9), out(n, 0.f);
  Map3Vertex v;
  bindVector(v.a, a.data(), n);
  bindVector(v.b, b.data(), n);
  bindVector(v.c, c.data(), n);
  bindVector(v.out, out.data(), n);

  Tile tile("Map3Vertex");
  std::uint32_t ta = tile.array(a), tb = tile.array(b), tc = tile.array(c), tout = tile.array(out);
  tile.setVector("a", ta, n);
  tile.setVector("b", tb, n);
  tile.setVector("c", tc, n);
  tile.setVector("out", tout, n);
  ViaEngine viaEngine{popsdk::test::VertexTester(gpPath(), "Map3Vertex")
                          .input("a", FLOAT, asDoubles(a))
                          .input("b", FLOAT, asDoubles(b))
                          .input("c", FLOAT, asDoubles(c))
                          .output("out", FLOAT, n)
                          .run(),
                      "out"};
  measureVector(
      state, tile, [&] { return runNativeMulti(v); }, out, tout, viaEngine);
}

// Argument: elements per vertex.
BENCHMARK(BM_Sum)->Arg(1)->Arg(16)->Arg(256)->Arg(4096);
BENCHMARK(BM_Dot)->Arg(1)->Arg(16)->Arg(256)->Arg(4096);
BENCHMARK(BM_AxpyMulti)->Arg(1)->Arg(16)->Arg(256)->Arg(4096);
BENCHMARK(BM_AxpyFloat2)->Arg(16)->Arg(256)->Arg(4096);
BENCHMARK(BM_AxpyHalf4)->Arg(16)->Arg(256)->Arg(4096);
BENCHMARK(BM_Transpose)->Arg(64)->Arg(256)->Arg(4096);
BENCHMARK(BM_Map3)->Arg(16)->Arg(256)->Arg(4096);

} // namespace
