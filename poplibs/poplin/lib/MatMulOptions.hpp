// The options every matmul entry point accepts, parsed and checked once.
#pragma once

#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>

#include <string>

namespace poplin::internal {

struct MatMulOptions {
  double availableMemoryProportion = 0.6;
  poplar::Type partialsType = poplar::FLOAT;
  std::string fullyConnectedPass = "NONE";
  // Accepted for compatibility; the plan does not depend on them.
  bool inputRHSIsPreArranged = false, use128BitConvUnitLoad = false, enableMultiStageReduce = true,
       enableFastReduce = false, remapOutputTensor = true;

  /// For the plan cache key: the options that change a plan.
  bool operator<(const MatMulOptions &o) const;
};

/// Parses `flags` for `api`; throws poplar::invalid_option naming the key and the value.
MatMulOptions parseMatMulOptions(const poplar::OptionFlags &flags, const std::string &api);

} // namespace poplin::internal
