// The kinds of target a device can be.
#ifndef poplar_TargetType_hpp
#define poplar_TargetType_hpp

#include <string>

namespace poplar {

enum class TargetType { IPU, IPU_MODEL, CPU };

std::string toString(TargetType t);

} // namespace poplar

#endif
