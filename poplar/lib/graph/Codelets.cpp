// Codelet loading entry points. Running vertices needs popc and the tile interpreter (issue 3);
// until they are linked in, loading reports exactly that, after checking the file itself.
#include "graph/Codelets.hpp"

#include "core/Errors.hpp"

#include <filesystem>

namespace poplar::detail {

void loadCodelets(GraphState &, const std::string &path, CodeletFileType, const std::string &,
                  const std::string &) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    raise<graph_object_load_error>("Graph::addCodelets: cannot open codelet file '", path,
                                   "' (resolved against ", fs::current_path(ec).string(), ")");
  raise<graph_object_load_error>("Graph::addCodelets: cannot load '", path,
                                 "': this build has no codelet compiler (popc) or tile "
                                 "interpreter yet");
}

void loadCodeletSource(GraphState &, const std::string &, CodeletFileType, const std::string &,
                       const std::string &) {
  raise<graph_object_load_error>("Graph::addCodelets: cannot compile codelet source: this "
                                 "build has no codelet compiler (popc) or tile interpreter yet");
}

} // namespace poplar::detail
