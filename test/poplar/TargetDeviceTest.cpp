// IPUModel figures, Target accessors, Device move-only semantics and DeviceManager attach rules.
#include <poplar/DeviceManager.hpp>
#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplar/Target.hpp>

#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

using namespace poplar;

namespace {

TEST(TargetDevice, Ipu2ModelFigures) {
  IPUModel model; // "ipu2" is the default
  EXPECT_EQ(model.IPUVersion, "ipu2");
  EXPECT_EQ(model.numIPUs, 1u);
  EXPECT_EQ(model.tilesPerIPU, 1472u);
  EXPECT_EQ(model.memoryBytesPerTile, 638976u);
  EXPECT_EQ(model.numWorkerContexts, 6u);
  EXPECT_EQ(model.exchangeBytesPerCycle, 4u);
  EXPECT_DOUBLE_EQ(model.tileClockFrequency, 1.33e9);

  Device device = model.createDevice();
  const Target &t = device.getTarget();
  EXPECT_EQ(t.getTargetType(), TargetType::IPU_MODEL);
  EXPECT_EQ(t.getTargetArchString(), "ipu2");
  EXPECT_EQ(t.getNumIPUs(), 1u);
  EXPECT_EQ(t.getTilesPerIPU(), 1472u);
  EXPECT_EQ(t.getNumTiles(), 1472u);
  EXPECT_EQ(t.getBytesPerTile(), 638976u);
  EXPECT_EQ(t.getNumWorkerContexts(), 6u);
  EXPECT_EQ(t.getExchangeBytesPerCycle(), 4u);
  EXPECT_DOUBLE_EQ(t.getTileClockFrequency(), 1.33e9);
  EXPECT_EQ(t.getMemoryBytes(), 1472ull * 638976ull);
}

TEST(TargetDevice, Ipu1AndIpu21ModelFigures) {
  Target ipu1 = IPUModel("ipu1").createDevice().getTarget();
  EXPECT_EQ(ipu1.getTargetArchString(), "ipu1");
  EXPECT_EQ(ipu1.getNumTiles(), 1216u);
  EXPECT_EQ(ipu1.getBytesPerTile(), 262144u);
  EXPECT_EQ(ipu1.getNumWorkerContexts(), 6u);
  EXPECT_DOUBLE_EQ(ipu1.getTileClockFrequency(), 1.6e9);

  Target ipu21 = IPUModel("ipu21").createDevice().getTarget();
  EXPECT_EQ(ipu21.getTargetArchString(), "ipu21");
  EXPECT_EQ(ipu21.getNumTiles(), 1472u);
  EXPECT_EQ(ipu21.getBytesPerTile(), 638976u);
}

TEST(TargetDevice, TypeSizesAndVectorWidths) {
  Target t = IPUModel().createTarget();
  EXPECT_EQ(t.getTypeSize(FLOAT), 4u);
  EXPECT_EQ(t.getTypeSize(HALF), 2u);
  EXPECT_EQ(t.getTypeSize(INT), 4u);
  EXPECT_EQ(t.getTypeSize(CHAR), 1u);
  EXPECT_EQ(t.getTypeSize(LONGLONG), 8u);
  // One 64-bit vector instruction: 2 floats or 4 halves.
  EXPECT_EQ(t.getVectorWidth(FLOAT), 2u);
  EXPECT_EQ(t.getVectorWidth(HALF), 4u);
  EXPECT_EQ(t.getFloatVectorWidth(), 2u);
  EXPECT_EQ(t.getHalfVectorWidth(), 4u);
}

TEST(TargetDevice, ModifiedModelFieldsReachTheTarget) {
  IPUModel model("ipu2");
  model.numIPUs = 2;
  model.tilesPerIPU = 4;
  model.memoryBytesPerTile = 1000;
  model.numWorkerContexts = 3;
  model.exchangeBytesPerCycle = 8;
  model.tileClockFrequency = 1.0e9;
  model.globalSyncCycles = 123;
  Device device = model.createDevice();
  const Target &t = device.getTarget();
  EXPECT_EQ(t.getNumIPUs(), 2u);
  EXPECT_EQ(t.getTilesPerIPU(), 4u);
  EXPECT_EQ(t.getNumTiles(), 8u);
  EXPECT_EQ(t.getBytesPerTile(), 1000u);
  EXPECT_EQ(t.getNumWorkerContexts(), 3u);
  EXPECT_EQ(t.getExchangeBytesPerCycle(), 8u);
  EXPECT_DOUBLE_EQ(t.getTileClockFrequency(), 1.0e9);
  EXPECT_EQ(t.getGlobalSyncCycles(), 123u);
  // A Graph built from the device sees the same figures.
  Graph graph(device);
  EXPECT_EQ(graph.getTarget().getNumTiles(), 8u);
  // Changing the model afterwards does not change a device already created.
  model.tilesPerIPU = 16;
  EXPECT_EQ(device.getTarget().getTilesPerIPU(), 4u);
}

TEST(TargetDevice, UnknownVersionThrowsInvalidMachineModel) {
  try {
    IPUModel model("ipu7");
    FAIL() << "IPUModel(\"ipu7\") did not throw";
  } catch (const invalid_machine_model &e) {
    EXPECT_NE(std::string(e.what()).find("ipu7"), std::string::npos) << e.what();
  }
  EXPECT_THROW(Target::createIPUTarget(1, "mk9"), invalid_machine_model);
}

TEST(TargetDevice, BadModelFieldsThrowAtCreateDevice) {
  IPUModel model;
  model.tilesPerIPU = 0;
  try {
    model.createDevice();
    FAIL() << "tilesPerIPU = 0 was accepted";
  } catch (const invalid_machine_model &e) {
    EXPECT_NE(std::string(e.what()).find("tilesPerIPU"), std::string::npos) << e.what();
  }
}

TEST(TargetDevice, CreateIPUTarget) {
  Target t = Target::createIPUTarget(2, "ipu2");
  EXPECT_EQ(t.getTargetType(), TargetType::IPU);
  EXPECT_EQ(t.getNumIPUs(), 2u);
  EXPECT_EQ(t.getNumTiles(), 2944u);
  Target small = Target::createIPUTarget(1, 8, "ipu1");
  EXPECT_EQ(small.getNumTiles(), 8u);
  EXPECT_EQ(small.getBytesPerTile(), 262144u);
}

TEST(TargetDevice, DeviceIsMoveOnly) {
  static_assert(!std::is_copy_constructible<Device>::value, "Device must not be copyable");
  static_assert(!std::is_copy_assignable<Device>::value, "Device must not be copy-assignable");
  static_assert(std::is_nothrow_move_constructible<Device>::value, "Device must move");
  static_assert(std::is_nothrow_move_assignable<Device>::value, "Device must move-assign");

  IPUModel model;
  model.tilesPerIPU = 4;
  Device a = model.createDevice();
  Device b = std::move(a);
  EXPECT_EQ(b.getTarget().getNumTiles(), 4u);
  EXPECT_TRUE(b.isAttached());
  EXPECT_FALSE(a.isAttached()); // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_THROW(a.getTarget(), poplar_error);

  Device c; // default-constructed, as tut6 declares it before choosing
  EXPECT_FALSE(c.isAttached());
  c = std::move(b);
  EXPECT_EQ(c.getTarget().getNumTiles(), 4u);
}

TEST(TargetDevice, ModelDevicesAreAttached) {
  Device d = IPUModel().createDevice();
  EXPECT_TRUE(d.isAttached());
  EXPECT_TRUE(d.attach());
}

TEST(TargetDevice, ManagerOffersAttachableSingleIpus) {
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(TargetType::IPU, 1);
  ASSERT_FALSE(devices.empty());
  for (const auto &d : devices) {
    EXPECT_EQ(d.getTarget().getTargetType(), TargetType::IPU);
    EXPECT_EQ(d.getTarget().getNumIPUs(), 1u);
    EXPECT_EQ(d.getTarget().getNumTiles(), 1472u);
  }
  EXPECT_FALSE(devices[0].isAttached());
  ASSERT_TRUE(devices[0].attach());
  EXPECT_TRUE(devices[0].isAttached());
  devices[0].detach();
  EXPECT_FALSE(devices[0].isAttached());
  // IPU models are not listed by the manager.
  EXPECT_TRUE(manager.getDevices(TargetType::IPU_MODEL, 1).empty());
}

TEST(TargetDevice, SecondAttachOfTheSameIdFailsUntilDetach) {
  auto manager = DeviceManager::createDeviceManager();
  auto first = manager.getDevices(TargetType::IPU, 1);
  auto second = manager.getDevices(TargetType::IPU, 1);
  ASSERT_FALSE(first.empty());
  ASSERT_EQ(first.size(), second.size());
  ASSERT_EQ(first[0].getId(), second[0].getId());
  ASSERT_TRUE(first[0].attach());
  EXPECT_FALSE(second[0].attach());
  EXPECT_FALSE(second[0].isAttached());
  // A different id is free.
  EXPECT_TRUE(second[1].attach());
  second[1].detach();
  first[0].detach();
  EXPECT_TRUE(second[0].attach());
  second[0].detach();
}

TEST(TargetDevice, DestroyingAnAttachedDeviceReleasesIt) {
  auto manager = DeviceManager::createDeviceManager();
  unsigned id;
  {
    auto devices = manager.getDevices(TargetType::IPU, 1);
    ASSERT_TRUE(devices[0].attach());
    id = devices[0].getId();
    Device moved = std::move(devices[0]); // the attachment moves with the device
    EXPECT_TRUE(moved.isAttached());
    Device again = manager.getDevice(id);
    EXPECT_FALSE(again.attach());
  }
  Device later = manager.getDevice(id);
  EXPECT_TRUE(later.attach());
}

TEST(TargetDevice, ManagerOffersTwoIpuDevices) {
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(TargetType::IPU, 2);
  ASSERT_FALSE(devices.empty());
  for (const auto &d : devices) {
    EXPECT_EQ(d.getTarget().getNumIPUs(), 2u);
    EXPECT_EQ(d.getTarget().getNumTiles(), 2 * 1472u);
  }
  // Ids are distinct from the single-IPU devices.
  auto singles = manager.getDevices(TargetType::IPU, 1);
  for (const auto &d : devices)
    for (const auto &s : singles)
      EXPECT_NE(d.getId(), s.getId());
  EXPECT_TRUE(devices[0].attach());
}

TEST(TargetDevice, Regression_MultiIpuDeviceSharesItsIpus) {
  // A 2-IPU device and a single IPU it contains could both be attached at once.
  auto manager = DeviceManager::createDeviceManager();
  auto singles = manager.getDevices(TargetType::IPU, 1);
  auto pairs = manager.getDevices(TargetType::IPU, 2);
  ASSERT_GE(singles.size(), 4u);
  ASSERT_GE(pairs.size(), 2u);
  ASSERT_TRUE(singles[0].attach());
  EXPECT_FALSE(pairs[0].attach()); // IPUs 0 and 1: IPU 0 is taken
  EXPECT_TRUE(pairs[1].attach());  // IPUs 2 and 3 are free
  EXPECT_FALSE(singles[3].attach());
  EXPECT_TRUE(singles[1].attach());
  singles[0].detach();
  singles[1].detach();
  EXPECT_TRUE(pairs[0].attach());
  pairs[0].detach();
  pairs[1].detach();
  EXPECT_TRUE(singles[3].attach());
  singles[3].detach();
}

TEST(TargetDevice, EngineRunsOnAttachedManagerDevice) {
  auto manager = DeviceManager::createDeviceManager();
  auto devices = manager.getDevices(TargetType::IPU, 1);
  Device *chosen = nullptr;
  for (auto &d : devices)
    if (d.attach()) {
      chosen = &d;
      break;
    }
  ASSERT_NE(chosen, nullptr);
  Graph graph(chosen->getTarget());
  Tensor v = graph.addVariable(INT, {2}, "v");
  graph.setTileMapping(v[0], 0);
  graph.setTileMapping(v[1], 1471);
  graph.createHostRead("v-read", v);
  Tensor c = graph.addConstant<int>(INT, {2}, {7, 8});
  graph.setTileMapping(c, 5);
  Engine engine(graph, program::Copy(c, v));
  engine.load(*chosen);
  engine.run(0);
  std::vector<int> out(2);
  engine.readTensor("v-read", out.data(), out.data() + out.size());
  EXPECT_EQ(out, (std::vector<int>{7, 8}));
}

} // namespace
