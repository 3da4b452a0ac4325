// poplin's convolution API: argument checks, then each pass as a planned grouped matmul of
// convolution views (ConvLowering).
#include <poplin/ConvUtil.hpp>
#include <poplin/Convolution.hpp>

#include "ConvLowering.hpp"
#include "ConvNx1Lowering.hpp"
#include "CycleEstimators.hpp"
#include "MatMulLowering.hpp"
#include "PlanningCache.hpp"

#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

#include <popops/Cast.hpp>
#include <popops/ElementWise.hpp>
#include <popops/Reduce.hpp>
#include <popops/ScaledAdd.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/TileMapping.hpp>
#include <poputil/exceptions.hpp>

#include <cstdint>
#include <ostream>

namespace poplin {

using namespace poplar;
using namespace poplar::program;
using internal::MatMulOperand;
using popsdk::support::raise;
using popsdk::support::shapeText;

namespace {

/// The matmul options a convolution's options give (its own keys checked too).
internal::MatMulOptions parseConvOptions(const OptionFlags &flags, const std::string &api) {
  internal::MatMulOptions o;
  std::string pass = "NONE";
  bool ignored = false;
  using H = popsdk::support::OptionHandler;
  popsdk::support::OptionSpec{
      {"availableMemoryProportion", H::number(o.availableMemoryProportion, 0.0, 1.0)},
      {"partialsType", H::enumeration(o.partialsType, std::map<std::string, Type>{{"float", FLOAT},
                                                                                  {"half", HALF}})},
      {"pass", H::oneOf(pass, {"NONE", "INFERENCE_FWD", "TRAINING_FWD", "TRAINING_BWD",
                               "TRAINING_WU", "FC_INFERENCE_FWD", "FC_TRAINING_FWD",
                               "FC_TRAINING_BWD", "FC_TRAINING_WU", "NONE_MATMUL"})},
      {"use128BitConvUnitLoad", H::boolean(ignored)},
      {"enableMultiStageReduce", H::boolean(ignored)},
      {"enableFastReduce", H::boolean(ignored)},
      {"enableConvDithering", H::boolean(ignored)},
      {"remapOutputTensor", H::boolean(ignored)},
  }
      .parse(api, flags);
  return o;
}

const internal::MatMulPlan &planOf(const Target &target, const std::string &api,
                                   const internal::MatMulProblem &problem,
                                   const OptionFlags &options, PlanningCache *cache) {
  return internal::getMatMulPlan(target, problem, parseConvOptions(options, api), cache);
}

void checkParams(const std::string &api, const ConvParams &p) {
  try {
    p.validate();
  } catch (const poputil::poplibs_error &e) {
    raise<poputil::poplibs_error>(api, ": ", e.what());
  }
  for (const Type &t : {p.inputType, p.outputType})
    if (t != FLOAT && t != HALF)
      raise<poputil::poplibs_error>(api, ": convolutions take float or half, not ", t);
}

std::vector<std::size_t> inputShape(const ConvParams &p) {
  std::vector<std::size_t> s = {p.batchSize, p.getNumInputChans()};
  s.insert(s.end(), p.inputFieldShape.begin(), p.inputFieldShape.end());
  return s;
}
std::vector<std::size_t> outputShape(const ConvParams &p) {
  std::vector<std::size_t> s = {p.batchSize, p.getNumOutputChans()};
  const auto field = p.getOutputFieldShape();
  s.insert(s.end(), field.begin(), field.end());
  return s;
}
std::vector<std::size_t> weightsShape(const ConvParams &p) {
  std::vector<std::size_t> s = {p.numConvGroups, p.outputChannelsPerConvGroup,
                                p.inputChannelsPerConvGroup};
  s.insert(s.end(), p.kernelShape.begin(), p.kernelShape.end());
  return s;
}

void checkTensor(const std::string &api, const char *what, const Tensor &t,
                 const std::vector<std::size_t> &shape, const Type &type) {
  if (t.shape() != shape)
    raise<poputil::poplibs_error>(api, ": ", what, " has shape ", shapeText(t.shape()),
                                  " but the parameters need ", shapeText(shape));
  if (t.elementType() != type)
    raise<poputil::poplibs_error>(api, ": ", what, " is ", t.elementType(), " but should be ",
                                  type);
}

bool hasOutputPadding(const ConvParams &p) {
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    if (p.outputTransform.paddingLower[d] || p.outputTransform.paddingUpper[d])
      return true;
  return false;
}

bool kernelIsTransformed(const ConvParams &p) {
  const auto &k = p.kernelTransform;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    if (k.truncationLower[d] || k.truncationUpper[d] || k.dilation[d] != 1 || k.paddingLower[d] ||
        k.paddingUpper[d] || k.flip[d])
      return true;
  return false;
}

/// The weights a pass multiplies by: `weights` itself, or (transposeAndFlip) the forward
/// weights with their channel dimensions swapped and their kernel reversed.
Tensor effectiveWeights(const std::string &api, const ConvParams &p, const Tensor &weights,
                        bool transposeAndFlip) {
  if (!transposeAndFlip) {
    checkTensor(api, "weights", weights, weightsShape(p), p.inputType);
    return weights;
  }
  std::vector<std::size_t> fwd = weightsShape(p);
  std::swap(fwd[1], fwd[2]);
  checkTensor(api, "weights (forward layout)", weights, fwd, p.inputType);
  std::vector<unsigned> order = {0, 2, 1};
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    order.push_back(3 + d);
  Tensor w = weights.dimShuffle(order);
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d)
    w = w.reverse(3 + d);
  return w;
}

void convolve(Graph &graph, const std::string &api, const Tensor &in, const Tensor &weights,
              const Tensor *out, Tensor &result, const ConvParams &p, bool transposeAndFlip,
              Sequence &prog, const DebugContext &debugContext, const OptionFlags &options,
              PlanningCache *cache) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(in, weights, transposeAndFlip), api);
  checkParams(api, p);
  checkTensor(api, "input", in, inputShape(p), p.inputType);
  const Tensor w = effectiveWeights(api, p, weights, transposeAndFlip);
  const auto problem = internal::matMulProblemOf(p);
  const auto &plan = planOf(graph.getTarget(), api, problem, options, cache);
  // A kernel walked on the tile receives each input element about once where im2col sends it
  // once per kernel position it meets.
  const auto nx1 = internal::planConvNx1(graph.getTarget(), p, parseConvOptions(options, api),
                                         plan.fitsMemory ? plan.cost.cycles() : UINT64_MAX);
  Tensor product;
  // Within the memory cap the fewer cycles win; if the matmul plan exceeds it, the lesser memory.
  const bool useNx1 =
      nx1 && (plan.fitsMemory ? nx1->fitsMemory
                              : nx1->fitsMemory || nx1->cost.tempBytes < plan.cost.tempBytes);
  if (useNx1) {
    product = internal::addConvNx1(graph, *nx1, in, w, prog, {di});
  } else {
    product =
        internal::createOperand(graph, plan, MatMulOperand::Output, p.outputType, {di, "product"});
    internal::addMatMul(graph, plan, internal::inputAsMatrix(graph, p, in),
                        internal::weightsAsMatrix(graph, p, w), product, prog, {di});
  }
  Tensor computed = internal::padOutput(graph, p, internal::outputFromMatrix(p, product));
  if (out) {
    checkTensor(api, "output", *out, outputShape(p), p.outputType);
    prog.add(Copy(computed, *out, false, {di}));
    result = *out;
  } else if (hasOutputPadding(p)) {
    // The padding is constant zeros: copy into a tensor the caller may write.
    result = graph.addVariable(p.outputType, outputShape(p), {di, "output"});
    poputil::mapTensorLinearly(graph, result);
    prog.add(Copy(computed, result, false, {di}));
  } else {
    result = computed;
  }
  di.addOutput(result);
}

