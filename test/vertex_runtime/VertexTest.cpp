// Real-world codelet shapes against host references, with cycle models read off `popc -S`.
//
// The vertices are in codelets/Shapes.cpp; each walks the edge sizes of kEdgeSizes.
#include "CodeletSources.hpp"
#include "CycleExpect.hpp"

#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <sstream>

using namespace popsdk::test;
using namespace poplar;
using namespace poplar::program;

namespace {

const std::string kShapes = codeletPath("Shapes.cpp");

/// A vertex's thread cycles as a function of its work size n: `empty` when n == 0 (the early
/// exit), else fixed + perItem * n.
///
/// Every instruction costs 1 thread cycle except ldh/sth (2), divs/divu/rems/remu (32) and fdiv
/// (3) (poplar/isa/Opcodes.def). `fixed` counts the instructions run once on the n > 0 path
/// (entry, loop set-up, the last trip's fall-through, exit) and `perItem` those of one loop
/// trip, both read off the listing of `popc -S test/codelets/codelets/Shapes.cpp` (-O2); the
/// comments quote that listing's pcs. A change in popc's code generation moves these numbers:
/// re-derive them from the new listing rather than widening the tolerance.
struct CycleModel {
  double empty, fixed, perItem;
  double operator()(std::size_t n) const { return n == 0 ? empty : fixed + perItem * double(n); }
};

/// How far (relative to the measurement) an estimate may be off: the models are exact counts,
/// so this only absorbs a branch layout that differs by an instruction or two.
constexpr double kTolerance = 0.05;

// `rpt r, n` costs 1 and then each trip costs its n body instructions; the pointer walks use
// post-increment loads and stores (ld32p, ldhp: 2, st32p, sthp: 2).
//
// SumVertex: n == 0: 9-18 (10) + exit 25-27 (3) = 13. Otherwise 9-21 (13), the rpt body 22-24
// (3: *out is stored every trip), exit (3): 16 + 3n.
constexpr CycleModel kSumModel{13, 16, 3};
// DotProductVertex: n == 0: 29-34 (6) + 45-49 (5) = 11. Otherwise 29-32 and 35-40 (10), body
// 41-44 (4), 45-49 (5): 15 + 4n.
constexpr CycleModel kDotModel{11, 15, 4};
// Scale<float>: n == 0: 50-53 (4) + exit 63-65 (3) = 7. Otherwise 50-58 (9), body 59-62 (4:
// factor is reloaded, out may alias it), exit (3): 12 + 4n.
constexpr CycleModel kScaleFloatModel{7, 12, 4};
// Scale<int>: a counted loop, not rpt (the bound is reloaded each trip): n == 0: 66-69 (4) +
// exit 83-85 (3) = 7. Otherwise 66-73 (8), trips 74-82 (9), exit (3): 11 + 9n.
constexpr CycleModel kScaleIntModel{7, 11, 9};
// Scale<half>: n == 0: 86-89 (4) + 101-103 (3) = 7. Otherwise 86-95 (10), body 96-100
// (ldhp 2 + 3 + sthp 2 = 7), exit (3): 13 + 7n.
constexpr CycleModel kScaleHalfModel{7, 13, 7};
// ClampVertex, calling clampTo (0-8: 9 cycles) each trip (the entry saves only lr: r32-r35 are
// free in a vertex's entry): n == 0: 103-108 (6) + exit 125-129 (5) = 11. Otherwise 103-111
// (9), trips 112-124 (13) + the call (9), exit (5): 14 + 22n.
constexpr CycleModel kClampModel{11, 14, 22};
// PopcountVertex (the 8 table lookups unrolled, ld8u from gp): n == 0: 139-142 (4) + exit
// 205-207 (3) = 7. Otherwise 139-145 (7), trips 146-204 (59), exit (3): 10 + 59n.
constexpr CycleModel kPopcountModel{7, 10, 59};
// HalfAxpy: n == 0: 208-211 (4) + exit 225-227 (3) = 7. Otherwise 208-217 (10), body 218-224
// (ldhp 2, fmul, ldh 2, fadd, ftoh, htof, sthp 2 = 10), exit (3): 13 + 10n.
constexpr CycleModel kHalfAxpyModel{7, 13, 10};
// AccumulateVertex: n == 0: 228-231 (4) + exit 241-243 (3) = 7. Otherwise 228-236 (9), body
// 237-240 (4), exit (3): 12 + 4n.
constexpr CycleModel kAccumulateModel{7, 12, 4};
// MultiAdd, per worker with k elements (stride 6 through post-increment by 24): k == 0:
// 280-284 (5) + exit 301-303 (3) = 8. Otherwise 280-293 (14), trips 294-300 (7), exit (3):
// 17 + 7k.
constexpr CycleModel kMultiAddModel{8, 17, 7};

// ListSums over L lists: L == 0: 243-246 (4) + exit 277-279 (3) = 7. Otherwise 243-249 (7),
// then per list the head 250-261 (12) and the store and test 265-270 (6) plus, for an empty
// list, 264 (1), or for k > 0 elements 262-263 and the loop's set-up 272-273 (4), the rpt body
// 274-275 (2 per element: the add reads what the load wrote, so they cannot share a bundle) and
// 276 (1); then 271 (1) back to the head, or the exit (3) after the last list.
// Sum: 9 + (20 per empty list, 24 + 2k per other list).
struct ListSumsModel {
  double operator()(const std::vector<std::vector<double>> &lists) const {
    if (lists.empty())
      return 7;
    double cycles = 9;
    for (const auto &l : lists)
      cycles += l.empty() ? 20 : 24 + 2 * double(l.size());
    return cycles;
  }
};
// ScalarMulAdd: straight line 304-316, the multiply issuing with the load after it.
constexpr double kScalarMulAddCycles = 12;

std::vector<double> scaled(const std::vector<double> &x, double factor, Type type) {
  std::vector<double> y;
  for (double v : x)
    y.push_back(roundTo(type, float(v) * float(factor)));
  return y;
}

double sum(const std::vector<double> &x) { return std::accumulate(x.begin(), x.end(), 0.0); }

} // namespace

