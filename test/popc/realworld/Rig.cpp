// Rig: graph construction and host <-> device data for the real-world codelet tests.
#include "Rig.hpp"

#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>

#include <cstring>
#include <stdexcept>

namespace realworld {

using namespace poplar;

namespace {

template <typename T> void put(std::uint8_t *p, double x) {
  T v = T(x);
  std::memcpy(p, &v, sizeof v);
}
template <typename T> double get(const std::uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return double(v);
}

void toDevice(Type type, double x, std::uint8_t *p) {
  if (type == HALF) {
    std::uint16_t h = floatToHalf(float(x));
    std::memcpy(p, &h, 2);
  } else if (type == FLOAT) {
    put<float>(p, x);
  } else if (type == INT) {
    put<std::int32_t>(p, x);
  } else if (type == UNSIGNED_INT) {
    put<std::uint32_t>(p, x);
  } else if (type == SHORT) {
    put<std::int16_t>(p, x);
  } else if (type == UNSIGNED_SHORT) {
    put<std::uint16_t>(p, x);
  } else if (type == CHAR || type == SIGNED_CHAR) {
    put<std::int8_t>(p, x);
  } else if (type == UNSIGNED_CHAR || type == BOOL) {
    put<std::uint8_t>(p, x);
  } else if (type == LONGLONG) {
    put<std::int64_t>(p, x);
  } else if (type == UNSIGNED_LONGLONG) {
    put<std::uint64_t>(p, x);
  } else {
    throw std::invalid_argument("Rig: unsupported type " + type.toString());
  }
}

double fromDevice(Type type, const std::uint8_t *p) {
  if (type == HALF) {
    std::uint16_t h;
    std::memcpy(&h, p, 2);
    return halfToFloat(h);
  }
  if (type == FLOAT)
    return get<float>(p);
  if (type == INT)
    return get<std::int32_t>(p);
  if (type == UNSIGNED_INT)
    return get<std::uint32_t>(p);
  if (type == SHORT)
    return get<std::int16_t>(p);
  if (type == UNSIGNED_SHORT)
    return get<std::uint16_t>(p);
  if (type == CHAR || type == SIGNED_CHAR)
    return get<std::int8_t>(p);
  if (type == UNSIGNED_CHAR || type == BOOL)
    return get<std::uint8_t>(p);
  if (type == LONGLONG)
    return get<std::int64_t>(p);
  if (type == UNSIGNED_LONGLONG)
    return get<std::uint64_t>(p);
  throw std::invalid_argument("Rig: unsupported type " + type.toString());
}

} // namespace

double roundTo(Type type, double x) {
  std::uint8_t bytes[8];
  toDevice(type, x, bytes);
  return fromDevice(type, bytes);
}

std::vector<double> randomData(std::size_t n, double lo, double hi, double step, unsigned seed) {
  auto steps = std::uint64_t((hi - lo) / step) + 1;
  std::uint64_t state = 0x9e3779b97f4a7c15ull * (seed + 1);
  std::vector<double> values(n);
  for (auto &v : values) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = lo + double((state >> 11) % steps) * step;
  }
  return values;
}

Rig::Rig(const std::string &codelet, unsigned tiles) {
  IPUModel model("ipu2");
  model.tilesPerIPU = tiles;
  device_ = std::make_unique<Device>(model.createDevice());
  graph_ = std::make_unique<Graph>(*device_);
  graph_->addCodelets(std::string(REALWORLD_CODELET_DIR) + "/" + codelet);
  cs_ = graph_->addComputeSet("realworld");
}

Rig::~Rig() = default;

VertexRef Rig::vertex(const std::string &type, unsigned tile) {
  VertexRef v = graph_->addVertex(cs_, type);
  graph_->setTileMapping(v, tile);
  return v;
}

Tensor Rig::tensor(Type type, const std::vector<double> &values, unsigned tile) {
  Tensor t = graph_->addVariable(type, {values.size()});
  graph_->setTileMapping(t, tile);
  data_.push_back({t, values, {}, false});
  return t;
}

Tensor Rig::rawTensor(Type type, const std::vector<std::uint8_t> &bytes, unsigned tile) {
  std::size_t size = graph_->getTarget().getTypeSize(type);
  Tensor t = graph_->addVariable(type, {bytes.size() / size});
  graph_->setTileMapping(t, tile);
  Data d{t, std::vector<double>(bytes.size() / size), bytes, true};
  data_.push_back(std::move(d));
  return t;
}

Tensor Rig::scalar(Type type, double value, unsigned tile) {
  Tensor t = graph_->addVariable(type, {});
  graph_->setTileMapping(t, tile);
  data_.push_back({t, {value}, {}, false});
  return t;
}

std::string Rig::run() {
  // Empty tensors (empty regions) need no host transfers.
  for (std::size_t i = 0; i < data_.size(); ++i) {
    if (data_[i].values.empty())
      continue;
    graph_->createHostWrite("w" + std::to_string(i), data_[i].tensor);
    graph_->createHostRead("r" + std::to_string(i), data_[i].tensor);
  }
  try {
    Engine engine(*graph_, program::Execute(cs_));
    engine.load(*device_);
    std::vector<std::vector<std::uint8_t>> bytes(data_.size());
    for (std::size_t i = 0; i < data_.size(); ++i) {
      if (data_[i].values.empty())
        continue;
      Type type = data_[i].tensor.elementType();
      std::size_t size = graph_->getTarget().getTypeSize(type);
      bytes[i].resize(data_[i].values.size() * size);
      if (data_[i].isRaw)
        bytes[i] = data_[i].raw;
      else
        for (std::size_t k = 0; k < data_[i].values.size(); ++k)
          toDevice(type, data_[i].values[k], bytes[i].data() + k * size);
      engine.writeTensor("w" + std::to_string(i), bytes[i].data(),
                         bytes[i].data() + bytes[i].size());
    }
    engine.run();
    for (std::size_t i = 0; i < data_.size(); ++i) {
      if (data_[i].values.empty())
        continue;
      Type type = data_[i].tensor.elementType();
      std::size_t size = graph_->getTarget().getTypeSize(type);
      engine.readTensor("r" + std::to_string(i), bytes[i].data(),
                        bytes[i].data() + bytes[i].size());
      if (data_[i].isRaw)
        data_[i].raw = bytes[i];
      else
        for (std::size_t k = 0; k < data_[i].values.size(); ++k)
          data_[i].values[k] = fromDevice(type, bytes[i].data() + k * size);
    }
  } catch (const std::exception &e) {
    return e.what();
  }
  return "";
}

const Rig::Data &Rig::find(const Tensor &t) const {
  for (const Data &d : data_)
    if (d.tensor.intersectsWith(t) && d.tensor.numElements() == t.numElements())
      return d;
  throw std::invalid_argument("Rig: not a tensor of this rig");
}

std::vector<double> Rig::values(const Tensor &t) const {
  if (t.numElements() == 0)
    return {};
  return find(t).values;
}

std::vector<std::uint8_t> Rig::bytes(const Tensor &t) const { return find(t).raw; }

} // namespace realworld
