// poplin::ConvPartialnx1 on the single-vertex harness: kernels walked on the tile against the
// host convolution reference, and the tile cycles beside poplin's estimator and PopLibs'.
#include "HostData.hpp"
#include "VertexTester.hpp"

#include "Conv.hpp"
#include "poplin/lib/ConvNx1Worklist.hpp"
#include "poplin/lib/CycleEstimators.hpp"

#include <poplin/codelets.hpp>
#include <poputil/VertexTemplates.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <string>

using namespace poplar;
using namespace popsdk::test;
using poplin::internal::Nx1Geometry;
using poplin::internal::Nx1Worklist;

namespace {

// poplin's estimator predicts the tile's compute cycles within this share (all shapes below
// are within 3%).
constexpr double kCycleTolerance = 0.05;

struct Nx1Shape {
  unsigned groups, batch, height, width, kernelH, kernelW, strideH, strideW, pad, inChans, outChans;
  Type data, partials;
};

Nx1Geometry geometryOf(const Nx1Shape &s) {
  Nx1Geometry g;
  g.batch = s.batch;
  g.inField = {s.height, s.width};
  g.kernel = {s.kernelH, s.kernelW};
  g.stride = {s.strideH, s.strideW};
  g.padLower = g.padUpper = {s.pad, s.pad};
  return g;
}

poplin::ConvParams paramsOf(const Nx1Shape &s) {
  using T = poplin::ConvParams;
  return T(
      s.data, s.partials, s.batch, {s.height, s.width}, {s.kernelH, s.kernelW}, s.inChans,
      s.outChans, s.groups,
      T::InputTransform({0, 0}, {0, 0}, {1, 1}, {s.pad, s.pad}, {s.pad, s.pad}, {false, false}),
      T::InputTransform(2),
      T::OutputTransform({0, 0}, {0, 0}, {s.strideH, s.strideW}, {0, 0}, {0, 0}));
}

// PopLibs' estimate of its assembly ConvPartialnx1 (poplibs.md 3.6; PerformanceEstimation.hpp),
// with one kernel row per AMP pass (ampKernelHeight 1), one output channel group of
// ceil(outChans / units) passes and input channel groups of 16: each worker's cost per entry of
// a kernel position's worklist, the busiest and idlest worker per kernel position, the
// supervisor's coefficient loads and loops, and the zeroing of the outputs.
std::uint64_t popLibsConvPartialnx1Cycles(const Nx1Shape &s, const Nx1Worklist &wl) {
  const bool f32 = s.data == FLOAT, halfPartials = s.partials == HALF;
  const unsigned units = f32 ? 8 : 16, kernel = s.kernelH * s.kernelW;
  const std::uint64_t passes = (s.outChans + units - 1) / units, nIG = (s.inChans + 15) / 16;
  auto entryCycles = [&](std::uint64_t n) -> std::uint64_t {
    std::uint64_t c = n == 0   ? 17
                      : n == 1 ? (f32 ? 33 : 29)
                      : n == 2 ? (f32 ? 44 : 33 + (halfPartials ? 1 : 0))
                               : (f32 ? 45 + 8 * (n - 3) : 34 + 4 * (n - 3));
    return 3 + c - 9;
  };
  std::uint64_t workers = 0;
  for (unsigned k = 0; k < kernel; ++k) {
    std::uint64_t maxW = 0, minW = ~std::uint64_t(0);
    for (unsigned w = 0; w < 6; ++w) {
      const unsigned *header = &wl.words[w * (kernel + 3)];
      std::uint64_t cycles = 17 + (halfPartials ? 1 : 0);
      for (unsigned e = header[2 + k]; e < header[3 + k]; e += 3)
        cycles += entryCycles(wl.words[e + 1]);
      maxW = std::max(maxW, cycles);
      minW = std::min(minW, cycles);
    }
    workers += std::max(6 * maxW, 6 * minW + 9) * passes;
  }
  const std::uint64_t inner = s.kernelH * (14 + s.kernelW * (12 + passes * (32 + 15 + 3)));
  const std::uint64_t nCG = s.groups;
  const std::uint64_t zeros = std::uint64_t(geometryOf(s).outPositions()) * s.outChans;
  const std::uint64_t vw = halfPartials ? 4 : 2;
  return 109 + 54 + 6 * (halfPartials ? 10 : 9) + nCG * 18 + 6 * (nCG - 1) + 1 +
         nCG * (16 + nIG * (14 + 14 + inner + workers)) +
         6 * nCG * (((zeros + 5) / 6 + vw - 1) / vw + 5);
}

std::string nameOf(const Nx1Shape &s) {
  auto u = [](unsigned v) { return std::to_string(v); };
  return "g" + u(s.groups) + "_b" + u(s.batch) + "_" + u(s.height) + "x" + u(s.width) + "_k" +
         u(s.kernelH) + "x" + u(s.kernelW) + "_s" + u(s.strideH) + "x" + u(s.strideW) + "_p" +
         u(s.pad) + "_c" + u(s.inChans) + "x" + u(s.outChans) + "_" + s.data.toString() + "_" +
         s.partials.toString();
}
void PrintTo(const Nx1Shape &s, std::ostream *os) { *os << nameOf(s); }

class ConvPartialnx1 : public testing::TestWithParam<Nx1Shape> {};

TEST_P(ConvPartialnx1, MatchesReferenceAndEstimate) {
  const Nx1Shape s = GetParam();
  const Nx1Geometry geometry = geometryOf(s);
  const Nx1Worklist wl = poplin::internal::buildNx1Worklist(geometry);
  const unsigned field = s.height * s.width, kernel = s.kernelH * s.kernelW;
  const unsigned outPositions = geometry.outPositions(), outField = outPositions / s.batch;
  // The reference's layouts: in [batch][G x inChans][field], weights [G][out][in][kernel].
  const auto refIn = hostData(s.data, s.batch * s.groups * s.inChans * field, -2, 2, 10);
  const auto refWeights = hostData(s.data, s.groups * s.outChans * s.inChans * kernel, -2, 2, 20);
  // The vertex's: channels innermost, weights [kernel][in][out] per group.
  std::vector<std::vector<double>> in(s.groups), weights(s.groups);
  for (unsigned g = 0; g < s.groups; ++g) {
    in[g].resize(s.batch * field * s.inChans);
    for (unsigned b = 0; b < s.batch; ++b)
      for (unsigned c = 0; c < s.inChans; ++c)
        for (unsigned p = 0; p < field; ++p)
          in[g][(b * field + p) * s.inChans + c] =
              refIn[(b * s.groups * s.inChans + g * s.inChans + c) * field + p];
    weights[g].resize(kernel * s.inChans * s.outChans);
    for (unsigned o = 0; o < s.outChans; ++o)
      for (unsigned c = 0; c < s.inChans; ++c)
        for (unsigned k = 0; k < kernel; ++k)
          weights[g][(k * s.inChans + c) * s.outChans + o] =
              refWeights[((g * s.outChans + o) * s.inChans + c) * kernel + k];
  }
  std::vector<double> words(wl.words.begin(), wl.words.end());
  const auto r = VertexTester(poplin::addCodelets,
                              poputil::templateVertex("poplin::ConvPartialnx1", s.data, s.partials))
                     .inputList("in", s.data, in)
                     .inputList("weights", s.data, weights)
                     .outputList("out", s.partials,
                                 std::vector<std::size_t>(s.groups, outPositions * s.outChans))
                     .input("worklists", UNSIGNED_INT, words)
                     .state("kernelPositions", UNSIGNED_INT, kernel)
                     .state("inStride", UNSIGNED_INT, wl.inStride)
                     .state("inChans", UNSIGNED_INT, s.inChans)
                     .state("outChans", UNSIGNED_INT, s.outChans)
                     .run();
  const auto want = popsdk::reference::convolution(paramsOf(s), refIn, refWeights);
  const auto &out = r.output("out");
  // Terms are below 4 in size; a half pass rounds once per 16 input channels.
  const double eps = s.partials == HALF ? std::ldexp(1.0, -10) : std::ldexp(1.0, -23);
  const double tol = eps * 4 * s.inChans * kernel * (s.partials == HALF ? 1 : 0.25) + 1e-9;
  for (unsigned g = 0; g < s.groups; ++g)
    for (unsigned b = 0; b < s.batch; ++b)
      for (unsigned o = 0; o < s.outChans; ++o)
        for (unsigned p = 0; p < outField; ++p)
          ASSERT_NEAR(out[(g * outPositions + b * outField + p) * s.outChans + o],
                      want[(b * s.groups * s.outChans + g * s.outChans + o) * outField + p], tol)
              << "group " << g << " batch " << b << " channel " << o << " position " << p;

  poplin::internal::VertexCost cost{Target::createIPUTarget(1, "ipu2"), s.data, s.partials};
  cost.groups = s.groups;
  cost.positions = outPositions;
  cost.inChans = s.inChans;
  cost.outChans = s.outChans;
  cost.kernelPositions = kernel;
  cost.workerZeros = wl.workerZeros;
  cost.workerEntries = wl.workerEntries;
  cost.workerEntryPositions = wl.workerEntryPositions;
  const std::uint64_t estimate = poplin::internal::convPartialnx1Cycles(cost);
  const std::uint64_t popLibs = popLibsConvPartialnx1Cycles(s, wl);
  std::cout << "[cycles] " << nameOf(s) << ": measured " << r.tileCycles << ", estimated "
            << estimate << ", PopLibs' estimate " << popLibs << " (measured / PopLibs "
            << double(r.tileCycles) / double(popLibs) << ")\n";
  EXPECT_LT(std::fabs(double(r.tileCycles) - double(estimate)) / double(r.tileCycles),
            kCycleTolerance)
      << "measured " << r.tileCycles << " tile cycles, estimated " << estimate;
}

// Kernels 1x1 to 5x5 and 3x1, strides, padding, batches, groups and channel counts that take
// partial passes and several output chunks, float and half.
INSTANTIATE_TEST_SUITE_P(Shapes, ConvPartialnx1,
                         testing::Values(Nx1Shape{1, 1, 6, 6, 1, 1, 1, 1, 0, 16, 8, FLOAT, FLOAT},
                                         Nx1Shape{1, 1, 8, 8, 3, 3, 1, 1, 0, 16, 8, FLOAT, FLOAT},
                                         Nx1Shape{1, 2, 8, 8, 3, 3, 1, 1, 1, 5, 12, FLOAT, FLOAT},
                                         Nx1Shape{1, 1, 12, 12, 5, 5, 1, 1, 2, 3, 16, FLOAT, FLOAT},
                                         Nx1Shape{2, 1, 9, 7, 3, 1, 2, 1, 0, 20, 8, FLOAT, FLOAT},
                                         Nx1Shape{1, 1, 11, 11, 3, 3, 2, 2, 1, 8, 8, FLOAT, FLOAT},
                                         Nx1Shape{1, 4, 14, 14, 5, 5, 1, 1, 0, 1, 16, FLOAT, FLOAT},
                                         Nx1Shape{1, 1, 8, 8, 3, 3, 1, 1, 1, 16, 16, HALF, FLOAT},
                                         Nx1Shape{1, 2, 12, 12, 5, 5, 1, 1, 2, 16, 16, HALF, FLOAT},
                                         Nx1Shape{1, 1, 9, 9, 3, 1, 1, 2, 0, 7, 20, HALF, HALF},
                                         Nx1Shape{1, 1, 7, 7, 1, 1, 1, 1, 0, 32, 16, HALF, HALF}),
                         [](const testing::TestParamInfo<Nx1Shape> &info) {
                           return nameOf(info.param);
                         });

} // namespace
