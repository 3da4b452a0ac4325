// Callbacks that feed or drain a host stream instead of a connected buffer.
#ifndef poplar_StreamCallback_hpp
#define poplar_StreamCallback_hpp

#include <functional>
#include <memory>

namespace poplar {

class StreamCallback {
public:
  enum class Result { Success, NotAvailable };
  virtual ~StreamCallback() {}
  /// Fills `p` ahead of the copy that will need it, if the data is ready.
  virtual Result prefetch(void *p) = 0;
  /// Fills `p` now: the copy needs it.
  virtual void fetch(void *p) = 0;
  /// The data of the last fetch or prefetch has been consumed.
  virtual void complete() {}
  /// Data prefetched but not consumed is dropped (the stream is being reconnected).
  virtual void invalidatePrefetched() {}
};

/// A callback with only fetch(); prefetch() says NotAvailable.
class LegacyStreamCallback : public StreamCallback {
public:
  Result prefetch(void *) override { return Result::NotAvailable; }
  void complete() override {}
};

typedef std::function<void(void *)> StreamCallbackHandle;

} // namespace poplar

#endif
