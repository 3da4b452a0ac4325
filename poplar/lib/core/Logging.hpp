// The "poplar" spdlog logger, configured by POPLAR_LOG_LEVEL and POPLAR_LOG_DEST.
#pragma once

#include <spdlog/spdlog.h>

namespace poplar::detail {

/// Level from POPLAR_LOG_LEVEL (TRACE, DEBUG, INFO, WARN, ERR, OFF; default OFF) and
/// destination from POPLAR_LOG_DEST (stdout, stderr (default) or a file name).
spdlog::logger &logger();

} // namespace poplar::detail
