// Finds devices: here, simulated full-size IPUs that attach like hardware.
#ifndef poplar_DeviceManager_hpp
#define poplar_DeviceManager_hpp

#include <poplar/Device.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/TargetType.hpp>

#include <vector>

namespace poplar {

class DeviceManager {
public:
  DeviceManager();
  static DeviceManager createDeviceManager();

  /// Every device, of every size (1, 2, 4, ... IPUs), as Poplar lists them.
  std::vector<Device> getDevices(const OptionFlags &opts = {}) const;
  /// The devices of `type` that have exactly `requiredNumIPUs` IPUs.
  std::vector<Device> getDevices(TargetType type, unsigned requiredNumIPUs,
                                 const OptionFlags &opts = {}) const;
  Device getDevice(unsigned deviceManagerId, const OptionFlags &opts = {}) const;
  std::size_t getNumDevices() const;
};

} // namespace poplar

#endif
