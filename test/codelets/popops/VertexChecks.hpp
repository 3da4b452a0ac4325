// What the popops vertex tests share: the regions a 2-D vertex gets for n elements, a vertex's
// estimate and measurement in PopLibs' units, comparison with the reference, and the walk of one
// vertex over the edge sizes.
#pragma once

#include "CycleLog.hpp"
#include "VertexTester.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace popsdk::test {

/// How a 2-D vertex's n elements are split into regions: one empty region for n = 0, one or two
/// regions for n = 1, 2, and three of uneven sizes above.
std::vector<std::size_t> regionsOf(std::size_t n);

/// `values` cut into consecutive pieces of the given sizes.
std::vector<std::vector<double>> split(const std::vector<double> &values,
                                       const std::vector<std::size_t> &sizes);

/// The vertex's sample: the estimate for these regions, and the measurement in the estimate's
/// units (a MultiVertex's tile cycles, a Vertex's thread cycles).
CycleSample sampleOf(const PopopsVertex &v, const std::vector<std::size_t> &regions,
                     const RunResult &r);

/// One run of a vertex, set up: the harness, the output field and what the reference says it
/// holds afterwards, and the regions the estimator is given.
struct VertexCase {
  VertexTester tester;
  std::string output;
  std::vector<double> want;
  std::vector<std::size_t> regions;
};

/// Runs a vertex's cases (one per edge size, ascending) in one engine, expects each output to
/// match (expectValues with `tolerance`) and checks and logs the cycles (checkAndLogCycles with
/// the vertex's family bound).
void runAndCheck(const PopopsVertex &v, const std::vector<VertexCase> &cases, double tolerance);

/// Sizes around the 64-bit vectors the float and half loops use (2 floats, 4 halves): whole
/// vectors with every remainder, in one region, in the 2-D forms' three, and split between a
/// MultiVertex's six workers (51 halves: eight workers' worth of 4-half grains, the last short).
inline const std::vector<std::size_t> kVectorTailSizes = {3, 4, 5, 6, 9, 13, 26, 51};

/// Runs the cases in one engine and expects each output to match; the cycles are not checked
/// (across vector remainders they need not grow with n: 4 halves are one vector, 3 are three
/// scalar steps).
std::vector<RunResult> runAndCheckValues(const PopopsVertex &v,
                                         const std::vector<VertexCase> &cases, double tolerance);

/// Expects `got` to equal `want` element by element (NaN matches NaN), or, when `tolerance` is
/// positive, to be within tolerance * (|want| + 0.1) of it (the absolute part for results near
/// zero, where approximations such as erf's keep an absolute error); reports a few mismatches.
void expectValues(const std::vector<double> &got, const std::vector<double> &want, double tolerance,
                  const std::string &what);

} // namespace popsdk::test
