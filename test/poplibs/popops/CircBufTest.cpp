// popops::CircBuf: entries read back at each age as they are added and overwritten, the device
// position wrapping round, entries whose size is not a whole number of grains, a buffer of one;
// and its errors.
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/CircBuf.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <map>

namespace {

using namespace poplar;
using namespace popsdk::test;

/// Adds `adds` entries (entry k holds values seeded k) to a buffer of `size`, reading every age
/// after each add, and checks each read against the entry it names.
void checkCircBuf(Type type, unsigned size, const std::vector<std::size_t> &shape, unsigned adds) {
  OpHarness h(4);
  auto &g = h.graph();
  popops::CircBuf buf(g, type, size, shape, "buf");
  const std::size_t n = elementCount(shape);
  std::vector<std::vector<double>> entries;
  std::map<std::string, std::size_t> expected; // output name -> entry it should hold
  for (unsigned k = 0; k < adds; ++k) {
    entries.push_back(hostData(type, n, -50, 50, k + 1));
    Tensor x = h.input("x" + std::to_string(k), type, shape, entries.back());
    buf.add(x, h.prog());
    for (unsigned age = 0; age < size && age <= k; ++age) {
      std::string name = "after" + std::to_string(k) + "age" + std::to_string(age);
      h.output(name, buf.prev(age, h.prog()));
      expected[name] = k - age;
    }
  }
  h.output("index", buf.getIndex());
  h.run();
  for (const auto &[name, entry] : expected)
    EXPECT_EQ(h.result(name), entries[entry]) << name;
  EXPECT_EQ(h.result("index"), std::vector<double>{double(adds % size)});
}

TEST(PopopsCircBuf, EntriesAtEveryAge) {
  checkCircBuf(FLOAT, 3, {2, 3}, 5);
  checkCircBuf(HALF, 4, {7}, 6); // 7 elements: one padding element per entry
  checkCircBuf(INT, 1, {5}, 3);
  checkCircBuf(FLOAT, 5, {40, 3}, 2); // grains spread over the tiles
}

TEST(PopopsCircBuf, Errors) {
  OpHarness h(1);
  auto &g = h.graph();
  popops::CircBuf buf(g, FLOAT, 3, {4}, "buf");
  EXPECT_EQ(buf.size(), 3u);
  Tensor wrongShape = g.addVariable(FLOAT, {5}, "wrongShape");
  Tensor wrongType = g.addVariable(HALF, {4}, "wrongType");
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { buf.prev(3, h.prog()); },
                                  {"popops::CircBuf::prev", "entry 3", "size 3"});
  expectThrowsWith<poplibs_error>([&] { buf.add(wrongShape, h.prog()); },
                                  {"popops::CircBuf::add", "{5}", "{4}"});
  expectThrowsWith<poplibs_error>([&] { buf.add(wrongType, h.prog()); },
                                  {"popops::CircBuf::add", "half", "float"});
  expectThrowsWith<poplibs_error>([&] { popops::CircBuf(g, FLOAT, 0, {4}); },
                                  {"popops::CircBuf", "size"});
}

} // namespace
