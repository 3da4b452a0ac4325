// Matmul options: one table of keys and how each value is checked.
#include "MatMulOptions.hpp"

#include "support/OptionSpec.hpp"

#include <tuple>

namespace poplin::internal {

bool MatMulOptions::operator<(const MatMulOptions &o) const {
  return std::tie(availableMemoryProportion, partialsType) <
         std::tie(o.availableMemoryProportion, o.partialsType);
}

MatMulOptions parseMatMulOptions(const poplar::OptionFlags &flags, const std::string &api) {
  MatMulOptions o;
  using H = popsdk::support::OptionHandler;
  popsdk::support::OptionSpec{
      {"availableMemoryProportion", H::number(o.availableMemoryProportion, 0.0, 1.0)},
      {"partialsType",
       H::enumeration(o.partialsType, std::map<std::string, poplar::Type>{{"float", poplar::FLOAT},
                                                                          {"half", poplar::HALF}})},
      {"fullyConnectedPass",
       H::oneOf(o.fullyConnectedPass,
                {"NONE", "INFERENCE_FWD", "TRAINING_FWD", "TRAINING_BWD", "TRAINING_WU"})},
      {"inputRHSIsPreArranged", H::boolean(o.inputRHSIsPreArranged)},
      {"use128BitConvUnitLoad", H::boolean(o.use128BitConvUnitLoad)},
      {"enableMultiStageReduce", H::boolean(o.enableMultiStageReduce)},
      {"enableFastReduce", H::boolean(o.enableFastReduce)},
      {"remapOutputTensor", H::boolean(o.remapOutputTensor)},
  }
      .parse(api, flags);
  return o;
}

} // namespace poplin::internal
