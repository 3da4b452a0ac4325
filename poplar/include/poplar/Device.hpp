// A device (IPU model or simulated IPU) that an Engine loads and runs on; move-only.
#ifndef poplar_Device_hpp
#define poplar_Device_hpp

#include <poplar/OptionFlags.hpp>
#include <poplar/Target.hpp>

#include <memory>

namespace poplar {

namespace detail {
struct DeviceImpl;
}

class Device {
public:
  Device();
  Device(Device &&) noexcept;
  Device &operator=(Device &&) noexcept;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device();

  /// A device that runs on the host with the CPU target's figures.
  static Device createCPUDevice(unsigned numIPUs = 1);

  unsigned getId() const;
  const Target &getTarget() const;
  /// Takes the device for this process; false if another Device holds it.
  bool attach() const;
  void detach() const;
  bool isAttached() const;
  bool supportsRemoteBuffers() const { return false; }

  /// Internal.
  explicit Device(std::unique_ptr<detail::DeviceImpl> impl);
  const detail::DeviceImpl *getImpl() const { return impl_.get(); }

private:
  std::unique_ptr<detail::DeviceImpl> impl_;
};

} // namespace poplar

#endif
