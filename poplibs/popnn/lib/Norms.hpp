// The normalisations' shared implementation: every norm is a grouping of the channels of
// acts [batch, channels, field...] seen as a 4-D view [batch, P, Q, field] (channel = p * Q + q)
// and the dimensions of that view each statistic covers. BatchNorm.cpp, GroupNorm.cpp,
// LayerNorm.cpp and InstanceNorm.cpp define their public functions from these.
#pragma once

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <string>
#include <utility>

namespace popnn::internal {

struct NormGrouping {
  /// Statistics per channel over batch and field (batch norm); otherwise per sample and group.
  bool perChannel = false;
  unsigned numGroups = 1;
  /// Group g holds channels g, g + numGroups, ... instead of a contiguous run.
  bool strided = false;
};

/// The grouping a group norm with `numGroups` and `options` (groupNormStridedChannelGrouping)
/// uses; throws naming `api` unless numGroups divides the channels of acts.
NormGrouping groupNormGrouping(const std::string &api, const poplar::Tensor &acts,
                               unsigned numGroups, const poplar::OptionFlags &options);

/// The group count a group norm's statistics tensor of acts implies (its size / batch).
unsigned groupsOfStatistics(const std::string &api, const poplar::Tensor &acts,
                            const poplar::Tensor &statistics);

std::pair<poplar::Tensor, poplar::Tensor>
normStatistics(poplar::Graph &graph, const std::string &api, const NormGrouping &grouping,
               const poplar::Tensor &acts, float eps, poplar::program::Sequence &prog,
               bool unbiasedVarEstimate, bool stableAlgo, const poplar::Type &partialsType,
               const poplar::DebugContext &dc);

poplar::Tensor normWhiten(poplar::Graph &graph, const std::string &api,
                          const NormGrouping &grouping, const poplar::Tensor &acts,
                          const poplar::Tensor &mean, const poplar::Tensor &invStdDev,
                          poplar::program::Sequence &prog, const poplar::DebugContext &dc);

/// acts * multiplicand + addend with both [channels].
poplar::Tensor normAffine(poplar::Graph &graph, const std::string &api, const poplar::Tensor &acts,
                          const poplar::Tensor &multiplicand, const poplar::Tensor &addend,
                          poplar::program::Sequence &prog, const poplar::DebugContext &dc);

std::pair<poplar::Tensor, poplar::Tensor>
normParamGradients(poplar::Graph &graph, const std::string &api, const poplar::Tensor &actsWhitened,
                   const poplar::Tensor &gradsIn, poplar::program::Sequence &prog,
                   const poplar::Type &partialsType, const poplar::DebugContext &dc);

poplar::Tensor normGradients(poplar::Graph &graph, const std::string &api,
                             const NormGrouping &grouping, const poplar::Tensor &actsWhitened,
                             const poplar::Tensor &gradsIn, const poplar::Tensor &invStdDev,
                             const poplar::Tensor &gamma, poplar::program::Sequence &prog,
                             const poplar::Type &partialsType, const poplar::DebugContext &dc);

/// gamma -= scale * gammaDelta, beta -= scale * betaDelta; scale is a float or a tensor.
void normParamUpdate(poplar::Graph &graph, const std::string &api, const poplar::Tensor &gammaDelta,
                     const poplar::Tensor &betaDelta, const poplar::Tensor *scaleTensor,
                     float scale, const poplar::Tensor &gamma, const poplar::Tensor &beta,
                     poplar::program::Sequence &prog, const poplar::DebugContext &dc);

/// Validates a normalisation's options (groupNormStridedChannelGrouping, the only one).
void checkNormOptions(const std::string &api, const poplar::OptionFlags &options);

} // namespace popnn::internal

