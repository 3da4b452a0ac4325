// popnn::addCodelets: the library's codelet object, found beside the library.
#include <popnn/codelets.hpp>

#include "support/CodeletObject.hpp"

namespace popnn {

void addCodelets(poplar::Graph &graph) {
  graph.addCodelets(popsdk::support::codeletObjectPath(
      "popnn", reinterpret_cast<const void *>(&popnn::addCodelets)));
}

} // namespace popnn
