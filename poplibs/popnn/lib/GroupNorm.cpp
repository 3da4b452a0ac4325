// popnn::gn, ln and in: statistics per sample and group of channels (Norms.hpp). gn's functions
// that take statistics read the group count from their size; ln has one group, in one a channel.
#include <popnn/GroupNorm.hpp>
#include <popnn/InstanceNorm.hpp>
#include <popnn/LayerNorm.hpp>

#include "Norms.hpp"

#include <poputil/DebugInfo.hpp>

namespace popnn::gn {

using namespace poplar;
using namespace poplar::program;

namespace {

const char *kPrefix = "popnn::gn::";

internal::NormGrouping fromStatistics(const std::string &api, const Tensor &acts,
                                      const Tensor &statistics, const OptionFlags &options) {
  return internal::groupNormGrouping(api, acts, internal::groupsOfStatistics(api, acts, statistics),
                                     options);
}

} // namespace

POPNN_DEFINE_NORM_API(groupNorm, fromStatistics,
                      internal::groupNormGrouping(api, acts, numGroups, options),
                      unsigned numGroups, )

} // namespace popnn::gn

namespace popnn::ln {

using namespace poplar;
using namespace poplar::program;

namespace {

const char *kPrefix = "popnn::ln::";

internal::NormGrouping oneGroup(const std::string &api, const Tensor &acts, const Tensor &,
                                const OptionFlags &) {
  return internal::groupNormGrouping(api, acts, 1, {});
}

} // namespace

POPNN_DEFINE_NORM_API(layerNorm, oneGroup, oneGroup(api, acts, acts, {}), )

} // namespace popnn::ln

namespace popnn::in {

using namespace poplar;
using namespace poplar::program;

namespace {

const char *kPrefix = "popnn::in::";

internal::NormGrouping groupPerChannel(const std::string &api, const Tensor &acts, const Tensor &,
                                       const OptionFlags &) {
  internal::NormGrouping g = internal::groupNormGrouping(api, acts, 1, {});
  g.numGroups = unsigned(acts.dim(1));
  return g;
}

} // namespace

POPNN_DEFINE_NORM_API(instanceNorm, groupPerChannel, groupPerChannel(api, acts, acts, {}), )

} // namespace popnn::in
