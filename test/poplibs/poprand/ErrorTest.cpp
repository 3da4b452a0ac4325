// poprand's argument errors: poplibs_error naming the function and the bad value or tensor.
#include "ExpectThrows.hpp"
#include "RandHarness.hpp"

#include <poprand/HwSeeds.hpp>
#include <poprand/RandomGen.hpp>
#include <poputil/exceptions.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>

namespace {

using namespace poplar;
using poprand::test::RandHarness;

/// `f` throws poplibs_error whose message contains each of `parts`.
void expectError(const std::function<void()> &f, const std::vector<std::string> &parts) {
  popsdk::test::expectThrowsWith<poputil::poplibs_error>(f, parts);
}

TEST(PoprandErrors, SeedOfWrongTypeOrSize) {
  RandHarness h(2);
  Tensor ref = h.reference({16});
  Tensor intSeed = h.graph().addVariable(INT, {2}, "intSeed");
  Tensor threeSeed = h.graph().addVariable(UNSIGNED_INT, {3}, "threeSeed");
  expectError([&] { poprand::uniform(h.graph(), &intSeed, 0, ref, FLOAT, 0, 1, h.prog()); },
              {"poprand::uniform", "int", "{2}"});
  expectError([&] { poprand::normal(h.graph(), &threeSeed, 0, ref, FLOAT, 0, 1, h.prog()); },
              {"poprand::normal", "unsigned int", "{3}"});
  expectError([&] { poprand::setSeed(h.graph(), threeSeed, 0, h.prog()); },
              {"poprand::setSeed", "{3}"});
}

TEST(PoprandErrors, ProbabilityOutsideZeroToOne) {
  RandHarness h(2);
  Tensor ref = h.reference({16});
  expectError([&] { poprand::bernoulli(h.graph(), nullptr, 0, ref, FLOAT, 1.5, h.prog()); },
              {"poprand::bernoulli", "prob", "1.5"});
  expectError([&] { poprand::bernoulli(h.graph(), nullptr, 0, ref, INT, -0.25, h.prog()); },
              {"poprand::bernoulli", "-0.25"});
  expectError([&] { poprand::dropout(h.graph(), nullptr, 0, ref, ref, 2.0, 1.0, h.prog()); },
              {"poprand::dropout", "keepProbability", "2"});
}

TEST(PoprandErrors, MinAboveMax) {
  RandHarness h(2);
  Tensor ref = h.reference({16});
  expectError([&] { poprand::uniform(h.graph(), nullptr, 0, ref, FLOAT, 3, 1, h.prog()); },
              {"poprand::uniform", "minVal 3", "maxVal 1"});
  expectError([&] { poprand::uniform(h.graph(), nullptr, 0, ref, INT, 0.25, 0.75, h.prog()); },
              {"poprand::uniform", "holds no integer"});
  expectError([&] { poprand::uniform(h.graph(), nullptr, 0, ref, INT, 0, 1e10, h.prog()); },
              {"poprand::uniform", "does not fit in int"});
}

TEST(PoprandErrors, LogUniformRange) {
  RandHarness h(2);
  Tensor ref = h.reference({16});
  expectError([&] { poprand::logUniform(h.graph(), nullptr, 0, ref, FLOAT, 0.5, 8, h.prog()); },
              {"poprand::logUniform", "minVal 0.5"});
  expectError([&] { poprand::logUniform(h.graph(), nullptr, 0, ref, FLOAT, 8, 8, h.prog()); },
              {"poprand::logUniform", "maxVal 8"});
  expectError([&] { poprand::logUniform(h.graph(), nullptr, 0, ref, FLOAT, 2, 8, h.prog(), 1.0); },
              {"poprand::logUniform", "base 1"});
  expectError([&] { poprand::logUniform(h.graph(), nullptr, 0, ref, HALF, 2049, 2050, h.prog()); },
              {"poprand::logUniform", "half"});
}

TEST(PoprandErrors, UnsupportedTypesAndShapes) {
  RandHarness h(2);
  Tensor ref = h.reference({16});
  expectError([&] { poprand::normal(h.graph(), nullptr, 0, ref, INT, 0, 1, h.prog()); },
              {"poprand::normal", "int"});
  expectError([&] { poprand::uniform(h.graph(), nullptr, 0, ref, BOOL, 0, 1, h.prog()); },
              {"poprand::uniform", "bool"});
  expectError(
      [&] { poprand::truncatedNormal(h.graph(), nullptr, 0, ref, FLOAT, 0, 1, 0, h.prog()); },
      {"poprand::truncatedNormal", "alpha 0"});
  Tensor other = h.reference({4, 4});
  expectError([&] { poprand::dropout(h.graph(), nullptr, 0, other, ref, 0.5, 2, h.prog()); },
              {"poprand::dropout", "{4,4}", "{16}"});
  expectError([&] { poprand::shapedDropout(h.graph(), nullptr, 0, other, ref, 0.5, 2, h.prog()); },
              {"poprand::shapedDropout", "reference {16}", "input {4,4}"});
  Tensor unmapped = h.graph().addVariable(FLOAT, {16}, "unmapped");
  expectError([&] { poprand::uniform(h.graph(), nullptr, 0, unmapped, FLOAT, 0, 1, h.prog()); },
              {"poprand::uniform", "not completely mapped"});
  expectError([&] { poprand::setHwSeeds(h.graph(), ref, h.prog()); },
              {"poprand::setHwSeeds", "{2,6,4}", "{16}"});
}

} // namespace
