// Engine option parsing: POPLAR_ENGINE_OPTIONS merged over the code's options, each key checked
// by its entry in EngineOptions.def.
#include "engine/EngineOptions.hpp"

#include "core/Errors.hpp"
#include "support/OptionSpec.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <map>
#include <thread>

namespace poplar::detail {

namespace {

/// Storage for options that are validated but have no effect here.
struct Unused {
  bool b = false;
  unsigned u = 0;
  std::string s;
};

std::map<std::string, VertexTier> vertexTiers() {
  return {{"interpreter", VertexTier::Interpreter},
          {"native", VertexTier::Native},
          {"auto", VertexTier::Auto}};
}

unsigned defaultHostThreads() {
  const char *env = std::getenv("POPLAR_NUM_THREADS");
  if (!env)
    return std::max(1u, std::thread::hardware_concurrency());
  char *end = nullptr;
  errno = 0;
  unsigned long n = std::strtoul(env, &end, 10);
  if (end == env || *end != '\0' || errno != 0 || n < 1 || n > 1024 || env[0] == '-')
    raise<invalid_option>("POPLAR_NUM_THREADS: '", env,
                          "' is not a host thread count (an integer from 1 to 1024)");
  return unsigned(n);
}

} // namespace

EngineOptions parseEngineOptions(const OptionFlags &given) {
  EngineOptions o;
  o.all = given;
  if (const char *env = std::getenv("POPLAR_ENGINE_OPTIONS")) {
    OptionFlags fromEnv;
    try {
      readJSON(env, fromEnv);
    } catch (const poplar_error &e) {
      raise<parse_error>("POPLAR_ENGINE_OPTIONS: ", e.what());
    }
    for (const auto &kv : fromEnv)
      o.all.set(kv.first, kv.second);
  }
  if (const char *env = std::getenv("POPLAR_VERTEX_TIER");
      env && !o.all.has("executor.vertexTier")) {
    const auto tiers = vertexTiers();
    const auto it = tiers.find(env);
    if (it == tiers.end())
      raise<invalid_option>("POPLAR_VERTEX_TIER: '", env,
                            "' is not a vertex tier (interpreter, native or auto)");
    o.vertexTier = it->second;
  }
  Unused unused;
  using H = popsdk::support::OptionHandler;
  const popsdk::support::OptionSpec spec{
#define ENGINE_OPTION(key, handler) {key, H::handler},
#include "engine/EngineOptions.def"
  };
  spec.parse("Engine", o.all);
  // The specific profile keys override autoReport.all whatever their order.
  if (!o.all.has("autoReport.outputGraphProfile"))
    o.autoReportGraph = o.autoReportAll;
  if (!o.all.has("autoReport.outputExecutionProfile"))
    o.autoReportExecution = o.autoReportAll;
  if (o.reportDirectory.empty())
    o.reportDirectory = ".";
  if (o.hostThreads == 0)
    o.hostThreads = defaultHostThreads();
  return o;
}

} // namespace poplar::detail
