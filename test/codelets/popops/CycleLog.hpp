// Measured cycles beside the estimates: every vertex run of the popops vertex tests is logged, the
// robust cycle properties are checked per vertex, and, when POPSDK_CYCLES_TABLE names a file,
// the tables of docs/cycles-popops.md are written there at the end of the run.
#pragma once

#include "VertexTable.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace popsdk::test {

struct CycleSample {
  std::size_t n = 0;          // elements (summed over regions)
  std::uint64_t measured = 0; // MultiVertex: tile cycles; Vertex: thread cycles (as PopLibs)
  std::uint64_t estimate = 0;
};

/// Signed deviation of the estimate from the measurement, in percent of the measurement.
double deviationPercent(const CycleSample &s);

/// The range the ratio simulated / estimate must fall in at the largest n.
struct CycleBound {
  double low, high;
};

/// Where simulated / estimate falls at n = 1000 for the vertex's family, and why: the bounds of
/// docs/cycles-popops.md.
CycleBound cycleBound(const PopopsVertex &v);

/// Records the samples of one vertex over the edge sizes (ascending n) and checks what holds
/// whatever the exact figures: the simulated cycles never shrink as n grows from a size of whole
/// 64-bit vectors (a multiple of 4 elements) and peak at the largest n, both they and the
/// estimate grow from the smallest to the largest n (PopLibs' formulas are not monotonic in
/// between: a remainder can cost more than a whole vector), and at the largest n the ratio
/// simulated / estimate is within `bound`.
void checkAndLogCycles(const PopopsVertex &v, const std::vector<CycleSample> &samples,
                       CycleBound bound);

} // namespace popsdk::test
