// A vertex class as the front end found it: its .gp description and how to call its compute().
#ifndef popc_VertexModel_hpp
#define popc_VertexModel_hpp

#include "gp/GpFile.hpp"

#include <string>

namespace popc {

struct SourcePos {
  std::string file;
  unsigned line = 0;
  unsigned column = 0;
};

struct VertexInfo {
  /// Name, kind, state size and alignment, fields; entry and stackSize are filled by the back end.
  poplar::gp::Vertex desc;
  std::string computeSymbol;  ///< mangled name of the compute() member to call
  bool returnsBool = false;   ///< compute() returns bool (else void: the vertex always succeeds)
  bool takesWorkerId = false; ///< compute(unsigned workerId) of a MultiVertex
  SourcePos where;            ///< the class definition, for diagnostics
};

/// Name of the entry function the back end generates for a vertex.
std::string entrySymbol(const VertexInfo &vertex);

} // namespace popc

#endif
