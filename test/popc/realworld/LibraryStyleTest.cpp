// PopLibs-style data movement and sparse vertices (BroadcastVectorInner.cpp, MultiSlice.cpp,
// DynamicUpdateSlice.cpp, SelectMask.cpp, SparseMatVec.cpp) against host references.
#include "Rig.hpp"

#include <gtest/gtest.h>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, BroadcastVectorInner2DOverOpsAndTypes) {
  const std::vector<unsigned> lens = {4, 1, 6}, blocks = {3, 5, 2};
  for (const char *op : {"ADD", "SUBTRACT", "MULTIPLY"})
    for (Type type : {FLOAT, HALF}) {
      Rig rig("BroadcastVectorInner.cpp");
      auto v =
          rig.vertex(std::string("popops::BroadcastVectorInner2DInPlace<popops::BinaryOpType::") +
                     op + "," + type.toString() + ">");
      std::vector<std::vector<double>> b, data;
      std::vector<Tensor> dataTensors;
      rig.graph().setFieldSize(v["B"], lens.size());
      rig.graph().setFieldSize(v["data"], lens.size());
      for (std::size_t i = 0; i < lens.size(); ++i) {
        b.push_back(randomData(lens[i], -4, 4, 0.25, unsigned(i)));
        data.push_back(randomData(lens[i] * blocks[i], -4, 4, 0.25, unsigned(10 + i)));
        rig.graph().connect(v["B"][i], rig.tensor(type, b[i]));
        dataTensors.push_back(rig.tensor(type, data[i]));
        rig.graph().connect(v["data"][i], dataTensors.back());
      }
      rig.graph().connect(v["BLen"], rig.tensor(UNSIGNED_SHORT, {lens.begin(), lens.end()}));
      rig.graph().connect(v["dataBlockCount"],
                          rig.tensor(UNSIGNED_SHORT, {blocks.begin(), blocks.end()}));
      rig.graph().setInitialValue(v["n"], static_cast<unsigned short>(lens.size()));
      ASSERT_EQ(rig.run(), "") << op;
      for (std::size_t i = 0; i < lens.size(); ++i) {
        auto got = rig.values(dataTensors[i]);
        for (std::size_t k = 0; k < got.size(); ++k) {
          double x = data[i][k], y = b[i][k % lens[i]];
          double want = op[0] == 'A' ? x + y : op[0] == 'S' ? x - y : x * y; // exact in half
          EXPECT_EQ(got[k], want) << op << " " << type.toString() << " region " << i << " " << k;
        }
      }
    }
}

TEST(RealWorld, MultiSliceSkipsRowsOfOtherTiles) {
  for (Type type : {FLOAT, HALF, INT}) {
    const unsigned rows = 6, region = 3, baseOffset = 10;
    auto base = randomData(rows * region, -50, 50, 1, 2);
    std::vector<double> offsets = {12, 10, 25, 15, 9, 11}; // 25 and 9 are not this tile's
    Rig rig("MultiSlice.cpp");
    auto sub = rig.tensor(type, std::vector<double>(offsets.size() * region, 7));
    auto v = rig.vertex("popops::MultiSlice<" + type.toString() + ">");
    rig.graph().connect(v["offsets"], rig.tensor(UNSIGNED_INT, offsets));
    rig.graph().connect(v["baseT"], rig.tensor(type, base));
    rig.graph().connect(v["subT"], sub);
    rig.graph().setInitialValue(v["baseOffset"], baseOffset);
    rig.graph().setInitialValue(v["numBaseElements"], rows);
    rig.graph().setInitialValue(v["regionSize"], static_cast<unsigned short>(region));
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(sub);
    for (std::size_t o = 0; o < offsets.size(); ++o) {
      unsigned row = unsigned(offsets[o]) - baseOffset;
      for (unsigned k = 0; k < region; ++k)
        EXPECT_EQ(got[o * region + k], row < rows ? base[row * region + k] : 7)
            << type.toString() << " offset " << offsets[o];
    }
  }
}