TEST(Vertex, SumVertexRangeForOverEdgeSizes) {
  for (std::size_t n : kEdgeSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto in = hostData(FLOAT, n, -4, 4);
    auto r =
        VertexTester(kShapes, "SumVertex").input("in", FLOAT, in).scalarOutput("out", FLOAT).run();
    EXPECT_EQ(r.output("out"), std::vector<double>{sum(in)});
    expectCycles(r, kSumModel(n), kTolerance);
  }
}

TEST(Vertex, DotProductIndexLoopOverEdgeSizes) {
  for (std::size_t n : kEdgeSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto a = hostData(FLOAT, n, -2, 2, 1), b = hostData(FLOAT, n, -2, 2, 2);
    double dot = 0;
    for (std::size_t i = 0; i < n; ++i)
      dot += a[i] * b[i]; // multiples of 1/64 below 2^10: exact in float, in any order
    auto r = VertexTester(kShapes, "DotProductVertex")
                 .input("a", FLOAT, a)
                 .input("b", FLOAT, b)
                 .scalarOutput("out", FLOAT)
                 .run();
    EXPECT_EQ(r.output("out"), std::vector<double>{dot});
    expectCycles(r, kDotModel(n), kTolerance);
  }
}

TEST(Vertex, TemplateInstantiationsFloatIntHalf) {
  struct Case {
    const char *name;
    Type type;
    CycleModel model;
  };
  for (const auto &c :
       {Case{"Scale<float>", FLOAT, kScaleFloatModel}, Case{"Scale<int>", INT, kScaleIntModel},
        Case{"Scale<half>", HALF, kScaleHalfModel}}) {
    for (std::size_t n : kEdgeSizes) {
      SCOPED_TRACE(std::string(c.name) + ", n = " + std::to_string(n));
      auto in = hostData(c.type, n, -100, 100);
      auto r = VertexTester(kShapes, c.name)
                   .input("in", c.type, in)
                   .output("out", c.type, n)
                   .state("factor", FLOAT, 1.5)
                   .run();
      std::vector<double> expected;
      for (double v : in)
        expected.push_back(c.type == INT ? double(int(float(v) * 1.5f))
                                         : roundTo(c.type, float(v) * 1.5f));
      EXPECT_EQ(r.output("out"), expected);
      expectCycles(r, c.model(n), kTolerance);
    }
  }
}

TEST(Vertex, NoinlineHelperCalledPerElement) {
  for (std::size_t n : kEdgeSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto in = hostData(INT, n, -50, 50);
    auto r = VertexTester(kShapes, "ClampVertex")
                 .input("in", INT, in)
                 .output("out", INT, n)
                 .state("lo", INT, -20)
                 .state("hi", INT, 30)
                 .run();
    std::vector<double> expected;
    for (double v : in)
      expected.push_back(std::clamp(v, -20.0, 30.0));
    EXPECT_EQ(r.output("out"), expected);
    expectCycles(r, kClampModel(n), kTolerance);
  }
}

