// A codelet written against the SDK's device headers (SdkHeaders.cpp) runs as PopLibs' would.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, SdkHeadersMultiVertexWithWorkerIdCsr) {
  for (Type type : {FLOAT, HALF}) {
    Rig rig("SdkHeaders.cpp");
    auto data = randomData(50, -6, 6, 0.25, 9);
    auto in = rig.tensor(type, data);
    auto out = rig.tensor(type, std::vector<double>(data.size()));
    auto v = rig.vertex("Sigmoid<" + type.toString() + ">");
    rig.graph().connect(v["in"], in);
    rig.graph().connect(v["out"], out);
    rig.graph().setInitialValue(v["scale"], 2.0f);
    ASSERT_EQ(rig.run(), "");
    auto got = rig.values(out);
    for (std::size_t i = 0; i < data.size(); ++i) {
      double want = 2 / (1 + std::exp(-data[i]));
      EXPECT_NEAR(got[i], want, type == HALF ? 2.0 / 1024 : 1e-6) << type.toString() << " " << i;
    }
  }
}

TEST(RealWorld, SdkHeadersVectorListAndSupervisorVertexIf) {
  for (const char *name :
       {"ListSums<float,false>", "ListSums<half,false>", "ListSums<float,true>"}) {
    Type type = std::string(name).find("half") != std::string::npos ? HALF : FLOAT;
    Rig rig("SdkHeaders.cpp");
    std::vector<std::vector<double>> lists = {
        randomData(4, -8, 8, 0.5, 1), {}, randomData(11, -8, 8, 0.5, 2)};
    auto v = rig.vertex(name);
    rig.graph().setFieldSize(v["lists"], lists.size());
    for (std::size_t l = 0; l < lists.size(); ++l)
      rig.graph().connect(v["lists"][l], rig.tensor(type, lists[l]));
    auto sums = rig.tensor(type, std::vector<double>(lists.size()));
    rig.graph().connect(v["sums"], sums);
    ASSERT_EQ(rig.run(), "") << name;
    auto got = rig.values(sums);
    for (std::size_t l = 0; l < lists.size(); ++l) {
      double want = 0;
      for (double x : lists[l])
        want += x;
      EXPECT_EQ(got[l], want) << name << " list " << l;
    }
  }
}

} // namespace
