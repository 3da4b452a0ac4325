// popxl::Session: the Ir lowered to one Poplar graph and program (variables and constants
// created and written from the host, ops lowered through the op table in each graph's order),
// compiled into an Engine on a simulated IPU (or loaded from the executable cache), and run with
// host streams.
#include <popxl/Session.hpp>

#include "ExecutableCache.hpp"
#include "Layout.hpp"
#include "OpTable.hpp"

#include <poplar/Engine.hpp>
#include <poplar/IPUModel.hpp>
#include <poplin/codelets.hpp>
#include <popnn/codelets.hpp>
#include <popops/codelets.hpp>
#include <poprand/codelets.hpp>

#include <cstdlib>
#include <cstring>
#include <set>

namespace popxl {

using namespace poplar;
using namespace poplar::program;

namespace {

/// "cpu" is Poplar's CPU device, as in PopXL: the whole program on one tile (no exchange), run
/// by one host thread; "ipu_model" and "ipu_hw" are a whole ipu2 model.
Device createDevice(const std::string &name) {
  if (name == "cpu")
    return Device::createCPUDevice();
  if (name != "ipu_model" && name != "ipu_hw")
    throw error("popxl.Session: device_desc must be 'ipu_hw', 'ipu_model' or 'cpu', got '" + name +
                "'");
  return IPUModel("ipu2").createDevice();
}

// Handles of a variable's host write and host read (Poplar's handles are one namespace).
std::string writeHandle(TensorId t) { return "popxl_write_" + std::to_string(t); }
std::string readHandle(TensorId t) { return "popxl_read_" + std::to_string(t); }
std::string streamHandle(StreamId s) { return "popxl_stream_" + std::to_string(s); }

} // namespace

struct Session::Impl {
  const Ir ir;
  std::map<GraphId, internal::LoweredGraph> lowered;
  std::set<GraphId> lowering; // graphs being lowered: a graph that calls itself is an error
  Device device;
  Graph graph;
  poplin::PlanningCache planCache; // matmul and conv plans, for the layout pass and the lowering
  std::vector<Tensor> tensors;
  std::vector<DataStream> streams;
  std::vector<std::vector<std::uint8_t>> streamBuffers;
  std::unique_ptr<Engine> engine;
  bool loadedFromCache = false;
  std::string cacheEntry; // the cache file of the program, with a cache directory

  void lowerOps(GraphId g, Sequence &seq);
  const internal::LoweredGraph &lowerGraph(GraphId g);

  Impl(const Ir &ir_, const std::string &deviceName, std::string cacheDir)
      : ir(ir_), device(createDevice(deviceName)), graph(device.getTarget()),
        tensors(ir.numTensors()) {
    if (ir.replicationFactor != 1)
      throw error("popxl.Session: replication factor " + std::to_string(ir.replicationFactor) +
                  " is not supported yet (only 1)");
    if (cacheDir.empty())
      if (const char *env = std::getenv("POPXL_CACHE_DIR"))
        cacheDir = env;
    if (cacheDir.empty()) {
      engine = std::make_unique<Engine>(graph, buildProgram());
    } else {
      const std::string key = internal::executableKey(ir, deviceName);
      cacheEntry = internal::entryPath(cacheDir, key);
      std::optional<Executable> exe = internal::loadExecutable(cacheDir, key);
      loadedFromCache = exe.has_value();
      if (!exe) {
        exe = compileGraph(graph, {buildProgram()});
        internal::storeExecutable(cacheDir, key, *exe);
      }
      engine = std::make_unique<Engine>(std::move(*exe));
    }
    engine->load(device);
    streamBuffers.resize(ir.numStreams());
    for (StreamId s = 0; s < ir.numStreams(); ++s) {
      const StreamInfo &info = ir.stream(s);
      streamBuffers[s].resize(info.spec.numElements() * dtypeSize(info.spec.dtype) *
                              ir.numHostTransfers);
      engine->connectStream(streamHandle(s), streamBuffers[s].data(),
                            streamBuffers[s].data() + streamBuffers[s].size());
    }
    for (TensorId t = 0; t < ir.numTensors(); ++t)
      if (!ir.tensor(t).data.empty()) {
        const auto &data = ir.tensor(t).data;
        engine->writeTensor(writeHandle(t), data.data(), data.data() + data.size());
      }
  }

