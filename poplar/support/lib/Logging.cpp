// Creates spdlog loggers from POPLAR_LOG_* / POPLIBS_LOG_* style environment variables.
#include "support/Logging.hpp"

#include "support/Raise.hpp"

#include <poplar/exceptions.hpp>

#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/stdout_sinks.h>

#include <cstdlib>
#include <map>
#include <mutex>

namespace popsdk::support {

namespace {

spdlog::level::level_enum levelFromEnv(const char *variable) {
  const char *value = std::getenv(variable);
  if (!value || !*value)
    return spdlog::level::off;
  static const std::map<std::string, spdlog::level::level_enum> levels = {
      {"TRACE", spdlog::level::trace}, {"DEBUG", spdlog::level::debug},
      {"INFO", spdlog::level::info},   {"WARN", spdlog::level::warn},
      {"ERR", spdlog::level::err},     {"OFF", spdlog::level::off}};
  auto it = levels.find(value);
  if (it == levels.end())
    raise<poplar::invalid_option>(variable, ": unknown level '", value,
                                  "' (valid: TRACE, DEBUG, INFO, WARN, ERR, OFF)");
  return it->second;
}

} // namespace

std::shared_ptr<spdlog::logger> makeLogger(const LoggerSpec &spec) {
  const char *dest = std::getenv(spec.destEnv);
  std::string d = dest ? dest : "stderr";
  std::shared_ptr<spdlog::sinks::sink> sink;
  if (d == "stdout")
    sink = std::make_shared<spdlog::sinks::stdout_sink_mt>();
  else if (d == "stderr")
    sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
  else
    sink = std::make_shared<spdlog::sinks::basic_file_sink_mt>(d);
  auto log = std::make_shared<spdlog::logger>(spec.name, sink);
  // UTC timestamp, PO:<module>, pid.tid, level letter: the PopLibs line layout.
  log->set_pattern(std::string("%Y-%m-%dT%H:%M:%S.%fZ PO:") + spec.module + " %P.%t %L: %v",
                   spdlog::pattern_time_type::utc);
  log->set_level(levelFromEnv(spec.levelEnv));
  return log;
}

spdlog::logger &poplibsLogger(const char *module) {
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<spdlog::logger>> loggers;
  std::lock_guard<std::mutex> lock(mutex);
  auto &logger = loggers[module];
  if (!logger)
    logger = makeLogger({"poplibs", "POPLIBS_LOG_LEVEL", "POPLIBS_LOG_DEST", module});
  return *logger;
}

} // namespace popsdk::support