// The public functions of one normalisation, from its grouping: `groupingOf(api, acts, stats,
// options)` gives the grouping of the functions that take statistics; `statsGrouping` that of
// prefixStatistics, whose extra parameters are the variadic part (as in NormApi.hpp).
#define POPNN_DEFINE_NORM_API(prefix, groupingOf, statsGrouping, ...)                              \
  std::pair<Tensor, Tensor> prefix##Statistics(                                                    \
      Graph &graph, const Tensor acts, float eps, Sequence &prog,                                  \
      __VA_ARGS__ bool unbiasedVarEstimate, bool stableAlgo, const Type &partialsType,             \
      const DebugContext &debugContext, const OptionFlags &options) {                              \
    poputil::PoplibsOpDebugInfo di(                                                                \
        debugContext, DI_ARGS(acts, eps, unbiasedVarEstimate, stableAlgo, partialsType, options)); \
    const std::string api = kPrefix + std::string(#prefix "Statistics");                           \
    internal::checkNormOptions(api, options);                                                      \
    auto out = internal::normStatistics(graph, api, statsGrouping, acts, eps, prog,                \
                                        unbiasedVarEstimate, stableAlgo, partialsType, {di});      \
    di.addOutputs({{"mean", poputil::toProfileValue(out.first)},                                   \
                   {"invStdDev", poputil::toProfileValue(out.second)}});                           \
    return out;                                                                                    \
  }                                                                                                \
                                                                                                   \
  Tensor prefix##Whiten(Graph &graph, const Tensor &acts, const Tensor &mean,                      \
                        const Tensor &invStdDev, Sequence &prog, const DebugContext &debugContext, \
                        const OptionFlags &options) {                                              \
    poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(acts, mean, invStdDev, options));         \
    const std::string api = kPrefix + std::string(#prefix "Whiten");                               \
    internal::checkNormOptions(api, options);                                                      \
    Tensor out = internal::normWhiten(graph, api, groupingOf(api, acts, mean, options), acts,      \
                                      mean, invStdDev, prog, {di});                                \
    di.addOutput(out);                                                                             \
    return out;                                                                                    \
  }                                                                                                \
                                                                                                   \
  std::pair<Tensor, Tensor> prefix##alise(                                                         \
      Graph &graph, const Tensor &acts, const Tensor &gamma, const Tensor &beta,                   \
      const Tensor &mean, const Tensor &invStdDev, Sequence &prog,                                 \
      const DebugContext &debugContext, const OptionFlags &options) {                              \
    poputil::PoplibsOpDebugInfo di(debugContext,                                                   \
                                   DI_ARGS(acts, gamma, beta, mean, invStdDev, options));          \
    const std::string api = kPrefix + std::string(#prefix "alise");                                \
    internal::checkNormOptions(api, options);                                                      \
    Tensor whitened = internal::normWhiten(graph, api, groupingOf(api, acts, mean, options), acts, \
                                           mean, invStdDev, prog, {di});                           \
    Tensor out = internal::normAffine(graph, api, whitened, gamma, beta, prog, {di});              \
    di.addOutputs({{"normActs", poputil::toProfileValue(out)},                                     \
                   {"whitenedActs", poputil::toProfileValue(whitened)}});                          \
    return {out, whitened};                                                                        \
  }                                                                                                \
                                                                                                   \
  std::pair<Tensor, Tensor> prefix##ParamGradients(                                                \
      Graph &graph, const Tensor &acts, const Tensor &gradsIn, const Tensor &mean,                 \
      const Tensor &iStdDev, Sequence &prog, const Type &partialsType,                             \
      const DebugContext &debugContext, const OptionFlags &options) {                              \
    poputil::PoplibsOpDebugInfo di(debugContext,                                                   \
                                   DI_ARGS(acts, gradsIn, mean, iStdDev, partialsType, options));  \
    const std::string api = kPrefix + std::string(#prefix "ParamGradients");                       \
    internal::checkNormOptions(api, options);                                                      \
    Tensor whitened = internal::normWhiten(graph, api, groupingOf(api, acts, mean, options), acts, \
                                           mean, iStdDev, prog, {di});                             \
    return internal::normParamGradients(graph, api, whitened, gradsIn, prog, partialsType, {di});  \
  }                                                                                                \
                                                                                                   \
  std::pair<Tensor, Tensor> prefix##ParamGradients(                                                \
      Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn, Sequence &prog,             \
      const Type &partialsType, const DebugContext &debugContext, const OptionFlags &options) {    \
    poputil::PoplibsOpDebugInfo di(debugContext,                                                   \
                                   DI_ARGS(actsWhitened, gradsIn, partialsType, options));         \
    const std::string api = kPrefix + std::string(#prefix "ParamGradients");                       \
    internal::checkNormOptions(api, options);                                                      \
    return internal::normParamGradients(graph, api, actsWhitened, gradsIn, prog, partialsType,     \
                                        {di});                                                     \
  }                                                                                                \
                                                                                                   \
  Tensor prefix##Gradients(Graph &graph, const Tensor &acts, const Tensor &gradsIn,                \
                           const Tensor &mean, const Tensor &invStdDev, const Tensor &gamma,       \
                           Sequence &prog, const Type &partialsType,                               \
                           const DebugContext &debugContext, const OptionFlags &options) {         \
    poputil::PoplibsOpDebugInfo di(                                                                \
        debugContext, DI_ARGS(acts, gradsIn, mean, invStdDev, gamma, partialsType, options));      \
    const std::string api = kPrefix + std::string(#prefix "Gradients");                            \
    internal::checkNormOptions(api, options);                                                      \
    auto grouping = groupingOf(api, acts, mean, options);                                          \
    Tensor whitened =                                                                              \
        internal::normWhiten(graph, api, grouping, acts, mean, invStdDev, prog, {di});             \
    Tensor out = internal::normGradients(graph, api, grouping, whitened, gradsIn, invStdDev,       \
                                         gamma, prog, partialsType, {di});                         \
    di.addOutput(out);                                                                             \
    return out;                                                                                    \
  }                                                                                                \
                                                                                                   \
  Tensor prefix##Gradients(Graph &graph, const Tensor &actsWhitened, const Tensor &gradsIn,        \
                           const Tensor &invStdDev, const Tensor &gamma, Sequence &prog,           \
                           const Type &partialsType, const DebugContext &debugContext,             \
                           const OptionFlags &options) {                                           \
    poputil::PoplibsOpDebugInfo di(                                                                \
        debugContext, DI_ARGS(actsWhitened, gradsIn, invStdDev, gamma, partialsType, options));    \
    const std::string api = kPrefix + std::string(#prefix "Gradients");                            \
    internal::checkNormOptions(api, options);                                                      \
    Tensor out = internal::normGradients(                                                          \
        graph, api, groupingOf(api, actsWhitened, invStdDev, options), actsWhitened, gradsIn,      \
        invStdDev, gamma, prog, partialsType, {di});                                               \
    di.addOutput(out);                                                                             \
    return out;                                                                                    \
  }                                                                                                \
                                                                                                   \
  void prefix##ParamUpdate(Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta,        \
                           float scale, Tensor &gamma, Tensor &beta, Sequence &prog,               \
                           const DebugContext &debugContext, const OptionFlags &options) {         \
    poputil::PoplibsOpDebugInfo di(debugContext,                                                   \
                                   DI_ARGS(gammaDelta, betaDelta, scale, gamma, beta, options));   \
    const std::string api = kPrefix + std::string(#prefix "ParamUpdate");                          \
    internal::checkNormOptions(api, options);                                                      \
    internal::normParamUpdate(graph, api, gammaDelta, betaDelta, nullptr, scale, gamma, beta,      \
                              prog, {di});                                                         \
  }                                                                                                \
                                                                                                   \
  void prefix##ParamUpdate(Graph &graph, const Tensor &gammaDelta, const Tensor &betaDelta,        \
                           const Tensor &scale, Tensor &gamma, Tensor &beta, Sequence &prog,       \
                           const DebugContext &debugContext, const OptionFlags &options) {         \
    poputil::PoplibsOpDebugInfo di(debugContext,                                                   \
                                   DI_ARGS(gammaDelta, betaDelta, scale, gamma, beta, options));   \
    const std::string api = kPrefix + std::string(#prefix "ParamUpdate");                          \
    internal::checkNormOptions(api, options);                                                      \
    internal::normParamUpdate(graph, api, gammaDelta, betaDelta, &scale, 0, gamma, beta, prog,     \
                              {di});                                                               \
  }
