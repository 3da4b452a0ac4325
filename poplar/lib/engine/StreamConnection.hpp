// What a host stream is connected to: one buffer, a circular buffer, or a callback.
#pragma once

#include <poplar/StreamCallback.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace poplar::detail {

class StreamConnection {
public:
  enum class Kind { None, Pointer, Circular, Callback };

  void connectPointer(void *p);
  void connectCircular(void *begin, void *end);
  void connectCallback(std::unique_ptr<StreamCallback> cb);
  void disconnect();
  bool connected() const { return kind_ != Kind::None; }

  /// Host -> device: fills `dst` with the next `n` bytes of the stream.
  void read(std::uint8_t *dst, std::size_t n);
  /// Device -> host: hands over `n` bytes. They are the caller's scratch copy, which a
  /// callback may change (StreamCallback::fetch takes a mutable pointer).
  void write(std::uint8_t *src, std::size_t n);

private:
  void copyCircular(std::uint8_t *device, std::size_t n, bool toDevice);

  Kind kind_ = Kind::None;
  std::uint8_t *begin_ = nullptr, *end_ = nullptr, *pos_ = nullptr;
  std::unique_ptr<StreamCallback> callback_;
  std::unique_ptr<std::uint8_t[]> prefetched_; // data prefetched for the next copy
  std::size_t prefetchedSize_ = 0;
  bool prefetchValid_ = false;
};

} // namespace poplar::detail
