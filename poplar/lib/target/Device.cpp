// Devices and the device manager: IPU models, and simulated full-size IPUs that attach.
#include "target/DeviceImpl.hpp"
#include "target/TargetDesc.hpp"

#include <poplar/Device.hpp>
#include <poplar/DeviceManager.hpp>
#include <poplar/exceptions.hpp>

#include <mutex>
#include <set>

namespace poplar {

using detail::DeviceImpl;

namespace {
// Simulated hardware is a process-wide resource: two Device objects sharing an IPU (the same
// id, or a multi-IPU group and one of its members) cannot both be attached, as with real IPUs.
std::mutex attachMutex;
std::set<unsigned> attachedIPUs;

// The manager offers this many single IPUs, then the groups of 2, 4, 8 and 16 built from them,
// numbered after the singles as Poplar numbers multi-IPU devices.
constexpr unsigned kNumSimulatedIPUs = 16;

std::vector<unsigned> groupSizes() { return {1, 2, 4, 8, 16}; }
} // namespace

Device::Device() = default;
Device::Device(std::unique_ptr<DeviceImpl> impl) : impl_(std::move(impl)) {}
Device::Device(Device &&) noexcept = default;
Device &Device::operator=(Device &&other) noexcept {
  if (this != &other) {
    if (impl_)
      detach();
    impl_ = std::move(other.impl_);
  }
  return *this;
}
Device::~Device() {
  if (impl_)
    detach();
}

Device Device::createCPUDevice(unsigned numIPUs) {
  auto impl = std::make_unique<DeviceImpl>();
  impl->target = Target::createCPUTarget(false, numIPUs);
  impl->attached = true;
  return Device(std::move(impl));
}

static const DeviceImpl &checked(const std::unique_ptr<DeviceImpl> &impl, const char *api) {
  if (!impl)
    throw poplar_error(std::string("Device::") + api +
                       ": the device is empty (default-constructed or moved from)");
  return *impl;
}

unsigned Device::getId() const { return checked(impl_, "getId").id; }
const Target &Device::getTarget() const { return checked(impl_, "getTarget").target; }

bool Device::attach() const {
  auto &d = checked(impl_, "attach");
  if (d.attached)
    return true;
  if (d.isHardware) {
    std::lock_guard<std::mutex> lock(attachMutex);
    unsigned n = d.target.getNumIPUs();
    for (unsigned i = d.firstIPU; i < d.firstIPU + n; ++i)
      if (attachedIPUs.count(i))
        return false;
    for (unsigned i = d.firstIPU; i < d.firstIPU + n; ++i)
      attachedIPUs.insert(i);
  }
  d.attached = true;
  return true;
}

void Device::detach() const {
  if (!impl_ || !impl_->attached)
    return;
  if (impl_->isHardware) {
    std::lock_guard<std::mutex> lock(attachMutex);
    unsigned n = impl_->target.getNumIPUs();
    for (unsigned i = impl_->firstIPU; i < impl_->firstIPU + n; ++i)
      attachedIPUs.erase(i);
  }
  impl_->attached = false;
}

bool Device::isAttached() const { return impl_ && impl_->attached; }

DeviceManager::DeviceManager() = default;
DeviceManager DeviceManager::createDeviceManager() { return DeviceManager(); }

static Device makeHardwareDevice(unsigned id, unsigned numIPUs, unsigned firstIPU) {
  auto impl = std::make_unique<DeviceImpl>();
  impl->target = Target::createIPUTarget(numIPUs, "ipu2");
  impl->id = id;
  impl->firstIPU = firstIPU;
  impl->isHardware = true;
  return Device(std::move(impl));
}

std::vector<Device> DeviceManager::getDevices(const OptionFlags &) const {
  std::vector<Device> devices;
  unsigned id = 0;
  for (unsigned size : groupSizes())
    for (unsigned i = 0; i < kNumSimulatedIPUs / size; ++i)
      devices.push_back(makeHardwareDevice(id++, size, i * size));
  return devices;
}

std::vector<Device> DeviceManager::getDevices(TargetType type, unsigned requiredNumIPUs,
                                              const OptionFlags &opts) const {
  std::vector<Device> result;
  if (type != TargetType::IPU)
    return result; // Poplar's manager only lists hardware; models come from IPUModel
  for (auto &d : getDevices(opts))
    if (d.getTarget().getNumIPUs() == requiredNumIPUs)
      result.push_back(std::move(d));
  return result;
}

Device DeviceManager::getDevice(unsigned deviceManagerId, const OptionFlags &opts) const {
  auto all = getDevices(opts);
  if (deviceManagerId >= all.size())
    throw poplar_error("DeviceManager::getDevice: no device with id " +
                       std::to_string(deviceManagerId) + " (ids are 0.." +
                       std::to_string(all.size() - 1) + ")");
  return std::move(all[deviceManagerId]);
}

std::size_t DeviceManager::getNumDevices() const { return getDevices().size(); }

} // namespace poplar
