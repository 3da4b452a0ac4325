// The cycle log, its robust checks, and the tables of docs/cycles-popops.md.
#include "CycleLog.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>

namespace popsdk::test {

namespace {

struct Logged {
  PopopsVertex vertex;
  std::vector<CycleSample> samples;
};

std::vector<Logged> &log() {
  static std::vector<Logged> entries;
  return entries;
}

std::string percent(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%+.1f", x);
  return text;
}

/// The vertices the detailed table shows: one or two of each kind of loop.
bool inDetail(const PopopsVertex &v) {
  static const std::set<std::string> shown = {"BinaryOp1D ADD float",
                                              "BinaryOp1D ADD half",
                                              "BinaryOp1D ADD int",
                                              "BinaryOp1D DIVIDE float",
                                              "BinaryOp1D DIVIDE int",
                                              "BinaryOp1DInPlace MULTIPLY float",
                                              "BinaryOp2D ADD float",
                                              "BinaryOp2D ADD half",
                                              "UnaryOp1D EXPONENT float",
                                              "UnaryOp1D EXPONENT half",
                                              "UnaryOp1D SQRT float",
                                              "UnaryOp1D SQRT int",
                                              "UnaryOp1D SIN half",
                                              "UnaryOp2D NEGATE float",
                                              "Fill  float",
                                              "Fill  half",
                                              "Fill2d  float",
                                              "Cast1D  float half",
                                              "Cast1D  half float",
                                              "Cast1D  int float",
                                              "Cast2D  float half",
                                              "ScaledAdd1D  float",
                                              "ScaledAdd1D  half",
                                              "ScaledAdd1D  int",
                                              "ScaledAdd2D  float",
                                              "Select1D  float",
                                              "Clamp1D  float"};
  std::string key = v.templ + " " + v.op + " " + v.type.toString();
  if (v.templ.rfind("Cast", 0) == 0)
    key += " " + v.outType.toString();
  return shown.count(key) != 0;
}

/// The per-template summary at the largest n, and the detailed table.
void writeTables(const std::string &path) {
  std::ofstream out(path);
  out << "| vertex template | type | vertices | within 10% | median deviation % | range % | "
         "furthest |\n|---|---|---|---|---|---|---|\n";
  std::map<std::pair<std::string, std::string>, std::vector<const Logged *>> groups;
  std::vector<std::pair<std::string, std::string>> order;
  for (const auto &e : log()) {
    auto key = std::make_pair(e.vertex.templ, e.vertex.type.toString());
    if (!groups.count(key))
      order.push_back(key);
    groups[key].push_back(&e);
  }
  for (const auto &key : order) {
    const auto &group = groups[key];
    std::vector<std::pair<double, const Logged *>> devs;
    for (const Logged *e : group)
      devs.emplace_back(deviationPercent(e->samples.back()), e);
    std::sort(devs.begin(), devs.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    auto within = std::count_if(devs.begin(), devs.end(),
                                [](const auto &d) { return std::fabs(d.first) <= 10; });
    const auto &furthest =
        std::fabs(devs.front().first) > std::fabs(devs.back().first) ? devs.front() : devs.back();
    const PopopsVertex &fv = furthest.second->vertex;
    std::string what = fv.op.empty() ? fv.name.substr(fv.name.find('<')) : fv.op;
    out << "| " << key.first << " | " << key.second << " | " << devs.size() << " | " << within
        << " | " << percent(devs[devs.size() / 2].first) << " | " << percent(devs.front().first)
        << " .. " << percent(devs.back().first) << " | " << what << " |\n";
  }
  out << "\n| vertex | n | simulated | estimate | deviation % |\n|---|---|---|---|---|\n";
  for (const auto &e : log()) {
    if (!inDetail(e.vertex))
      continue;
    for (const auto &s : e.samples)
      out << "| `" << e.vertex.name << "` | " << s.n << " | " << s.measured << " | " << s.estimate
          << " | " << percent(deviationPercent(s)) << " |\n";
  }
}

/// Writes the tables when POPSDK_CYCLES_TABLE is set, after every test of the run; and every
/// sample as CSV when POPSDK_CYCLES_CSV is.
class CycleTables : public ::testing::Environment {
public:
  void TearDown() override {
    if (const char *path = std::getenv("POPSDK_CYCLES_TABLE"))
      writeTables(path);
    if (const char *path = std::getenv("POPSDK_CYCLES_CSV")) {
      std::ofstream out(path);
      out << "vertex,multivertex,n,simulated,estimate,deviation_percent\n";
      for (const auto &e : log())
        for (const auto &s : e.samples)
          out << '"' << e.vertex.name << "\"," << e.vertex.multiVertex << ',' << s.n << ','
              << s.measured << ',' << s.estimate << ',' << deviationPercent(s) << '\n';
    }
  }
};

[[maybe_unused]] ::testing::Environment *const kTables =
    ::testing::AddGlobalTestEnvironment(new CycleTables);

} // namespace

double deviationPercent(const CycleSample &s) {
  return s.measured == 0 ? 0
                         : 100.0 * (double(s.estimate) - double(s.measured)) / double(s.measured);
}

void checkAndLogCycles(const PopopsVertex &v, const std::vector<CycleSample> &samples,
                       CycleBound bound) {
  SCOPED_TRACE(v.name);
  ASSERT_GE(samples.size(), 2u);
  // From a size of whole 64-bit vectors (a multiple of 4 elements: of 2 floats and of 4 halves)
  // the cycles never shrink. From other sizes they may: the float and half loops take a
  // remainder one element a step, so 7 halves (a worker with 3 left over) can take longer than
  // 64 (every worker 2 or 3 whole vectors). The largest size takes the most cycles.
  const CycleSample &first = samples.front(), &last = samples.back();
  for (std::size_t i = 1; i < samples.size(); ++i) {
    if (samples[i - 1].n % 4 == 0) {
      EXPECT_GE(samples[i].measured, samples[i - 1].measured)
          << "simulated cycles shrink from n = " << samples[i - 1].n << " to n = " << samples[i].n;
    }
    EXPECT_GE(last.measured, samples[i - 1].measured)
        << "simulated cycles at n = " << samples[i - 1].n << " exceed those at n = " << last.n;
  }
  EXPECT_GT(last.measured, first.measured);
  EXPECT_GT(last.estimate, first.estimate);
  double ratio = double(last.measured) / double(last.estimate);
  EXPECT_TRUE(ratio >= bound.low && ratio <= bound.high)
      << "at n = " << last.n << ": simulated " << last.measured << ", estimate " << last.estimate
      << ", ratio " << ratio << " outside [" << bound.low << ", " << bound.high << "]";
  log().push_back({v, samples});
}

} // namespace popsdk::test
