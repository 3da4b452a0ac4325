// Explicit instantiations of one codelet file's vertex templates, from Vertices.def: include at
// the end of the file, after defining POPNN_FAMILY_<file>. The type lists are popops'.
#pragma once

#include "NonLinearityTypes.hpp"
#include "popops/TypeLists.hpp"

#define POPNN_INSTANTIATE_NL(name, T, nl)                                                          \
  template class popnn::name<T, popnn::NonLinearityType::nl>;
#define POPNN_INSTANTIATE_NL_T(name, T) POPNN_NL_TYPES(POPNN_INSTANTIATE_NL, name, T)
#define POPNN_INSTANTIATE_T(name, T) template class popnn::name<T>;
#define POPNN_INSTANTIATE_CLASS(name, T) template class popnn::name<T, unsigned>;

#define POPNN_NL_VERTEX(name, estimator) POPOPS_TYPES_FH(POPNN_INSTANTIATE_NL_T, name)
#define POPNN_VERTEX(name, types, estimator) POPOPS_TYPES_##types(POPNN_INSTANTIATE_T, name)
#define POPNN_CLASS_VERTEX(name, types, estimator)                                                 \
  POPOPS_TYPES_##types(POPNN_INSTANTIATE_CLASS, name)
#include "Vertices.def"
