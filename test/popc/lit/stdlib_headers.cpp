// Codelets include the C++ standard library (libc++ configured for the tile) and the C headers
// popc provides; std::sqrt is one instruction and a failed assert is `trap kTrapAssertion`.
// RUN: popc -S %s -o - | FileCheck %s
// RUN: popc -S -DNDEBUG %s -o - | FileCheck --check-prefix=NDEBUG %s
#include <algorithm>
#include <array>
#include <cassert>
#include <cfloat>
#include <climits>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <math.h>
#include <tuple>
#include <type_traits>
#include <utility>

#include <poplar/Vertex.hpp>

static_assert(sizeof(std::size_t) == 4 && sizeof(std::uintptr_t) == 4, "32-bit tile");
static_assert(std::is_same<std::int64_t, long long>::value, "");
static_assert(FLT_MANT_DIG == 24 && INT_MAX == 2147483647, "");

class Norm : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  poplar::Output<float> out;
  bool compute() {
    assert(in.size() > 0);
    std::array<float, 2> acc{0.0f, std::numeric_limits<float>::lowest()};
    for (unsigned i = 0; i < in.size(); ++i) {
      acc[0] += in[i] * in[i];
      acc[1] = std::max(acc[1], std::abs(in[i]));
    }
    auto [sum, peak] = std::make_tuple(acc[0], acc[1]);
    *out = std::sqrt(sum) / peak;
    return true;
  }
};
// CHECK-LABEL: __runCodelet_Norm:
// CHECK: trap 0xa55e417
// CHECK: fsqrt
// NDEBUG-LABEL: __runCodelet_Norm:
// NDEBUG-NOT: trap
// NDEBUG: fsqrt
