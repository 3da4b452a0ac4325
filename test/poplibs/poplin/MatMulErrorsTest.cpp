// poplin's matmul errors: each misuse is a typed error naming the API and the values.
#include "ExpectThrows.hpp"
#include "OpHarness.hpp"

#include <poplar/exceptions.hpp>
#include <poplin/MatMul.hpp>
#include <poplin/codelets.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

using namespace poplar;
using namespace popsdk::test;

namespace {

class MatMulErrors : public testing::Test {
protected:
  MatMulErrors() { poplin::addCodelets(h.graph()); }
  Tensor var(Type t, std::vector<std::size_t> shape) {
    Tensor v = h.graph().addVariable(t, shape);
    h.graph().setTileMapping(v, 0);
    return v;
  }
  OpHarness h{4};
};

TEST_F(MatMulErrors, InnerDimensionsDiffer) {
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMul(h.graph(), var(FLOAT, {3, 4}), var(FLOAT, {5, 6}), h.prog());
      },
      {"poplin::matMul", "{3,4}", "4 columns", "{5,6}", "5 rows"});
}

TEST_F(MatMulErrors, WrongRank) {
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMul(h.graph(), var(FLOAT, {2, 3, 4}), var(FLOAT, {4, 6}), h.prog());
      },
      {"poplin::matMul", "rank 2", "{2,3,4}"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMulGrouped(h.graph(), var(FLOAT, {3, 4}), var(FLOAT, {4, 6}), h.prog(), FLOAT);
      },
      {"poplin::matMulGrouped", "rank 3"});
}

TEST_F(MatMulErrors, GroupsDiffer) {
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMulGrouped(h.graph(), var(FLOAT, {2, 3, 4}), var(FLOAT, {3, 4, 6}), h.prog(),
                              FLOAT);
      },
      {"poplin::matMulGrouped", "2 groups", "{3,4,6}"});
}

TEST_F(MatMulErrors, Types) {
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMul(h.graph(), var(FLOAT, {3, 4}), var(HALF, {4, 6}), h.prog());
      },
      {"poplin::matMul", "float", "half"});
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMul(h.graph(), var(INT, {3, 4}), var(INT, {4, 6}), h.prog());
      },
      {"poplin::matMul", "int", "float or half"});
}

TEST_F(MatMulErrors, OutputShape) {
  Tensor out = var(FLOAT, {3, 5});
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMulWithOutput(h.graph(), var(FLOAT, {3, 4}), var(FLOAT, {4, 6}), out, h.prog());
      },
      {"poplin::matMulWithOutput", "{3,5}", "{3,6}"});
}

TEST_F(MatMulErrors, AccumulatorShape) {
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMulAcc(h.graph(), var(FLOAT, {6, 3}), 1.0f, var(FLOAT, {3, 4}),
                          var(FLOAT, {4, 6}), h.prog());
      },
      {"poplin::matMulAcc", "{6,3}", "{3,6}"});
}

TEST_F(MatMulErrors, EmptyProduct) {
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::matMul(h.graph(), var(FLOAT, {0, 4}), var(FLOAT, {4, 6}), h.prog());
      },
      {"poplin::matMul", "empty", "{0,4}"});
}

TEST_F(MatMulErrors, Options) {
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        poplin::matMul(h.graph(), var(FLOAT, {3, 4}), var(FLOAT, {4, 6}), h.prog(), "mm",
                       {{"availableMemoryProportion", "1.5"}});
      },
      {"availableMemoryProportion", "1.5"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        poplin::matmulValidateOptions({{"partialsType", "double"}});
      },
      {"partialsType", "double"});
  expectThrowsWith<poplar::invalid_option>(
      [&] {
        poplin::matmulValidateOptions({{"noSuchOption", "1"}});
      },
      {"noSuchOption"});
}

TEST_F(MatMulErrors, CreateShapes) {
  expectThrowsWith<poputil::poplibs_error>(
      [&] {
        poplin::createMatMulInputLHS(h.graph(), FLOAT, {3, 4}, {5, 6}, "lhs");
      },
      {"poplin::createMatMulInputLHS", "{3,4}", "{5,6}"});
}

} // namespace
