// Tile memory reuse: liveness of variables over programs, address sharing, results, the profile.
#include "compiler/Compile.hpp"
#include "compiler/Liveness.hpp"
#include "graph/TensorImpl.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <pva/pva.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

unsigned varOf(const Tensor &t) { return t.getImpl().regions.at(0).var; }

/// Byte range [begin, end) of `t`'s variable on tile 0 in the compiled graph.
std::pair<std::uint32_t, std::uint32_t> bytesOnTile0(const detail::CompiledGraph &cg,
                                                     const Tensor &t) {
  const auto &p = cg.variables.at(varOf(t)).placements.at(0);
  EXPECT_EQ(p.tile, 0u);
  return {p.offset, p.offset + std::uint32_t((p.end - p.begin) * t.elementType().size())};
}

bool overlap(std::pair<std::uint32_t, std::uint32_t> a, std::pair<std::uint32_t, std::uint32_t> b) {
  return a.first < b.second && b.first < a.second;
}

/// One tile; host-written inputs `a` (100 floats) and `b` (200 floats) and host-read outputs.
struct Fixture : ::testing::Test {
  Fixture() : device(model().createDevice()), graph(device.getTarget()) {
    a = input("a", 100);
    b = input("b", 200);
  }
  static IPUModel model() {
    IPUModel m;
    m.tilesPerIPU = 1;
    return m;
  }
  Tensor input(const std::string &name, std::size_t n) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, 0);
    graph.createHostWrite(name, t);
    return t;
  }
  Tensor output(const std::string &name, std::size_t n) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, 0);
    graph.createHostRead(name, t);
    return t;
  }
  Tensor temp(const std::string &name, std::size_t n) {
    Tensor t = graph.addVariable(FLOAT, {n}, name);
    graph.setTileMapping(t, 0);
    return t;
  }
  /// Temporaries t1 (100 floats) and t2 (200) and host-read outputs o1 and o2 of their sizes.
  void addTemporaries() {
    t1 = temp("t1", 100);
    t2 = temp("t2", 200);
    o1 = output("o1", 100);
    o2 = output("o2", 200);
  }
  std::unique_ptr<detail::CompiledGraph> compiled(const Program &p) {
    return detail::compile(graph.getState(), {p});
  }
  /// Runs `p` with a = 0, 1, 2, ... and b = 1000, 1001, ...; returns host-read output `name`.
  std::vector<float> run(const Program &p, const std::string &name, std::size_t n,
                         const OptionFlags &options = {}) {
    Engine engine(graph, p, options);
    engine.load(device);
    std::vector<float> av(100), bv(200), out(n);
    std::iota(av.begin(), av.end(), 0.0f);
    std::iota(bv.begin(), bv.end(), 1000.0f);
    engine.writeTensor("a", av.data(), av.data() + av.size());
    engine.writeTensor("b", bv.data(), bv.data() + bv.size());
    engine.run(0);
    engine.readTensor(name, out.data(), out.data() + n);
    return out;
  }
  std::vector<float> iota(std::size_t n, float from) {
    std::vector<float> v(n);
    std::iota(v.begin(), v.end(), from);
    return v;
  }
  Device device;
  Graph graph;
  Tensor a, b, t1, t2, o1, o2;
};

using MemoryReuse = Fixture;

TEST_F(MemoryReuse, TemporariesOfSuccessiveStepsShareAddressesAndThePeakIsTheLarger) {
  addTemporaries();
  Sequence prog{Copy(a, t1), Copy(t1, o1), Copy(b, t2), Copy(t2, o2)};
  auto cg = compiled(prog);
  EXPECT_TRUE(overlap(bytesOnTile0(*cg, t1), bytesOnTile0(*cg, t2)));
  const auto &tile = cg->profile.tileMemory[0];
  EXPECT_EQ(tile.notAlwaysLive, 800u); // the larger, not 400 + 800
  EXPECT_EQ(tile.sharedBytes, 1200u);
  EXPECT_EQ(tile.bytes[unsigned(detail::MemoryCategory::variables)], 4u * (100 + 200) * 2 + 1200);
  EXPECT_EQ(run(prog, "o1", 100), iota(100, 0));
  EXPECT_EQ(run(prog, "o2", 200), iota(200, 1000));
}

TEST_F(MemoryReuse, AVariableReadInALaterStepIsNotOverwritten) {
  addTemporaries();
  Sequence prog{Copy(a, t1), Copy(b, t2), Copy(t2, o2), Copy(t1, o1)};
  auto cg = compiled(prog);
  EXPECT_FALSE(overlap(bytesOnTile0(*cg, t1), bytesOnTile0(*cg, t2)));
  EXPECT_EQ(cg->profile.tileMemory[0].notAlwaysLive, 1200u);
  EXPECT_EQ(run(prog, "o1", 100), iota(100, 0));
  EXPECT_EQ(run(prog, "o2", 200), iota(200, 1000));
}

TEST_F(MemoryReuse, AValueReadInsideARepeatSurvivesTheBackEdge) {
  // x is written before the loop and last read early in the body; u is written later in the
  // body. Sharing them would hand the second iteration u's data as x.
  Tensor x = temp("x", 100), t = temp("t", 100), u = temp("u", 100);
  Tensor o1 = output("o1", 100), o2 = output("o2", 100);
  Sequence prog{Copy(a, x), Repeat(3, Sequence{Copy(x, t), Copy(t, o1), Copy(b.slice(0, 100), u),
                                               Copy(u, o2)})};
  auto cg = compiled(prog);
  EXPECT_FALSE(overlap(bytesOnTile0(*cg, x), bytesOnTile0(*cg, u)));
  EXPECT_FALSE(overlap(bytesOnTile0(*cg, x), bytesOnTile0(*cg, t)));
  // Temporaries inside one iteration still share.
  EXPECT_TRUE(overlap(bytesOnTile0(*cg, t), bytesOnTile0(*cg, u)));
  EXPECT_EQ(run(prog, "o1", 100), iota(100, 0));
}

