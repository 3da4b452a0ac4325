// popnn::bn: statistics per channel (Norms.hpp with a per-channel grouping).
#include <popnn/BatchNorm.hpp>

#include "Norms.hpp"

#include <poputil/DebugInfo.hpp>

namespace popnn::bn {

using namespace poplar;
using namespace poplar::program;

namespace {

const char *kPrefix = "popnn::bn::";
const internal::NormGrouping kPerChannel{true};

internal::NormGrouping perChannel(const std::string &, const Tensor &, const Tensor &,
                                  const OptionFlags &) {
  return kPerChannel;
}

} // namespace

POPNN_DEFINE_NORM_API(batchNorm, perChannel, kPerChannel, )

Tensor batchNormalise(Graph &graph, const Tensor &acts, const Tensor &combinedMultiplicand,
                      const Tensor &addend, Sequence &prog, const DebugContext &debugContext,
                      const OptionFlags &options) {
  poputil::PoplibsOpDebugInfo di(debugContext,
                                 DI_ARGS(acts, combinedMultiplicand, addend, options));
  const std::string api = "popnn::bn::batchNormalise";
  internal::checkNormOptions(api, options);
  Tensor out = internal::normAffine(graph, api, acts, combinedMultiplicand, addend, prog, {di});
  di.addOutput(out);
  return out;
}

} // namespace popnn::bn
