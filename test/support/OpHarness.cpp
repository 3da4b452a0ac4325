// OpHarness: graph set-up, host transfers and one run.
#include "OpHarness.hpp"

#include <popops/codelets.hpp>
#include <poputil/TileMapping.hpp>

#include <stdexcept>
#include <utility>

namespace popsdk::test {

using namespace poplar;

OpHarness::OpHarness(unsigned tiles) : OpHarness(testDevice(tiles)) {}

OpHarness::OpHarness(Device device) : device_(std::move(device)), graph_(device_.getTarget()) {
  useBuildTreeTools();
  popops::addCodelets(graph_);
}

Tensor OpHarness::input(const std::string &name, Type type, const std::vector<std::size_t> &shape,
                        const std::vector<double> &values) {
  Tensor t = graph_.addVariable(type, shape, name);
  poputil::mapTensorLinearly(graph_, t);
  write(name, t, values);
  return t;
}

void OpHarness::write(const std::string &name, const Tensor &t, const std::vector<double> &values) {
  if (values.size() != t.numElements())
    throw std::invalid_argument("OpHarness::write: " + name + " has " +
                                std::to_string(t.numElements()) + " elements, given " +
                                std::to_string(values.size()));
  graph_.createHostWrite("in:" + name, t);
  inputs_[name] = {t, values};
}

void OpHarness::output(const std::string &name, const Tensor &t) {
  graph_.createHostRead("out:" + name, t);
  outputs_[name] = {t, {}};
}

void OpHarness::run(const OptionFlags &engineOptions) {
  engine_ = std::make_unique<Engine>(graph_, prog_, engineOptions);
  Engine &engine = *engine_;
  engine.load(device_);
  for (const auto &[name, in] : inputs_) {
    auto bytes = toDevice(in.tensor.elementType(), in.values);
    engine.writeTensor("in:" + name, bytes.data(), bytes.data() + bytes.size());
  }
  engine.run(0);
  cycles_ = engine.getLastRunCycles();
  for (auto &[name, out] : outputs_) {
    std::vector<std::uint8_t> bytes(out.tensor.numElements() * out.tensor.elementType().size());
    engine.readTensor("out:" + name, bytes.data(), bytes.data() + bytes.size());
    out.values = fromDevice(out.tensor.elementType(), bytes);
  }
}

std::uint64_t OpHarness::runAgain() {
  if (!engine_)
    throw std::logic_error("OpHarness::runAgain: call run() first");
  engine_->run(0);
  return engine_->getLastRunCycles();
}

const std::vector<double> &OpHarness::result(const std::string &name) const {
  auto it = outputs_.find(name);
  if (it == outputs_.end())
    throw std::invalid_argument("OpHarness::result: no output named " + name);
  return it->second.values;
}

} // namespace popsdk::test
