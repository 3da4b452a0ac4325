// poprand::addCodelets: every vertex of Vertices.def is in poprand.gp.
#include "RandHarness.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "popops/TypeLists.hpp"

namespace {

std::vector<std::string> vertexNames() {
  std::vector<std::string> names;
#define T_NAME(name, T) names.push_back(std::string("poprand::") + #name + "<" #T ">");
#define POPRAND_ALL_FAMILIES
#define POPRAND_VERTEX(name, types, estimator) POPOPS_TYPES_##types(T_NAME, name)
#define POPRAND_PLAIN_VERTEX(name, estimator) names.push_back(std::string("poprand::") + #name);
#include "poprand/Vertices.def"
  return names;
}

TEST(PoprandCodelets, EveryTableVertexIsLoaded) {
  poprand::test::RandHarness h(1);
  auto names = vertexNames();
  ASSERT_EQ(names.size(), 16u);
  for (const auto &name : names)
    EXPECT_TRUE(h.graph().hasCodelet(name)) << name;
}

} // namespace
