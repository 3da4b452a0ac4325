// Explicit instantiations of one codelet file's vertex templates, from Vertices.def: include at
// the end of the file, after defining POPRAND_FAMILY_<file>. The type lists are popops'.
#pragma once

#include "popops/TypeLists.hpp"

#define POPRAND_INSTANTIATE_T(name, T) template class poprand::name<T>;
#define POPRAND_VERTEX(name, types, estimator) POPOPS_TYPES_##types(POPRAND_INSTANTIATE_T, name)
#include "Vertices.def"
