// Creates the poplar logger once from the environment, as Poplar does.
#include "core/Logging.hpp"

#include "support/Logging.hpp"

namespace poplar::detail {

spdlog::logger &logger() {
  static std::shared_ptr<spdlog::logger> instance =
      popsdk::support::makeLogger({"poplar", "POPLAR_LOG_LEVEL", "POPLAR_LOG_DEST", "POPLAR"});
  return *instance;
}

} // namespace poplar::detail
