// Control programs run on a small IPUModel: copies through views, loops, branches, calls,
// sequence value semantics and PrintTensor's exact output.
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

using namespace poplar;
using namespace poplar::program;

namespace {

Device smallDevice(unsigned tiles = 4) {
  IPUModel model;
  model.tilesPerIPU = tiles;
  return model.createDevice();
}

/// A 4-tile graph plus helpers to make mapped variables and constants and to run programs.
class ProgramFixture : public ::testing::Test {
protected:
  ProgramFixture() : device(smallDevice()), graph(device.getTarget()) {}

  Tensor var(Type type, std::vector<std::size_t> shape, unsigned tile, const std::string &name) {
    Tensor t = graph.addVariable(type, shape, name);
    graph.setTileMapping(t, tile);
    return t;
  }
  template <class T> Tensor constant(std::vector<std::size_t> shape, std::vector<T> values) {
    Tensor t = graph.addConstant<T>(equivalentType<T>(), shape, ArrayRef<T>(values));
    graph.setTileMapping(t, 0);
    return t;
  }
  template <class T> static Type equivalentType();

  /// Builds an engine over `progs`, loads it and hands it back for runs and reads.
  Engine &build(const std::vector<Program> &progs) {
    engine.reset(new Engine(graph, progs));
    engine->load(device);
    engine->setPrintStream(printed);
    return *engine;
  }
  template <class T> std::vector<T> read(const std::string &handle, std::size_t n) {
    std::vector<T> out(n);
    engine->readTensor(handle, out.data(), out.data() + n);
    return out;
  }

