// Seed inputs: a .gp, a serialised Executable, a profile.pop and vertex descriptions, each made
// through the SDK's own writers from one small program. The file names have no extension
// because the repository ignores *.gp and *.pop files.
#include "Seeds.hpp"

#include "FuzzSupport.hpp"
#include "VertexFieldsInput.hpp"

#include <poplar/Engine.hpp>
#include <poplar/Graph.hpp>
#include <poplar/IPUModel.hpp>

#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

namespace popsdk::fuzz {

namespace {

namespace fs = std::filesystem;
using gp::FieldDirection;
using gp::FieldKind;
using gp::Layout;

constexpr unsigned kSeedTiles = 4;

gp::Field field(const char *name, FieldDirection direction, FieldKind kind, Layout layout,
                Layout inner, const char *type, std::uint32_t elementSize, std::uint32_t offset,
                std::uint32_t size) {
  return {name, direction, kind, layout, inner, type, elementSize, offset, size, elementSize};
}

/// Vertex descriptions as popc writes them for typical codelets, with the program's tensors.
std::vector<VertexFieldsInput> vertexInputs() {
  std::vector<VertexFieldsInput> inputs;
  auto add = [&](unsigned stateSize, std::vector<gp::Field> fields, std::vector<FieldUse> uses) {
    VertexFieldsInput in;
    in.vertex.name = "V";
    in.vertex.stateSize = stateSize;
    in.vertex.fields = std::move(fields);
    in.uses = std::move(uses);
    inputs.push_back(in);
  };
  // Input<Vector<float>> in; Output<float> out;
  add(12,
      {field("f0", FieldDirection::Input, FieldKind::Vector, Layout::Span, Layout::NotAVector,
             "float", 4, 0, 8),
       field("f1", FieldDirection::Output, FieldKind::Scalar, Layout::NotAVector,
             Layout::NotAVector, "float", 4, 8, 4)},
      {{true, 6, 1, 0}, {true, 1, 1, 1}});
  // InOut<VectorList<half, DELTANELEMENTS>> lists; const unsigned short n;
  add(12,
      {field("f0", FieldDirection::InOut, FieldKind::VectorList, Layout::ListDeltaNElements,
             Layout::NotAVector, "half", 2, 0, 8),
       field("f1", FieldDirection::State, FieldKind::Value, Layout::NotAVector, Layout::NotAVector,
             "unsigned short", 2, 8, 2)},
      {{true, 3, 4, 0}, {true, 1, 1, 0}});
  // Vector<Input<Vector<int, ONE_PTR>>, SPAN> rows; Output<Vector<int, ONE_PTR>> out;
  // Vector<float> table (state);
  add(20,
      {field("f0", FieldDirection::Input, FieldKind::VectorOfEdges, Layout::Span, Layout::OnePtr,
             "int", 4, 0, 8),
       field("f1", FieldDirection::Output, FieldKind::Vector, Layout::OnePtr, Layout::NotAVector,
             "int", 4, 8, 4),
       field("f2", FieldDirection::State, FieldKind::Vector, Layout::Span, Layout::NotAVector,
             "float", 4, 12, 8)},
      {{true, 2, 5, 1}, {true, 5, 1, 0}, {true, 3, 1, 0}});
  inputs.back().vertex.kind = gp::VertexKind::MultiVertex;
  return inputs;
}

std::vector<std::uint8_t> readBytes(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// Rewrites the SQLite file at `path` with 512-byte pages: a profile of a few rows then takes
/// a few KB instead of 60 (a page per table at the default 4 KB), which the fuzzer mutates faster.
void compact(const fs::path &path) {
  sqlite3 *db = nullptr;
  int rc = sqlite3_open(path.c_str(), &db);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(db, "PRAGMA page_size = 512; VACUUM;", nullptr, nullptr, nullptr);
  std::string error = rc == SQLITE_OK ? "" : sqlite3_errmsg(db);
  sqlite3_close(db);
  if (rc != SQLITE_OK)
    throw std::runtime_error("fuzz seeds: cannot compact " + path.string() + ": " + error);
}

std::vector<std::uint8_t> bytesOf(const std::string &s) { return {s.begin(), s.end()}; }

/// One program over the first vertex input: host copies through streams, the compute set in a
/// loop, a branch, a copy across tiles. Returns the serialised executable; writes profile.pop
/// into `profileDir` after one run.
std::vector<std::uint8_t> programSeeds(const std::string &gpPath, const fs::path &profileDir) {
  using namespace poplar;
  using namespace poplar::program;
  Device device = seedDevice();
  Graph graph(device.getTarget());
  graph.addCodelets(gpPath);
  Tensor in = graph.addVariable(FLOAT, {6}, "in");
  Tensor out = graph.addVariable(FLOAT, {1}, "out");
  Tensor copy = graph.addVariable(FLOAT, {6}, "copy");
  Tensor flag = graph.addConstant(BOOL, {}, true, "flag");
  graph.setTileMapping(in, 0);
  graph.setTileMapping(out, 1);
  graph.setTileMapping(copy, 3);
  graph.setTileMapping(flag, 2);
  ComputeSet cs = graph.addComputeSet("cs");
  VertexRef v = graph.addVertex(cs, "V", {{"f0", in}, {"f1", out}});
  graph.setTileMapping(v, 2);
  auto h2d = graph.addHostToDeviceFIFO("h2d", FLOAT, 6);
  auto d2h = graph.addDeviceToHostFIFO("d2h", FLOAT, 1);
  graph.createHostRead("copy", copy);
  Sequence prog{Copy(h2d, in), Repeat(2, Sequence{Execute(cs), Copy(in, copy)}),
                If(flag, Copy(out, d2h), Sequence{}), WriteUndef(copy)};
  std::ostringstream serialised;
  compileGraph(graph, {prog}).serialize(serialised);

  Engine engine(graph, prog,
                {{"autoReport.all", "true"}, {"autoReport.directory", profileDir.string()}});
  engine.load(device);
  std::vector<float> input(6, 1.0f), output(1);
  engine.connectStream("h2d", input.data());
  engine.connectStream("d2h", output.data());
  engine.run();
  return bytesOf(serialised.str());
}

} // namespace

poplar::Device seedDevice() {
  poplar::IPUModel model("ipu2");
  model.tilesPerIPU = kSeedTiles;
  return model.createDevice();
}

std::map<std::string, SeedFiles> makeSeeds() {
  std::map<std::string, SeedFiles> seeds;
  auto inputs = vertexInputs();
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto name = "seed" + std::to_string(i);
    seeds["vertex_fields"][name] = encode(inputs[i]);
    seeds["gp"][name] = gp::writeGp(objectWith(inputs[i].vertex));
  }
  // A .gp with every section filled: symbols, files, lines, data and relocations.
  gp::GpFile full = objectWith(inputs[0].vertex);
  full.data = {1, 2, 3, 4, 5, 6, 7, 8};
  full.relocations.push_back({gp::Section::Data, 4, gp::Section::Data, 0});
  full.symbols.push_back({"__runCodelet_V", gp::Section::Code, 0, 2});
  full.symbols.push_back({"table", gp::Section::Data, 0, 8});
  full.files = {"v.cpp"};
  full.lines = {{0, 0, 3, 1}, {1, 0, 4, 5}};
  seeds["gp"]["full"] = gp::writeGp(full);

  ScratchFile object(".gp");
  const auto &bytes = seeds["gp"]["seed0"];
  object.write(bytes.data(), bytes.size());
  fs::path profileDir =
      fs::temp_directory_path() / ("popsdk-fuzz-seeds-" + std::to_string(::getpid()));
  seeds["executable"]["program"] = programSeeds(object.path(), profileDir);
  compact(profileDir / "profile.pop");
  seeds["profile"]["profile"] = readBytes(profileDir / "profile.pop");
  fs::remove_all(profileDir);
  return seeds;
}

} // namespace popsdk::fuzz
