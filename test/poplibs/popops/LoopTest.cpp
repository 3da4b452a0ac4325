// popops::countedLoop and popops::countedForLoop: trip counts, the counter the body reads, a
// limit read on the device, INT and UNSIGNED_INT counters; and their errors.
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/ElementWise.hpp>
#include <popops/Loop.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace poplar::program;
using namespace popsdk::test;

/// A countedLoop(begin, end, step) whose body adds the counter to a sum and counts its passes.
void checkCountedLoop(std::size_t begin, std::size_t end, std::size_t step) {
  OpHarness h(2);
  auto &g = h.graph();
  Tensor sum = h.input("sum", UNSIGNED_INT, {1}, {0});
  Tensor passes = h.input("passes", UNSIGNED_INT, {1}, {0});
  Tensor one = g.addConstant(UNSIGNED_INT, {1}, 1u);
  g.setTileMapping(one, 1);
  h.prog().add(popops::countedLoop(g, begin, end, step, [&](const Tensor &i) {
    Sequence body;
    popops::addInPlace(g, sum, i, body);
    popops::addInPlace(g, passes, one, body);
    return body;
  }));
  h.output("sum", sum);
  h.output("passes", passes);
  h.run();
  double expectedSum = 0, expectedPasses = 0;
  for (std::size_t i = begin; i < end; i += step) {
    expectedSum += double(i);
    ++expectedPasses;
  }
  EXPECT_EQ(h.result("sum"), std::vector<double>{expectedSum});
  EXPECT_EQ(h.result("passes"), std::vector<double>{expectedPasses});
}

TEST(PopopsCountedLoop, TripCountsAndCounter) {
  checkCountedLoop(0, 1, 1);
  checkCountedLoop(0, 10, 1);
  checkCountedLoop(3, 10, 3); // 3, 6, 9
  checkCountedLoop(5, 12, 4); // 5, 9
  checkCountedLoop(7, 8, 100);
}

TEST(PopopsCountedLoop, CountOnly) {
  OpHarness h(1);
  auto &g = h.graph();
  Tensor sum = h.input("sum", UNSIGNED_INT, {1}, {0});
  h.prog().add(popops::countedLoop(g, 6, [&](const Tensor &i) {
    Sequence body;
    popops::addInPlace(g, sum, i, body);
    return body;
  }));
  h.output("sum", sum);
  h.run();
  EXPECT_EQ(h.result("sum"), std::vector<double>{15});
}

/// countedForLoop(initial, limit, step) over a counter of `type`, the limit written at run time.
void checkForLoop(Type type, int initial, double limit, int step, double expectedPasses,
                  double expectedSum, bool ownCounter) {
  OpHarness h(2);
  auto &g = h.graph();
  Tensor lim = h.input("limit", type, {}, {limit});
  Tensor sum = h.input("sum", type, {}, {0});
  Tensor passes = h.input("passes", UNSIGNED_INT, {}, {0});
  Tensor one = g.addConstant(UNSIGNED_INT, {}, 1u);
  g.setTileMapping(one, 0);
  Tensor count = g.addVariable(type, {}, "count");
  g.setTileMapping(count, 1);
  Sequence body;
  popops::addInPlace(g, passes, one, body);
  if (ownCounter) {
    popops::addInPlace(g, sum, count, body);
    h.prog().add(popops::countedForLoop(g, count, initial, lim, step, body));
  } else {
    h.prog().add(popops::countedForLoop(g, initial, lim, step, body));
  }
  h.output("passes", passes);
  h.output("sum", sum);
  h.run();
  EXPECT_EQ(h.result("passes"), std::vector<double>{expectedPasses});
  if (ownCounter) {
    EXPECT_EQ(h.result("sum"), std::vector<double>{expectedSum});
  }
}

TEST(PopopsCountedForLoop, LimitReadOnTheDevice) {
  checkForLoop(UNSIGNED_INT, 0, 5, 1, 5, 0 + 1 + 2 + 3 + 4, true);
  checkForLoop(UNSIGNED_INT, 2, 11, 3, 3, 2 + 5 + 8, true);
  checkForLoop(INT, -3, 3, 2, 3, -3 - 1 + 1, true);
  checkForLoop(INT, 4, -2, -2, 3, 4 + 2 + 0, true);
  checkForLoop(UNSIGNED_INT, 7, 7, 1, 0, 0, true); // the limit reached before the first pass
  checkForLoop(INT, 0, 4, 1, 4, 0, false);
}

TEST(PopopsLoop, Errors) {
  OpHarness h(1);
  auto &g = h.graph();
  auto body = [](const Tensor &) { return Sequence(); };
  Tensor limitU = g.addVariable(UNSIGNED_INT, {}, "limitU");
  Tensor limitF = g.addVariable(FLOAT, {}, "limitF");
  Tensor countI = g.addVariable(INT, {}, "countI");
  Tensor countF = g.addVariable(FLOAT, {}, "countF");
  Tensor limit2 = g.addVariable(UNSIGNED_INT, {2}, "limit2");
  Tensor countU = g.addVariable(UNSIGNED_INT, {}, "countU");
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::countedLoop(g, 0, 4, 0, body); },
                                  {"popops::countedLoop", "step", "greater than zero"});
  expectThrowsWith<poplibs_error>([&] { popops::countedLoop(g, 5, 5, 1, body); },
                                  {"popops::countedLoop", "begin (5)", "end (5)"});
  expectThrowsWith<poplibs_error>([&] { popops::countedLoop(g, 0, body); },
                                  {"popops::countedLoop", "begin (0)", "end (0)"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::countedForLoop(g, countI, 0, limitU, 1, Sequence()); },
      {"popops::countedForLoop", "int", "unsigned int"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::countedForLoop(g, countF, 0, limitF, 1, Sequence()); },
      {"popops::countedForLoop", "float", "INT or UNSIGNED_INT"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::countedForLoop(g, countU, 0, limit2, 1, Sequence()); },
      {"popops::countedForLoop", "{2}", "one element"});
  expectThrowsWith<poplibs_error>([&] { popops::countedForLoop(g, 0, limitU, 0, Sequence()); },
                                  {"popops::countedForLoop", "countStep", "zero"});
}

} // namespace