  /// The Poplar graph and main program of the Ir: streams, the tensors no op makes (variables
  /// and constants, each with a host write and read handle, which is all a loaded executable
  /// needs, and called graphs' inputs) in the layouts their consumers prefer, then the ops.
  Sequence buildProgram() {
    popops::addCodelets(graph);
    poplin::addCodelets(graph);
    popnn::addCodelets(graph);
    poprand::addCodelets(graph);
    for (StreamId s = 0; s < ir.numStreams(); ++s) {
      const StreamInfo &info = ir.stream(s);
      const auto type = internal::poplarType(info.spec.dtype);
      streams.push_back(
          info.hostToDevice
              ? graph.addHostToDeviceFIFO(streamHandle(s), type, info.spec.numElements())
              : graph.addDeviceToHostFIFO(streamHandle(s), type, info.spec.numElements()));
    }
    internal::createSourceTensors(ir, graph, planCache, tensors);
    for (TensorId t = 0; t < ir.numTensors(); ++t) {
      const TensorInfo &info = ir.tensor(t);
      if (info.kind != TensorKind::Variable && info.kind != TensorKind::Constant)
        continue;
      graph.createHostWrite(writeHandle(t), tensors[t]);
      graph.createHostRead(readHandle(t), tensors[t]);
    }
    Sequence main;
    lowerOps(ir.mainGraph(), main);
    return main;
  }
};

void Session::Impl::lowerOps(GraphId g, Sequence &seq) {
  auto lower = [this](GraphId called) -> const internal::LoweredGraph & {
    return lowerGraph(called);
  };
  auto lowerInto = [this](GraphId called, Sequence &into) { lowerOps(called, into); };
  const internal::LowerContext context{ir,      graph,   planCache, seq,
                                       tensors, streams, lower,     lowerInto};
  for (OpId o : ir.schedule(g)) {
    const OpInfo &op = ir.op(o);
    internal::opRow(op.type).lower(context, op);
  }
}

const internal::LoweredGraph &Session::Impl::lowerGraph(GraphId g) {
  auto it = lowered.find(g);
  if (it != lowered.end())
    return it->second;
  if (!lowering.insert(g).second)
    throw error("popxl.Session: graph '" + ir.graph(g).name + "' calls itself");
  internal::LoweredGraph result;
  for (TensorId t : ir.graph(g).inputs) // made by createSourceTensors
    result.inputs.push_back(tensors.at(t));
  Sequence body;
  lowerOps(g, body);
  for (TensorId t : ir.graph(g).outputs)
    result.outputs.push_back(tensors[t]);
  result.function = graph.addFunction(body);
  lowering.erase(g);
  return lowered.emplace(g, std::move(result)).first->second;
}

Session::Session(const Ir &ir, const std::string &device, const std::string &cacheDir)
    : impl_(std::make_unique<Impl>(ir, device, cacheDir)) {}

Session::~Session() = default;

std::map<StreamId, std::vector<std::uint8_t>>
Session::run(const std::map<StreamId, std::vector<std::uint8_t>> &inputs) {
  const Ir &ir = impl_->ir;
  for (StreamId s = 0; s < ir.numStreams(); ++s) {
    const StreamInfo &info = ir.stream(s);
    if (!info.hostToDevice)
      continue;
    auto it = inputs.find(s);
    if (it == inputs.end())
      throw error("popxl.Session.run: no input for stream '" + info.name + "'");
    if (it->second.size() != impl_->streamBuffers[s].size())
      throw error("popxl.Session.run: stream '" + info.name + "' needs " +
                  std::to_string(impl_->streamBuffers[s].size()) + " bytes (" +
                  std::to_string(ir.numHostTransfers) + " x " + toString(info.spec) + "), got " +
                  std::to_string(it->second.size()));
    std::memcpy(impl_->streamBuffers[s].data(), it->second.data(), it->second.size());
  }
  for (const auto &kv : inputs)
    if (kv.first >= ir.numStreams() || !ir.stream(kv.first).hostToDevice)
      throw error("popxl.Session.run: input " + std::to_string(kv.first) +
                  " is not a host-to-device stream of this Ir");
  impl_->engine->run(0);
  std::map<StreamId, std::vector<std::uint8_t>> outputs;
  for (StreamId s = 0; s < ir.numStreams(); ++s)
    if (!ir.stream(s).hostToDevice)
      outputs[s] = impl_->streamBuffers[s];
  return outputs;
}

std::vector<std::uint8_t> Session::tensorData(TensorId t) {
  const TensorInfo &info = impl_->ir.tensor(t);
  if (info.kind != TensorKind::Variable && info.kind != TensorKind::Constant)
    throw error("popxl.Session.get_tensor_data: '" + info.name +
                "' is not a variable or a constant");
  std::vector<std::uint8_t> data(info.spec.numElements() * dtypeSize(info.spec.dtype));
  impl_->engine->readTensor(readHandle(t), data.data(), data.data() + data.size());
  return data;
}

void Session::writeVariableData(TensorId t, const std::vector<std::uint8_t> &data) {
  const TensorInfo &info = impl_->ir.tensor(t);
  if (info.kind != TensorKind::Variable)
    throw error("popxl.Session.write_variable_data: '" + info.name + "' is not a variable");
  const std::size_t bytes = info.spec.numElements() * dtypeSize(info.spec.dtype);
  if (data.size() != bytes)
    throw error("popxl.Session.write_variable_data: '" + info.name + "' of " + toString(info.spec) +
                " needs " + std::to_string(bytes) + " bytes, got " + std::to_string(data.size()));
  impl_->engine->writeTensor(writeHandle(t), data.data(), data.data() + data.size());
}

std::uint64_t Session::lastRunCycles() const { return impl_->engine->getLastRunCycles(); }

bool Session::loadedFromCache() const { return impl_->loadedFromCache; }

std::string Session::cacheEntry() const { return impl_->cacheEntry; }

std::vector<std::vector<poplar::Interval>> Session::tileMapping(TensorId t) const {
  const TensorInfo &info = impl_->ir.tensor(t);
  if (!impl_->tensors.at(t).valid())
    throw error("popxl.Session.tileMapping: '" + info.name + "' has no Poplar tensor (" +
                (impl_->loadedFromCache ? "the program was loaded from the cache"
                                        : "the program does not use it") +
                ")");
  return impl_->graph.getTileMapping(impl_->tensors[t]);
}

} // namespace popxl
