// Which vertex types run on the native tier (executor.vertexTier) and their compiled code:
// compiled when first needed (`native`, on the calling thread) or once hot (`auto`, on a thread
// of its own, the type interpreted meanwhile), and shared with the other engines of the
// process that load the same code (the latest 512 entries outlive their engines).
#pragma once

#include "engine/EngineOptions.hpp"
#include "engine/VertexRunner.hpp"
#include "interp/NativeTier.hpp"

#include <atomic>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <vector>

namespace poplar::detail {

class NativeVertexCode {
public:
  /// Instructions a vertex type issues on the interpreter before `auto` compiles it: about
  /// 20 ms of interpretation, the order of one compilation.
  static constexpr std::uint64_t kAutoThreshold = 10'000'000;

  /// For `native`, loads the library now: a missing library is an invalid_option.
  NativeVertexCode(const CompiledGraph &cg, const std::vector<LoadedCodelet> &codelets,
                   VertexTier tier);

  /// The code to run vertex type `type` with, or null to interpret it. Thread-safe.
  const interp::NativeCode *forType(std::uint32_t type) {
    if (tier_ == VertexTier::Interpreter)
      return nullptr;
    Slot &s = *slots_[slotOf_[type]];
    if (const interp::NativeCode *code = s.ready.load(std::memory_order_acquire))
      return code;
    if (s.failed.load(std::memory_order_relaxed))
      return nullptr;
    if (tier_ == VertexTier::Auto) {
      // A plain load first: every tile's run of the type asks until its code is ready.
      if (!s.queued.load(std::memory_order_relaxed) &&
          s.issued.load(std::memory_order_relaxed) >= kAutoThreshold)
        compileInBackground(s);
      return nullptr;
    }
    return compile(s);
  }
  /// Waits for the compilations `auto` started (for tests; the destructor waits too).
  void waitForBackgroundCompiles();
  ~NativeVertexCode() { waitForBackgroundCompiles(); }
  /// Forgets the code compiled by the process's engines, so that the next use compiles again
  /// (for tests of when each tier compiles).
  static void forgetSharedCode();
  /// Counts what an interpreted run of `type` issued (`auto` compiles hot types).
  void interpreted(std::uint32_t type, std::uint64_t instructions) {
    if (tier_ == VertexTier::Auto)
      slots_[slotOf_[type]]->issued.fetch_add(instructions, std::memory_order_relaxed);
  }

private:
  /// One entry point of one codelet (vertex types that share it share the slot).
  struct Slot {
    const LoadedCodelet *codelet = nullptr;
    std::uint32_t entry = 0;
    std::string typeName; // the first vertex type using it, for messages
    std::atomic<const interp::NativeCode *> ready{nullptr};
    std::atomic<bool> failed{false};
    std::atomic<bool> queued{false}; // `auto` has started its compilation
    std::atomic<std::uint64_t> issued{0};
    std::mutex mutex;
    std::shared_ptr<const interp::NativeCode> code;
  };
  const interp::NativeCode *compile(Slot &s);
  /// Starts compiling `s` on a thread of its own, once: a hot type goes on being interpreted
  /// until its code is ready, rather than stall the step (and the pool) for the compilation.
  void compileInBackground(Slot &s);

  VertexTier tier_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::uint32_t> slotOf_; // by vertex type
  std::mutex backgroundMutex_;
  std::vector<std::future<void>> background_; // the compilations started, waited for at the end
};

} // namespace poplar::detail
