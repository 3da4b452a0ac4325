// popnn::addCodelets: loads popnn's vertices (popnn.gp, beside libpopnn.so) into a graph.
#ifndef popnn_codelets_hpp
#define popnn_codelets_hpp

#include <poplar/Graph.hpp>

namespace popnn {

/// Adds popnn's vertices to `graph`. Call once per graph before using popnn functions (popnn also
/// uses popops, so call popops::addCodelets too). The object is found beside libpopnn.so unless
/// IPU_POPNN_GP names it.
void addCodelets(poplar::Graph &graph);

} // namespace popnn

#endif // popnn_codelets_hpp
