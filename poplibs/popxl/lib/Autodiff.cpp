// Autodiff: walks the forward graph's ops backwards from the provided gradients, applying each
// op's gradient rule (the op table) in a new graph and summing the gradients a tensor receives
// from several uses. Forward values a rule needs become inputs of the gradient graph and, when
// they were intermediates, outputs of the forward graph (PopXL's stitching). Graphs the forward
// graph calls are differentiated by Builders of their own, once each (the call's rule).
#include <popxl/Autodiff.hpp>

#include "AliasClasses.hpp"
#include "OpTable.hpp"

#include <poplar/HalfFloat.hpp>

#include <algorithm>
#include <cstring>
#include <map>
#include <set>
#include <vector>

namespace popxl {

namespace {

constexpr OpId kNoProducer = ~std::size_t(0); // TensorInfo::producer of a tensor no op made

class Builder : public internal::GradContext {
public:
  /// `all`: the gradient graphs made or given so far, by forward graph; `active`: the graphs
  /// being differentiated (a graph that calls itself cannot be).
  Builder(Ir &ir, GraphId forward, GradGraphInfos &all, std::set<GraphId> &active)
      : ir_(ir), forward_(forward), all_(all), active_(active) {
    info_.forward = forward;
    info_.graph = ir.createGraph(ir.graph(forward).name + "_grad");
  }

  Ir &ir() override { return ir_; }

  std::optional<TensorId> outputGrad(const OpInfo &op, std::size_t i) override {
    auto it = grads_.find(op.outputs.at(i));
    if (it == grads_.end())
      return std::nullopt;
    return it->second;
  }

  TensorId fwd(TensorId t) override {
    auto it = values_.find(t);
    if (it != values_.end())
      return it->second;
    checkNotOverwritten(t);
    const TensorInfo info = ir_.tensor(t); // a copy: stitching adds tensors to the calls
    TensorId value;
    if (info.kind == TensorKind::Constant) {
      value = ir_.addConstant(info_.graph, info.name, info.spec, info.data);
    } else {
      const auto &outs = ir_.graph(forward_).outputs;
      if (info.kind == TensorKind::Intermediate &&
          std::find(outs.begin(), outs.end(), t) == outs.end())
        ir_.addGraphOutput(forward_, t); // stitch: expose the intermediate
      value = ir_.addGraphInput(info_.graph, info.name, info.spec);
      info_.expectedInputs.push_back({t, false});
    }
    values_[t] = value;
    return value;
  }

  /// A gradient reads forward values after the forward graph has run, so a value that an op
  /// of the graph later writes in place (relu_'s output under exp_) would be read changed: an
  /// error naming both ops. Memory is shared as the scheduler sees it (AliasClasses).
  void checkNotOverwritten(TensorId t) const {
    auto effects = [&](const OpInfo &op) { return internal::opRow(op.type).effects(ir_, op); };
    const std::vector<OpId> &ops = ir_.graph(forward_).ops;
    internal::AliasClasses aliases;
    for (OpId o : ops) {
      const OpInfo &op = ir_.op(o);
      if (effects(op).outputAliasesInput)
        aliases.join(op.outputs.at(0), op.inputs.at(0));
    }
    const TensorId memory = aliases.root(t);
    const OpId made = ir_.tensor(t).producer;
    bool after = made == kNoProducer;
    for (OpId o : ops) {
      const OpInfo &op = ir_.op(o);
      if (after)
        for (std::size_t i : effects(op).modifiedInputs)
          if (aliases.root(op.inputs.at(i)) == memory)
            throw error("popxl.autodiff: the gradient needs '" + ir_.tensor(t).name +
                        "', which op '" + op.name + "' (" + op.type +
                        ") later overwrites in place; use the op's out-of-place form");
      after = after || o == made;
    }
  }

  bool wantsGrad(const OpInfo &op, std::size_t i) override {
    return wanted_.count(op.inputs.at(i)) != 0;
  }

  void addInputGrad(const OpInfo &op, std::size_t i, TensorId grad) override {
    if (!wantsGrad(op, i))
      return;
    const TensorId t = op.inputs.at(i);
    auto it = grads_.find(t);
    grads_[t] = it == grads_.end() ? grad : this->op("add", {it->second, grad});
  }

  TensorId op(const std::string &type, const std::vector<TensorId> &inputs,
              const Attributes &attrs = {}) override {
    return opOutputs(type, inputs, attrs).at(0);
  }

  std::vector<TensorId> opOutputs(const std::string &type, const std::vector<TensorId> &inputs,
                                  const Attributes &attrs = {},
                                  const std::vector<GraphId> &calledGraphs = {}) override {
    return ir_.createOp(info_.graph, type, inputs, attrs, type + "_grad", calledGraphs);
  }

  TensorId zeros(const TensorSpec &spec) override {
    std::vector<std::uint8_t> bytes(spec.numElements() * dtypeSize(spec.dtype));
    return ir_.addConstant(info_.graph, "zeros", spec, bytes);
  }

