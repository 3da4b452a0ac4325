// Reading and writing popops::Operation as its enumerator name ("ADD", "LOG_ADD", ...).
#ifndef popops_Operation_hpp
#define popops_Operation_hpp

#include <popops/OperationDef.hpp>

#include <iosfwd>

namespace popops {

/// Reads an enumerator name into `op`; an unknown name sets the stream's failbit.
std::istream &operator>>(std::istream &is, Operation &op);

/// Writes the enumerator name of `op`.
std::ostream &operator<<(std::ostream &os, const Operation &op);

} // namespace popops

#endif // popops_Operation_hpp
