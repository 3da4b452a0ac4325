// popops::addCodelets: loads popops' vertices (popops.gp, beside libpopops.so) into a graph.
#ifndef popops_codelets_hpp
#define popops_codelets_hpp

#include <poplar/Graph.hpp>

namespace popops {

/// Adds popops' vertices to `graph`. Call once per graph before using popops functions; calling
/// again adds nothing. The object is found beside libpopops.so unless IPU_POPOPS_GP names it.
void addCodelets(poplar::Graph &graph);

} // namespace popops

#endif