  GradGraphInfo calledGradGraph(GraphId called) override {
    auto it = all_.find(called);
    if (it != all_.end())
      return it->second;
    if (active_.count(called))
      throw error("popxl.autodiff: graph '" + ir_.graph(called).name +
                  "' calls itself: it cannot be differentiated");
    auto floats = [&](const std::vector<TensorId> &ts) {
      std::vector<TensorId> out;
      for (TensorId t : ts)
        if (isFloat(ir_.tensor(t).spec.dtype))
          out.push_back(t);
      return out;
    };
    // Before the Builder, which adds a graph (and so may move the one read here).
    const std::vector<TensorId> provided = floats(ir_.graph(called).outputs),
                                required = floats(ir_.graph(called).inputs);
    Builder builder(ir_, called, all_, active_);
    return all_[called] = builder.build(provided, required);
  }

  TensorId scalar(double value, DType dtype) override {
    std::vector<std::uint8_t> bytes(dtypeSize(dtype));
    const float f = float(value);
    if (dtype == DType::Float32) {
      std::memcpy(bytes.data(), &f, 4);
    } else if (dtype == DType::Float16) {
      const std::uint16_t h = poplar::floatToHalf(f);
      std::memcpy(bytes.data(), &h, 2);
    } else {
      throw error("popxl.autodiff: scalar constants of " + std::string(dtypeName(dtype)) +
                  " are not supported yet");
    }
    return ir_.addConstant(info_.graph, "scalar", {{}, dtype}, bytes);
  }

  GradGraphInfo build(const std::vector<TensorId> &provided,
                      const std::vector<TensorId> &required) {
    checkInForward(provided, "grads_provided");
    checkInForward(required, "grads_required");
    active_.insert(forward_);
    for (TensorId t : provided) {
      const TensorInfo info = ir_.tensor(t);
      grads_[t] = ir_.addGraphInput(info_.graph, info.name + "_grad", info.spec);
      info_.expectedInputs.push_back({t, true});
    }
    // A tensor's gradient is needed when it is required or made by an op with an input whose
    // gradient is needed; ops with no such input are not differentiated.
    const std::vector<OpId> ops = ir_.graph(forward_).ops;
    auto anyInputWanted = [&](const OpInfo &op) {
      return std::any_of(op.inputs.begin(), op.inputs.end(),
                         [&](TensorId t) { return wanted_.count(t) != 0; });
    };
    wanted_.insert(required.begin(), required.end());
    for (OpId o : ops)
      if (anyInputWanted(ir_.op(o)))
        wanted_.insert(ir_.op(o).outputs.begin(), ir_.op(o).outputs.end());
    // Reverse creation order is a reverse topological order of the data.
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      const OpInfo op = ir_.op(*it); // a copy: the rules add ops, which may move the table
      if (anyInputWanted(op))
        internal::opRow(op.type).grad(*this, op);
    }
    for (TensorId t : required) {
      auto g = grads_.find(t);
      // Nothing depends on it: a zero gradient.
      const TensorId grad = g != grads_.end() ? g->second : zeros(ir_.tensor(t).spec);
      ir_.addGraphOutput(info_.graph, grad);
      info_.expectedOutputs.push_back({t, true});
    }
    active_.erase(forward_);
    return info_;
  }

private:
  static bool isFloat(DType t) { return t == DType::Float32 || t == DType::Float16; }

  void checkInForward(const std::vector<TensorId> &ts, const char *what) const {
    for (TensorId t : ts)
      if (ir_.tensor(t).graph != forward_)
        throw error(std::string("popxl.autodiff: ") + what + " '" + ir_.tensor(t).name +
                    "' is not in graph '" + ir_.graph(forward_).name + "'");
  }

  Ir &ir_;
  GraphId forward_;
  GradGraphInfos &all_;
  std::set<GraphId> &active_;
  GradGraphInfo info_;
  std::map<TensorId, TensorId> grads_;  // forward tensor -> its gradient (gradient graph)
  std::map<TensorId, TensorId> values_; // forward tensor -> its value (gradient graph)
  std::set<TensorId> wanted_;           // forward tensors whose gradient is needed
};

} // namespace

GradGraphInfos autodiffAll(Ir &ir, GraphId forward, std::vector<TensorId> gradsProvided,
                           std::vector<TensorId> gradsRequired,
                           const GradGraphInfos &calledGraphsGradInfo) {
  if (forward == ir.mainGraph())
    throw error("popxl.autodiff: differentiate a graph made with create_graph, not the main "
                "graph");
  const GraphInfo &g = ir.graph(forward);
  if (gradsProvided.empty())
    gradsProvided = g.outputs;
  if (gradsRequired.empty())
    gradsRequired = g.inputs;
  GradGraphInfos all = calledGraphsGradInfo;
  std::set<GraphId> active;
  const GradGraphInfo info = Builder(ir, forward, all, active).build(gradsProvided, gradsRequired);
  all[forward] = info;
  return all;
}

GradGraphInfo autodiff(Ir &ir, GraphId forward, std::vector<TensorId> gradsProvided,
                       std::vector<TensorId> gradsRequired,
                       const GradGraphInfos &calledGraphsGradInfo) {
  return autodiffAll(ir, forward, std::move(gradsProvided), std::move(gradsRequired),
                     calledGraphsGradInfo)
      .at(forward);
}

} // namespace popxl
