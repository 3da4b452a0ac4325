// popops::gather's XLA form and its createGatherInput against the host reference
// (test/reference/GatherXla.cpp, XLA's definition): element gathers, row and window gathers,
// index vectors in any dimension, clamped starts, INT and UNSIGNED_INT indices; and its errors.
#include "OpHarness.hpp"
#include "Slice.hpp"
#include "SliceTestUtil.hpp"

#include <poplar/exceptions.hpp>
#include <popops/Gather.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

namespace {

using namespace poplar;
using namespace popsdk::test;
namespace ref = popsdk::reference;

struct XlaCase {
  Type type;
  std::vector<std::size_t> shape, indexShape;
  std::vector<std::int64_t> indices;
  std::size_t indexVectorDim;
  std::vector<std::size_t> offsetDims, sliceSizes, collapsedSliceDims;
  std::vector<unsigned> startIndexMap;
  Type indexType = UNSIGNED_INT;
  bool created = false;
};

void checkXla(const XlaCase &c) {
  OpHarness h(4);
  auto values = testValues(c.type, elementCount(c.shape), -9, 9);
  Tensor t;
  if (c.created) {
    t = popops::createGatherInput(h.graph(), c.type, c.shape, c.sliceSizes, c.startIndexMap);
    h.write("t", t, values);
  } else {
    t = h.input("t", c.type, c.shape, values);
  }
  Tensor idx = h.input("idx", c.indexType, c.indexShape, asDoubles(c.indices));
  Tensor out = popops::gather(h.graph(), t, idx, c.indexVectorDim, c.offsetDims, c.sliceSizes,
                              c.collapsedSliceDims, c.startIndexMap, h.prog());
  std::vector<std::size_t> shape;
  auto expected =
      ref::gatherXla(values, c.shape, c.indices, c.indexShape, c.indexVectorDim, c.offsetDims,
                     c.sliceSizes, c.collapsedSliceDims, c.startIndexMap, shape);
  ASSERT_EQ(out.shape(), shape);
  if (out.numElements() == 0)
    return;
  h.output("out", out);
  h.run();
  EXPECT_EQ(h.result("out"), expected);
}

TEST(PopopsGatherXla, ElementsRowsAndWindows) {
  // PopLibs' example: elements [1, 1] and [2, 1] of a 3x3 matrix.
  checkXla({FLOAT, {3, 3}, {2, 2}, {1, 1, 2, 1}, 1, {}, {1, 1}, {0, 1}, {0, 1}});
  // Rows of a matrix (tf.gather on axis 0), scalar indices (indexVectorDim == rank).
  for (Type type : {FLOAT, HALF, INT, UNSIGNED_INT, BOOL}) {
    SCOPED_TRACE(type.toString());
    checkXla({type, {6, 5}, {4}, {5, 0, 2, 2}, 1, {1}, {1, 5}, {0}, {0}});
  }
  // Columns, the index vector in dimension 0 of the indices.
  checkXla({HALF, {4, 7}, {1, 3}, {6, 0, 3}, 0, {0}, {4, 1}, {1}, {1}});
  // 2x2 windows at (row, column) starts, the last clamped back inside; not collapsed.
  checkXla({FLOAT, {5, 6}, {3, 2}, {0, 0, 4, 5, 2, 1}, 1, {1, 2}, {2, 2}, {}, {0, 1}});
  // Windows in a 3-D tensor indexed in dimensions 2 and 0 (in that order), dimension 1 cut.
  checkXla({INT, {4, 3, 5}, {2, 2}, {4, 1, 0, 3}, 1, {1, 2}, {1, 2, 2}, {0}, {2, 0}});
  // Batch dimensions around the index vector, offset dimension in front.
  checkXla({FLOAT, {8, 3}, {2, 1, 3}, {7, 1, 0, 3, 3, 6}, 1, {0}, {1, 3}, {0}, {0}});
  // INT indices, negative ones clamped to 0 and large ones to the last start.
  checkXla({FLOAT, {6, 4}, {3}, {-2, 9, 3}, 1, {1, 2}, {2, 4}, {}, {0}, INT});
  // An input laid out by createGatherInput.
  checkXla({FLOAT,
            {10, 6},
            {3, 2},
            {9, 5, 0, 0, 4, 2},
            1,
            {},
            {1, 1},
            {0, 1},
            {0, 1},
            UNSIGNED_INT,
            true});
}

TEST(PopopsGatherXla, EdgeShapes) {
  checkXla({FLOAT, {5}, {}, {3}, 0, {}, {1}, {0}, {0}});              // one scalar index
  checkXla({FLOAT, {5, 3}, {0}, {}, 1, {1}, {1, 3}, {0}, {0}});       // no indices
  checkXla({FLOAT, {5, 3}, {2}, {1, 4}, 1, {1, 2}, {0, 3}, {}, {0}}); // empty windows
  checkXla({HALF, {1, 1}, {3, 1}, {0, 0, 0}, 1, {}, {1, 1}, {0, 1}, {0}});
  checkXla({FLOAT, {3, 200}, {5}, {2, 0, 1, 1, 2}, 1, {1}, {1, 200}, {0}, {0}}); // long rows
}

TEST(PopopsGatherXla, Errors) {
  OpHarness h(2);
  auto &g = h.graph();
  auto &p = h.prog();
  Tensor t = h.input("t", FLOAT, {6, 4}, hostData(FLOAT, 24, 0, 1));
  Tensor idx = h.input("idx", UNSIGNED_INT, {3, 2}, {0, 1, 2, 3, 4, 0});
  Tensor idxF = h.input("idxF", FLOAT, {3, 2}, {0, 1, 2, 3, 4, 0});
  using poputil::poplibs_error;
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idxF, 1, {}, {1, 1}, {0, 1}, {0, 1}, p);
      },
      {"popops::gather", "indices", "float"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 3, {}, {1, 1}, {0, 1}, {0, 1}, p);
      },
      {"popops::gather", "indexVectorDim 3", "{3,2}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 1, {}, {1, 1}, {0, 1}, {0}, p);
      },
      {"popops::gather", "2 components", "startIndexMap {0}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 1, {}, {1}, {0, 1}, {0, 1}, p);
      },
      {"popops::gather", "sliceSizes {1}", "{6,4}"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 1, {}, {7, 1}, {0, 1}, {0, 1}, p);
      },
      {"popops::gather", "slice size 7", "dimension 0"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 1, {}, {1, 1}, {0, 1}, {1, 1}, p);
      },
      {"popops::gather", "startIndexMap {1,1}", "distinct"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 1, {1}, {1, 2}, {0, 1}, {0, 1}, p);
      },
      {"popops::gather", "collapsed dimension 1", "slice size 2"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 1, {}, {1, 2}, {0}, {0, 1}, p);
      },
      {"popops::gather", "offsetDims {}", "keep 1"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::gather(g, t, idx, 1, {5}, {1, 2}, {0}, {0, 1}, p);
      },
      {"popops::gather", "offsetDims {5}", "rank 2"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        popops::gather(g, t, idx, 1, {}, {1, 1}, {0, 1}, {0, 1}, p, {}, {{"bad", "1"}});
      },
      {"popops::gather", "bad"});
  expectThrowsWith<poplibs_error>(
      [&] {
        popops::createGatherInput(g, FLOAT, {6, 4}, std::vector<std::size_t>{1},
                                  std::vector<unsigned>{0});
      },
      {"popops::createGatherInput", "sliceSizes {1}", "{6,4}"});
}

// The single-axis gather's bad options were reported as multiSlice's, the op it runs.
TEST(PopopsGather, Regression_OptionErrorsNameGather) {
  OpHarness h(1);
  Tensor t = h.input("t", FLOAT, {6, 4}, hostData(FLOAT, 24, 0, 1));
  Tensor idx = h.input("idx", UNSIGNED_INT, {3}, {0, 1, 2});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        popops::gather(h.graph(), t, idx, 0, h.prog(), {}, {},
                       {{"remapOutOfBoundIndices", "perhaps"}});
      },
      {"popops::gather", "remapOutOfBoundIndices", "perhaps"});
}

} // namespace
