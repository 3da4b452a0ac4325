// The tutorial MLP (784 -> 512 -> 512 -> 512 -> 10, GELU between) built with PopXL's C++ API:
// its graph (fc2 and fc3 two calls of one outlined Linear graph), a training program (the
// forward call, cross-entropy, a call of the autodiff gradient graph, SGD) and a test program.
// Header-only, so that the tutorial builds with one g++ command; bench/popxl_mlp.cpp uses it too.
#ifndef POPXL_TUTORIAL_MLP_HPP
#define POPXL_TUTORIAL_MLP_HPP

#include <popxl/Autodiff.hpp>
#include <popxl/Ir.hpp>

#include <algorithm>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace mlp {

using popxl::DType;
using popxl::GraphId;
using popxl::Ir;
using popxl::StreamId;
using popxl::TensorId;
using popxl::TensorSpec;

constexpr std::int64_t kImage = 28 * 28, kHidden = 512, kClasses = 10;

template <typename T> std::vector<std::uint8_t> bytesOf(const std::vector<T> &values) {
  std::vector<std::uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

template <typename T> std::vector<T> valuesOf(const std::vector<std::uint8_t> &bytes) {
  std::vector<T> values(bytes.size() / sizeof(T));
  std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

/// Op `type` in graph `g`; its first output.
inline TensorId op(Ir &ir, GraphId g, const std::string &type, const std::vector<TensorId> &inputs,
                   const popxl::Attributes &attrs = {}) {
  return ir.createOp(g, type, inputs, attrs, type).at(0);
}

/// The parameters in the order the net graph takes them (after the image), with their shapes.
struct Parameter {
  std::string name;
  std::vector<std::int64_t> shape;
};
inline std::vector<Parameter> parameters() {
  const std::int64_t widths[] = {kImage, kHidden, kHidden, kHidden, kClasses};
  std::vector<Parameter> params;
  for (int layer = 0; layer < 4; ++layer) {
    const std::string name = "fc" + std::to_string(layer + 1);
    params.push_back({name + ".weight", {widths[layer], widths[layer + 1]}});
    params.push_back({name + ".bias", {widths[layer + 1]}});
  }
  return params;
}

/// Weights drawn from N(0, 0.02), biases zero (the tutorial's initialisation).
inline std::vector<std::vector<float>> initialValues(unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<float> normal(0.0f, 0.02f);
  std::vector<std::vector<float>> values;
  for (const Parameter &p : parameters()) {
    std::size_t n = 1;
    for (auto d : p.shape)
      n *= std::size_t(d);
    std::vector<float> v(n, 0.0f);
    if (p.shape.size() == 2)
      std::generate(v.begin(), v.end(), [&] { return normal(rng); });
    values.push_back(std::move(v));
  }
  return values;
}

/// A graph input of `g` for each parameter, after its other inputs.
inline std::vector<TensorId> parameterInputs(Ir &ir, GraphId g,
                                             const std::vector<Parameter> &params) {
  std::vector<TensorId> inputs;
  for (const Parameter &p : params)
    inputs.push_back(ir.addGraphInput(g, p.name, {p.shape, DType::Float32}));
  return inputs;
}

/// x @ weight + bias.
inline TensorId linear(Ir &ir, GraphId g, TensorId x, TensorId weight, TensorId bias) {
  return op(ir, g, "add", {op(ir, g, "matmul", {x, weight}), bias});
}

/// The net graph: inputs image [batch, 784] then the parameters, output the logits. fc2 and
/// fc3 are calls of one Linear graph (outlining: its code is made once), fc1 and fc4 inlined.
inline GraphId netGraph(Ir &ir, std::int64_t batch) {
  const GraphId hidden = ir.createGraph("linear_512");
  {
    const TensorId x = ir.addGraphInput(hidden, "x", {{batch, kHidden}, DType::Float32});
    const auto wb =
        parameterInputs(ir, hidden, {{"weight", {kHidden, kHidden}}, {"bias", {kHidden}}});
    ir.addGraphOutput(hidden, linear(ir, hidden, x, wb[0], wb[1]));
  }
  const GraphId net = ir.createGraph("net");
  TensorId x = ir.addGraphInput(net, "image", {{batch, kImage}, DType::Float32});
  const std::vector<TensorId> p = parameterInputs(ir, net, parameters());
  x = op(ir, net, "gelu", {linear(ir, net, x, p[0], p[1])});
  for (int layer : {1, 2})
    x = op(ir, net, "gelu",
           {ir.createOp(net, "call", {x, p[2 * layer], p[2 * layer + 1]}, {},
                        "fc" + std::to_string(layer + 1), {hidden})[0]});
  ir.addGraphOutput(net, linear(ir, net, x, p[6], p[7]));
  return net;
}

/// A main-graph program of the net: image and label streams in, its output stream, its
/// parameter variables (in parameters() order).
struct Program {
  Ir ir;
  StreamId images = 0, labels = 0, output = 0;
  std::vector<TensorId> variables;
};

/// The net's variables and its forward call in the main graph: {call inputs, call outputs}.
inline std::pair<std::vector<TensorId>, std::vector<TensorId>>
callNet(Program &p, GraphId net, TensorId image, const std::vector<std::vector<float>> &values) {
  Ir &ir = p.ir;
  std::vector<TensorId> args = {image};
  const auto params = parameters();
  for (std::size_t i = 0; i < params.size(); ++i) {
    p.variables.push_back(ir.addVariable(ir.mainGraph(), params[i].name,
                                         {params[i].shape, DType::Float32}, bytesOf(values[i])));
    args.push_back(p.variables.back());
  }
  return {args, ir.createOp(ir.mainGraph(), "call", args, {}, "net", {net})};
}

/// One SGD step a run: the loss of a batch (output stream: the mean loss, a float), its
/// gradients by every parameter from the autodiff gradient graph, and w -= lr * dw.
inline Program trainingProgram(std::int64_t batch, float lr,
                               const std::vector<std::vector<float>> &values) {
  Program p;
  Ir &ir = p.ir;
  const GraphId main = ir.mainGraph();
  p.images = ir.addStream("image", {{batch, kImage}, DType::Float32}, true);
  p.labels = ir.addStream("labels", {{batch}, DType::Int32}, true);
  const TensorId image = op(ir, main, "host_load", {}, {{"stream", std::int64_t(p.images)}});
  const TensorId labels = op(ir, main, "host_load", {}, {{"stream", std::int64_t(p.labels)}});

  const GraphId net = netGraph(ir, batch);
  // Gradients of the parameters only (not of the image): the net graph's inputs 1...
  const auto &netInputs = ir.graph(net).inputs;
  const popxl::GradGraphInfo grad =
      popxl::autodiff(ir, net, {}, std::vector<TensorId>(netInputs.begin() + 1, netInputs.end()));
  const auto [args, outs] = callNet(p, net, image, values);

  const TensorId probs = op(ir, main, "softmax", {outs[0]}, {{"axis", std::int64_t(-1)}});
  const auto lossAndGrad =
      ir.createOp(main, "nll_loss_with_softmax_grad", {probs, labels},
                  {{"reduction", std::string("mean")}, {"loss_grad", 1.0}}, "loss");
  // The gradient graph takes the logits' gradient, then forward values: the net's inputs or
  // outputs (those autodiff added, stitched), read at the forward call.
  auto atCall = [&, &args = args, &outs = outs](TensorId t) {
    const auto &g = ir.graph(net);
    auto in = std::find(g.inputs.begin(), g.inputs.end(), t);
    if (in != g.inputs.end())
      return args[std::size_t(in - g.inputs.begin())];
    return outs.at(
        std::size_t(std::find(g.outputs.begin(), g.outputs.end(), t) - g.outputs.begin()));
  };
  std::vector<TensorId> gradArgs;
  for (const auto &conn : grad.expectedInputs)
    gradArgs.push_back(conn.isGrad ? lossAndGrad[1] : atCall(conn.fwd));
  const auto grads = ir.createOp(main, "call", gradArgs, {}, "net_grad", {grad.graph});
  for (std::size_t k = 0; k < grad.expectedOutputs.size(); ++k)
    ir.createOp(main, "scaled_add_", {atCall(grad.expectedOutputs[k].fwd), grads[k]},
                {{"a", 1.0}, {"b", -double(lr)}}, "sgd");

  p.output = ir.addStream("loss", {{}, DType::Float32}, false);
  ir.createOp(main, "host_store", {lossAndGrad[0]}, {{"stream", std::int64_t(p.output)}}, "");
  return p;
}

/// The logits of a batch (output stream [batch, 10]), for the trained parameters written into
/// its variables.
inline Program testProgram(std::int64_t batch) {
  Program p;
  Ir &ir = p.ir;
  p.images = ir.addStream("image", {{batch, kImage}, DType::Float32}, true);
  const TensorId image =
      op(ir, ir.mainGraph(), "host_load", {}, {{"stream", std::int64_t(p.images)}});
  std::vector<std::vector<float>> zeros;
  for (const auto &v : initialValues(0))
    zeros.emplace_back(v.size(), 0.0f);
  const auto outs = callNet(p, netGraph(ir, batch), image, zeros).second;
  p.output = ir.addStream("logits", {{batch, kClasses}, DType::Float32}, false);
  ir.createOp(ir.mainGraph(), "host_store", {outs[0]}, {{"stream", std::int64_t(p.output)}}, "");
  return p;
}

} // namespace mlp

#endif
