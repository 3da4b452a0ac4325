// popops::selectScalarFromRows and popops::updateScalarInRows against the host reference
// (test/reference/ScalarInRows.hpp): rows on one tile or cut over several, masked and
// out-of-range indices, odd widths, transposed views; and their errors.
#include "ScalarInRows.hpp"
#include "OpHarness.hpp"
#include "SliceTestUtil.hpp"

#include <popops/EncodingConstants.hpp>
#include <popops/SelectScalarFromRows.hpp>
#include <popops/UpdateScalarInRows.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

/// Equal, with NaN equal to NaN.
void expectSame(const std::vector<double> &got, const std::vector<double> &want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(want[i]))
      EXPECT_TRUE(std::isnan(got[i])) << "element " << i << " is " << got[i];
    else
      EXPECT_EQ(got[i], want[i]) << "element " << i;
  }
}

struct RowsCase {
  Type type;
  std::size_t rows, width;
  std::vector<std::uint32_t> indices;
  unsigned tiles = 4;
  bool transposed = false; // params a transposed view of a [width, rows] variable
};

/// params and its row-major host values for a case.
Tensor makeParams(OpHarness &h, const RowsCase &c, std::vector<double> &values) {
  values = hostData(c.type, c.rows * c.width, -8, 8);
  if (!c.transposed)
    return h.input("params", c.type, {c.rows, c.width}, values);
  std::vector<double> stored(values.size());
  for (std::size_t r = 0; r < c.rows; ++r)
    for (std::size_t w = 0; w < c.width; ++w)
      stored[w * c.rows + r] = values[r * c.width + w];
  return h.input("params", c.type, {c.width, c.rows}, stored).transpose();
}

std::vector<double> indexValues(const std::vector<std::uint32_t> &v) {
  return std::vector<double>(v.begin(), v.end());
}

void checkSelect(const RowsCase &c) {
  OpHarness h(c.tiles);
  std::vector<double> values;
  Tensor params = makeParams(h, c, values);
  Tensor idx = h.input("idx", UNSIGNED_INT, {c.rows}, indexValues(c.indices));
  Tensor out = popops::selectScalarFromRows(h.graph(), params, idx, h.prog());
  ASSERT_EQ(out.shape(), std::vector<std::size_t>{c.rows});
  EXPECT_EQ(out.elementType(), c.type);
  if (c.rows == 0)
    return;
  h.output("out", out);
  h.run();
  expectSame(h.result("out"), ref::selectScalarFromRows(values, c.width, c.indices));
}

void checkUpdate(const RowsCase &c) {
  OpHarness h(c.tiles);
  std::vector<double> values;
  Tensor params = makeParams(h, c, values);
  Tensor idx = h.input("idx", UNSIGNED_INT, {c.rows}, indexValues(c.indices));
  popops::updateScalarInRows(h.graph(), params, idx, h.prog());
  if (c.rows == 0)
    return;
  h.output("params", params);
  h.run();
  expectSame(h.result("params"), ref::updateScalarInRows(values, c.width, c.indices, c.type));
}

const std::uint32_t masked = MASKED_LABEL_CODE;

std::vector<RowsCase> cases() {
  std::vector<RowsCase> all;
  for (Type type : {FLOAT, HALF}) {
    all.push_back({type, 4, 10, {9, 0, 4, 4}});     // a row per tile or so
    all.push_back({type, 3, 7, {masked, 7, 1000}}); // masked and out of range
    all.push_back({type, 1, 1, {0}});
    all.push_back({type, 5, 3, {2, 1, 0, 3, masked}, 1});          // all rows on one tile
    all.push_back({type, 2, 101, {100, 37}, 4});                   // rows cut over tiles
    all.push_back({type, 3, 50, {49, 3, 70}, 8});                  // and out of range there
    all.push_back({type, 6, 5, {4, 0, masked, 2, 9, 1}, 4, true}); // a transposed view
    all.push_back({type, 0, 4, {}});
  }
  return all;
}

TEST(PopopsSelectScalarFromRows, AgainstReference) {
  for (const auto &c : cases()) {
    SCOPED_TRACE(c.type.toString() + " " + std::to_string(c.rows) + "x" + std::to_string(c.width));
    checkSelect(c);
  }
}

TEST(PopopsUpdateScalarInRows, AgainstReference) {
  for (const auto &c : cases()) {
    SCOPED_TRACE(c.type.toString() + " " + std::to_string(c.rows) + "x" + std::to_string(c.width));
    checkUpdate(c);
  }
}

TEST(PopopsScalarInRows, Errors) {
  OpHarness h(1);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor params = h.input("params", FLOAT, {3, 4}, hostData(FLOAT, 12, 0, 1));
  Tensor params1d = h.input("params1d", FLOAT, {12}, hostData(FLOAT, 12, 0, 1));
  Tensor paramsInt = h.input("paramsInt", INT, {3, 4}, hostData(INT, 12, 0, 5));
  Tensor empty = g.addVariable(FLOAT, {3, 0}, "empty");
  Tensor idx = h.input("idx", UNSIGNED_INT, {3}, {0, 1, 2});
  Tensor idx2 = h.input("idx2", UNSIGNED_INT, {2}, {0, 1});
  Tensor idxInt = h.input("idxInt", INT, {3}, {0, 1, 2});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>([&] { popops::selectScalarFromRows(g, params1d, idx, p); },
                                  {"popops::selectScalarFromRows", "{12}", "2-D"});
  expectThrowsWith<poplibs_error>([&] { popops::selectScalarFromRows(g, paramsInt, idx, p); },
                                  {"popops::selectScalarFromRows", "int", "float or half"});
  expectThrowsWith<poplibs_error>([&] { popops::selectScalarFromRows(g, params, idx2, p); },
                                  {"popops::selectScalarFromRows", "{2}", "[3]", "{3,4}"});
  expectThrowsWith<poplibs_error>([&] { popops::updateScalarInRows(g, params, idxInt, p); },
                                  {"popops::updateScalarInRows", "indices", "int", "unsigned"});
  expectThrowsWith<poplibs_error>([&] { popops::updateScalarInRows(g, empty, idx, p); },
                                  {"popops::updateScalarInRows", "{3,0}", "width 0"});
  expectThrowsWith<poplibs_error>(
      [&] { popops::updateScalarInRows(g, params.slice(0, 1, 1).broadcast(4, 1), idx, p); },
      {"popops::updateScalarInRows", "alias"});
}

} // namespace