std::uint64_t macs(const ConvParams &p) {
  std::uint64_t kernel = 1, field = 1;
  for (unsigned d = 0; d < p.getNumFieldDims(); ++d) {
    kernel *= p.kernelShape[d];
    field *= p.getOutputSize(d);
  }
  return std::uint64_t(p.batchSize) * p.numConvGroups * p.outputChannelsPerConvGroup *
         p.inputChannelsPerConvGroup * kernel * field;
}

} // namespace

Tensor createWeights(Graph &graph, const ConvParams &params, const DebugContext &debugContext,
                     const OptionFlags &options, PlanningCache *cache) {
  const std::string api = "poplin::createWeights";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, api);
  checkParams(api, params);
  if (kernelIsTransformed(params)) {
    Tensor w = graph.addVariable(params.inputType, weightsShape(params), {di, "weights"});
    poputil::mapTensorLinearly(graph, w);
    return w;
  }
  const auto &plan =
      planOf(graph.getTarget(), api, internal::matMulProblemOf(params), options, cache);
  Tensor m =
      internal::createOperand(graph, plan, MatMulOperand::RHS, params.inputType, {di, "weights"});
  return internal::weightsFromMatrix(params, m);
}

Tensor createInput(Graph &graph, const ConvParams &params, const DebugContext &debugContext,
                   const OptionFlags &options, PlanningCache *) {
  const std::string api = "poplin::createInput";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, api);
  checkParams(api, params);
  parseConvOptions(options, api);
  // Each element is read by as many tiles as kernel positions cover it, so no one tile is
  // its home: spread it evenly.
  Tensor t = graph.addVariable(params.inputType, inputShape(params), {di, "input"});
  poputil::mapTensorLinearly(graph, t);
  return t;
}

