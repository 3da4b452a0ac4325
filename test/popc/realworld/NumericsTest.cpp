// Numerical vertices (NormStatistics.cpp, CrossEntropy.cpp, QuantizeInt8.cpp, PointwiseConv.cpp,
// ReluVectors.cpp) against host references.
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace poplar;
using namespace realworld;

namespace {

TEST(RealWorld, NormStatisticsThroughFloat2Accumulators) {
  const unsigned groups = 3, groupSize = 10;
  for (Type type : {FLOAT, HALF}) {
    Rig rig("NormStatistics.cpp");
    auto acts = randomData(groups * groupSize, -4, 4, 0.125, 2);
    auto mean = rig.tensor(FLOAT, std::vector<double>(groups));
    auto inv = rig.tensor(FLOAT, std::vector<double>(groups));
    auto v = rig.vertex("popnn::MeanInvStdDev<" + type.toString() + ">");
    rig.graph().connect(v["acts"], rig.tensor(type, acts));
    rig.graph().connect(v["mean"], mean);
    rig.graph().connect(v["invStdDev"], inv);
    rig.graph().setInitialValue(v["groupSize"], groupSize);
    rig.graph().setInitialValue(v["eps"], 1e-3f);
    ASSERT_EQ(rig.run(), "");
    auto gotMean = rig.values(mean), gotInv = rig.values(inv);
    for (unsigned g = 0; g < groups; ++g) {
      double s = 0, ss = 0;
      for (unsigned i = 0; i < groupSize; ++i) {
        s += acts[g * groupSize + i];
        ss += acts[g * groupSize + i] * acts[g * groupSize + i];
      }
      double m = s / groupSize, var = ss / groupSize - m * m;
      EXPECT_NEAR(gotMean[g], m, 1e-6) << type.toString() << " group " << g;
      EXPECT_NEAR(gotInv[g], 1 / std::sqrt(var + 1e-3), 1e-5 / std::sqrt(var + 1e-3))
          << type.toString() << " group " << g;
    }
  }
}

TEST(RealWorld, SoftmaxCrossEntropyLossAndGradient) {
  const unsigned rows = 3, rowSize = 5;
  std::vector<double> labels = {2, 0, 4};
  for (Type type : {FLOAT, HALF}) {
    Rig rig("CrossEntropy.cpp");
    auto logits = randomData(rows * rowSize, -3, 3, 0.25, 4);
    logits[2 * rowSize + 4] = -40; // p underflows in half: the loss uses the smallest normal
    auto grad = rig.tensor(type, std::vector<double>(rows * rowSize));
    auto loss = rig.tensor(FLOAT, std::vector<double>(rows));
    auto v = rig.vertex("popnn::SoftmaxCrossEntropy<" + type.toString() + ">");
    rig.graph().connect(v["logits"], rig.tensor(type, logits));
    rig.graph().connect(v["labels"], rig.tensor(UNSIGNED_INT, labels));
    rig.graph().connect(v["gradient"], grad);
    rig.graph().connect(v["loss"], loss);
    rig.graph().setInitialValue(v["rowSize"], rowSize);
    ASSERT_EQ(rig.run(), "");
    auto gotGrad = rig.values(grad), gotLoss = rig.values(loss);
    const double tiny = type == HALF ? 6.103515625e-05 : 1.1754943508222875e-38;
    for (unsigned r = 0; r < rows; ++r) {
      const double *row = &logits[r * rowSize];
      double m = *std::max_element(row, row + rowSize), total = 0;
      for (unsigned i = 0; i < rowSize; ++i)
        total += std::exp(row[i] - m);
      for (unsigned i = 0; i < rowSize; ++i) {
        double p = std::exp(row[i] - m) / total;
        double want = i == labels[r] ? p - 1 : p;
        EXPECT_NEAR(gotGrad[r * rowSize + i], want, type == HALF ? 1e-3 : 1e-6)
            << type.toString() << " row " << r << " " << i;
      }
      double p = std::exp(row[unsigned(labels[r])] - m) / total;
      EXPECT_NEAR(gotLoss[r], -std::log(std::max(p, tiny)), 1e-4) << type.toString() << " " << r;
    }
  }
}

TEST(RealWorld, QuantizeInt8RoundsHalfToEvenAndSaturates) {
  std::vector<double> in = {0, 0.5, 1.5, 2.5, -0.5, -1.5, 3.25, -3.75, 200, -300, 63.5, 127.5};
  for (Type type : {FLOAT, HALF}) {
    Rig rig("QuantizeInt8.cpp");
    std::vector<double> scaled;
    for (double x : in)
      scaled.push_back(x * 0.5); // scale 0.5: codes are x exactly, before rounding
    auto codes = rig.tensor(SIGNED_CHAR, std::vector<double>(in.size()));
    auto restored = rig.tensor(type, std::vector<double>(in.size()));
    auto v = rig.vertex("QuantizeInt8<" + type.toString() + ">");
    rig.graph().connect(v["in"], rig.tensor(type, scaled));
    rig.graph().connect(v["codes"], codes);
    rig.graph().connect(v["restored"], restored);
    rig.graph().setInitialValue(v["scale"], 0.5f);
    ASSERT_EQ(rig.run(), "");
    auto gotCodes = rig.values(codes), gotRestored = rig.values(restored);
    for (std::size_t i = 0; i < in.size(); ++i) {
      double q = std::clamp(std::nearbyint(in[i]), -128.0, 127.0);
      EXPECT_EQ(gotCodes[i], q) << type.toString() << " " << in[i];
      EXPECT_EQ(gotRestored[i], q * 0.5) << type.toString() << " " << in[i];
    }
  }
}

TEST(RealWorld, PointwiseConvolutionWithFloat2) {
  const unsigned positions = 5, inChans = 6, outChans = 3;
  auto in = randomData(positions * inChans, -2, 2, 0.125, 7);
  auto w = randomData(outChans * inChans, -2, 2, 0.125, 8);
  auto bias = randomData(outChans, -1, 1, 0.25, 9);
  Rig rig("PointwiseConv.cpp");
  auto out = rig.tensor(FLOAT, std::vector<double>(positions * outChans));
  auto v = rig.vertex("poplin::PointwiseConvFloat2");
  rig.graph().connect(v["in"], rig.tensor(FLOAT, in));
  rig.graph().connect(v["weights"], rig.tensor(FLOAT, w));
  rig.graph().connect(v["bias"], rig.tensor(FLOAT, bias));
  rig.graph().connect(v["out"], out);
  rig.graph().setInitialValue(v["inChans"], inChans);
  rig.graph().setInitialValue(v["outChans"], outChans);
  ASSERT_EQ(rig.run(), "");
  auto got = rig.values(out);
  for (unsigned p = 0; p < positions; ++p)
    for (unsigned o = 0; o < outChans; ++o) {
      double want = bias[o]; // multiples of 1/64 below 2^10: exact in any order
      for (unsigned i = 0; i < inChans; ++i)
        want += w[o * inChans + i] * in[p * inChans + i];
      EXPECT_EQ(got[p * outChans + o], want) << p << " " << o;
    }
}

TEST(RealWorld, LeakyReluOnHalf4AndFloat2) {
  for (Type type : {FLOAT, HALF})
    for (std::size_t n : {4u, 7u, 30u}) {
      Rig rig("ReluVectors.cpp");
      auto data = randomData(n, -8, 8, 0.25, unsigned(n));
      auto t = rig.tensor(type, data);
      auto v = rig.vertex(type == FLOAT ? "popnn::LeakyRelu<float,float2,2>"
                                        : "popnn::LeakyRelu<half,half4,4>");
      rig.graph().connect(v["data"], t);
      rig.graph().setInitialValue(v["alpha"], 0.25f);
      ASSERT_EQ(rig.run(), "");
      auto got = rig.values(t);
      for (std::size_t i = 0; i < n; ++i)
        EXPECT_EQ(got[i], std::max(data[i], data[i] * 0.25)) << type.toString() << " " << i;
    }
}

} // namespace
