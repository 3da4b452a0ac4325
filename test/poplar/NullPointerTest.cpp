// Every API that takes a host pointer refuses a null one with an error naming the API and the
// argument (Engine::readTensor(handle, nullptr) once passed it to memcpy), and accepts null where
// there is nothing to copy (an empty std::vector's data()).
#include "ExpectThrows.hpp"

#include <poplar/Engine.hpp>
#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <vector>

using namespace poplar;
using namespace poplar::program;
using popsdk::test::expectThrowsWith;

namespace {

/// A 4-float tensor readable (handle "x") and writable ("x-in") from the host, an empty one
/// ("empty", "empty-in"), and a stream "in" copied into x.
struct NullPointerTest : ::testing::Test {
  Device device = [] {
    IPUModel model;
    model.tilesPerIPU = 4;
    return model.createDevice();
  }();
  Graph graph{device.getTarget()};
  std::unique_ptr<Engine> engine;

  void SetUp() override {
    Tensor x = graph.addVariable(FLOAT, {4}, "x");
    Tensor empty = graph.addVariable(FLOAT, {0}, "empty");
    graph.setTileMapping(x, 0);
    graph.setTileMapping(empty, 0);
    graph.createHostRead("x", x);
    graph.createHostWrite("x-in", x);
    graph.createHostRead("empty", empty);
    graph.createHostWrite("empty-in", empty);
    DataStream in = graph.addHostToDeviceFIFO("in", FLOAT, 4);
    engine = std::make_unique<Engine>(graph, Sequence{Copy(in, x)});
    engine->load(device);
  }
};

} // namespace

TEST_F(NullPointerTest, Regression_ReadAndWriteTensor) {
  expectThrowsWith<poplar_error>([&] { engine->readTensor("x", nullptr); },
                                 {"Engine::readTensor", "buf is null", "tensor 'x'", "16 bytes"});
  expectThrowsWith<poplar_error>([&] { engine->writeTensor("x-in", nullptr); },
                                 {"Engine::writeTensor", "buf is null", "tensor 'x-in'"});
  float host[4] = {};
  expectThrowsWith<poplar_error>([&] { engine->readTensor("x", host, nullptr); },
                                 {"Engine::readTensor", "bufEnd is null", "'x'"});
  expectThrowsWith<poplar_error>([&] { engine->writeTensor("x-in", host, nullptr); },
                                 {"Engine::writeTensor", "bufEnd is null", "'x-in'"});
  expectThrowsWith<poplar_error>([&] { engine->readTensor("x", nullptr, nullptr); },
                                 {"Engine::readTensor", "buf is null"});
  // Nothing to copy: null is fine.
  std::vector<float> none;
  EXPECT_NO_THROW(engine->readTensor("empty", none.data()));
  EXPECT_NO_THROW(engine->writeTensor("empty-in", none.data(), none.data()));
  // And the real buffer still works.
  float values[4] = {1, 2, 3, 4};
  engine->writeTensor("x-in", values, values + 4);
  engine->readTensor("x", host, host + 4);
  EXPECT_EQ(host[3], 4.0f);
}

TEST_F(NullPointerTest, ConnectStream) {
  float buffer[8] = {};
  expectThrowsWith<stream_connection_error>([&] { engine->connectStream("in", nullptr); },
                                            {"Engine::connectStream", "p is null", "'in'"});
  expectThrowsWith<stream_connection_error>(
      [&] { engine->connectStream("in", nullptr, buffer + 4); },
      {"Engine::connectStream", "begin is null", "'in'"});
  expectThrowsWith<stream_connection_error>([&] { engine->connectStream("in", buffer, nullptr); },
                                            {"Engine::connectStream", "end is null", "'in'"});
  expectThrowsWith<stream_connection_error>(
      [&] { engine->connectStream("in", buffer + 4, buffer); },
      {"Engine::connectStream", "empty buffer", "end is not after begin"});
}

TEST_F(NullPointerTest, Regression_ConnectStreamToAnEmptyCallback) {
  expectThrowsWith<stream_connection_error>(
      [&] { engine->connectStreamToCallback("in", StreamCallbackHandle()); },
      {"Engine::connectStreamToCallback", "f is an empty function", "'in'"});
  expectThrowsWith<stream_connection_error>(
      [&] { engine->connectStreamToCallback("in", 0, StreamCallbackHandle()); },
      {"Engine::connectStreamToCallback", "f is an empty function"});
  expectThrowsWith<stream_connection_error>(
      [&] { engine->connectStreamToCallback("in", std::unique_ptr<StreamCallback>()); },
      {"Engine::connectStreamToCallback", "f is null"});
}

TEST(NullPointer, Regression_ConstantValues) {
  Graph graph(Target::createIPUTarget(1, 4, "ipu2"));
  const float *none = nullptr;
  expectThrowsWith<tensor_creation_error>([&] { graph.addConstant(FLOAT, {4}, none); },
                                          {"Graph::addConstant", "values is null", "{4}"});
  const std::uint16_t *noHalves = nullptr;
  expectThrowsWith<tensor_creation_error>(
      [&] {
        graph.addConstantHalf(HALF, {2, 2}, noHalves);
      },
      {"Graph::addConstantHalf", "values is null", "{2,2}"});
  EXPECT_NO_THROW(graph.addConstant(FLOAT, {0}, none));
}

TEST(NullPointer, Regression_HalfConversions) {
  Target target = Target::createIPUTarget(1, 4, "ipu2");
  float f[2] = {1, 2};
  double d[2] = {1, 2};
  std::uint16_t h[2] = {};
  expectThrowsWith<poplar_error>([&] { copyFloatToDeviceHalf(target, nullptr, h, 2); },
                                 {"copyFloatToDeviceHalf", "src is null"});
  expectThrowsWith<poplar_error>([&] { copyFloatToDeviceHalf(target, f, nullptr, 2); },
                                 {"copyFloatToDeviceHalf", "dst is null"});
  expectThrowsWith<poplar_error>([&] { copyDeviceHalfToFloat(target, nullptr, f, 2); },
                                 {"copyDeviceHalfToFloat", "src is null"});
  expectThrowsWith<poplar_error>([&] { copyDoubleToDeviceHalf(target, d, nullptr, 2); },
                                 {"copyDoubleToDeviceHalf", "dst is null"});
  expectThrowsWith<poplar_error>([&] { copyDeviceHalfToDouble(target, h, nullptr, 2); },
                                 {"copyDeviceHalfToDouble", "dst is null"});
  EXPECT_NO_THROW(copyFloatToDeviceHalf(target, nullptr, nullptr, 0));
}
