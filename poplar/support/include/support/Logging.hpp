// Loggers configured from the environment the way Poplar and PopLibs configure theirs.
#pragma once

#include <spdlog/spdlog.h>

#include <memory>

namespace popsdk::support {

/// What distinguishes one library's logger: its name, the environment variables that set its
/// level and destination, and the module tag printed on each line (PO:<module>).
struct LoggerSpec {
  const char *name;     // "poplar", "poplibs"
  const char *levelEnv; // POPLAR_LOG_LEVEL: TRACE, DEBUG, INFO, WARN, ERR, OFF (default OFF)
  const char *destEnv;  // POPLAR_LOG_DEST: stdout, stderr (default) or a file name
  const char *module;   // POPLAR, POPOPS, ...
};

/// A new logger for `spec`. A bad level is a poplar::invalid_option naming the variable.
std::shared_ptr<spdlog::logger> makeLogger(const LoggerSpec &spec);

/// The logger of a PopLibs library, made once per module ("POPOPS") from POPLIBS_LOG_LEVEL and
/// POPLIBS_LOG_DEST.
spdlog::logger &poplibsLogger(const char *module);

} // namespace popsdk::support
