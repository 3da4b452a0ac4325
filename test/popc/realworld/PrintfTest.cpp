// printf from a codelet reaches the host's standard output with its conversions applied.
#include "Rig.hpp"

#include <gtest/gtest.h>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, PrintfFromAVertex) {
  Rig rig("Printf.cpp");
  auto in = rig.tensor(FLOAT, {1.5, 2.25, -0.5});
  auto total = rig.scalar(FLOAT, 0);
  auto v = rig.vertex("PrintStats");
  rig.graph().connect(v["in"], in);
  rig.graph().connect(v["h"], rig.scalar(HALF, 0.333));
  rig.graph().connect(v["total"], total);
  testing::internal::CaptureStdout();
  std::string error = rig.run();
  std::string out = testing::internal::GetCapturedStdout();
  ASSERT_EQ(error, "");
  EXPECT_EQ(rig.values(total)[0], 3.25);
  EXPECT_NE(out.find("PrintStats: 3 elements, sum 3.250, first 1.5, half 0.33, ok!\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("  -42|ff  |%|00003.25\ndone\n"), std::string::npos) << out;
}

} // namespace
