// Engine option parsing: POPLAR_ENGINE_OPTIONS merged over the code's options, each key checked
// by its entry in EngineOptions.def.
#include "engine/EngineOptions.hpp"

#include "core/Errors.hpp"
#include "support/OptionSpec.hpp"

#include <cstdlib>

namespace poplar::detail {

namespace {

/// Storage for options that are validated but have no effect here.
struct Unused {
  bool b = false;
  unsigned u = 0;
  std::string s;
};

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
  return o;
}

} // namespace poplar::detail
