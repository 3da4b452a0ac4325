// Clamping arithmetic that LLVM folds into saturating intrinsics, on the tile against the host.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>

using namespace poplar;
using namespace realworld;

namespace {

template <typename S> S clampToRange(long long x) {
  return x > std::numeric_limits<S>::max()   ? std::numeric_limits<S>::max()
         : x < std::numeric_limits<S>::min() ? std::numeric_limits<S>::min()
                                             : S(x);
}

template <typename U, typename S> void check(Type type, const std::string &vertex) {
  std::mt19937 rng(5);
  std::vector<U> a, b;
  // The limits and their neighbours, then random bits.
  const U edges[] = {0,
                     1,
                     U(std::numeric_limits<S>::max()),
                     U(std::numeric_limits<S>::min()),
                     std::numeric_limits<U>::max(),
                     U(std::numeric_limits<U>::max() - 1)};
  for (U x : edges)
    for (U y : edges)
      a.push_back(x), b.push_back(y);
  for (int i = 0; i < 40; ++i)
    a.push_back(U(rng())), b.push_back(U(rng()));
  Rig rig("Saturate.cpp");
  auto ta = rig.rawTensor(type, toBytes(a));
  auto tb = rig.rawTensor(type, toBytes(b));
  auto out = rig.rawTensor(type, zeroBytes<U>(4 * a.size()));
  auto v = rig.vertex(vertex);
  rig.graph().connect(v["a"], ta);
  rig.graph().connect(v["b"], tb);
  rig.graph().connect(v["out"], out);
  ASSERT_EQ(rig.run(), "");
  std::vector<U> want;
  for (std::size_t i = 0; i < a.size(); ++i) {
    U x = a[i], y = b[i], sum = U(x + y);
    want.push_back(x > y ? U(x - y) : U(0));
    want.push_back(sum < x ? std::numeric_limits<U>::max() : sum);
    want.push_back(U(clampToRange<S>((long long)S(x) + S(y))));
    want.push_back(U(clampToRange<S>((long long)S(x) - S(y))));
  }
  EXPECT_EQ(fromBytes<U>(rig.bytes(out)), want) << vertex;
}

// Before the fix popc rejected these codelets: "'llvm.usub.sat.i32' is not supported on the
// tile" (PopLibs' SequenceSlice clips its offsets this way).
TEST(RealWorld, Regression_SaturatingArithmeticRunsOnTheTile) {
  check<unsigned, int>(UNSIGNED_INT, "Saturate<unsigned int,int>");
  check<unsigned short, short>(UNSIGNED_SHORT, "Saturate<unsigned short,short>");
}

} // namespace
