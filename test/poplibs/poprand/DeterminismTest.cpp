// Results depend only on seed, modifier, shape and mapping, never on the host: this executable
// run with POPLAR_NUM_THREADS=1 and =2 (the executor's host threads) prints the same digest of
// every distribution over 16 tiles.
#include "RandHarness.hpp"

#include <poprand/RandomGen.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

using namespace poplar;
using poprand::test::RandHarness;

TEST(PoprandDeterminism, DISABLED_PrintDigest) {
  RandHarness h(16);
  Tensor seed = h.seed("seed", 31, 32);
  Tensor ref = h.reference({50, 100});
  poprand::setSeed(h.graph(), seed, 1, h.prog());
  h.output("u", poprand::uniform(h.graph(), nullptr, 0, ref, HALF, -1, 1, h.prog()));
  h.output("n", poprand::normal(h.graph(), &seed, 2, ref, FLOAT, 0, 1, h.prog()));
  h.output("t", poprand::truncatedNormal(h.graph(), nullptr, 0, ref, FLOAT, 0, 1, 1, h.prog()));
  h.output("b", poprand::bernoulli(h.graph(), &seed, 3, ref, INT, 0.4, h.prog()));
  h.output("l", poprand::logUniform(h.graph(), nullptr, 0, ref, FLOAT, 1, 50, h.prog()));
  Tensor in = h.input("in", FLOAT, {50, 100}, popsdk::test::hostData(FLOAT, 5000, -4, 4));
  h.output("d", poprand::dropout(h.graph(), nullptr, 0, in, ref, 0.5, 2, h.prog()));
  h.run();
  // FNV-1a over the bytes of every value.
  std::uint64_t digest = 1469598103934665603ull;
  for (const char *name : {"u", "n", "t", "b", "l", "d"})
    for (double x : h.result(name)) {
      unsigned char bytes[sizeof x];
      std::memcpy(bytes, &x, sizeof x);
      for (unsigned char c : bytes)
        digest = (digest ^ c) * 1099511628211ull;
    }
  std::printf("digest %016llx\n", static_cast<unsigned long long>(digest));
}

/// The digest line of this executable's PrintDigest run with `threads` host threads.
std::string digestWithThreads(unsigned threads) {
  char self[4096] = {};
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0)
    return "readlink failed";
  std::string command = "POPLAR_NUM_THREADS=" + std::to_string(threads) + " '" + self +
                        "' --gtest_also_run_disabled_tests"
                        " --gtest_filter=PoprandDeterminism.DISABLED_PrintDigest 2>&1";
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe)
    return "popen failed";
  std::string digest;
  char line[512];
  while (std::fgets(line, sizeof line, pipe))
    if (std::strncmp(line, "digest ", 7) == 0)
      digest = line;
  pclose(pipe);
  return digest;
}

TEST(PoprandDeterminism, SameBitsWithOneAndTwoHostThreads) {
  std::string one = digestWithThreads(1), two = digestWithThreads(2);
  EXPECT_EQ(one.rfind("digest ", 0), 0u) << one;
  EXPECT_EQ(one, two);
}

} // namespace
