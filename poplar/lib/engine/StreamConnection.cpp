// Host stream connections. Callbacks follow Poplar's protocol: use prefetched data if there is
// some, else fetch; complete() once consumed; then try to prefetch the next block.
#include "engine/StreamConnection.hpp"

#include <algorithm>
#include <cstring>

namespace poplar::detail {

void StreamConnection::connectPointer(void *p) {
  disconnect();
  kind_ = Kind::Pointer;
  begin_ = pos_ = static_cast<std::uint8_t *>(p);
}

void StreamConnection::connectCircular(void *begin, void *end) {
  disconnect();
  kind_ = Kind::Circular;
  begin_ = pos_ = static_cast<std::uint8_t *>(begin);
  end_ = static_cast<std::uint8_t *>(end);
}

void StreamConnection::connectCallback(std::unique_ptr<StreamCallback> cb) {
  disconnect();
  kind_ = Kind::Callback;
  callback_ = std::move(cb);
}

void StreamConnection::disconnect() {
  if (callback_ && prefetchValid_)
    callback_->invalidatePrefetched();
  callback_.reset();
  prefetchValid_ = false;
  kind_ = Kind::None;
  begin_ = end_ = pos_ = nullptr;
}

void StreamConnection::copyCircular(std::uint8_t *device, std::size_t n, bool toDevice) {
  while (n > 0) {
    if (pos_ >= end_)
      pos_ = begin_;
    std::size_t chunk = std::min<std::size_t>(n, std::size_t(end_ - pos_));
    if (toDevice)
      std::memcpy(device, pos_, chunk);
    else
      std::memcpy(pos_, device, chunk);
    device += chunk;
    pos_ += chunk;
    n -= chunk;
  }
  if (pos_ >= end_)
    pos_ = begin_;
}

void StreamConnection::read(std::uint8_t *dst, std::size_t n) {
  switch (kind_) {
  case Kind::None:
    return;
  case Kind::Pointer:
    std::memcpy(dst, begin_, n);
    return;
  case Kind::Circular:
    copyCircular(dst, n, true);
    return;
  case Kind::Callback:
    if (prefetchValid_ && prefetchedSize_ == n) {
      std::memcpy(dst, prefetched_.get(), n);
    } else {
      callback_->fetch(dst);
    }
    prefetchValid_ = false;
    callback_->complete();
    if (prefetchedSize_ != n) {
      prefetched_.reset(new std::uint8_t[n]);
      prefetchedSize_ = n;
    }
    prefetchValid_ = callback_->prefetch(prefetched_.get()) == StreamCallback::Result::Success;
    return;
  }
}

void StreamConnection::write(std::uint8_t *src, std::size_t n) {
  switch (kind_) {
  case Kind::None:
    return;
  case Kind::Pointer:
    std::memcpy(begin_, src, n);
    return;
  case Kind::Circular:
    copyCircular(src, n, false);
    return;
  case Kind::Callback:
    // Device-to-host callbacks receive the data in fetch(), as Poplar's do.
    callback_->fetch(src);
    callback_->complete();
    return;
  }
}

} // namespace poplar::detail