TEST(Vertex, StaticLookupTable) {
  for (std::size_t n : kEdgeSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto in = hostData(UNSIGNED_INT, n, 0, 4294967295.0);
    auto r = VertexTester(kShapes, "PopcountVertex")
                 .input("in", UNSIGNED_INT, in)
                 .output("out", UNSIGNED_INT, n)
                 .run();
    std::vector<double> expected;
    for (double v : in)
      expected.push_back(__builtin_popcount(std::uint32_t(v)));
    EXPECT_EQ(r.output("out"), expected);
    expectCycles(r, kPopcountModel(n), kTolerance);
  }
}

TEST(Vertex, HalfInputAndInOut) {
  for (std::size_t n : kEdgeSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto x = hostData(HALF, n, -8, 8, 1), y = hostData(HALF, n, -8, 8, 2);
    auto r = VertexTester(kShapes, "HalfAxpy")
                 .input("x", HALF, x)
                 .inout("y", HALF, y)
                 .state("alpha", FLOAT, 0.5)
                 .run();
    std::vector<double> expected;
    for (std::size_t i = 0; i < n; ++i)
      expected.push_back(roundTo(HALF, 0.5f * float(x[i]) + float(y[i])));
    EXPECT_EQ(r.output("y"), expected);
    expectCycles(r, kHalfAxpyModel(n), kTolerance);
  }
}

TEST(Vertex, InOutVectorWithVoidCompute) {
  for (std::size_t n : kEdgeSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto in = hostData(FLOAT, n, -4, 4, 1), acc = hostData(FLOAT, n, -4, 4, 2);
    auto r = VertexTester(kShapes, "AccumulateVertex")
                 .input("in", FLOAT, in)
                 .inout("acc", FLOAT, acc)
                 .run();
    std::vector<double> expected;
    for (std::size_t i = 0; i < n; ++i)
      expected.push_back(in[i] + acc[i]);
    EXPECT_EQ(r.output("acc"), expected);
    expectCycles(r, kAccumulateModel(n), kTolerance);
  }
}

TEST(Vertex, VectorListInput) {
  // Lists of every edge size at once, and an empty list.
  std::vector<std::vector<double>> lists;
  std::vector<double> sums;
  for (std::size_t n : kEdgeSizes) {
    lists.push_back(hostData(FLOAT, n, -4, 4, unsigned(n)));
    sums.push_back(sum(lists.back()));
  }
  auto r = VertexTester(kShapes, "ListSums")
               .inputList("in", FLOAT, lists)
               .output("out", FLOAT, lists.size())
               .run();
  EXPECT_EQ(r.output("out"), sums);
  expectCycles(r, ListSumsModel()(lists), kTolerance);

  auto none =
      VertexTester(kShapes, "ListSums").inputList("in", FLOAT, {}).output("out", FLOAT, 0).run();
  EXPECT_EQ(none.output("out"), std::vector<double>{});
  expectCycles(none, ListSumsModel()({}), kTolerance);
}

TEST(Vertex, MultiVertexSplitsByWorkerId) {
  for (std::size_t n : kEdgeSizes) {
    SCOPED_TRACE("n = " + std::to_string(n));
    auto a = hostData(FLOAT, n, -4, 4, 1), b = hostData(FLOAT, n, -4, 4, 2);
    auto r = VertexTester(kShapes, "MultiAdd")
                 .input("a", FLOAT, a)
                 .input("b", FLOAT, b)
                 .output("out", FLOAT, n)
                 .run();
    std::vector<double> expected;
    for (std::size_t i = 0; i < n; ++i)
      expected.push_back(a[i] + b[i]);
    EXPECT_EQ(r.output("out"), expected);
    // Six workers run; worker w takes ceil((n - w) / 6) elements. The profile sums them.
    double estimate = 0;
    for (std::size_t w = 0; w < 6; ++w)
      estimate += kMultiAddModel(n > w ? (n - w + 5) / 6 : 0);
    expectCycles(r, estimate, kTolerance);
  }
}

TEST(Vertex, ScalarInputsAndInOut) {
  auto r = VertexTester(kShapes, "ScalarMulAdd")
               .scalarInput("a", FLOAT, 1.5)
               .scalarInput("b", FLOAT, -2.25)
               .scalarInOut("acc", FLOAT, 10)
               .run();
  EXPECT_EQ(r.output("acc"), std::vector<double>{10 + 1.5 * -2.25});
  expectCycles(r, kScalarMulAddCycles, kTolerance);
}

