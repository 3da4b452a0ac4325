// Regions, samples and value comparison for the popops vertex tests.
#include "VertexChecks.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace popsdk::test {

std::vector<std::size_t> regionsOf(std::size_t n) {
  if (n == 0)
    return {0};
  if (n < 3)
    return std::vector<std::size_t>(n, 1);
  return {n / 2, n / 3, n - n / 2 - n / 3};
}

std::vector<std::vector<double>> split(const std::vector<double> &values,
                                       const std::vector<std::size_t> &sizes) {
  std::vector<std::vector<double>> parts;
  std::size_t at = 0;
  for (std::size_t size : sizes) {
    parts.emplace_back(values.begin() + at, values.begin() + at + size);
    at += size;
  }
  return parts;
}

CycleSample sampleOf(const PopopsVertex &v, const std::vector<std::size_t> &regions,
                     const RunResult &r) {
  static const poplar::Device device = testDevice(4);
  popops::internal::VertexCost cost{device.getTarget(), v.opValue, v.type, v.outType, {}};
  CycleSample s;
  for (std::size_t size : regions) {
    cost.regions.push_back(unsigned(size));
    s.n += size;
  }
  s.estimate = v.estimate(cost);
  s.measured = v.multiVertex ? r.tileCycles : r.threadCycles;
  return s;
}

void expectValues(const std::vector<double> &got, const std::vector<double> &want, double tolerance,
                  const std::string &what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  unsigned reported = 0, mismatches = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    bool same = got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i]));
    if (!same && tolerance > 0 && std::isfinite(want[i]))
      same = std::fabs(got[i] - want[i]) <= tolerance * (std::fabs(want[i]) + 0.1);
    if (same)
      continue;
    ++mismatches;
    if (reported++ < 4)
      ADD_FAILURE() << what << ": element " << i << " is " << got[i] << ", expected " << want[i];
  }
  EXPECT_EQ(mismatches, 0u) << what << ": " << mismatches << " of " << got.size()
                            << " elements differ";
}

std::vector<RunResult> runAndCheckValues(const PopopsVertex &v,
                                         const std::vector<VertexCase> &cases, double tolerance) {
  std::vector<VertexTester> testers;
  for (const auto &c : cases)
    testers.push_back(c.tester);
  std::vector<RunResult> results = VertexTester::runEach(testers);
  for (std::size_t k = 0; k < cases.size(); ++k) {
    std::size_t n = 0;
    for (std::size_t size : cases[k].regions)
      n += size;
    expectValues(results[k].output(cases[k].output), cases[k].want, tolerance,
                 v.name + ", n = " + std::to_string(n));
  }
  return results;
}

void runAndCheck(const PopopsVertex &v, const std::vector<VertexCase> &cases, double tolerance) {
  std::vector<RunResult> results = runAndCheckValues(v, cases, tolerance);
  std::vector<CycleSample> samples;
  for (std::size_t k = 0; k < cases.size(); ++k)
    samples.push_back(sampleOf(v, cases[k].regions, results[k]));
  checkAndLogCycles(v, samples, cycleBound(v));
}

} // namespace popsdk::test
