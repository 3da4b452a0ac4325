// popops::addCodelets: the library's codelet object, found beside the library.
#include <popops/codelets.hpp>

#include "support/CodeletObject.hpp"

namespace popops {

void addCodelets(poplar::Graph &graph) {
  graph.addCodelets(popsdk::support::codeletObjectPath(
      "popops", reinterpret_cast<const void *>(&popops::addCodelets)));
}

} // namespace popops