// Data that is not contiguous on the vertex's tile goes through a local buffer: copy-in for
// inputs, copy-out for outputs, both for inouts. The results must not change, nor the vertex's
// own thread cycles (the copies are exchange, not compute).
TEST(Vertex, RemoteAndFragmentedDataIsCopiedInAndOut) {
  for (Placement p : {Placement::OtherTile, Placement::Fragmented}) {
    for (std::size_t n : kEdgeSizes) {
      SCOPED_TRACE("placement " + std::to_string(int(p)) + ", n = " + std::to_string(n));
      auto in = hostData(FLOAT, n, -4, 4, 1), acc = hostData(FLOAT, n, -4, 4, 2);
      auto local = VertexTester(kShapes, "AccumulateVertex")
                       .input("in", FLOAT, in)
                       .inout("acc", FLOAT, acc)
                       .run();
      auto moved = VertexTester(kShapes, "AccumulateVertex")
                       .tile(2)
                       .input("in", FLOAT, in, p)
                       .inout("acc", FLOAT, acc, p)
                       .run();
      EXPECT_EQ(moved.output("acc"), local.output("acc"));
      EXPECT_EQ(moved.threadCycles, local.threadCycles);
      if (n > 1 || (n == 1 && p == Placement::OtherTile)) { // one reversed element: contiguous
        EXPECT_GT(moved.totalCycles, local.totalCycles) << "the copies cost exchange cycles";
      }

      auto out = VertexTester(kShapes, "Scale<float>")
                     .tile(3)
                     .input("in", FLOAT, in, p)
                     .output("out", FLOAT, n, p)
                     .state("factor", FLOAT, -2)
                     .run();
      EXPECT_EQ(out.output("out"), scaled(in, -2, FLOAT));
    }
  }
}

// A transposed view and a concat of slices of variables on two tiles, written by the vertex
// (copy-out scatters the buffer back through the view).
TEST(Vertex, TransposedAndConcatenatedViews) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kShapes);
  Tensor m = graph.addVariable(FLOAT, {3, 5}, "m"); // read through m.transpose()
  Tensor p = graph.addVariable(FLOAT, {4}, "p"), q = graph.addVariable(FLOAT, {11}, "q");
  graph.setTileMapping(m, 0);
  graph.setTileMapping(p, 1);
  graph.setTileMapping(q, 0);
  ComputeSet cs = graph.addComputeSet("views");
  VertexRef v = graph.addVertex(cs, "Scale<float>");
  graph.setTileMapping(v, 0);
  graph.connect(v["in"], m.transpose().flatten());
  Tensor out = concat({q.slice(6, 11), p, q.slice(0, 6)}); // 15 elements, three pieces
  graph.connect(v["out"], out);
  graph.setInitialValue(v["factor"], 3.0f);
  graph.createHostWrite("m", m);
  graph.createHostRead("p", p);
  graph.createHostRead("q", q);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  std::vector<float> mHost(15);
  std::iota(mHost.begin(), mHost.end(), 1.0f); // m[i][j] = 5i + j + 1
  engine.writeTensor("m", mHost.data(), mHost.data() + 15);
  engine.run(0);
  std::vector<float> pHost(4), qHost(11);
  engine.readTensor("p", pHost.data(), pHost.data() + 4);
  engine.readTensor("q", qHost.data(), qHost.data() + 11);
  // Element k of the transposed view is m[k % 3][k / 3].
  // The view reads q[6..11), p, q[0..6).
  for (unsigned k = 0; k < 15; ++k) {
    float got = k < 5 ? qHost[6 + k] : k < 9 ? pHost[k - 5] : qHost[k - 9];
    EXPECT_EQ(got, 3.0f * mHost[(k % 3) * 5 + k / 3]) << "element " << k;
  }
}

