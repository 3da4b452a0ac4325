// Codelet loading: .gp objects are read and checked; C++ sources are compiled by popc first
// (graph/CodeletCache.cpp). Each vertex of an object becomes a vertex type of the graph.
#include "graph/Codelets.hpp"

#include "core/Bytes.hpp"
#include "core/Errors.hpp"
#include "core/Logging.hpp"
#include "graph/CodeletCache.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace poplar::detail {

namespace fs = std::filesystem;

namespace {

Type typeNamed(const std::string &name) {
  for (Type t : {BOOL, CHAR, UNSIGNED_CHAR, SIGNED_CHAR, SHORT, UNSIGNED_SHORT, INT, UNSIGNED_INT,
                 LONGLONG, UNSIGNED_LONGLONG, HALF, FLOAT})
    if (t.toString() == name)
      return t;
  return Type();
}

FieldDirection directionOf(gp::FieldDirection d) {
  switch (d) {
  case gp::FieldDirection::Input:
    return FieldDirection::Input;
  case gp::FieldDirection::Output:
    return FieldDirection::Output;
  case gp::FieldDirection::InOut:
    return FieldDirection::InOut;
  case gp::FieldDirection::State:
    break;
  }
  return FieldDirection::State;
}

/// Whether the comma-separated target list of a .gp (popc --target ipu1,ipu2) names `arch`.
bool targetListNames(const std::string &list, const std::string &arch) {
  std::size_t begin = 0;
  while (begin <= list.size()) {
    std::size_t end = std::min(list.find(',', begin), list.size());
    if (list.compare(begin, end - begin, arch) == 0)
      return true;
    begin = end + 1;
  }
  return false;
}

/// A state or worker stacks bigger than a tile's memory can never be placed; refused here,
/// before the compiler would allocate the state's bytes on the host to lay it out.
void checkFitsATile(const TargetDesc &target, const gp::Vertex &vertex, const std::string &origin) {
  if (vertex.stateSize > target.bytesPerTile)
    raise<graph_object_load_error>(
        "Graph::addCodelets: vertex '", vertex.name, "' in '", origin, "' has a state of ",
        vertex.stateSize, " bytes, more than a tile's ", target.bytesPerTile, " bytes of memory");
  if (std::uint64_t(vertex.stackSize) * target.numWorkerContexts > target.bytesPerTile)
    raise<graph_object_load_error>("Graph::addCodelets: vertex '", vertex.name, "' in '", origin,
                                   "' needs a stack of ", vertex.stackSize, " bytes for each of ",
                                   target.numWorkerContexts, " workers, more than a tile's ",
                                   target.bytesPerTile, " bytes of memory");
}

void registerObject(GraphState &state, const std::string &origin, gp::GpFile file,
                    std::uint64_t hash) {
  for (auto h : state.codeletHashes)
    if (h == hash)
      return; // the same object again: Poplar lets programs add codelets more than once
  const std::string &arch = state.target.arch;
  if (!file.target.empty() && arch != "cpu" && !targetListNames(file.target, arch))
    raise<graph_object_load_error>("Graph::addCodelets: '", origin, "' was compiled for ",
                                   file.target, " but the graph's target is ", arch,
                                   " (popc --target ", arch, ")");
  auto index = unsigned(state.codeletObjects.size());
  std::vector<VertexTypeInfo> types;
  for (unsigned v = 0; v < file.vertices.size(); ++v) {
    const auto &vertex = file.vertices[v];
    if (state.vertexTypes.count(vertex.name))
      raise<graph_object_load_error>("Graph::addCodelets: vertex type '", vertex.name, "' in '",
                                     origin, "' is already defined by codelets loaded earlier");
    VertexTypeInfo info;
    info.name = vertex.name;
    info.kind = vertex.kind == gp::VertexKind::MultiVertex        ? VertexKind::MultiVertex
                : vertex.kind == gp::VertexKind::SupervisorVertex ? VertexKind::SupervisorVertex
                                                                  : VertexKind::Vertex;
    info.codeletObject = index;
    info.vertexIndex = v;
    checkFitsATile(state.target, vertex, origin);
    for (const auto &f : vertex.fields) {
      FieldInfo fi;
      fi.name = f.name;
      fi.direction = directionOf(f.direction);
      fi.elementType = typeNamed(f.elementType);
      if (!fi.elementType.isValid())
        raise<graph_object_load_error>("Graph::addCodelets: field '", f.name, "' of vertex '",
                                       vertex.name, "' in '", origin, "' has element type '",
                                       f.elementType, "', which is not a Poplar type");
      fi.isScalar = f.kind == gp::FieldKind::Scalar || f.kind == gp::FieldKind::Value;
      fi.isVectorList =
          f.kind == gp::FieldKind::VectorList || f.kind == gp::FieldKind::VectorOfEdges;
      info.fields.push_back(fi);
    }
    types.push_back(std::move(info));
  }
  // Only now, with every check passed, does the graph change.
  for (auto &t : types)
    state.vertexTypes[t.name] = std::move(t);
  state.codeletObjects.push_back(std::make_shared<const gp::GpFile>(std::move(file)));
  state.codeletHashes.push_back(hash);
  logger().info("addCodelets: loaded {} vertex type(s) from {}", types.size(), origin);
}

/// Reads and checks the .gp at `path`, with the hash that identifies its bytes.
/// Throws gp::GpFormatError.
std::pair<gp::GpFile, std::uint64_t> readObject(const std::string &path) {
  std::string bytes = readFile(path);
  return {gp::readGp(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size()),
          fnv1a(bytes)};
}

void loadObject(GraphState &state, const std::string &path, const std::string &origin) {
  std::pair<gp::GpFile, std::uint64_t> object;
  try {
    object = readObject(path);
  } catch (const gp::GpFormatError &e) {
    raise<graph_object_load_error>("Graph::addCodelets: '", origin,
                                   "' is not a valid codelet object: ", e.what());
  }
  registerObject(state, origin, std::move(object.first), object.second);
}

bool isSource(const std::string &ext) {
  return ext == ".cpp" || ext == ".cc" || ext == ".cxx" || ext == ".c" || ext == ".C";
}

} // namespace

