// The Engine's native tier: one compiled entry per (codelet, entry pc), made on demand; a
// compilation that fails leaves that vertex type to the interpreter, which gives the same
// results.
#include "engine/NativeVertexCode.hpp"

#include "core/Errors.hpp"
#include "core/Logging.hpp"

#include <map>
#include <utility>

namespace poplar::detail {

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
  for (const auto &type : cg.vertexTypes) {
    auto [it, added] = seen.emplace(std::pair{type.codelet, type.entry}, slots_.size());
    if (added) {
      slots_.push_back(std::make_unique<Slot>());
      slots_.back()->codelet = &codelets[type.codelet];
      slots_.back()->entry = type.entry;
      slots_.back()->typeName = type.name;
    }
    slotOf_.push_back(it->second);
  }
}

const interp::NativeCode *NativeVertexCode::compile(Slot &s) {
  std::lock_guard<std::mutex> lock(s.mutex);
  if (s.code || s.failed)
    return s.code.get();
  std::string error;
  s.code = interp::compileNative(s.codelet->code, s.entry, error);
  if (!s.code) {
    logger().warn("Engine: vertex '{}' stays on the interpreter: {}", s.typeName, error);
    s.failed = true;
    return nullptr;
  }
  logger().debug("Engine: vertex '{}' compiled to host code in {:.1f} ms ({} instructions, {} "
                 "left to the interpreter)",
                 s.typeName, s.code->compileSeconds() * 1e3, s.code->translated(),
                 s.code->handedOver());
  s.ready.store(s.code.get(), std::memory_order_release);
  return s.code.get();
}

} // namespace poplar::detail
