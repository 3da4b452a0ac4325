// poplin's vertices one by one: ConvPartial1x1Out (AMP passes), ConvPartialHorizontalMac (MACs)
// and ReduceAdd against the host reference, with the tile cycles the interpreter measures beside
// poplin's estimators.
#include "CycleExpect.hpp"
#include "MatMul.hpp"
#include "VertexTester.hpp"

#include "poplin/lib/CycleEstimators.hpp"

#include <poplin/codelets.hpp>
#include <poputil/VertexTemplates.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <string>

using namespace poplar;
using namespace popsdk::test;
using poplin::internal::VertexCost;

namespace {

// The estimators predict the tile's compute cycles within this share.
constexpr double kCycleTolerance = 0.1;

void expectTileCycles(const RunResult &r, std::uint64_t estimate) {
  const double measured = double(r.tileCycles);
  std::cout << "[cycles] " << r.vertexType << ": measured " << r.tileCycles << ", estimated "
            << estimate << "\n";
  EXPECT_LT(std::fabs(measured - double(estimate)) / measured, kCycleTolerance)
      << r.vertexType << ": measured " << measured << " tile cycles, estimated " << estimate;
}

struct ConvShape {
  unsigned groups, positions, inChans, outChans;
  Type data, partials;
};

/// Runs one 1x1 partials vertex (AMP or MAC: the same fields and block semantics) on `s`,
/// checks it against the host reference and its tile cycles against `estimator`.
void runConvPartial(const char *vertex, poplin::internal::CycleEstimator estimator,
                    const ConvShape &s) {
  std::vector<std::vector<double>> in, weights;
  std::vector<std::size_t> outSizes;
  for (unsigned g = 0; g < s.groups; ++g) {
    in.push_back(hostData(s.data, s.positions * s.inChans, -2, 2, 10 + g));
    weights.push_back(hostData(s.data, s.outChans * s.inChans, -2, 2, 20 + g));
    outSizes.push_back(s.positions * s.outChans);
  }
  const auto r =
      VertexTester(poplin::addCodelets, poputil::templateVertex(vertex, s.data, s.partials))
          .inputList("in", s.data, in)
          .inputList("weights", s.data, weights)
          .outputList("out", s.partials, outSizes)
          .state("numPositions", UNSIGNED_INT, s.positions)
          .state("inChans", UNSIGNED_INT, s.inChans)
          .state("outChans", UNSIGNED_INT, s.outChans)
          .run();
  const auto &out = r.output("out");
  for (unsigned g = 0; g < s.groups; ++g) {
    // weights are [inChans][outChans], the right-hand matrix.
    const auto want =
        popsdk::reference::matMul(in[g], weights[g], 1, s.positions, s.inChans, s.outChans);
    const double eps = s.partials == HALF ? std::ldexp(1.0, -10) : std::ldexp(1.0, -23);
    for (std::size_t i = 0; i < want.values.size(); ++i)
      ASSERT_NEAR(out[g * outSizes[0] + i], want.values[i],
                  eps * want.magnitude[i] * (s.inChans / 16 + 2) + 1e-9)
          << "group " << g << " element " << i;
  }
  const Target target = Target::createIPUTarget(1, "ipu2");
  expectTileCycles(r, estimator({target, s.data, s.partials, s.groups, s.positions, s.inChans,
                                 s.outChans, 0, 0}));
}

// Test names and printed parameters by shape: by default GoogleTest prints a struct's bytes,
// padding included, and ctest's test names carry what it prints.
std::string nameOf(const ConvShape &s) {
  return "g" + std::to_string(s.groups) + "_" + std::to_string(s.positions) + "x" +
         std::to_string(s.inChans) + "x" + std::to_string(s.outChans) + "_" + s.data.toString() +
         "_" + s.partials.toString();
}
void PrintTo(const ConvShape &s, std::ostream *os) { *os << nameOf(s); }
std::string convShapeName(const testing::TestParamInfo<ConvShape> &info) {
  return nameOf(info.param);
}

class ConvPartial1x1Out : public testing::TestWithParam<ConvShape> {};

TEST_P(ConvPartial1x1Out, MatchesReferenceAndEstimate) {
  runConvPartial("poplin::ConvPartial1x1Out", poplin::internal::convPartial1x1OutCycles,
                 GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvPartial1x1Out,
    testing::Values(ConvShape{1, 1, 1, 1, FLOAT, FLOAT}, ConvShape{1, 12, 16, 8, FLOAT, FLOAT},
                    ConvShape{1, 60, 40, 24, FLOAT, FLOAT}, ConvShape{2, 30, 20, 70, FLOAT, FLOAT},
                    ConvShape{1, 64, 256, 45, FLOAT, FLOAT}, ConvShape{1, 48, 32, 32, HALF, FLOAT},
                    ConvShape{1, 33, 70, 17, HALF, HALF}, ConvShape{1, 32, 256, 94, HALF, FLOAT}),
    convShapeName);

// The MAC vertex's shapes: the depthwise and grouped blocks it is chosen for (one to four output
// channels, few input channels, many groups of few positions), and larger ones for the fit.
class ConvPartialHorizontalMac : public testing::TestWithParam<ConvShape> {};

TEST_P(ConvPartialHorizontalMac, MatchesReferenceAndEstimate) {
  runConvPartial("poplin::ConvPartialHorizontalMac",
                 poplin::internal::convPartialHorizontalMacCycles, GetParam());
}

INSTANTIATE_TEST_SUITE_P(
    Shapes, ConvPartialHorizontalMac,
    testing::Values(ConvShape{1, 1, 1, 1, FLOAT, FLOAT}, ConvShape{16, 4, 1, 1, FLOAT, FLOAT},
                    ConvShape{8, 36, 9, 1, FLOAT, FLOAT}, ConvShape{3, 20, 9, 2, FLOAT, FLOAT},
                    ConvShape{2, 30, 18, 3, FLOAT, FLOAT}, ConvShape{1, 60, 16, 4, FLOAT, FLOAT},
                    ConvShape{1, 24, 8, 11, FLOAT, FLOAT}, ConvShape{12, 3, 27, 2, FLOAT, FLOAT},
                    ConvShape{8, 36, 9, 1, HALF, FLOAT}, ConvShape{4, 25, 9, 3, HALF, HALF},
                    ConvShape{32, 2, 9, 1, HALF, HALF}, ConvShape{1, 48, 32, 6, HALF, FLOAT}),
    convShapeName);

struct ReduceShape {
  unsigned numPartials, numElems;
  Type out, partials;
};

// PopLibs' estimate of its assembly ReduceAdd (multi-input form, not the single-input or
// interleaved-memory variants; PerformanceEstimation.hpp getReduceCycleEstimate): per worker
// loop of 4 float or 8 half accumulators, 3 cycles a partial (two 64-bit loads or one, and the
// accumulate, bundled) plus 6 to 9, and a shorter loop for a remainder.
std::uint64_t popLibsReduceAddCycles(const ReduceShape &s) {
  const bool floatPartials = s.partials == FLOAT, floatOut = s.out == FLOAT;
  const unsigned width = floatPartials ? 4 : 8;
  unsigned loops = s.numElems / width;
  for (unsigned bit = 1; bit < width; bit <<= 1)
    loops += (s.numElems & bit) ? 1 : 0;
  std::uint64_t cycles = 32, perWorker = loops / 6;
  if (loops % 6) {
    if (s.numElems % width)
      cycles += 2 * s.numPartials + (floatPartials ? 13 : 11);
    else
      ++perWorker;
  }
  const unsigned overhead = (floatPartials ? 7 : 9) - (floatOut ? 0 : 1);
  cycles += (3 * std::uint64_t(s.numPartials) + overhead) * perWorker;
  return 6 * cycles;
}

std::string nameOf(const ReduceShape &s) {
  return std::to_string(s.numPartials) + "x" + std::to_string(s.numElems) + "_" + s.out.toString() +
         "_" + s.partials.toString();
}
void PrintTo(const ReduceShape &s, std::ostream *os) { *os << nameOf(s); }

class ReduceAdd : public testing::TestWithParam<ReduceShape> {};

// The sums are the bits of a float accumulation in partial order (a half output rounded once
// at the end), whichever path (block, quad, pair, last element) a worker takes.
TEST_P(ReduceAdd, MatchesReferenceAndEstimate) {
  const ReduceShape s = GetParam();
  std::vector<std::vector<double>> partials;
  for (unsigned p = 0; p < s.numPartials; ++p)
    partials.push_back(hostData(s.partials, s.numElems, -4, 4, 30 + p));
  const auto r = VertexTester(poplin::addCodelets,
                              poputil::templateVertex("poplin::ReduceAdd", s.out, s.partials))
                     .inputList("partials", s.partials, partials)
                     .output("out", s.out, s.numElems)
                     .run();
  const auto &out = r.output("out");
  for (unsigned i = 0; i < s.numElems; ++i) {
    float sum = float(partials[0][i]);
    for (unsigned p = 1; p < s.numPartials; ++p)
      sum += float(partials[p][i]);
    ASSERT_EQ(out[i], roundTo(s.out, sum)) << "element " << i;
  }
  const Target target = Target::createIPUTarget(1, "ipu2");
  expectTileCycles(r, poplin::internal::reduceAddCycles(
                          {target, s.out, s.partials, 1, 0, 0, 0, s.numPartials, s.numElems}));
  std::cout << "[cycles] PopLibs' estimate " << popLibsReduceAddCycles(s) << ": measured / PopLibs "
            << double(r.tileCycles) / double(popLibsReduceAddCycles(s)) << "\n";
}

// Shapes that exercise each piece: blocks of 32 and 16, quads, a pair, a last element, one
// partial, and the 1024^3 float matmul's reduction (4 partials of 720).
INSTANTIATE_TEST_SUITE_P(
    Shapes, ReduceAdd,
    testing::Values(ReduceShape{2, 1, FLOAT, FLOAT}, ReduceShape{4, 720, FLOAT, FLOAT},
                    ReduceShape{3, 100, HALF, FLOAT}, ReduceShape{8, 333, HALF, HALF},
                    ReduceShape{23, 64, FLOAT, FLOAT}, ReduceShape{2, 72, FLOAT, FLOAT},
                    ReduceShape{2, 720, FLOAT, FLOAT}, ReduceShape{8, 72, FLOAT, FLOAT},
                    ReduceShape{8, 720, FLOAT, FLOAT}, ReduceShape{4, 1440, FLOAT, FLOAT},
                    ReduceShape{4, 720, HALF, FLOAT}, ReduceShape{4, 720, HALF, HALF},
                    ReduceShape{1, 50, HALF, FLOAT}, ReduceShape{5, 1003, FLOAT, FLOAT},
                    ReduceShape{16, 360, FLOAT, FLOAT}, ReduceShape{6, 137, HALF, HALF}),
    [](const testing::TestParamInfo<ReduceShape> &info) { return nameOf(info.param); });

} // namespace
