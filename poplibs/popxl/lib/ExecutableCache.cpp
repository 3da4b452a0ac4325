// The PopXL executable cache: keys from the Ir, entries as serialised Poplar Executables.
#include "ExecutableCache.hpp"

#include <poplar/exceptions.hpp>
#include <support/Bytes.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace popxl::internal {

namespace fs = std::filesystem;

namespace {
// Each field with its length first, so that consecutive fields cannot run into each other.
void put(std::ostream &out, const std::string &s) { out << s.size() << ':' << s; }
void put(std::ostream &out, std::int64_t v) { out << v << ';'; }
template <typename T> void put(std::ostream &out, const std::vector<T> &values) {
  put(out, std::int64_t(values.size()));
  for (const auto &v : values)
    put(out, std::int64_t(v));
}

void putAttribute(std::ostream &out, const Attribute &a) {
  out << a.index();
  std::visit(
      [&](const auto &v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, double>) {
          char text[32];
          std::snprintf(text, sizeof text, "%a", v); // exact
          put(out, std::string(text));
        } else {
          put(out, v);
        }
      },
      a);
}
} // namespace

std::string executableKey(const Ir &ir, const std::string &device) {
  std::ostringstream out;
  put(out, std::string("popxl-executable-2"));
  put(out, device);
  put(out, std::int64_t(ir.numHostTransfers));
  put(out, std::int64_t(ir.replicationFactor));
  for (TensorId t = 0; t < ir.numTensors(); ++t) {
    const TensorInfo &info = ir.tensor(t);
    put(out, info.name);
    put(out, std::int64_t(info.kind));
    put(out, std::int64_t(info.spec.dtype));
    put(out, info.spec.shape);
    if (info.kind == TensorKind::Constant) // lowerings may read a constant's value
      put(out, std::string(info.data.begin(), info.data.end()));
  }
  for (GraphId g = 0; g < ir.numGraphs(); ++g) {
    const GraphInfo &graph = ir.graph(g);
    put(out, graph.name);
    put(out, graph.inputs);
    put(out, graph.outputs);
    put(out, graph.inputByRef);
    for (const auto &[before, after] : graph.topoCons)
      put(out, std::vector<OpId>{before, after});
    for (OpId o : graph.ops) {
      const OpInfo &op = ir.op(o);
      put(out, op.type);
      put(out, op.name);
      put(out, op.inputs);
      put(out, op.outputs);
      put(out, op.calledGraphs);
      for (const auto &[key, value] : op.attrs) {
        put(out, key);
        putAttribute(out, value);
      }
    }
  }
  for (StreamId s = 0; s < ir.numStreams(); ++s) {
    const StreamInfo &info = ir.stream(s);
    put(out, info.name);
    put(out, std::int64_t(info.hostToDevice));
    put(out, std::int64_t(info.spec.dtype));
    put(out, info.spec.shape);
  }
  const std::string text = out.str();
  char key[33];
  std::snprintf(
      key, sizeof key, "%016llx%016llx",
      static_cast<unsigned long long>(popsdk::support::fnv1a(text)),
      static_cast<unsigned long long>(popsdk::support::fnv1a(text, 0x9e3779b97f4a7c15ull)));
  return key;
}

std::string entryPath(const std::string &dir, const std::string &key) {
  return (fs::path(dir) / (key + ".popxl_exe")).string();
}

std::optional<poplar::Executable> loadExecutable(const std::string &dir, const std::string &key) {
  const fs::path path = entryPath(dir, key);
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  try {
    return poplar::Executable::deserialize(in);
  } catch (const poplar::poplar_error &) {
    std::error_code ec;
    fs::remove(path, ec); // never trusted again; rebuilt by the caller
    return std::nullopt;
  }
}

void storeExecutable(const std::string &dir, const std::string &key,
                     const poplar::Executable &exe) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw error("popxl.Session: cannot create the executable cache directory '" + dir +
                "': " + ec.message());
  const fs::path path = entryPath(dir, key);
  const fs::path temporary = entryPath(dir, key) + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary);
    exe.serialize(out);
    if (!out)
      throw error("popxl.Session: cannot write the executable cache entry '" + temporary.string() +
                  "'");
  }
  fs::rename(temporary, path, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw error("popxl.Session: cannot store the executable cache entry '" + path.string() + "'");
  }
}

} // namespace popxl::internal