Tensor createConvOutput(Graph &graph, const ConvParams &params, const DebugContext &debugContext,
                        const OptionFlags &options, PlanningCache *cache) {
  const std::string api = "poplin::createConvOutput";
  poputil::PoplibsOpDebugInfo di(debugContext, {}, api);
  checkParams(api, params);
  if (hasOutputPadding(params)) {
    Tensor t = graph.addVariable(params.outputType, outputShape(params), {di, "output"});
    poputil::mapTensorLinearly(graph, t);
    return t;
  }
  const auto &plan =
      planOf(graph.getTarget(), api, internal::matMulProblemOf(params), options, cache);
  return internal::outputFromMatrix(params,
                                    internal::createOperand(graph, plan, MatMulOperand::Output,
                                                            params.outputType, {di, "output"}));
}

Tensor convolution(Graph &graph, const Tensor &in, const Tensor &weights, const ConvParams &params,
                   bool transposeAndFlipWeights, Sequence &prog, const DebugContext &debugContext,
                   const OptionFlags &options, PlanningCache *cache) {
  Tensor result;
  convolve(graph, "poplin::convolution", in, weights, nullptr, result, params,
           transposeAndFlipWeights, prog, debugContext, options, cache);
  return result;
}

void convolutionWithOutput(Graph &graph, const Tensor &in, const Tensor &weights, const Tensor &out,
                           const ConvParams &params, bool transposeAndFlipWeights, Sequence &prog,
                           const DebugContext &debugContext, const OptionFlags &options,
                           PlanningCache *cache) {
  Tensor result;
  convolve(graph, "poplin::convolutionWithOutput", in, weights, &out, result, params,
           transposeAndFlipWeights, prog, debugContext, options, cache);
}

void weightsTransposeChansFlipXY(Graph &graph, const Tensor &weightsIn, const Tensor &weightsOut,
                                 Sequence &prog, const DebugContext &debugContext) {
  const std::string api = "poplin::weightsTransposeChansFlipXY";
  if (weightsIn.rank() < 3)
    raise<poputil::poplibs_error>(api, ": weights ", shapeText(weightsIn.shape()),
                                  " should be [G][outChans][inChans][kernel...]");
  std::vector<unsigned> order = {0, 2, 1};
  for (unsigned d = 3; d < weightsIn.rank(); ++d)
    order.push_back(d);
  Tensor w = weightsIn.dimShuffle(order);
  for (unsigned d = 3; d < weightsIn.rank(); ++d)
    w = w.reverse(d);
  if (w.shape() != weightsOut.shape())
    raise<poputil::poplibs_error>(api, ": weightsOut ", shapeText(weightsOut.shape()),
                                  " should be ", shapeText(w.shape()));
  prog.add(Copy(w, weightsOut, false, {debugContext, api}));
  (void)graph;
}

