// VertexTester: graph construction, host data conversion and cycle read-back for codelet tests.
#include "VertexTester.hpp"

#include <poplar/HalfFloat.hpp>
#include <poplar/IPUModel.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace codelet_test {

using namespace poplar;
using namespace poplar::program;
namespace fs = std::filesystem;

const std::vector<std::size_t> kEdgeSizes = {0, 1, 2, 7, 64, 1000};

namespace {

/// Points the runtime at the popc of this build and at a codelet cache in the build tree, so
/// the tests neither depend on PATH nor write to $HOME.
class CodeletEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    ::setenv("POPC", POPC_PATH, 1);
    ::setenv("POPLAR_CODELET_CACHE", CODELET_CACHE_DIR, 1);
  }
};

[[maybe_unused]] ::testing::Environment *const kEnvironment =
    ::testing::AddGlobalTestEnvironment(new CodeletEnvironment);

std::uint16_t halfBits(double x) { return poplar::floatToHalf(float(x)); }

} // namespace

std::string codeletPath(const std::string &name) {
  return std::string(CODELET_SOURCE_DIR) + "/codelets/" + name;
}

ScopedCacheDir::ScopedCacheDir() {
  if (const char *old = std::getenv("POPLAR_CODELET_CACHE"))
    previous_ = old;
  std::string pattern = (fs::temp_directory_path() / "codelet_tests-XXXXXX").string();
  if (!::mkdtemp(pattern.data()))
    ADD_FAILURE() << "mkdtemp failed for " << pattern;
  path_ = pattern;
  ::setenv("POPLAR_CODELET_CACHE", path_.c_str(), 1);
}

ScopedCacheDir::~ScopedCacheDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
  if (previous_.empty())
    ::unsetenv("POPLAR_CODELET_CACHE");
  else
    ::setenv("POPLAR_CODELET_CACHE", previous_.c_str(), 1);
}

std::vector<fs::path> ScopedCacheDir::entries() const {
  std::vector<fs::path> gp;
  for (const auto &e : fs::directory_iterator(path_))
    if (e.path().extension() == ".gp")
      gp.push_back(e.path());
  return gp;
}

double roundTo(Type type, double x) {
  if (type == HALF)
    return poplar::halfToFloat(halfBits(x));
  if (type == FLOAT)
    return double(float(x));
  if (type == INT)
    return double(std::int32_t(x));
  if (type == UNSIGNED_INT)
    return double(std::uint32_t(x));
  ADD_FAILURE() << "roundTo: unsupported type " << type.toString();
  return x;
}

std::vector<std::uint8_t> toDevice(Type type, const std::vector<double> &values) {
  std::vector<std::uint8_t> bytes(values.size() * type.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint8_t *p = bytes.data() + i * type.size();
    if (type == HALF) {
      std::uint16_t h = halfBits(values[i]);
      std::memcpy(p, &h, 2);
    } else if (type == FLOAT) {
      float f = float(values[i]);
      std::memcpy(p, &f, 4);
    } else if (type == INT) {
      std::int32_t v = std::int32_t(values[i]);
      std::memcpy(p, &v, 4);
    } else if (type == UNSIGNED_INT) {
      std::uint32_t v = std::uint32_t(values[i]);
      std::memcpy(p, &v, 4);
    } else {
      ADD_FAILURE() << "toDevice: unsupported type " << type.toString();
    }
  }
  return bytes;
}

std::vector<double> fromDevice(Type type, const std::vector<std::uint8_t> &bytes) {
  std::vector<double> values(bytes.size() / type.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint8_t *p = bytes.data() + i * type.size();
    if (type == HALF) {
      std::uint16_t h;
      std::memcpy(&h, p, 2);
      values[i] = poplar::halfToFloat(h);
    } else if (type == FLOAT) {
      float f;
      std::memcpy(&f, p, 4);
      values[i] = f;
    } else if (type == INT) {
      std::int32_t v;
      std::memcpy(&v, p, 4);
      values[i] = v;
    } else if (type == UNSIGNED_INT) {
      std::uint32_t v;
      std::memcpy(&v, p, 4);
      values[i] = v;
    }
  }
  return values;
}

