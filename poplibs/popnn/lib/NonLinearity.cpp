// popnn non-linearities: RELU, SIGMOID and TANH forward through popops' unary ops (in a
// program), the other activations and every gradient through popnn's NonLinearity vertices, and
// the softmaxes composed of popops ops (Softmax.cpp).
#include <popnn/NonLinearity.hpp>
#include <popnn/NonLinearityDefUtil.hpp>

#include "Checks.hpp"
#include "Softmax.hpp"
#include "popops/lib/TileRegions.hpp"

#include <popops/ElementWise.hpp>
#include <poputil/DebugInfo.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include "support/Raise.hpp"

namespace popnn {

using namespace poplar;
using namespace poplar::program;
using popsdk::support::raise;

namespace {

bool isSoftmax(NonLinearityType type) {
  return type == NonLinearityType::SOFTMAX || type == NonLinearityType::SOFTMAX_STABLE ||
         type == NonLinearityType::SOFTMAX_SCALED;
}

float scalingOf(NonLinearityType type) {
  return type == NonLinearityType::SOFTMAX_SCALED ? float(SOFTMAX_SCALING) : 1.0f;
}

std::string vertexName(const std::string &templ, const Tensor &t, NonLinearityType type) {
  return poputil::templateVertex("popnn::" + templ, t.elementType(), type);
}

void checkActivations(const std::string &api, NonLinearityType type, const Tensor &t) {
  internal::checkFloatingPoint(api, "t", t);
  if (static_cast<unsigned>(type) > static_cast<unsigned>(NonLinearityType::SOFTMAX_SCALED))
    raise<poputil::poplibs_error>(api, ": unknown NonLinearityType ", static_cast<int>(type));
  if (isSoftmax(type) && t.rank() < 1)
    raise<poputil::poplibs_error>(api, ": ", type, " needs t of rank 1 or more; t is a scalar");
}

void rejectSoftmaxInComputeSet(const std::string &api, NonLinearityType type) {
  if (isSoftmax(type))
    raise<poputil::poplibs_error>(api, ": ", type,
                                  " is several compute sets (reductions and maps); use the form "
                                  "that takes a program::Sequence");
}

/// popops' op for the non-linearities popops has, in a program.
bool popopsOp(NonLinearityType type, popops::expr::UnaryOpType &op) {
  switch (type) {
  case NonLinearityType::RELU:
    op = popops::expr::UnaryOpType::RELU;
    return true;
  case NonLinearityType::SIGMOID:
    op = popops::expr::UnaryOpType::SIGMOID;
    return true;
  case NonLinearityType::TANH:
    op = popops::expr::UnaryOpType::TANH;
    return true;
  default:
    return false;
  }
}

void addInPlaceVertices(Graph &graph, NonLinearityType type, const Tensor &t, ComputeSet &cs,
                        const std::string &api) {
  Tensor flat = t.flatten();
  popops::internal::addElementwiseVertices(
      graph, cs, flat, api, vertexName("NonLinearity1DInPlace", t, type),
      vertexName("NonLinearity2DInPlace", t, type), {{"data", flat}});
}

} // namespace

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType, Tensor t,
                         float &nonLinearityScaling, ComputeSet &cs,
                         const DebugContext &debugContext) {
  const std::string api = "popnn::nonLinearityInPlace";
  checkActivations(api, nonLinearityType, t);
  rejectSoftmaxInComputeSet(api, nonLinearityType);
  nonLinearityScaling = 1.0f;
  addInPlaceVertices(graph, nonLinearityType, t, cs, api);
}

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType, Tensor t, ComputeSet &cs,
                         const DebugContext &debugContext) {
  float scaling;
  nonLinearityInPlace(graph, nonLinearityType, t, scaling, cs, debugContext);
}

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType, Tensor t,
                         float &nonLinearityScaling, Sequence &prog,
                         const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t));
  const std::string api = "popnn::nonLinearityInPlace";
  checkActivations(api, nonLinearityType, t);
  nonLinearityScaling = scalingOf(nonLinearityType);
  popops::expr::UnaryOpType op;
  if (isSoftmax(nonLinearityType)) {
    internal::softmaxInPlace(graph, t, nonLinearityType != NonLinearityType::SOFTMAX,
                             nonLinearityScaling, prog, {di, "softmax"});
  } else if (popopsOp(nonLinearityType, op)) {
    popops::mapInPlace(graph, op, t, prog, {di});
  } else {
    ComputeSet cs = graph.addComputeSet({di, asString(nonLinearityType)});
    addInPlaceVertices(graph, nonLinearityType, t, cs, api);
    prog.add(Execute(cs, {di}));
  }
}