Tensor calculateWeightDeltas(Graph &graph, const Tensor &zDeltas, const Tensor &activations,
                             const ConvParams &params, Sequence &prog,
                             const DebugContext &debugContext, const OptionFlags &options,
                             PlanningCache *cache) {
  const std::string api = "poplin::calculateWeightDeltas";
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(zDeltas, activations), api);
  checkParams(api, params);
  checkTensor(api, "activations", activations, inputShape(params), params.inputType);
  checkTensor(api, "zDeltas", zDeltas, outputShape(params), params.outputType);
  // dW[g] (as the [K][N] weights matrix) = A[g]^T . Z[g]: a grouped matmul with M = K.
  Tensor a = internal::inputAsMatrix(graph, params, activations).dimShuffle({0, 2, 1});
  Tensor z = internal::matrixFromOutput(params, internal::unpadOutput(params, zDeltas));
  if (params.outputType != params.inputType)
    z = popops::cast(graph, z, params.inputType, prog, {di, "zDeltas"});
  internal::MatMulProblem problem;
  problem.groups = unsigned(a.dim(0));
  problem.m = unsigned(a.dim(1));
  problem.k = unsigned(a.dim(2));
  problem.n = unsigned(z.dim(2));
  problem.inputType = params.inputType;
  problem.outputType = params.inputType;
  const auto &plan = planOf(graph.getTarget(), api, problem, options, cache);
  Tensor dW = internal::createOperand(graph, plan, MatMulOperand::Output, params.inputType,
                                      {di, "weightDeltas"});
  internal::addMatMul(graph, plan, a, z, dW, prog, {di});
  Tensor result = internal::weightsFromMatrix(params, dW);
  di.addOutput(result);
  return result;
}

/// weights += scale.dW, scale a float or a one-element tensor.
template <class Scale>
static void weightUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &weights,
                         const Tensor &activations, const ConvParams &params, const Scale &scale,
                         Sequence &prog, const DebugContext &debugContext,
                         const OptionFlags &options, PlanningCache *cache) {
  checkTensor("poplin::convolutionWeightUpdate", "weights", weights, weightsShape(params),
              params.inputType);
  Tensor dW = calculateWeightDeltas(graph, zDeltas, activations, params, prog, debugContext,
                                    options, cache);
  popops::scaledAddTo(graph, weights, dW, scale, prog, debugContext);
}

void convolutionWeightUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &weights,
                             const Tensor &activations, ConvParams params, const Tensor &scale,
                             Sequence &prog, const DebugContext &debugContext,
                             const OptionFlags &options, PlanningCache *cache) {
  weightUpdate(graph, zDeltas, weights, activations, params, scale, prog, debugContext, options,
               cache);
}

void convolutionWeightUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &weights,
                             const Tensor &activations, ConvParams params, float scale,
                             Sequence &prog, const DebugContext &debugContext,
                             const OptionFlags &options, PlanningCache *cache) {
  weightUpdate(graph, zDeltas, weights, activations, params, scale, prog, debugContext, options,
               cache);
}

Tensor createBiases(Graph &graph, const Tensor &acts, const DebugContext &debugContext) {
  if (acts.rank() < 2)
    raise<poputil::poplibs_error>("poplin::createBiases: activations ", shapeText(acts.shape()),
                                  " should be [batch][chans][field...]");
  Tensor b = graph.addVariable(acts.elementType(), {acts.dim(1)}, debugContext);
  poputil::mapTensorLinearly(graph, b);
  return b;
}

Tensor createBiases(Graph &graph, const Tensor &acts, const ConvParams &, const DebugContext &dc,
                    const OptionFlags &, PlanningCache *) {
  return createBiases(graph, acts, dc);
}

/// `biases` ([chans]) as a view with the shape of `acts` ([batch][chans][field...]).
static Tensor biasesLike(const std::string &api, const Tensor &acts, const Tensor &biases) {
  if (acts.rank() < 2 || biases.rank() != 1 || biases.dim(0) != acts.dim(1))
    raise<poputil::poplibs_error>(api, ": biases ", shapeText(biases.shape()),
                                  " do not match the channels of activations ",
                                  shapeText(acts.shape()));
  std::vector<std::size_t> shape(acts.rank(), 1);
  shape[1] = biases.dim(0);
  Tensor b = biases.reshape(shape);
  for (unsigned d = 0; d < acts.rank(); ++d)
    if (d != 1)
      b = b.broadcast(unsigned(acts.dim(d)), d);
  return b;
}

