// popxl::Ir::schedule from the C++ API: data order, in-sequence scopes (InSequence), the order
// of accesses to tensors written in place and to host streams, and a cycle named in the error.
#include <popxl/Ir.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

using namespace popxl;

namespace {

const TensorSpec kSpec{{4}, DType::Float32};

std::vector<std::uint8_t> floats(std::vector<float> values) {
  std::vector<std::uint8_t> bytes(values.size() * 4);
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

/// A main graph with a variable `w`, a constant `one` and a host stream, where ops are made by
/// name and looked up by name in the schedule.
struct Program {
  Ir ir;
  GraphId g = ir.mainGraph();
  TensorId w = ir.addVariable(g, "w", kSpec, floats({1, 2, 3, 4}));
  TensorId one = ir.addConstant(g, "one", kSpec, floats({1, 1, 1, 1}));
  StreamId stream = ir.addStream("x", kSpec, true);

  TensorId op(const std::string &type, std::vector<TensorId> in, const std::string &name,
              const Attributes &attrs = {}) {
    auto outs = ir.createOp(g, type, in, attrs, name);
    return outs.empty() ? ~TensorId(0) : outs[0];
  }
  TensorId load(const std::string &name) {
    return op("host_load", {}, name, {{"stream", std::int64_t(stream)}});
  }
  std::vector<std::string> order() const {
    std::vector<std::string> names;
    for (OpId o : ir.schedule(g))
      names.push_back(ir.op(o).name);
    return names;
  }
  std::size_t position(const std::string &name) const {
    const auto names = order();
    auto it = std::find(names.begin(), names.end(), name);
    EXPECT_NE(it, names.end()) << name;
    return std::size_t(it - names.begin());
  }
};

} // namespace

TEST(PopxlSchedule, InSequenceOrdersWhatDataDoesNot) {
  Program free;
  free.op("add", {free.w, free.one}, "first");
  free.op("mul", {free.w, free.one}, "second");
  // Nothing orders the two: the depth-first sort does not keep creation order.
  EXPECT_EQ(free.order(), (std::vector<std::string>{"second", "first"}));

  Program seq;
  {
    InSequence scope(seq.ir);
    seq.op("add", {seq.w, seq.one}, "first");
    seq.op("mul", {seq.w, seq.one}, "second");
  }
  seq.op("sub", {seq.w, seq.one}, "outside");
  EXPECT_EQ(seq.ir.graph(seq.g).topoCons.size(), 1u);
  EXPECT_LT(seq.position("first"), seq.position("second"));
}

TEST(PopxlSchedule, DataOrdersOps) {
  Program p;
  TensorId a = p.op("add", {p.w, p.one}, "a");
  TensorId b = p.op("exp", {a}, "b");
  p.op("mul", {b, a}, "c");
  EXPECT_EQ(p.order(), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(PopxlSchedule, DisabledScopeRunsAsOneBlockOfAnEnabledOne) {
  Program p;
  {
    InSequence outer(p.ir);
    p.op("add", {p.w, p.one}, "a");
    {
      InSequence inner(p.ir, false);
      p.op("mul", {p.w, p.one}, "b1");
      p.op("sub", {p.w, p.one}, "b2");
    }
    p.op("div", {p.w, p.one}, "c");
  }
  for (const char *b : {"b1", "b2"}) {
    EXPECT_LT(p.position("a"), p.position(b)) << b;
    EXPECT_LT(p.position(b), p.position("c")) << b;
  }
  // a -> b1, a -> b2, b1 -> c, b2 -> c; nothing between b1 and b2.
  EXPECT_EQ(p.ir.graph(p.g).topoCons.size(), 4u);
}

TEST(PopxlSchedule, ReadsKeepTheirPlaceAroundAnInPlaceWrite) {
  Program p;
  TensorId view = p.op("reshape", {p.w}, "view", {{"shape", std::vector<std::int64_t>{2, 2}}});
  p.op("mul", {p.w, p.one}, "read_before");
  p.op("scaled_add_", {p.w, p.one}, "update", {{"a", 1.0}, {"b", 1.0}});
  p.op("add", {p.w, p.one}, "read_after");
  p.op("exp", {view}, "read_view_after"); // the view shows the update
  EXPECT_LT(p.position("read_before"), p.position("update"));
  EXPECT_LT(p.position("update"), p.position("read_after"));
  EXPECT_LT(p.position("update"), p.position("read_view_after"));
}

TEST(PopxlSchedule, TransfersOnAStreamKeepTheirOrder) {
  Program p;
  TensorId x1 = p.load("x1");
  TensorId x2 = p.load("x2");
  p.op("exp", {x2}, "use2");
  p.op("exp", {x1}, "use1");
  EXPECT_LT(p.position("x1"), p.position("x2"));
}

TEST(PopxlSchedule, CycleIsAnErrorNamingItsOps) {
  Program p;
  TensorId a = p.op("add", {p.w, p.one}, "a");
  TensorId b = p.op("exp", {a}, "b");
  p.op("neg", {b}, "c");
  p.ir.addTopoCon(p.ir.tensor(b).producer, p.ir.tensor(a).producer);
  try {
    p.ir.schedule(p.g);
    FAIL() << "no error";
  } catch (const popxl::error &e) {
    EXPECT_NE(std::string(e.what()).find("graph 'main_graph'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("add 'a' -> exp 'b' -> add 'a'"), std::string::npos)
        << e.what();
  }
}

TEST(PopxlSchedule, TopoConErrors) {
  Program p;
  TensorId a = p.op("add", {p.w, p.one}, "a");
  GraphId sub = p.ir.createGraph("sub");
  TensorId in = p.ir.addGraphInput(sub, "in", kSpec);
  TensorId s = p.ir.createOp(sub, "exp", {in}, {}, "s")[0];
  const OpId opA = p.ir.tensor(a).producer, opS = p.ir.tensor(s).producer;
  EXPECT_THROW(p.ir.addTopoCon(opA, opS), popxl::error);
  EXPECT_THROW(p.ir.addTopoCon(opA, opA), popxl::error);
  EXPECT_THROW(p.ir.addTopoCon(opA, 1000), popxl::error);
  EXPECT_THROW(p.ir.popInSequence(), popxl::error);
}