TEST(Vertex, CyclesAreIdenticalAcrossRunsAndEngines) {
  auto build = [](Graph &graph, ComputeSet &cs) {
    graph.addCodelets(kShapes);
    Tensor a = graph.addVariable(FLOAT, {1000}, "a"), b = graph.addVariable(FLOAT, {1000}, "b");
    Tensor out = graph.addVariable(FLOAT, {4}, "out");
    cs = graph.addComputeSet("dots");
    for (unsigned t = 0; t < 4; ++t) {
      graph.setTileMapping(a.slice(t * 250, (t + 1) * 250), t);
      graph.setTileMapping(b.slice(t * 250, (t + 1) * 250), t);
      graph.setTileMapping(out[t], t);
      // Tile t's vertex reads t*100 + 50 elements (different work per tile) from its own slice.
      VertexRef v = graph.addVertex(cs, "DotProductVertex");
      graph.connect(v["a"], a.slice(t * 250, t * 250 + t * 60 + 50));
      graph.connect(v["b"], b.slice(t * 250, t * 250 + t * 60 + 50));
      graph.connect(v["out"], out[t]);
      graph.setTileMapping(v, t);
    }
    graph.createHostWrite("a", a);
    graph.createHostWrite("b", b);
    graph.createHostRead("out", out);
  };
  auto runOnce = [&](unsigned runs, std::vector<std::uint64_t> &cycles, std::uint64_t &typeCycles) {
    Device device = testDevice(4);
    Graph graph(device.getTarget());
    ComputeSet cs;
    build(graph, cs);
    ScopedTempDir profile;
    Engine engine(graph, Execute(cs), profileOptions(profile.path()));
    engine.load(device);
    auto a = hostData(FLOAT, 1000, -1, 1, 3), b = hostData(FLOAT, 1000, -1, 1, 4);
    std::vector<float> af(a.begin(), a.end()), bf(b.begin(), b.end());
    engine.writeTensor("a", af.data(), af.data() + 1000);
    engine.writeTensor("b", bf.data(), bf.data() + 1000);
    for (unsigned i = 0; i < runs; ++i) {
      engine.run(0);
      cycles.push_back(engine.getLastRunCycles());
    }
    typeCycles = vertexTypeCycles(profile.path(), "DotProductVertex");
  };
  std::vector<std::uint64_t> first, second;
  std::uint64_t threeRuns = 0, oneRun = 0;
  runOnce(3, first, threeRuns);
  runOnce(1, second, oneRun);
  ASSERT_EQ(first.size(), 3u);
  EXPECT_EQ(first[0], first[1]);
  EXPECT_EQ(first[1], first[2]);
  EXPECT_EQ(second[0], first[0]);
  // Three runs of the same vertices: the per-type total is three times one run's.
  EXPECT_EQ(threeRuns, 3 * oneRun);
  double perRun = 0;
  for (unsigned t = 0; t < 4; ++t)
    perRun += kDotModel(t * 60 + 50);
  EXPECT_NEAR(double(oneRun), perRun, perRun * kTolerance);
}

// The summary and the profile report the same run: the vertex type's cycles (read through
// libpva), and tile compute cycles that follow the cycle model (one Vertex on one tile: 6 x its
// thread cycles + 6 supervisor launch cycles, poplar/interp/CycleModel.hpp) averaged over the
// model's tiles.
TEST(Vertex, ProfileSummaryReflectsTheRun) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kShapes);
  Tensor a = graph.addVariable(FLOAT, {64}, "a"), b = graph.addVariable(FLOAT, {64}, "b");
  Tensor out = graph.addVariable(FLOAT, {}, "out");
  graph.setTileMapping(a, 0);
  graph.setTileMapping(b, 0);
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("dot");
  VertexRef v = graph.addVertex(cs, "DotProductVertex");
  graph.connect(v["a"], a);
  graph.connect(v["b"], b);
  graph.connect(v["out"], out);
  graph.setTileMapping(v, 0);
  ScopedTempDir profile;
  Engine engine(graph, Execute(cs), profileOptions(profile.path()));
  engine.load(device);
  engine.run(0);
  std::ostringstream os;
  engine.printProfileSummary(os);
  std::string summary = os.str();
  std::uint64_t threadCycles = vertexTypeCycles(profile.path(), "DotProductVertex");
  EXPECT_NE(summary.find("Cycles by vertex type:"), std::string::npos) << summary;
  EXPECT_NE(summary.find("    DotProductVertex"), std::string::npos) << summary;
  EXPECT_NEAR(double(threadCycles), kDotModel(64), kDotModel(64) * kTolerance);
  auto line = summary.find("Tile average compute cycles (including idle threads):");
  ASSERT_NE(line, std::string::npos) << summary;
  std::string value = summary.substr(line + 54, summary.find(' ', line + 54) - line - 54);
  value.erase(std::remove(value.begin(), value.end(), ','), value.end());
  EXPECT_DOUBLE_EQ(std::stod(value), double(6 * threadCycles + 6) / 4) << summary;
}

