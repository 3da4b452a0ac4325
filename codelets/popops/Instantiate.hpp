// Explicit instantiations of one codelet file's vertex templates, from Vertices.def: include at
// the end of the file, after defining POPOPS_FAMILY_<file>.
#pragma once

#include "ElementwiseOps.hpp"
#include "ReduceOps.hpp"
#include "TypeLists.hpp"

#define POPOPS_INSTANTIATE_OP(name, opType, op, T) template class popops::name<opType::op, T>;
#define POPOPS_INSTANTIATE_UNARY(name, op, types, result)                                          \
  POPOPS_TYPES_##types(POPOPS_INSTANTIATE_OP, name, popops::expr::UnaryOpType, op)
#define POPOPS_INSTANTIATE_BINARY(name, op, types, result)                                         \
  POPOPS_TYPES_##types(POPOPS_INSTANTIATE_OP, name, popops::expr::BinaryOpType, op)
#define POPOPS_INSTANTIATE_T(name, T) template class popops::name<T>;
#define POPOPS_INSTANTIATE_T2(name, A, B) template class popops::name<A, B>;
#define POPOPS_INSTANTIATE_REDUCE(name, op, P, O, update)                                          \
  template class popops::name<popops::op, P, O, update>;

#define POPOPS_UNARY_VERTEX(name, estimator) POPOPS_UNARY_OPS(POPOPS_INSTANTIATE_UNARY, name)
#define POPOPS_BINARY_VERTEX(name, estimator) POPOPS_BINARY_OPS(POPOPS_INSTANTIATE_BINARY, name)
#define POPOPS_VERTEX(name, types, estimator) POPOPS_TYPES_##types(POPOPS_INSTANTIATE_T, name)
#define POPOPS_VERTEX2(name, pairs, estimator) POPOPS_PAIRS_##pairs(POPOPS_INSTANTIATE_T2, name)
#define POPOPS_REDUCE_VERTEX(name, kind, estimator)                                                \
  POPOPS_REDUCE_INSTANCES_##kind(POPOPS_INSTANTIATE_REDUCE, name)
#include "Vertices.def"
