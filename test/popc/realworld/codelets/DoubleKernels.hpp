// Double-precision kernels shared by the Doubles codelet and its host test (the differential
// test of popc's software double precision: the same source compiled for the tile and for the
// host, compared bit for bit). Real codelets meet double through literals (x * 1.01) and
// accumulators; these use every operation popc computes in software.
#pragma once

#include <cmath>
#include <cstdint>

#ifdef __POPC__
#include <ipudef.h> // half
#else
typedef _Float16 half;
#endif

namespace doublek {

/// Where arithmetic() writes, per element: 8 doubles, a quotient rounded to float and to half,
/// and a product converted to int and to unsigned long long.
struct Outputs {
  double *out;
  float *narrowed;
  half *halves;
  int *ints;
  std::uint64_t *longs;
};

/// The double arithmetic on a, b (b is never zero) and k.
inline void arithmetic(const float *a, const float *b, const int *k, unsigned n, const Outputs &o) {
  double *out = o.out;
  for (unsigned i = 0; i < n; ++i) {
    double x = a[i], y = b[i];
    double scaled = y * 1.01;
    out[8 * i] = x + scaled;
    out[8 * i + 1] = x - y;
    out[8 * i + 2] = x * y;
    out[8 * i + 3] = x / y;
    out[8 * i + 4] = -x;
    out[8 * i + 5] = double(k[i]) * 0.1;
    out[8 * i + 6] = std::fabs(x - 3.0);
    out[8 * i + 7] = x > y ? x : y;
    double q = x / 7.0;
    o.narrowed[i] = float(q);
    o.halves[i] = half(q);
    o.ints[i] = int(x * 1000.0);
    o.longs[i] = std::uint64_t(std::fabs(x) * 1e12);
  }
}

/// A double accumulator around a loop, its comparisons with the float running maximum, and
/// the float data scaled in place by a double literal (x *= 1.01 rounds once, to float).
inline void accumulate(float *data, unsigned n, double *sums, unsigned *above) {
  double sum = 0, squares = 0;
  unsigned count = 0;
  for (unsigned i = 0; i < n; ++i) {
    data[i] *= 1.01;
    sum += data[i];
    double sq = double(data[i]) * data[i];
    squares += sq;
    count += sum >= 0.5 * i;
  }
  sums[0] = sum;
  sums[1] = squares;
  sums[2] = sum / n;
  *above = count;
}

} // namespace doublek
