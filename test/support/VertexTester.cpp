// VertexTester: graph construction, one run, outputs and the vertex type's cycles.
#include "VertexTester.hpp"

#include <algorithm>
#include <stdexcept>

namespace popsdk::test {

using namespace poplar;
using namespace poplar::program;

const std::vector<std::size_t> kEdgeSizes = {0, 1, 2, 7, 64, 1000};

const std::vector<double> &RunResult::output(const std::string &field) const {
  auto it = outputs.find(field);
  if (it == outputs.end())
    throw std::invalid_argument("RunResult::output: " + vertexType + " has no output field '" +
                                field + "'");
  return it->second;
}

VertexTester::VertexTester(const std::string &codelets, std::string vertexType)
    : VertexTester([codelets](Graph &g) { g.addCodelets(codelets); }, std::move(vertexType)) {}

VertexTester::VertexTester(CodeletLoader load, std::string vertexType)
    : load_(std::move(load)), vertexType_(std::move(vertexType)) {}

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

VertexTester::Field &VertexTester::addList(const std::string &name, Kind kind, Type type,
                                           std::vector<std::vector<double>> values) {
  Field &f = addField(name, kind, type, {}, Placement::Local);
  f.list = true;
  f.lists = std::move(values);
  return f;
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
  addList(field, Kind::Input, type, std::move(values));
  return *this;
}

VertexTester &VertexTester::inoutList(const std::string &field, Type type,
                                      std::vector<std::vector<double>> values) {
  addList(field, Kind::InOut, type, std::move(values));
  return *this;
}

VertexTester &VertexTester::outputList(const std::string &field, Type type,
                                       const std::vector<std::size_t> &sizes) {
  std::vector<std::vector<double>> zeros;
  for (std::size_t n : sizes)
    zeros.emplace_back(n, 0.0);
  addList(field, Kind::Output, type, std::move(zeros));
  return *this;
}

VertexTester &VertexTester::state(const std::string &field, Type type, double value) {
  states_.push_back({field, type, value});
  return *this;
}

/// One host transfer: its handle, element type and values in the variable's order. A read also
/// records the field it belongs to and whether the variable holds the field reversed.
struct VertexTester::Transfer {
  std::string handle;
  Type type;
  std::vector<double> values;
  std::string field;
  bool reversed = false;
};

/// What build() added: the compute set, the vertex's tile and the transfers around it.
struct VertexTester::Built {
  ComputeSet cs;
  unsigned tile = 0;
  std::vector<Transfer> writes, reads;
  RunResult result; // the fields listed, nothing run yet
};

VertexTester::Built VertexTester::build(Graph &graph, unsigned numTiles,
                                        const std::string &prefix) const {
  Built b;
  b.tile = tile_;
  b.cs = graph.addComputeSet(prefix + "vertexTester");
  VertexRef v = graph.addVertex(b.cs, vertexType_);
  graph.setTileMapping(v, tile_);
  auto addData = [&](const Field &f, const std::string &suffix,
                     const std::vector<double> &values) -> Tensor {
    unsigned dataTile = f.placement == Placement::OtherTile ? (tile_ + 1) % numTiles : tile_;
    std::string name = prefix + f.name + suffix;
    Tensor var = graph.addVariable(f.type, {values.size()}, name);
    graph.setTileMapping(var, dataTile);
    // A reversed view is the vertex's order, so the variable holds the values reversed.
    bool reversed = f.placement == Placement::Fragmented && values.size() > 1;
    std::vector<double> hostOrder = values;
    if (reversed)
      std::reverse(hostOrder.begin(), hostOrder.end());
    if (!values.empty()) {
      if (f.kind != Kind::Output) {
        graph.createHostWrite("w_" + name, var);
        b.writes.push_back({"w_" + name, f.type, hostOrder, f.name});
      }
      if (f.kind != Kind::Input) {
        graph.createHostRead("r_" + name, var);
        b.reads.push_back({"r_" + name, f.type, values, f.name, reversed});
      }
    }
    return reversed ? var.reverse(0) : var;
  };
  b.result.vertexType = vertexType_;
  for (const auto &f : fields_) {
    if (f.kind != Kind::Input)
      b.result.outputs[f.name] = {}; // listed even when empty
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
    else if (s.type == BOOL)
      graph.setInitialValue(v[s.name], s.value != 0);
    else
      graph.setInitialValue(v[s.name], unsigned(s.value));
  }
  return b;
}

RunResult VertexTester::run() const { return runEach({*this})[0]; }

std::vector<RunResult> VertexTester::runEach(const std::vector<VertexTester> &testers) {
  if (testers.empty())
    return {};
  useBuildTreeTools();
  unsigned numTiles = 0;
  for (const auto &t : testers)
    numTiles = std::max(numTiles, t.numTiles_);
  Device device = testDevice(numTiles);
  Graph graph(device.getTarget());
  testers.front().load_(graph);
  std::vector<Built> built;
  std::vector<program::Program> programs;
  for (std::size_t k = 0; k < testers.size(); ++k) {
    built.push_back(testers[k].build(graph, numTiles, std::to_string(k) + ":"));
    programs.push_back(Execute(built.back().cs));
  }

  ScopedTempDir profileDir("vertex-tester");
  Engine engine(graph, programs, profileOptions(profileDir.path()));
  engine.load(device);
  for (const auto &b : built)
    for (const auto &w : b.writes) {
      auto bytes = toDevice(w.type, w.values);
      engine.writeTensor(w.handle, bytes.data(), bytes.data() + bytes.size());
    }

  // The profile's cycles add up over runs: each run's are the growth since the previous one.
  std::map<std::string, std::uint64_t> typeCyclesBefore;
  std::vector<std::uint64_t> tileCyclesBefore(numTiles, 0);
  std::vector<RunResult> results;
  for (unsigned k = 0; k < built.size(); ++k) {
    Built &b = built[k];
    engine.run(k);
    RunResult &r = b.result;
    // Reads are in field order (list parts in list order), so a list's values concatenate.
    for (const auto &read : b.reads) {
      std::vector<std::uint8_t> bytes(read.values.size() * read.type.size());
      engine.readTensor(read.handle, bytes.data(), bytes.data() + bytes.size());
      auto values = fromDevice(read.type, bytes);
      if (read.reversed)
        std::reverse(values.begin(), values.end());
      auto &out = r.outputs[read.field];
      out.insert(out.end(), values.begin(), values.end());
    }
    pva::Report profile = openProfile(profileDir.path());
    std::uint64_t typeCycles = vertexTypeCycles(profile, r.vertexType);
    std::uint64_t tileCycles = tileComputeCycles(profile, b.tile);
    r.threadCycles = typeCycles - typeCyclesBefore[r.vertexType];
    r.tileCycles = tileCycles - tileCyclesBefore[b.tile];
    typeCyclesBefore[r.vertexType] = typeCycles;
    tileCyclesBefore[b.tile] = tileCycles;
    r.totalCycles = engine.getLastRunCycles();
    results.push_back(std::move(r));
  }
  return results;
}

} // namespace popsdk::test
