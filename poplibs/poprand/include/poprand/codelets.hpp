// poprand::addCodelets: loads poprand's vertices (poprand.gp, beside libpoprand.so) into a graph.
#ifndef poprand_codelets_hpp
#define poprand_codelets_hpp

#include <poplar/Graph.hpp>

namespace poprand {

/// Adds poprand's vertices to `graph`. Call once per graph before using poprand functions;
/// calling again adds nothing. The object is found beside libpoprand.so unless IPU_POPRAND_GP
/// names it.
void addCodelets(poplar::Graph &graph);

} // namespace poprand

#endif