std::vector<double> hostData(Type type, std::size_t n, double lo, double hi, unsigned seed) {
  // Multiples of 1/8 (floats) or integers: exact in every type used, so sums stay exact too.
  bool integral = type == INT || type == UNSIGNED_INT;
  double step = integral ? 1.0 : 0.125;
  auto steps = std::uint64_t((hi - lo) / step) + 1;
  std::uint64_t state = 0x9e3779b97f4a7c15ull * (seed + 1);
  std::vector<double> values(n);
  for (auto &v : values) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    v = lo + double((state >> 11) % steps) * step;
  }
  return values;
}

std::uint64_t cyclesOfVertexType(const std::string &summary, const std::string &vertexType) {
  std::istringstream lines(summary);
  std::string line;
  bool inSection = false;
  while (std::getline(lines, line)) {
    if (line == "  Cycles by vertex type:") {
      inSection = true;
      continue;
    }
    if (!inSection)
      continue;
    if (line.rfind("    ", 0) != 0)
      break;
    std::string rest = line.substr(4);
    if (rest.rfind(vertexType, 0) != 0 || rest.size() == vertexType.size() ||
        (rest[vertexType.size()] != ' ' && rest[vertexType.size()] != '('))
      continue;
    std::string digits;
    for (char c : line.substr(line.rfind(':') + 1))
      if (c >= '0' && c <= '9')
        digits += c;
    return digits.empty() ? 0 : std::stoull(digits);
  }
  return 0;
}

Device testDevice(unsigned tiles) {
  IPUModel model("ipu2");
  model.tilesPerIPU = tiles;
  return model.createDevice();
}

const std::vector<double> &RunResult::output(const std::string &field) const {
  static const std::vector<double> none;
  auto it = outputs.find(field);
  if (it == outputs.end()) {
    ADD_FAILURE() << "no output field '" << field << "'";
    return none;
  }
  return it->second;
}

void RunResult::expectCycles(double estimated, double tolerance) const {
  ASSERT_GT(threadCycles, 0u) << "no cycles for '" << vertexType << "' in the summary:\n"
                              << summary;
  double measured = double(threadCycles);
  EXPECT_LT(std::fabs(measured - estimated) / measured, tolerance)
      << vertexType << ": measured " << measured << " thread cycles, estimated " << estimated
      << " (if popc's code generation changed, re-derive the model from `popc -S`)";
}

VertexTester::VertexTester(std::string codeletSource, std::string vertexType)
    : source_(std::move(codeletSource)), vertexType_(std::move(vertexType)) {}

VertexTester::Field &VertexTester::addField(const std::string &name, Kind kind, Type type,
                                            std::vector<double> values, Placement p) {
  Field f;
  f.name = name;
  f.kind = kind;
  f.type = type;
  f.values = std::move(values);
  f.placement = p;
  fields_.push_back(std::move(f));
  return fields_.back();
}

VertexTester &VertexTester::tile(unsigned t) {
  tile_ = t;
  return *this;
}

VertexTester &VertexTester::numTiles(unsigned n) {
  numTiles_ = n;
  return *this;
}

VertexTester &VertexTester::input(const std::string &field, Type type, std::vector<double> values,
                                  Placement p) {
  addField(field, Kind::Input, type, std::move(values), p);
  return *this;
}

VertexTester &VertexTester::inout(const std::string &field, Type type, std::vector<double> values,
                                  Placement p) {
  addField(field, Kind::InOut, type, std::move(values), p);
  return *this;
}

VertexTester &VertexTester::output(const std::string &field, Type type, std::size_t n,
                                   Placement p) {
  addField(field, Kind::Output, type, std::vector<double>(n, 0.0), p);
  return *this;
}

VertexTester &VertexTester::scalarInput(const std::string &field, Type type, double value) {
  addField(field, Kind::Input, type, {value}, Placement::Local).scalar = true;
  return *this;
}

VertexTester &VertexTester::scalarInOut(const std::string &field, Type type, double value) {
  addField(field, Kind::InOut, type, {value}, Placement::Local).scalar = true;
  return *this;
}

VertexTester &VertexTester::scalarOutput(const std::string &field, Type type) {
  addField(field, Kind::Output, type, {0.0}, Placement::Local).scalar = true;
  return *this;
}

