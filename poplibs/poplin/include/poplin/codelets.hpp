// poplin::addCodelets: loads poplin's vertices (poplin.gp, beside libpoplin.so) into a graph.
#ifndef poplin_codelets_hpp
#define poplin_codelets_hpp

#include <poplar/Graph.hpp>

namespace poplin {

/// Adds poplin's vertices to `graph`. Call once per graph before using poplin functions;
/// calling again adds nothing. The object is found beside libpoplin.so unless IPU_POPLIN_GP
/// names it.
void addCodelets(poplar::Graph &graph);

} // namespace poplin

#endif
