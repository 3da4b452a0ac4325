// poplin::addCodelets: the library's codelet object, found beside the library.
#include <poplin/codelets.hpp>

#include "support/CodeletObject.hpp"

namespace poplin {

void addCodelets(poplar::Graph &graph) {
  graph.addCodelets(popsdk::support::codeletObjectPath(
      "poplin", reinterpret_cast<const void *>(&poplin::addCodelets)));
}

} // namespace poplin