VertexTester &VertexTester::inputList(const std::string &field, Type type,
                                      std::vector<std::vector<double>> values) {
  Field &f = addField(field, Kind::Input, type, {}, Placement::Local);
  f.list = true;
  f.lists = std::move(values);
  return *this;
}

VertexTester &VertexTester::state(const std::string &field, Type type, double value) {
  states_.push_back({field, type, value});
  return *this;
}

RunResult VertexTester::run() const {
  Device device = testDevice(numTiles_);
  Graph graph(device.getTarget());
  graph.addCodelets(source_);
  ComputeSet cs = graph.addComputeSet("vertexTester");
  VertexRef v = graph.addVertex(cs, vertexType_);
  graph.setTileMapping(v, tile_);

  // Each host transfer: a handle, the variable and the host-order values of the variable.
  struct Transfer {
    std::string handle;
    Type type;
    std::vector<double> values;
  };
  std::vector<Transfer> writes;
  std::vector<std::pair<std::string, Transfer>> reads; // field -> read handle
  auto addData = [&](const Field &f, const std::string &suffix,
                     const std::vector<double> &values) -> Tensor {
    unsigned dataTile = f.placement == Placement::OtherTile ? (tile_ + 1) % numTiles_ : tile_;
    Tensor var = graph.addVariable(f.type, {values.size()}, f.name + suffix);
    graph.setTileMapping(var, dataTile);
    // A reversed view is the vertex's order, so the variable holds the values reversed.
    bool reversed = f.placement == Placement::Fragmented && values.size() > 1;
    Tensor view = reversed ? var.reverse(0) : var;
    std::vector<double> hostOrder(values.rbegin(), values.rend());
    if (!reversed)
      hostOrder = values;
    if (!values.empty()) {
      if (f.kind != Kind::Output) {
        graph.createHostWrite("w_" + f.name + suffix, var);
        writes.push_back({"w_" + f.name + suffix, f.type, hostOrder});
      }
      if (f.kind != Kind::Input) {
        graph.createHostRead("r_" + f.name + suffix, var);
        reads.push_back({f.name, {"r_" + f.name + suffix, f.type, {}}});
      }
    }
    return reversed ? view : var;
  };
  for (const auto &f : fields_) {
    if (f.list) {
      std::vector<Tensor> parts;
      for (std::size_t i = 0; i < f.lists.size(); ++i)
        parts.push_back(addData(f, "_" + std::to_string(i), f.lists[i]));
      graph.connect(v[f.name], parts);
      continue;
    }
    Tensor t = addData(f, "", f.values);
    graph.connect(v[f.name], f.scalar ? t[0] : t);
  }
  for (const auto &s : states_) {
    if (s.type == FLOAT || s.type == HALF)
      graph.setInitialValue(v[s.name], float(s.value));
    else if (s.type == INT)
      graph.setInitialValue(v[s.name], int(s.value));
    else
      graph.setInitialValue(v[s.name], unsigned(s.value));
  }

  Engine engine(graph, Execute(cs));
  engine.load(device);
  for (const auto &w : writes) {
    auto bytes = toDevice(w.type, w.values);
    engine.writeTensor(w.handle, bytes.data(), bytes.data() + bytes.size());
  }
  engine.run(0);

  RunResult result;
  result.vertexType = vertexType_;
  for (auto &[field, r] : reads) {
    const Field *f = nullptr;
    for (const auto &candidate : fields_)
      if (candidate.name == field)
        f = &candidate;
    std::vector<std::uint8_t> bytes(f->values.size() * r.type.size());
    engine.readTensor(r.handle, bytes.data(), bytes.data() + bytes.size());
    auto values = fromDevice(r.type, bytes);
    if (f->placement == Placement::Fragmented)
      std::reverse(values.begin(), values.end());
    result.outputs[field] = values;
  }
  for (const auto &f : fields_)
    if (f.kind != Kind::Input && f.values.empty())
      result.outputs[f.name] = {};
  result.totalCycles = engine.getLastRunCycles();
  std::ostringstream summary;
  engine.printProfileSummary(summary);
  result.summary = summary.str();
  result.threadCycles = cyclesOfVertexType(result.summary, vertexType_);
  return result;
}

} // namespace codelet_test
