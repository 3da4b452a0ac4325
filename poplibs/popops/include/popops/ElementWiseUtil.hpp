// PopLibs' header of createOutputForElementWiseOp (the output layout of element-wise ops), which
// is declared with the element-wise ops in ElementWise.hpp.
#ifndef popops_ElementWiseUtil_hpp
#define popops_ElementWiseUtil_hpp

#include <popops/ElementWise.hpp>

#endif
