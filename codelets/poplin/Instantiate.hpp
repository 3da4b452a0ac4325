// Explicit instantiations of one codelet file's vertex templates, from Vertices.def: include at
// the end of the file, after defining POPLIN_FAMILY_<file>.
#pragma once

#define POPLIN_INSTANTIATE_T2(name, A, B) template class poplin::name<A, B>;
#define POPLIN_VERTEX2(name, pairs, estimator) POPLIN_PAIRS_##pairs(POPLIN_INSTANTIATE_T2, name)
#include "Vertices.def"
