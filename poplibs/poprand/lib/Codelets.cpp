// poprand::addCodelets: the library's codelet object, found beside the library.
#include <poprand/codelets.hpp>

#include "support/CodeletObject.hpp"

namespace poprand {

void addCodelets(poplar::Graph &graph) {
  graph.addCodelets(popsdk::support::codeletObjectPath(
      "poprand", reinterpret_cast<const void *>(&poprand::addCodelets)));
}

} // namespace poprand
