// Creates the poplar logger once from the environment, as Poplar and PopLibs do.
#include "core/Logging.hpp"

#include "core/Errors.hpp"

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <cstdlib>
#include <map>

namespace poplar::detail {

namespace {

spdlog::level::level_enum levelFromEnv() {
  const char *value = std::getenv("POPLAR_LOG_LEVEL");
  if (!value || !*value)
    return spdlog::level::off;
  static const std::map<std::string, spdlog::level::level_enum> levels = {
      {"TRACE", spdlog::level::trace}, {"DEBUG", spdlog::level::debug},
      {"INFO", spdlog::level::info},   {"WARN", spdlog::level::warn},
      {"ERR", spdlog::level::err},     {"OFF", spdlog::level::off}};
  auto it = levels.find(value);
  if (it == levels.end())
    raise<invalid_option>("POPLAR_LOG_LEVEL: unknown level '", value,
                          "' (valid: TRACE, DEBUG, INFO, WARN, ERR, OFF)");
  return it->second;
}

std::shared_ptr<spdlog::logger> makeLogger() {
  const char *dest = std::getenv("POPLAR_LOG_DEST");
  std::string d = dest ? dest : "stderr";
  std::shared_ptr<spdlog::sinks::sink> sink;
  if (d == "stdout")
    sink = std::make_shared<spdlog::sinks::stdout_sink_mt>();
  else if (d == "stderr")
    sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  else
    sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(d);
  auto log = std::make_shared<spdlog::logger>("poplar", sink);
  // UTC timestamp, PO:<module>, pid.tid, level letter: the PopLibs line layout.
  log->set_pattern("%Y-%m-%dT%H:%M:%S.%fZ PO:POPLAR %P.%t %L: %v", spdlog::pattern_time_type::utc);
  log->set_level(levelFromEnv());
  return log;
}

} // namespace

spdlog::logger &logger() {
  static std::shared_ptr<spdlog::logger> instance = makeLogger();
  return *instance;
}

} // namespace poplar::detail
