// The declarations every popnn normalisation shares (bn::batchNorm*, gn::groupNorm*,
// ln::layerNorm*, in::instanceNorm*), written once: POPNN_NORM_API(prefix, statisticsParams...)
// declares prefixStatistics, prefixWhiten, prefixalise, prefixParamGradients (two forms),
// prefixGradients (two forms) and prefixParamUpdate (two forms) in the enclosing namespace.
// The variadic part is empty or extra parameters of prefixStatistics after prog, each followed
// by a comma ("unsigned numGroups,"). Semantics, with x the activations [batch, channels,
// field...], S the set of elements one statistic covers and n its size:
//   Statistics      (mean, inverse standard deviation 1 / sqrt(var + eps)) over each S, of
//                   acts' type; var is divided by n - 1 if unbiasedVarEstimate, else n;
//                   stableAlgo subtracts the mean before squaring; sums in partialsType.
//   Whiten          (x - mean) * invStdDev.
//   alise           (gamma * whitened + beta, whitened); gamma and beta are [channels].
//   ParamGradients  (gammaDelta, betaDelta) = sums over all but the channel dimension of
//                   gradsIn * whitened and of gradsIn.
//   Gradients       the gradient at x through the whole layer, statistics included:
//                   invStdDev * (d - mean_S(d) - whitened * mean_S(d * whitened)), d = gradsIn *
//                   gamma.
//   ParamUpdate     gamma -= scale * gammaDelta; beta -= scale * betaDelta.
#ifndef popnn_NormApi_hpp
#define popnn_NormApi_hpp

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <utility>

#define POPNN_NORM_API(prefix, ...)                                                                \
  std::pair<poplar::Tensor, poplar::Tensor> prefix##Statistics(                                    \
      poplar::Graph &graph, const poplar::Tensor acts, float eps, poplar::program::Sequence &prog, \
      __VA_ARGS__ bool unbiasedVarEstimate, bool stableAlgo = false,                               \
      const poplar::Type &partialsType = poplar::FLOAT,                                            \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});     \
                                                                                                   \
  poplar::Tensor prefix##Whiten(                                                                   \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &mean,                \
      const poplar::Tensor &invStdDev, poplar::program::Sequence &prog,                            \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});     \
                                                                                                   \
  std::pair<poplar::Tensor, poplar::Tensor> prefix##alise(                                         \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gamma,               \
      const poplar::Tensor &beta, const poplar::Tensor &mean, const poplar::Tensor &invStdDev,     \
      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},              \
      const poplar::OptionFlags &options = {});                                                    \
                                                                                                   \
  std::pair<poplar::Tensor, poplar::Tensor> prefix##ParamGradients(                                \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,             \
      const poplar::Tensor &mean, const poplar::Tensor &iStdDev, poplar::program::Sequence &prog,  \
      const poplar::Type &partialsType = poplar::FLOAT,                                            \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});     \
                                                                                                   \
  std::pair<poplar::Tensor, poplar::Tensor> prefix##ParamGradients(                                \
      poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,     \
      poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,           \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});     \
                                                                                                   \
  poplar::Tensor prefix##Gradients(                                                                \
      poplar::Graph &graph, const poplar::Tensor &acts, const poplar::Tensor &gradsIn,             \
      const poplar::Tensor &mean, const poplar::Tensor &invStdDev, const poplar::Tensor &gamma,    \
      poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,           \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});     \
                                                                                                   \
  poplar::Tensor prefix##Gradients(                                                                \
      poplar::Graph &graph, const poplar::Tensor &actsWhitened, const poplar::Tensor &gradsIn,     \
      const poplar::Tensor &invStdDev, const poplar::Tensor &gamma,                                \
      poplar::program::Sequence &prog, const poplar::Type &partialsType = poplar::FLOAT,           \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});     \
                                                                                                   \
  void prefix##ParamUpdate(                                                                        \
      poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,     \
      float scale, poplar::Tensor &gamma, poplar::Tensor &beta, poplar::program::Sequence &prog,   \
      const poplar::DebugContext &debugContext = {}, const poplar::OptionFlags &options = {});     \
                                                                                                   \
  void prefix##ParamUpdate(                                                                        \
      poplar::Graph &graph, const poplar::Tensor &gammaDelta, const poplar::Tensor &betaDelta,     \
      const poplar::Tensor &scale, poplar::Tensor &gamma, poplar::Tensor &beta,                    \
      poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},              \
      const poplar::OptionFlags &options = {});

#endif // popnn_NormApi_hpp