void addBias(Graph &graph, const Tensor &acts, const Tensor &biases, Sequence &prog,
             const DebugContext &debugContext) {
  popops::addInPlace(graph, acts, biasesLike("poplin::addBias", acts, biases), prog,
                     {debugContext, "addBias"});
}

/// biases += scale . (zDeltas summed over batch and field), scale a float or a tensor.
template <class Scale>
static void biasUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &biases,
                       const Scale &scale, Sequence &prog, const DebugContext &debugContext) {
  biasesLike("poplin::convolutionBiasUpdate", zDeltas, biases);
  std::vector<std::size_t> dims = {0};
  for (unsigned d = 2; d < zDeltas.rank(); ++d)
    dims.push_back(d);
  Tensor sums = popops::reduce(graph, zDeltas, biases.elementType(), dims, {popops::Operation::ADD},
                               prog, {debugContext, "biasDeltas"});
  popops::scaledAddTo(graph, biases, sums, scale, prog, debugContext);
}

void convolutionBiasUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &biases,
                           const Tensor &scale, const OptionFlags &, Sequence &prog,
                           const DebugContext &debugContext) {
  biasUpdate(graph, zDeltas, biases, scale, prog, debugContext);
}

void convolutionBiasUpdate(Graph &graph, const Tensor &zDeltas, const Tensor &biases, float scale,
                           const OptionFlags &, Sequence &prog, const DebugContext &debugContext) {
  biasUpdate(graph, zDeltas, biases, scale, prog, debugContext);
}

void reportPlanInfo(std::ostream &out, const Graph &graph, const ConvParams &params,
                    const OptionFlags &options, PlanningCache *cache) {
  const std::string api = "poplin::reportPlanInfo";
  checkParams(api, params);
  out << "  Convolution as a matmul: kernel positions folded into the input channels\n";
  internal::printPlan(
      out, planOf(graph.getTarget(), api, internal::matMulProblemOf(params), options, cache),
      graph.getTarget().getNumTiles());
}

PlanCosts reportPlanEstimatedCosts(const Graph &graph, const ConvParams &params,
                                   const OptionFlags &options, PlanningCache *cache) {
  const std::string api = "poplin::reportPlanEstimatedCosts";
  checkParams(api, params);
  const auto &plan =
      planOf(graph.getTarget(), api, internal::matMulProblemOf(params), options, cache);
  return {std::size_t(plan.cost.cycles()), std::size_t(plan.cost.tempBytes)};
}

void preplanConvolutions(const std::set<ConvPlanParams> &convs, PlanningCache &cache) {
  for (const auto &[target, params, options] : convs) {
    checkParams("poplin::preplanConvolutions", params);
    planOf(*target, "poplin::preplanConvolutions", internal::matMulProblemOf(params),
           options ? *options : OptionFlags{}, &cache);
  }
}

void preplanConvolutions(Graph &, const std::set<ConvPlanParams> &convs, PlanningCache &cache) {
  preplanConvolutions(convs, cache);
}

std::uint64_t getFwdFlops(const ConvParams &params) { return 2 * macs(params); }
std::uint64_t getBwdFlops(const ConvParams &params) { return 2 * macs(params); }
std::uint64_t getWuFlops(const ConvParams &params) { return 2 * macs(params); }

static double perfectCycles(const Graph &graph, const ConvParams &params) {
  const Target &t = graph.getTarget();
  return double(macs(params)) /
         (double(t.getNumTiles()) * internal::ampMacsPerCycle(params.inputType));
}
double getFwdPerfectCycleCount(const Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params);
}
double getBwdPerfectCycleCount(const Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params);
}
double getWuPerfectCycleCount(const Graph &graph, const ConvParams &params) {
  return perfectCycles(graph, params);
}

} // namespace poplin
