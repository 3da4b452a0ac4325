// Before any test of this executable compiles a codelet, point the runtime at this build's popc
// and codelet cache (many tests call Graph::addCodelets directly, not through a harness).
#include "TestEnvironment.hpp"

#include <gtest/gtest.h>

namespace {

class BuildTreeTools : public ::testing::Environment {
public:
  void SetUp() override { popsdk::test::useBuildTreeTools(); }
};

[[maybe_unused]] ::testing::Environment *const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new BuildTreeTools);

} // namespace
