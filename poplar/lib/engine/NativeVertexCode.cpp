// The Engine's native tier: one compiled entry per (codelet, entry pc), made on demand or found
// compiled by another engine; a compilation that fails leaves that vertex type to the
// interpreter, which gives the same results.
#include "engine/NativeVertexCode.hpp"

#include "core/Errors.hpp"
#include "core/Logging.hpp"

#include <map>
#include <utility>

namespace poplar::detail {

namespace {

/// The compiled entries of the process's engines, by code and entry pc: engines of one program
/// (a PopXL training and inference session, a test's, a benchmark's repetitions) load the same
/// codelets at the same addresses, and a compilation costs tens of milliseconds. The latest
/// kMaxEntries stay compiled after their engines are gone.
class SharedNativeCode {
public:
  static constexpr std::size_t kMaxEntries = 512;

  /// The compiled entries of `codelet`'s code, by entry pc. The hash finds them; the words,
  /// compared in full once per copy of them held here, make them the same code.
  std::map<std::uint32_t, std::shared_ptr<const interp::NativeCode>>
  compiledEntries(const LoadedCodelet &codelet) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::map<std::uint32_t, std::shared_ptr<const interp::NativeCode>> found;
    const std::vector<std::uint64_t> *same = nullptr;
    for (auto it = entries_.lower_bound({codelet.wordsHash, 0});
         it != entries_.end() && it->first.first == codelet.wordsHash; ++it) {
      Entry &e = it->second;
      if (e.words.get() != same && *e.words != codelet.words)
        continue;
      same = e.words.get();
      e.lastUse = ++uses_;
      found.emplace(it->first.second, e.code);
    }
    return found;
  }

  void add(const LoadedCodelet &codelet, std::uint32_t entry,
           std::shared_ptr<const interp::NativeCode> code) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (entries_.size() >= kMaxEntries) {
      auto oldest = entries_.begin();
      for (auto it = entries_.begin(); it != entries_.end(); ++it)
        if (it->second.lastUse < oldest->second.lastUse)
          oldest = it;
      entries_.erase(oldest);
    }
    // One copy of a codelet's words for all its entries.
    std::shared_ptr<const std::vector<std::uint64_t>> words;
    for (const auto &[key, e] : entries_)
      if (key.first == codelet.wordsHash && *e.words == codelet.words) {
        words = e.words;
        break;
      }
    if (!words)
      words = std::make_shared<const std::vector<std::uint64_t>>(codelet.words);
    entries_[{codelet.wordsHash, entry}] = {std::move(words), std::move(code), ++uses_};
  }

  void clear() {
    std::lock_guard<std::mutex> lock(mutex_);
    entries_.clear();
  }

private:
  struct Entry {
    std::shared_ptr<const std::vector<std::uint64_t>> words;
    std::shared_ptr<const interp::NativeCode> code;
    std::uint64_t lastUse = 0;
  };
  std::mutex mutex_;
  std::map<std::pair<std::uint64_t, std::uint32_t>, Entry> entries_;
  std::uint64_t uses_ = 0;
};

SharedNativeCode &sharedNativeCode() {
  static auto *shared = new SharedNativeCode; // never destroyed: engines may outlive statics
  return *shared;
}

} // namespace

NativeVertexCode::NativeVertexCode(const CompiledGraph &cg,
                                   const std::vector<LoadedCodelet> &codelets, VertexTier tier)
    : tier_(tier) {
  if (tier == VertexTier::Interpreter)
    return;
  std::string why;
  if (!interp::nativeTierAvailable(&why)) {
    if (tier == VertexTier::Native)
      raise<invalid_option>("Engine: executor.vertexTier 'native' needs the native tier: ", why);
    logger().debug("Engine: vertex code is interpreted: {}", why);
    tier_ = VertexTier::Interpreter;
    return;
  }
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint32_t> seen;
  // What other engines compiled of each codelet, looked up once per codelet.
  std::map<std::uint32_t, std::map<std::uint32_t, std::shared_ptr<const interp::NativeCode>>>
      compiled;
  for (const auto &type : cg.vertexTypes) {
    auto [it, added] = seen.emplace(std::pair{type.codelet, type.entry}, slots_.size());
    if (added) {
      slots_.push_back(std::make_unique<Slot>());
      Slot &slot = *slots_.back();
      slot.codelet = &codelets[type.codelet];
      slot.entry = type.entry;
      slot.typeName = type.name;
      // Compiled by another engine: native at once, under `auto` too.
      auto codes = compiled.find(type.codelet);
      if (codes == compiled.end())
        codes =
            compiled.emplace(type.codelet, sharedNativeCode().compiledEntries(*slot.codelet)).first;
      if (auto code = codes->second.find(type.entry); code != codes->second.end()) {
        slot.code = code->second;
        slot.ready.store(slot.code.get(), std::memory_order_release);
      }
    }
    slotOf_.push_back(it->second);
  }
}

void NativeVertexCode::forgetSharedCode() { sharedNativeCode().clear(); }

void NativeVertexCode::compileInBackground(Slot &s) {
  if (s.queued.exchange(true, std::memory_order_relaxed))
    return;
  std::lock_guard<std::mutex> lock(backgroundMutex_);
  background_.push_back(std::async(std::launch::async, [this, &s] { compile(s); }));
}

void NativeVertexCode::waitForBackgroundCompiles() {
  std::lock_guard<std::mutex> lock(backgroundMutex_);
  for (auto &compilation : background_)
    compilation.wait();
}

const interp::NativeCode *NativeVertexCode::compile(Slot &s) {
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.code || s.failed)
    return s.code.get();
  const auto compiledElsewhere = sharedNativeCode().compiledEntries(*s.codelet);
  if (auto code = compiledElsewhere.find(s.entry); code != compiledElsewhere.end()) {
    s.code = code->second; // compiled meanwhile by another engine
    s.ready.store(s.code.get(), std::memory_order_release);
    return s.code.get();
  }
  std::string error;
  s.code = interp::compileNative(s.codelet->code, s.entry, error, {}, s.typeName);
  if (!s.code) {
    logger().warn("Engine: vertex '{}' stays on the interpreter: {}", s.typeName, error);
    s.failed = true;
    return nullptr;
  }
  logger().debug("Engine: vertex '{}' compiled to host code in {:.1f} ms ({} instructions, {} "
                 "left to the interpreter)",
                 s.typeName, s.code->compileSeconds() * 1e3, s.code->translated(),
                 s.code->handedOver());
  sharedNativeCode().add(*s.codelet, s.entry, s.code);
  s.ready.store(s.code.get(), std::memory_order_release);
  return s.code.get();
}

} // namespace poplar::detail