void loadCodelets(GraphState &state, const std::string &path, CodeletFileType type,
                  const std::string &compileFlags, const std::string &targetName) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    raise<graph_object_load_error>("Graph::addCodelets: cannot open codelet file '", path,
                                   "' (resolved against ", fs::current_path(ec).string(), ")");
  std::string ext = fs::path(path).extension().string();
  bool source = type == CodeletFileType::CppSource || type == CodeletFileType::CSource ||
                (type == CodeletFileType::Auto && isSource(ext));
  bool object = type == CodeletFileType::Object || (type == CodeletFileType::Auto && ext == ".gp");
  if (!source && !object)
    raise<graph_object_load_error>("Graph::addCodelets: cannot tell what '", path,
                                   "' is: expected a C++ source (.cpp) or a popc object (.gp)");
  if (object) {
    loadObject(state, path, path);
    return;
  }
  std::string target =
      targetName.empty() && state.target.arch != "cpu" ? state.target.arch : targetName;
  std::string cached = compileCodeletCached(path, compileFlags, target);
  std::pair<gp::GpFile, std::uint64_t> loaded;
  try {
    loaded = readObject(cached);
  } catch (const gp::GpFormatError &) {
    // A damaged cache entry is rebuilt once rather than reported.
    evictCodelet(cached);
    loadObject(state, compileCodeletCached(path, compileFlags, target), path);
    return;
  }
  registerObject(state, path, std::move(loaded.first), loaded.second);
}

void loadCodeletSource(GraphState &state, const std::string &source, CodeletFileType type,
                       const std::string &compileFlags, const std::string &targetName) {
  // A name of its own: threads adding the same source at once must not share (and remove) it.
  fs::path temp = fs::temp_directory_path() / ("poplar-codelet-" + uniqueTempSuffix() + ".cpp");
  {
    std::ofstream out(temp);
    out << source;
  }
  try {
    loadCodelets(state, temp.string(),
                 type == CodeletFileType::Auto ? CodeletFileType::CppSource : type, compileFlags,
                 targetName);
  } catch (...) {
    fs::remove(temp);
    throw;
  }
  fs::remove(temp);
}

} // namespace poplar::detail
