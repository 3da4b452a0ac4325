// Which vertex types run on the native tier (executor.vertexTier) and their compiled code:
// compiled on the calling thread when first needed and shared with the other engines of the
// process that load the same code (the latest 512 entries outlive their engines).
#pragma once

#include "engine/EngineOptions.hpp"
#include "engine/VertexRunner.hpp"
#include "interp/NativeTier.hpp"

#include <atomic>
#include <cstdint>
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
    if (s.failed.load(std::memory_order_relaxed) ||
        (tier_ == VertexTier::Auto && s.issued.load(std::memory_order_relaxed) < kAutoThreshold))
      return nullptr;
    return compile(s);
  }
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
    std::atomic<std::uint64_t> issued{0};
    std::mutex mutex;
    std::shared_ptr<const interp::NativeCode> code;
  };
  const interp::NativeCode *compile(Slot &s);

  VertexTier tier_;
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<std::uint32_t> slotOf_; // by vertex type
};

} // namespace poplar::detail
