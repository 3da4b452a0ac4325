// The op table's row type and the functions its rows name (Ops.def).
#pragma once

#include <popxl/Autodiff.hpp>
#include <popxl/Ir.hpp>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplin/PlanningCache.hpp>

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace popxl::internal {

/// A called graph lowered once: its inputs' and outputs' tensors and the function running it.
struct LoweredGraph {
  std::vector<poplar::Tensor> inputs, outputs;
  poplar::Function function;
};

/// What lowering an op needs: the Poplar graph and the program being built, the Poplar tensor
/// of every IR tensor lowered so far, the host streams, the called graphs' functions, and the
/// plans of matmuls and convolutions (shared with the layout hooks, so that an operand created
/// for an op and the op's lowering use one plan).
struct LowerContext {
  const Ir &ir;
  poplar::Graph &graph;
  poplin::PlanningCache &planCache;
  poplar::program::Sequence &prog;
  std::vector<poplar::Tensor> &tensors;     // by TensorId
  std::vector<poplar::DataStream> &streams; // by StreamId
  std::function<const LoweredGraph &(GraphId)> lowerGraph;
  /// Lowers the ops of a graph into a sequence, on the tensors bound to its inputs (inlining).
  std::function<void(GraphId, poplar::program::Sequence &)> lowerOps;
  const poplar::Tensor &in(const OpInfo &op, std::size_t i) const {
    return tensors.at(op.inputs.at(i));
  }
  void setOut(const OpInfo &op, std::size_t i, const poplar::Tensor &t) const {
    tensors.at(op.outputs.at(i)) = t;
  }
};

/// What a gradient rule needs, while autodiff builds the gradient graph: the gradient of each
/// output of the op (if any), each forward tensor's value in the gradient graph, and where to
/// add the gradient of each input.
class GradContext {
public:
  virtual ~GradContext() = default;
  virtual Ir &ir() = 0;
  /// The gradient of output `i` of the op, or nullopt when nothing depends on it.
  virtual std::optional<TensorId> outputGrad(const OpInfo &op, std::size_t i) = 0;
  /// The value of forward tensor `t` in the gradient graph (an input of it).
  virtual TensorId fwd(TensorId t) = 0;
  /// Whether the gradient of the op's input `i` is needed (leads to a required gradient); rules
  /// skip the costly ones that are not.
  virtual bool wantsGrad(const OpInfo &op, std::size_t i) = 0;
  /// Adds `grad` (a gradient-graph tensor) to the gradient of the op's input `i` (nothing when
  /// it is not wanted).
  virtual void addInputGrad(const OpInfo &op, std::size_t i, TensorId grad) = 0;
  /// An op in the gradient graph; its first output.
  virtual TensorId op(const std::string &type, const std::vector<TensorId> &inputs,
                      const Attributes &attrs = {}) = 0;
  /// An op in the gradient graph; all its outputs.
  virtual std::vector<TensorId> opOutputs(const std::string &type,
                                          const std::vector<TensorId> &inputs,
                                          const Attributes &attrs = {},
                                          const std::vector<GraphId> &calledGraphs = {}) = 0;
  /// A scalar constant of `dtype` in the gradient graph.
  virtual TensorId scalar(double value, DType dtype) = 0;
  /// A constant of zeros of `spec` in the gradient graph.
  virtual TensorId zeros(const TensorSpec &spec) = 0;
  /// The gradient graph of a graph the forward graph calls (made once, then reused); making it
  /// may add outputs to that graph and so to its calls.
  virtual GradGraphInfo calledGradGraph(GraphId called) = 0;
  /// A copy: the rules add tensors, which may move the table a reference would point into.
  TensorSpec spec(TensorId t) { return ir().tensor(t).spec; }
};

/// What the scheduler must know of an op beyond the inputs it reads and the outputs it makes:
/// the inputs it writes in place, whether its output 0 is input 0 or a view of it (so that
/// writes to one show in the other), and the host streams it transfers on (a stream is a FIFO,
/// so its transfers keep their order).
struct Effects {
  std::vector<std::size_t> modifiedInputs;
  bool outputAliasesInput = false;
  std::vector<StreamId> streams;
};

/// What an op's create-input hook needs: the graph, the plan cache the lowering uses, and the
/// layout the consumers of another tensor prefer (an invalid Tensor when none does): the hooks
/// of views and calls pass their output's or their graph input's preference on to their input.
struct LayoutContext {
  const Ir &ir;
  poplar::Graph &graph;
  poplin::PlanningCache &planCache;
  std::function<poplar::Tensor(TensorId)> preferred;
};

using InferFn = std::vector<TensorSpec> (*)(const Ir &, const OpInfo &);
using LowerFn = void (*)(const LowerContext &, const OpInfo &);
using GradFn = void (*)(GradContext &, const OpInfo &);
using EffectsFn = Effects (*)(const Ir &, const OpInfo &);
/// A new tensor of the shape and type of the op's input `i`, laid out as the op reads that input
/// best; an invalid Tensor when the op has no preference for it.
using LayoutFn = poplar::Tensor (*)(const LayoutContext &, const OpInfo &, std::size_t i);

struct OpRow {
  const char *type;
  InferFn infer;
  LowerFn lower;
  GradFn grad;
  EffectsFn effects;
  LayoutFn layout;
};

/// The rule of ops without a gradient: an error if autodiff needs one.
void noGrad(GradContext &, const OpInfo &);
/// Effects of ops that only read their inputs; of views (output 0 a view of input 0); of
/// in-place updates of input 0 (output 0 is it).
Effects noEffects(const Ir &, const OpInfo &);
Effects effectsView(const Ir &, const OpInfo &);
Effects effectsInPlace(const Ir &, const OpInfo &);
/// The layout hook of ops without a preference: an invalid Tensor.
poplar::Tensor noLayout(const LayoutContext &, const OpInfo &, std::size_t);
/// `grad` summed over the dimensions numpy broadcasting added or stretched, so that it has
/// `shape`: the gradient of a broadcast operand.
TensorId sumToShape(GradContext &c, TensorId grad, const std::vector<std::int64_t> &shape);

/// The row of `type`; throws popxl::error naming the op for a type the table does not hold.
const OpRow &opRow(const std::string &type);

// Helpers for infer functions.
const TensorSpec &inputSpec(const Ir &ir, const OpInfo &op, std::size_t i);
/// Throws popxl::error: "<type> (<name>): <message>".
[[noreturn]] void opError(const OpInfo &op, const std::string &message);
std::vector<std::int64_t> intsAttr(const OpInfo &op, const std::string &key);
std::int64_t intAttr(const OpInfo &op, const std::string &key);
double floatAttr(const OpInfo &op, const std::string &key);
std::string stringAttr(const OpInfo &op, const std::string &key);
bool hasAttr(const OpInfo &op, const std::string &key);
/// `axis` counted from the end when negative; an error naming the op unless -rank <= axis < rank.
std::size_t normaliseAxis(const OpInfo &op, std::int64_t axis, std::size_t rank);
/// numpy's broadcast of two shapes; an error naming the op and both shapes when they do not.
std::vector<std::int64_t> broadcastShapes(const OpInfo &op, const std::vector<std::int64_t> &a,
                                          const std::vector<std::int64_t> &b);
/// "(2, 3)"
std::string shapeText(const std::vector<std::int64_t> &shape);

/// gather's output shape: t.shape[:axis] + indices.shape + t.shape[axis+1:] (attribute "axis");
/// an error naming the op for a scalar t or indices that are not int32/uint32.
std::vector<std::int64_t> gatheredShape(const OpInfo &op, const TensorSpec &t,
                                        const TensorSpec &indices);
/// target[..., indices[i], ...] += scale * rows[..., i, ...] along `axis`, rows shaped as a
/// gather of target at indices (popops::multiUpdateAdd; repeated indices add up).
void addGatheredRows(const LowerContext &c, const poplar::Tensor &target,
                     const poplar::Tensor &rows, const poplar::Tensor &indices, std::size_t axis,
                     const poplar::Tensor &scale, const std::string &name);

/// Whether the call of `g` is lowered inline: nothing but one `call` calls it (CallInline.cpp).
/// Its inputs then get no Poplar tensors from the layout pass; the caller's are bound to them.
bool isInlined(const Ir &ir, GraphId g);
/// Lowers a call inline when its graph is inlined (CallInline.cpp); false otherwise, and when a
/// tensor passed by reference and written is also passed at another input (the call then runs
/// the graph as a function).
bool lowerCallInline(const LowerContext &c, const OpInfo &op);

poplar::Type poplarType(DType t);
std::vector<std::size_t> poplarShape(const std::vector<std::int64_t> &shape);

#define POPXL_OP(type, infer, lower, grad, effects, layout)                                        \
  std::vector<TensorSpec> infer(const Ir &, const OpInfo &);                                       \
  void lower(const LowerContext &, const OpInfo &);                                                \
  void grad(GradContext &, const OpInfo &);                                                        \
  Effects effects(const Ir &, const OpInfo &);                                                     \
  poplar::Tensor layout(const LayoutContext &, const OpInfo &, std::size_t);
#include "Ops.def"

} // namespace popxl::internal