TEST(RealWorld, DynamicUpdateSliceWrapsAround) {
  for (Type type : {FLOAT, HALF, INT})
    for (unsigned offset : {0u, 3u, 11u}) {
      const unsigned rows = 5, subRows = 3, region = 4;
      auto base = randomData(rows * region, -50, 50, 1, 3);
      auto sub = randomData(subRows * region, 100, 200, 1, 4);
      Rig rig("DynamicUpdateSlice.cpp");
      auto baseT = rig.tensor(type, base);
      auto v = rig.vertex("popops::DynamicUpdateSlice2D<" + type.toString() + ">");
      rig.graph().connect(v["offset"], rig.scalar(UNSIGNED_INT, offset));
      rig.graph().connect(v["baseT"], baseT);
      rig.graph().connect(v["subT"], rig.tensor(type, sub));
      rig.graph().setInitialValue(v["numBaseElements"], rows);
      rig.graph().setInitialValue(v["numSubElements"], subRows);
      rig.graph().setInitialValue(v["regionSize"], region);
      ASSERT_EQ(rig.run(), "");
      std::vector<double> want = base;
      for (unsigned s = 0; s < subRows; ++s)
        for (unsigned k = 0; k < region; ++k)
          want[((offset + s) % rows) * region + k] = sub[s * region + k];
      EXPECT_EQ(rig.values(baseT), want) << type.toString() << " offset " << offset;
    }
}

TEST(RealWorld, SelectByBoolMaskAndCountTrue) {
  std::vector<double> mask = {1, 0, 0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1};
  for (Type type : {FLOAT, HALF, INT}) {
    Rig rig("SelectMask.cpp");
    auto a = randomData(mask.size(), -9, 9, 1, 1), b = randomData(mask.size(), 10, 30, 1, 2);
    auto out = rig.tensor(type, std::vector<double>(mask.size()));
    auto v = rig.vertex("SelectByMask<" + type.toString() + ">");
    rig.graph().connect(v["mask"], rig.tensor(BOOL, mask));
    rig.graph().connect(v["a"], rig.tensor(type, a));
    rig.graph().connect(v["b"], rig.tensor(type, b));
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(out);
    for (std::size_t i = 0; i < mask.size(); ++i)
      EXPECT_EQ(got[i], mask[i] ? a[i] : b[i]) << type.toString() << " " << i;
  }
  Rig rig("SelectMask.cpp");
  auto v = rig.vertex("CountTrue");
  std::vector<std::vector<double>> lists = {{1, 0, 1}, {}, {1, 1, 1, 1, 0}, {0}};
  rig.graph().setFieldSize(v["masks"], lists.size());
  for (std::size_t l = 0; l < lists.size(); ++l)
    rig.graph().connect(v["masks"][l], rig.tensor(BOOL, lists[l]));
  auto count = rig.tensor(UNSIGNED_INT, {0});
  rig.graph().connect(v["count"], count[0]);
  ASSERT_EQ(rig.run(), "");
  EXPECT_EQ(rig.values(count)[0], 6);
}

TEST(RealWorld, CsrMatVecOverFloatAndHalf) {
  // 4 x 6 matrix, rows with 2, 0, 3 and 1 entries.
  std::vector<double> rowPtr = {0, 2, 2, 5, 6}, columns = {1, 4, 0, 2, 5, 3};
  auto values = randomData(6, -4, 4, 0.25, 5), x = randomData(6, -4, 4, 0.25, 6);
  for (Type type : {FLOAT, HALF}) {
    Rig rig("SparseMatVec.cpp");
    auto y = rig.tensor(FLOAT, std::vector<double>(4, 99));
    auto v = rig.vertex("CsrMatVec<" + type.toString() + ">");
    rig.graph().connect(v["rowPtr"], rig.tensor(UNSIGNED_INT, rowPtr));
    rig.graph().connect(v["columns"], rig.tensor(UNSIGNED_SHORT, columns));
    rig.graph().connect(v["values"], rig.tensor(type, values));
    rig.graph().connect(v["x"], rig.tensor(type, x));
    rig.graph().connect(v["y"], y);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(y);
    for (unsigned r = 0; r < 4; ++r) {
      double want = 0; // products of multiples of 1/4 below 16: exact in any order
      for (unsigned k = unsigned(rowPtr[r]); k < unsigned(rowPtr[r + 1]); ++k)
        want += values[k] * x[unsigned(columns[k])];
      EXPECT_EQ(got[r], want) << type.toString() << " row " << r;
    }
  }
}

} // namespace