  Device device;
  Graph graph;
  std::unique_ptr<Engine> engine;
  std::ostringstream printed;
};

template <> Type ProgramFixture::equivalentType<float>() { return FLOAT; }
template <> Type ProgramFixture::equivalentType<int>() { return INT; }
template <> Type ProgramFixture::equivalentType<unsigned>() { return UNSIGNED_INT; }

using ProgramRun = ProgramFixture;

TEST_F(ProgramRun, CopyBetweenTiles) {
  Tensor c = constant<float>({4}, {1.0f, 1.5f, 2.0f, 2.5f});
  Tensor v1 = var(FLOAT, {4}, 1, "v1");
  Tensor v2 = graph.addVariable(FLOAT, {4}, "v2");
  for (unsigned i = 0; i < 4; ++i)
    graph.setTileMapping(v2[i], i); // spread: each element on its own tile
  graph.createHostRead("v2", v2);
  build({Sequence{Copy(c, v1), Copy(v1, v2)}}).run(0);
  EXPECT_EQ(read<float>("v2", 4), (std::vector<float>{1.0f, 1.5f, 2.0f, 2.5f}));
}

TEST_F(ProgramRun, CopySlicesBothWays) {
  Tensor c = constant<int>({4}, {1, 2, 3, 4});
  Tensor v = var(INT, {3, 4}, 2, "v");
  graph.createHostRead("v", v);
  // tut1: a 1-D slice into a 2-D slice of another shape.
  build({Sequence{Copy(c.slice(1, 3), v.slice({1, 1}, {2, 3})),
                  Copy(c.slice(0, 2), v.slice(3, 4, 1).slice(0, 2))}})
      .run();
  EXPECT_EQ(read<int>("v", 12), (std::vector<int>{0, 0, 0, 1, 0, 2, 3, 2, 0, 0, 0, 0}));
}

TEST_F(ProgramRun, CopyThroughTransposeReverseAndShuffle) {
  Tensor m = constant<int>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor t = var(INT, {3, 2}, 1, "t");
  Tensor r = var(INT, {2, 3}, 3, "r");
  Tensor s = var(INT, {3, 1, 2}, 2, "s");
  graph.createHostRead("t", t);
  graph.createHostRead("r", r);
  graph.createHostRead("s", s);
  build({Sequence{Copy(m.transpose(), t), Copy(m.reverse(1), r),
                  Copy(m.dimShuffle({1, 0}).expand({1}), s)}})
      .run();
  EXPECT_EQ(read<int>("t", 6), (std::vector<int>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(read<int>("r", 6), (std::vector<int>{3, 2, 1, 6, 5, 4}));
  EXPECT_EQ(read<int>("s", 6), (std::vector<int>{1, 4, 2, 5, 3, 6}));
}

TEST_F(ProgramRun, CopyIntoAReversedViewOfItself) {
  // Source and destination overlap: every element is read before any is written.
  Tensor v = var(INT, {5}, 0, "v");
  graph.setTileMapping(v.slice(3, 5), 2);
  graph.setInitialValue(v, ArrayRef<int>({1, 2, 3, 4, 5}));
  graph.createHostRead("v", v);
  build({Copy(v, v.reverse(0))}).run();
  EXPECT_EQ(read<int>("v", 5), (std::vector<int>{5, 4, 3, 2, 1}));
}

TEST_F(ProgramRun, CopyConcatAndSubSample) {
  Tensor a = constant<int>({2}, {1, 2});
  Tensor b = constant<int>({3}, {3, 4, 5});
  Tensor c = var(INT, {5}, 1, "c");
  Tensor d = var(INT, {5}, 2, "d");
  Tensor e = var(INT, {3}, 3, "e");
  graph.createHostRead("c", c);
  graph.createHostRead("d", d);
  graph.createHostRead("e", e);
  build({Sequence{Copy(concat(a, b), c),
                  Copy(c, concat(std::vector<Tensor>{d.slice(3, 5), d.slice(0, 3)})),
                  Copy(c.subSample(2, 0), e)}})
      .run();
  EXPECT_EQ(read<int>("c", 5), (std::vector<int>{1, 2, 3, 4, 5}));
  EXPECT_EQ(read<int>("d", 5), (std::vector<int>{3, 4, 5, 1, 2}));
  EXPECT_EQ(read<int>("e", 3), (std::vector<int>{1, 3, 5}));
}

TEST_F(ProgramRun, CopyFromABroadcastSource) {
  Tensor s = constant<float>({1}, {2.5f});
  Tensor row = constant<float>({1, 2}, {1.0f, 2.0f});
  Tensor v = var(FLOAT, {4}, 1, "v");
  Tensor m = var(FLOAT, {3, 2}, 2, "m");
  graph.createHostRead("v", v);
  graph.createHostRead("m", m);
  build({Sequence{Copy(s.broadcast(4, 0), v), Copy(row.broadcast(3, 0), m)}}).run();
  EXPECT_EQ(read<float>("v", 4), std::vector<float>(4, 2.5f));
  EXPECT_EQ(read<float>("m", 6), (std::vector<float>{1, 2, 1, 2, 1, 2}));
}

/// One rotation of v = [a b c] to [b c a] as a single copy.
Program rotate(const Tensor &v) { return Copy(concat(v.slice(1, 3), v.slice(0, 1)), v); }

TEST_F(ProgramRun, RepeatRunsItsBodyCountTimes) {
  Tensor v = var(INT, {3}, 1, "v");
  graph.setInitialValue(v, ArrayRef<int>({1, 2, 3}));
  graph.createHostRead("v", v);
  Engine &e = build({Repeat(2, rotate(v)), Repeat(0, rotate(v)), Repeat(1, rotate(v))});
  e.run(0);
  EXPECT_EQ(read<int>("v", 3), (std::vector<int>{3, 1, 2}));
  e.run(1);
  EXPECT_EQ(read<int>("v", 3), (std::vector<int>{3, 1, 2}));
  e.run(2);
  EXPECT_EQ(read<int>("v", 3), (std::vector<int>{1, 2, 3}));
}

TEST_F(ProgramRun, NestedRepeat) {
  Tensor v = var(INT, {3}, 1, "v");
  graph.setInitialValue(v, ArrayRef<int>({1, 2, 3}));
  graph.createHostRead("v", v);
  // 2 * (3 + 1) = 8 rotations = 2 (mod 3).
  build({Repeat(2, Sequence{Repeat(3, rotate(v)), rotate(v)})}).run();
  EXPECT_EQ(read<int>("v", 3), (std::vector<int>{3, 1, 2}));
}

TEST_F(ProgramRun, RepeatZeroOnItsOwnRunsNothing) {
  Tensor v = var(INT, {3}, 1, "v");
  build({Repeat(0, PrintTensor("never", v))}).run();
  EXPECT_EQ(printed.str(), "");
}

/// A loop whose predicate is fed from a host stream, one value per test; each iteration
/// passes one value from `data` to `out`, so `out` shows how many iterations ran.
struct StreamLoop {
  Tensor pred, x;
  DataStream predIn, dataIn, out;
};

StreamLoop makeStreamLoop(Graph &graph) {
  StreamLoop l;
  l.pred = graph.addVariable(UNSIGNED_INT, {}, "pred");
  l.x = graph.addVariable(INT, {1}, "x");
  graph.setTileMapping(l.pred, 3);
  graph.setTileMapping(l.x, 2);
  l.predIn = graph.addHostToDeviceFIFO("pred-in", UNSIGNED_INT, 1);
  l.dataIn = graph.addHostToDeviceFIFO("data-in", INT, 1);
  l.out = graph.addDeviceToHostFIFO("out", INT, 1);
  return l;
}

TEST_F(ProgramRun, RepeatWhileTrueStopsWhenThePredicateIsZero) {
  StreamLoop l = makeStreamLoop(graph);
  Engine &e = build({RepeatWhileTrue(Copy(l.predIn, l.pred), l.pred,
                                     Sequence{Copy(l.dataIn, l.x), Copy(l.x, l.out)})});
  unsigned preds[] = {1, 1, 1, 0};
  int data[] = {10, 20, 30, 40};
  int out[4] = {-1, -1, -1, -1};
  e.connectStream("pred-in", preds, preds + 4);
  e.connectStream("data-in", data, data + 4);
  e.connectStream("out", out, out + 4);
  e.run();
  EXPECT_EQ(std::vector<int>(out, out + 4), (std::vector<int>{10, 20, 30, -1}));
}

TEST_F(ProgramRun, RepeatWhileFalseStopsWhenThePredicateIsNonZero) {
  StreamLoop l = makeStreamLoop(graph);
  Engine &e = build({RepeatWhileFalse(Copy(l.predIn, l.pred), l.pred,
                                      Sequence{Copy(l.dataIn, l.x), Copy(l.x, l.out)})});
  unsigned preds[] = {0, 0, 5};
  int data[] = {10, 20, 30};
  int out[3] = {-1, -1, -1};
  e.connectStream("pred-in", preds, preds + 3);
  e.connectStream("data-in", data, data + 3);
  e.connectStream("out", out, out + 3);
  e.run();
  EXPECT_EQ(std::vector<int>(out, out + 3), (std::vector<int>{10, 20, -1}));
  // The condition runs first: a true predicate at once means no iteration.
  unsigned stop = 1;
  int out2[3] = {-1, -1, -1};
  e.connectStream("pred-in", &stop);
  e.connectStream("out", out2, out2 + 3);
  e.run();
  EXPECT_EQ(std::vector<int>(out2, out2 + 3), (std::vector<int>{-1, -1, -1}));
}

TEST_F(ProgramRun, IfChoosesTheBranchFromAStreamFedScalar) {
  Tensor pred = var(BOOL, {}, 1, "pred");
  Tensor a = constant<int>({2}, {1, 2});
  Tensor b = constant<int>({2}, {3, 4});
  Tensor out = var(INT, {2}, 2, "out");
  graph.createHostRead("out", out);
  DataStream in = graph.addHostToDeviceFIFO("pred-in", BOOL, 1);
  Engine &e = build({Sequence{Copy(in, pred), If(pred, Copy(a, out), Copy(b, out))}});
  bool host = true;
  e.connectStream("pred-in", &host);
  e.run();
  EXPECT_EQ(read<int>("out", 2), (std::vector<int>{1, 2}));
  host = false;
  e.run();
  EXPECT_EQ(read<int>("out", 2), (std::vector<int>{3, 4}));
}

TEST_F(ProgramRun, IfWithAnEmptyFalseBranch) {
  Tensor pred = var(INT, {1}, 1, "pred");
  Tensor a = constant<int>({1}, {7});
  Tensor out = var(INT, {1}, 2, "out");
  graph.createHostRead("out", out);
  graph.createHostWrite("pred", pred);
  Engine &e = build({If(pred, Copy(a, out), Sequence())});
  int p = 0;
  e.writeTensor("pred", &p, &p + 1);
  e.run();
  EXPECT_EQ(read<int>("out", 1), std::vector<int>{0});
  p = -3; // any non-zero value is true
  e.writeTensor("pred", &p, &p + 1);
  e.run();
  EXPECT_EQ(read<int>("out", 1), std::vector<int>{7});
}

TEST_F(ProgramRun, SwitchChoosesCaseOrDefault) {
  Tensor control = var(INT, {}, 3, "control");
  Tensor out = var(INT, {1}, 1, "out");
  graph.createHostRead("out", out);
  DataStream in = graph.addHostToDeviceFIFO("control-in", INT, 1);
  auto set = [&](int v) -> Program { return Copy(constant<int>({1}, {v}), out); };
  Switch sw(control, {{0, set(100)}, {5, set(105)}}, set(-1));
  sw.add(-2, set(98));
  Engine &e = build({Sequence{Copy(in, control), sw}});
  int host = 0;
  e.connectStream("control-in", &host);
  for (auto [value, expected] :
       std::vector<std::pair<int, int>>{{0, 100}, {5, 105}, {-2, 98}, {1, -1}, {6, -1}}) {
    host = value;
    e.run();
    EXPECT_EQ(read<int>("out", 1), std::vector<int>{expected}) << "control " << value;
  }
}

TEST_F(ProgramRun, SwitchWithoutDefaultDoesNothingForOtherValues) {
  Tensor control = var(UNSIGNED_INT, {1}, 3, "control");
  Tensor out = var(INT, {1}, 1, "out");
  graph.createHostRead("out", out);
  graph.createHostWrite("control", control);
  Switch sw(control);
  sw.add(1, Copy(constant<int>({1}, {11}), out));
  Engine &e = build({sw});
  unsigned c = 2;
  e.writeTensor("control", &c, &c + 1);
  e.run();
  EXPECT_EQ(read<int>("out", 1), std::vector<int>{0});
  c = 1;
  e.writeTensor("control", &c, &c + 1);
  e.run();
  EXPECT_EQ(read<int>("out", 1), std::vector<int>{11});
}

TEST_F(ProgramRun, CallRunsAFunctionEachTime) {
  Tensor v = var(INT, {3}, 1, "v");
  graph.setInitialValue(v, ArrayRef<int>({1, 2, 3}));
  graph.createHostRead("v", v);
  Function f = graph.addFunction(rotate(v));
  Function printV = graph.addFunction(PrintTensor("v", v));
  build({Sequence{Call(f), Call(printV), Call(f), Call(printV)}}).run();
  EXPECT_EQ(read<int>("v", 3), (std::vector<int>{3, 1, 2}));
  EXPECT_EQ(printed.str(), "v: [2 3 1]\nv: [3 1 2]\n");
}

TEST_F(ProgramRun, FunctionCallingAFunctionInsideALoop) {
  Tensor v = var(INT, {3}, 1, "v");
  graph.setInitialValue(v, ArrayRef<int>({1, 2, 3}));
  graph.createHostRead("v", v);
  Function inner = graph.addFunction(rotate(v));
  Function outer = graph.addFunction(Sequence{Call(inner), Call(inner)});
  build({Repeat(2, Call(outer))}).run(); // 4 rotations
  EXPECT_EQ(read<int>("v", 3), (std::vector<int>{2, 3, 1}));
}

TEST_F(ProgramRun, NestedSequencesRunInOrder) {
  Tensor a = constant<int>({1}, {1});
  Tensor b = constant<int>({1}, {2});
  Tensor v = var(INT, {1}, 2, "v");
  Sequence inner{Copy(b, v), PrintTensor("second", v)};
  Sequence middle{PrintTensor("first", v), inner};
  Sequence outer{Copy(a, v), middle, Sequence{Sequence{PrintTensor("third", v)}}};
  build({outer}).run();
  EXPECT_EQ(printed.str(), "first: [1]\nsecond: [2]\nthird: [2]\n");
}

TEST_F(ProgramRun, VariadicSequence) {
  Tensor v = var(INT, {1}, 2, "v");
  build({Sequence(PrintTensor("a", v), PrintTensor("b", v), PrintTensor("c", v))}).run();
  EXPECT_EQ(printed.str(), "a: [0]\nb: [0]\nc: [0]\n");
}

TEST_F(ProgramRun, SequencesHaveValueSemantics) {
  Tensor v = var(INT, {1}, 2, "v");
  Sequence s;
  s.add(PrintTensor("one", v));
  Sequence copy = s;
  Program asProgram = s;
  copy.add(PrintTensor("two", v));
  s.add(PrintTensor("three", v));
  Sequence outer{s};
  s.add(PrintTensor("four", v)); // added after outer took its copy
  build({s, copy, asProgram, outer});
  engine->run(0);
  EXPECT_EQ(printed.str(), "one: [0]\nthree: [0]\nfour: [0]\n");
  printed.str("");
  engine->run(1);
  EXPECT_EQ(printed.str(), "one: [0]\ntwo: [0]\n");
  printed.str("");
  engine->run(2);
  EXPECT_EQ(printed.str(), "one: [0]\n");
  printed.str("");
  engine->run(3);
  EXPECT_EQ(printed.str(), "one: [0]\nthree: [0]\n");
}

TEST_F(ProgramRun, Regression_SequenceAddedToItselfIsACopy) {
  // s.add(s) made the sequence its own child: lowering recursed until the stack overflowed.
  Tensor v = var(INT, {1}, 2, "v");
  Sequence s{PrintTensor("a", v)};
  s.add(s);
  s.add(PrintTensor("b", v));
  build({s}).run();
  EXPECT_EQ(printed.str(), "a: [0]\na: [0]\nb: [0]\n");
}

TEST_F(ProgramRun, EmptyProgramsAreEmpty) {
  EXPECT_TRUE(Sequence().isEmpty());
  EXPECT_TRUE(Program().isEmpty());
  Tensor v = var(INT, {1}, 2, "v");
  EXPECT_FALSE((Sequence{PrintTensor(v)}).isEmpty());
}

TEST_F(ProgramRun, PrintTensorFloats) {
  Tensor c = constant<float>({4}, {1.0f, 1.5f, 2.0f, 2.5f});
  Tensor n = constant<float>({3}, {-0.25f, 1e6f, 0.1f});
  build({Sequence{PrintTensor("v1-debug", c), PrintTensor("neg", n)}}).run();
  EXPECT_EQ(printed.str(), "v1-debug: [1.0000000 1.5000000 2.0000000 2.5000000]\n"
                           "neg: [-0.2500000 1000000.0000000 0.1000000]\n");
}

TEST_F(ProgramRun, PrintTensorIntegersAndBools) {
  Tensor i = constant<int>({10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  Tensor n = constant<int>({3}, {-5, 0, 2147483647});
  Tensor u = constant<unsigned>({2}, {4000000000u, 1u});
  Tensor b = graph.addConstant<bool>(BOOL, {3}, {true, false, true});
  graph.setTileMapping(b, 3);
  Tensor s = graph.addConstant<int>(SHORT, {2}, {-7, 300});
  graph.setTileMapping(s, 3);
  build({Sequence{PrintTensor("v4-0", i), PrintTensor("n", n), PrintTensor("u", u),
                  PrintTensor("b", b), PrintTensor("s", s)}})
      .run();
  EXPECT_EQ(printed.str(), "v4-0: [0 1 2 3 4 5 6 7 8 9]\n"
                           "n: [-5 0 2147483647]\n"
                           "u: [4000000000 1]\n"
                           "b: [true false true]\n"
                           "s: [-7 300]\n");
}

TEST_F(ProgramRun, PrintTensorRank2IsMultiLine) {
  Tensor c = constant<float>({2, 2}, {5.0f, 4.5f, 4.0f, 3.5f});
  Tensor v = var(FLOAT, {2, 2}, 1, "v");
  build({Sequence{Copy(c, v), PrintTensor("v3", v)}}).run();
  EXPECT_EQ(printed.str(), "v3: [\n  [5.0000000 4.5000000]\n  [4.0000000 3.5000000]\n]\n");
}

TEST_F(ProgramRun, PrintTensorOfViewsAndHalf) {
  Tensor c = constant<int>({2, 3}, {1, 2, 3, 4, 5, 6});
  Tensor h = graph.addConstant<float>(HALF, {2}, {0.5, -1.0});
  graph.setTileMapping(h, 2);
  build({Sequence{PrintTensor("col", c.slice(1, 2, 1).flatten()), PrintTensor("tr", c.transpose()),
                  PrintTensor("h", h)}})
      .run();
  EXPECT_EQ(printed.str(), "col: [2 5]\n"
                           "tr: [\n  [1 4]\n  [2 5]\n  [3 6]\n]\n"
                           "h: [0.5000000 -1.0000000]\n");
}

TEST_F(ProgramRun, PrintTensorLeavesTheStreamFormattingAlone) {
  Tensor c = constant<float>({1}, {1.5f});
  build({PrintTensor("x", c)}).run();
  printed << 0.25;
  EXPECT_EQ(printed.str(), "x: [1.5000000]\n0.25");
}

TEST_F(ProgramRun, WriteUndefAndSyncRun) {
  Tensor v = var(INT, {2}, 1, "v");
  graph.createHostRead("v", v);
  Tensor c = constant<int>({2}, {4, 5});
  build({Sequence{Copy(c, v), Sync(SyncType::INTERNAL), WriteUndef(v.slice(0, 1)),
                  Sync(SyncType::GLOBAL)}})
      .run();
  EXPECT_EQ(read<int>("v", 2)[1], 5);
}

TEST_F(ProgramRun, ErrorProgramStopsTheRun) {
  Tensor v = var(INT, {2}, 1, "v");
  Tensor c = constant<int>({2}, {4, 5});
  Engine &e = build({Sequence{Copy(c, v), ErrorProgram("bad value", v), PrintTensor("after", v)}});
  try {
    e.run();
    FAIL() << "ErrorProgram did not stop the run";
  } catch (const application_runtime_error &err) {
    EXPECT_NE(std::string(err.what()).find("bad value"), std::string::npos) << err.what();
  }
  EXPECT_EQ(printed.str().find("after"), std::string::npos);
}

TEST_F(ProgramRun, EmptyComputeSetRuns) {
  ComputeSet cs = graph.addComputeSet("empty");
  Engine &e = build({Execute(cs)});
  e.run();
  EXPECT_GT(e.getLastRunCycles(), 0u);
}

} // namespace