TEST_F(MemoryReuse, AValueWrittenLateInALoopAndReadEarlyIsAlwaysLive) {
  // The first touch is a read (in the first iteration it reads what was there before).
  Tensor x = temp("x", 100), o = output("o", 100);
  Sequence prog{Repeat(2, Sequence{Copy(x, o), Copy(a, x)})};
  auto live = detail::analyseLiveness(graph.getState(), {prog});
  EXPECT_TRUE(live.alwaysLive[varOf(x)]);
}

TEST_F(MemoryReuse, HostVisibleConstantAndStreamedVariablesAreAlwaysLive) {
  Tensor t = temp("t", 100), s = temp("s", 100), r = temp("r", 100), o = output("o", 100);
  Tensor c = graph.addConstant(FLOAT, {100}, 1.0f, "c");
  graph.setTileMapping(c, 0);
  auto in = graph.addHostToDeviceFIFO("in", FLOAT, 100);
  auto out = graph.addDeviceToHostFIFO("out", FLOAT, 100);
  Sequence prog{Copy(a, t), Copy(t, o), Copy(in, s), Copy(s, r), Copy(r, out), Copy(c, o)};
  auto live = detail::analyseLiveness(graph.getState(), {prog});
  EXPECT_FALSE(live.alwaysLive[varOf(t)]);
  for (const Tensor &v : {a, o, s, r, c})
    EXPECT_TRUE(live.alwaysLive[varOf(v)]) << varOf(v);
}

TEST_F(MemoryReuse, ConditionalOrPartialWritesAndFunctionsKeepVariablesAlwaysLive) {
  Tensor p = graph.addConstant(BOOL, {}, true, "p");
  graph.setTileMapping(p, 0);
  Tensor inIf = temp("inIf", 100), partial = temp("partial", 100), inFn = temp("inFn", 100);
  Tensor local = temp("local", 100), o = output("o", 100);
  auto fn = graph.addFunction(Sequence{Copy(a, inFn), Copy(inFn, o)});
  Sequence prog{If(p, Copy(a, inIf), Sequence()),
                Copy(inIf, o),
                Copy(a.slice(0, 50), partial.slice(0, 50)),
                Copy(partial, o),
                Call(fn),
                If(p, Sequence{Copy(a, local), Copy(local, o)}, Sequence())};
  auto live = detail::analyseLiveness(graph.getState(), {prog});
  EXPECT_TRUE(live.alwaysLive[varOf(inIf)]);    // the else branch leaves it unwritten
  EXPECT_TRUE(live.alwaysLive[varOf(partial)]); // half of it is read unwritten
  EXPECT_TRUE(live.alwaysLive[varOf(inFn)]);    // functions run at their call sites
  EXPECT_FALSE(live.alwaysLive[varOf(local)]);  // written and read in one branch
}

TEST_F(MemoryReuse, VariablesOfDifferentProgramsAreAlwaysLiveWhenShared) {
  Tensor t = temp("t", 100), own = temp("own", 100), o = output("o", 100);
  Sequence p0{Copy(a, t), Copy(a, own), Copy(own, o)};
  Sequence p1{Copy(t, o)};
  auto live = detail::analyseLiveness(graph.getState(), {p0, p1});
  EXPECT_TRUE(live.alwaysLive[varOf(t)]);
  EXPECT_FALSE(live.alwaysLive[varOf(own)]);
}

TEST_F(MemoryReuse, TheSummaryAndTheProfileReportAlwaysLiveAndNotAlwaysLive) {
  addTemporaries();
  Sequence prog{Copy(a, t1), Copy(t1, o1), Copy(b, t2), Copy(t2, o2)};
  char dirTemplate[] = "/tmp/memreuse-XXXXXX";
  ASSERT_NE(mkdtemp(dirTemplate), nullptr);
  std::string dir = dirTemplate;
  Engine engine(graph, prog,
                {{"autoReport.outputGraphProfile", "true"}, {"autoReport.directory", dir}});
  std::ostringstream os;
  engine.printProfileSummary(os, {});
  const std::string summary = os.str();
  EXPECT_NE(summary.find("By Liveness:"), std::string::npos) << summary;
  EXPECT_NE(summary.find("Not-always-live:"), std::string::npos);
  EXPECT_NE(summary.find("800 B (peak 800 B on tile 0)"), std::string::npos) << summary;

  auto report = pva::openReport(dir + "/profile.pop");
  auto tile = report.compilation().tiles().at(0).memory();
  EXPECT_EQ(tile.notAlwaysLiveBytes(), 800u);
  EXPECT_EQ(tile.alwaysLiveBytes(), 2400u); // the four host-visible variables
  EXPECT_EQ(tile.total().excludingGaps(), tile.alwaysLiveBytes() + 800u);
  EXPECT_EQ(tile.category().variables.total(), 2400u + 1200u); // shared data counts in full
  std::filesystem::remove_all(dir);
}

} // namespace