void nonLinearityInPlace(Graph &graph, NonLinearityType nonLinearityType, Tensor t, Sequence &prog,
                         const DebugContext &debugContext) {
  float scaling;
  nonLinearityInPlace(graph, nonLinearityType, t, scaling, prog, debugContext);
}

Tensor nonLinearity(Graph &graph, NonLinearityType nonLinearityType, Tensor t,
                    float &nonLinearityScaling, Sequence &prog, const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(t));
  const std::string api = "popnn::nonLinearity";
  checkActivations(api, nonLinearityType, t);
  nonLinearityScaling = scalingOf(nonLinearityType);
  popops::expr::UnaryOpType op;
  Tensor out;
  if (isSoftmax(nonLinearityType)) {
    out = graph.clone(t, {di, "out"});
    prog.add(Copy(t, out, false, {di}));
    internal::softmaxInPlace(graph, out, nonLinearityType != NonLinearityType::SOFTMAX,
                             nonLinearityScaling, prog, {di, "softmax"});
  } else if (popopsOp(nonLinearityType, op)) {
    out = popops::map(graph, op, t, prog, {di});
  } else {
    out = graph.clone(t, {di, "out"});
    ComputeSet cs = graph.addComputeSet({di, asString(nonLinearityType)});
    Tensor flatOut = out.flatten();
    popops::internal::addElementwiseVertices(graph, cs, flatOut, api,
                                             vertexName("NonLinearity1D", t, nonLinearityType),
                                             vertexName("NonLinearity2D", t, nonLinearityType),
                                             {{"data", t.flatten()}, {"out", flatOut}});
    prog.add(Execute(cs, {di}));
  }
  di.addOutput(out);
  return out;
}

Tensor nonLinearity(Graph &graph, NonLinearityType nonLinearityType, Tensor t, Sequence &prog,
                    const DebugContext &debugContext) {
  float scaling;
  return nonLinearity(graph, nonLinearityType, t, scaling, prog, debugContext);
}

namespace {

void checkGradientArgs(const std::string &api, NonLinearityType type, const Tensor &act,
                       const Tensor &outGradient) {
  checkActivations(api, type, act);
  internal::checkShape(api, "outGradient", outGradient, act.shape());
  internal::checkType(api, "outGradient", outGradient, act.elementType());
}

} // namespace

Tensor nonLinearityInputGradient(Graph &graph, NonLinearityType nonLinearityType, Tensor act,
                                 Tensor outGradient, ComputeSet &cs,
                                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(act, outGradient));
  const std::string api = "popnn::nonLinearityInputGradient";
  checkGradientArgs(api, nonLinearityType, act, outGradient);
  rejectSoftmaxInComputeSet(api, nonLinearityType);
  Tensor inGrad = graph.clone(outGradient, {di, "inGradient"});
  Tensor flat = inGrad.flatten();
  popops::internal::addElementwiseVertices(
      graph, cs, flat, api, vertexName("NonLinearityGrad1D", act, nonLinearityType),
      vertexName("NonLinearityGrad2D", act, nonLinearityType),
      {{"outGrad", outGradient.flatten()}, {"out", act.flatten()}, {"inGrad", flat}});
  di.addOutput(inGrad);
  return inGrad;
}

Tensor nonLinearityInputGradient(Graph &graph, NonLinearityType nonLinearityType, Tensor act,
                                 Tensor outGradient, Sequence &prog,
                                 const DebugContext &debugContext) {
  poputil::PoplibsOpDebugInfo di(debugContext, DI_ARGS(act, outGradient));
  const std::string api = "popnn::nonLinearityInputGradient";
  checkGradientArgs(api, nonLinearityType, act, outGradient);
  if (isSoftmax(nonLinearityType))
    return internal::softmaxInputGradient(graph, act, outGradient, scalingOf(nonLinearityType),
                                          prog, {di, "softmaxGrad"});
  ComputeSet cs = graph.addComputeSet({di, asString(nonLinearityType)});
  Tensor inGrad = nonLinearityInputGradient(graph, nonLinearityType, act, outGradient, cs, {di});
  prog.add(Execute(cs, {di}));
  return inGrad;
}

} // namespace popnn
