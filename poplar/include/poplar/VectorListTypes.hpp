// VectorListLayout under the header name Poplar also gives it (poplar/VectorListTypes.hpp).
#ifndef poplar_VectorListTypes_hpp
#define poplar_VectorListTypes_hpp

#include <poplar/VectorLayout.hpp>

#endif
