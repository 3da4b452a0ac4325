// The vertex field layouts under the header name Poplar also gives them (poplar/FieldTypes.hpp):
// codelets include it for VectorLayout and VectorListLayout.
#ifndef poplar_FieldTypes_hpp
#define poplar_FieldTypes_hpp

#include <poplar/VectorLayout.hpp>

#endif