TEST(Vertex, SetPerfEstimateReplacesTheMeasurement) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kShapes);
  Tensor in = graph.addVariable(FLOAT, {64}, "in"), out = graph.addVariable(FLOAT, {}, "out");
  graph.setTileMapping(in, 0);
  graph.setTileMapping(out, 0);
  ComputeSet cs = graph.addComputeSet("cs");
  VertexRef v = graph.addVertex(cs, "SumVertex");
  graph.connect(v["in"], in);
  graph.connect(v["out"], out);
  graph.setTileMapping(v, 0);
  graph.setPerfEstimate(v, 12345);
  ScopedTempDir profile;
  Engine engine(graph, Execute(cs), profileOptions(profile.path()));
  engine.load(device);
  engine.run(0);
  EXPECT_EQ(vertexTypeCycles(profile.path(), "SumVertex"), 12345u);
}

// Several vertices of several types on several tiles in one compute set (tut3's shape).
TEST(Vertex, ManyVerticesOnManyTiles) {
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(kShapes);
  Tensor v1 = graph.addVariable(FLOAT, {4}, "v1"), v2 = graph.addVariable(FLOAT, {4}, "v2");
  Tensor v3 = graph.addVariable(FLOAT, {4}, "v3");
  ComputeSet cs = graph.addComputeSet("tut3");
  for (unsigned i = 0; i < 4; ++i) {
    graph.setTileMapping(v1[i], i);
    graph.setTileMapping(v2[i], i);
    graph.setTileMapping(v3[i], i);
    VertexRef sumV = graph.addVertex(cs, "SumVertex");
    graph.connect(sumV["in"], v1.slice(i, 4)); // reads tiles i..3: copy-in when i < 3
    graph.connect(sumV["out"], v2[i]);
    graph.setTileMapping(sumV, i);
    VertexRef scaleV = graph.addVertex(cs, "Scale<float>");
    graph.connect(scaleV["in"], v1.slice(i, i + 1));
    graph.connect(scaleV["out"], v3.slice(3 - i, 4 - i)); // written on another tile: copy-out
    graph.setInitialValue(scaleV["factor"], 10.0f);
    graph.setTileMapping(scaleV, i);
  }
  graph.createHostWrite("v1", v1);
  graph.createHostRead("v2", v2);
  graph.createHostRead("v3", v3);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  std::vector<float> h1{1.0f, 1.5f, 2.0f, 2.5f}, h2(4), h3(4);
  engine.writeTensor("v1", h1.data(), h1.data() + 4);
  engine.run(0);
  engine.readTensor("v2", h2.data(), h2.data() + 4);
  engine.readTensor("v3", h3.data(), h3.data() + 4);
  EXPECT_EQ(h2, (std::vector<float>{7.0f, 6.0f, 4.5f, 2.5f}));
  EXPECT_EQ(h3, (std::vector<float>{25.0f, 20.0f, 15.0f, 10.0f}));
  std::ostringstream os;
  engine.printProfileSummary(os);
  EXPECT_NE(os.str().find("    SumVertex"), std::string::npos) << os.str();
  EXPECT_NE(os.str().find("    Scale<float>"), std::string::npos) << os.str();
}

// A codelet given as a std::stringstream is compiled like a file.
TEST(Vertex, CodeletFromStringStream) {
  std::stringstream source;
  source << "#include <poplar/Vertex.hpp>\n"
            "class NegateFromStream : public poplar::Vertex {\n"
            "public:\n"
            "  poplar::InOut<poplar::Vector<int>> x;\n"
            "  void compute() {\n"
            "    for (auto &v : x) v = -v;\n"
            "  }\n"
            "};\n";
  Device device = testDevice(4);
  Graph graph(device.getTarget());
  graph.addCodelets(source);
  EXPECT_TRUE(graph.hasCodelet("NegateFromStream"));
  Tensor x = graph.addVariable(INT, {5}, "x");
  graph.setTileMapping(x, 1);
  ComputeSet cs = graph.addComputeSet("cs");
  VertexRef v = graph.addVertex(cs, "NegateFromStream");
  graph.connect(v["x"], x);
  graph.setTileMapping(v, 1);
  graph.createHostWrite("x", x);
  graph.createHostRead("xr", x);
  Engine engine(graph, Execute(cs));
  engine.load(device);
  std::vector<int> h{1, -2, 3, 0, 2147483647};
  engine.writeTensor("x", h.data(), h.data() + 5);
  engine.run(0);
  engine.readTensor("xr", h.data(), h.data() + 5);
  EXPECT_EQ(h, (std::vector<int>{-1, 2, -3, 0, -2147483647}));
}
