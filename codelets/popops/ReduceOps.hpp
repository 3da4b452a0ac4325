// The reduction op table: each popops::Operation once, with the device type that folds it
// (codelets/popops/Reduce.cpp), the (partials, output) type pairs its vertices are built for and
// whether it takes a scale and an update. Host code (vertex names, type checks) and codelets
// (instantiations, through Vertices.def) both expand it:
//   POPOPS_REDUCE_OPS(X, args...)  X(args..., Operation, ReduceOp, Pairs, ScaleAndUpdate)
// Pairs names a pair list below; ScaleAndUpdate is 1 or 0.
#pragma once

#define POPOPS_REDUCE_OPS(X, ...)                                                                  \
  X(__VA_ARGS__, ADD, ReduceAdd, ACC, 1)                                                           \
  X(__VA_ARGS__, MUL, ReduceMul, ACC, 0)                                                           \
  X(__VA_ARGS__, MIN, ReduceMin, SAME, 0)                                                          \
  X(__VA_ARGS__, MAX, ReduceMax, SAME, 0)                                                          \
  X(__VA_ARGS__, LOGICAL_AND, ReduceAnd, BOOL, 0)                                                  \
  X(__VA_ARGS__, LOGICAL_OR, ReduceOr, BOOL, 0)                                                    \
  X(__VA_ARGS__, SQUARE_ADD, ReduceSquareAdd, ACC, 1)                                              \
  X(__VA_ARGS__, LOG_ADD, ReduceLogAdd, FLOATING, 1)

// (partials, output) pairs: POPOPS_REDUCE_PAIRS_<list>(X, args...) expands X(args..., P, O).
// Accumulating ops take float and half in any mix (half is accumulated in float); the others
// keep their type.
#define POPOPS_REDUCE_PAIRS_FLOATING(X, ...)                                                       \
  X(__VA_ARGS__, float, float)                                                                     \
  X(__VA_ARGS__, float, half) X(__VA_ARGS__, half, float) X(__VA_ARGS__, half, half)
#define POPOPS_REDUCE_PAIRS_ACC(X, ...)                                                            \
  POPOPS_REDUCE_PAIRS_FLOATING(X, __VA_ARGS__)                                                     \
  X(__VA_ARGS__, int, int) X(__VA_ARGS__, unsigned, unsigned)
#define POPOPS_REDUCE_PAIRS_SAME(X, ...)                                                           \
  X(__VA_ARGS__, float, float)                                                                     \
  X(__VA_ARGS__, half, half) X(__VA_ARGS__, int, int) X(__VA_ARGS__, unsigned, unsigned)
#define POPOPS_REDUCE_PAIRS_BOOL(X, ...) X(__VA_ARGS__, bool, bool)

// The instantiations of a reduction vertex template, for Vertices.def rows:
//   POPOPS_REDUCE_INSTANCES_<Kind>(X, name)  X(name, ReduceOp, P, O, isUpdate) for each
// Kind PLAIN: every (op, pair) without update, and with update where the op allows it.
// Kind SCALED: the ops that take a scale, with and without update.
#define POPOPS_REDUCE_ROW_UPDATE(X, name, ReduceOp, isUpdate, P, O)                                \
  X(name, ReduceOp, P, O, isUpdate)
#define POPOPS_REDUCE_IF_0(...)
#define POPOPS_REDUCE_IF_1(...) __VA_ARGS__
#define POPOPS_REDUCE_ROW_PLAIN(X, name, Operation, ReduceOp, Pairs, scaleAndUpdate)               \
  POPOPS_REDUCE_PAIRS_##Pairs(POPOPS_REDUCE_ROW_UPDATE, X, name, ReduceOp, false)                  \
      POPOPS_REDUCE_IF_##scaleAndUpdate(                                                           \
          POPOPS_REDUCE_PAIRS_##Pairs(POPOPS_REDUCE_ROW_UPDATE, X, name, ReduceOp, true))
#define POPOPS_REDUCE_ROW_SCALED(X, name, Operation, ReduceOp, Pairs, scaleAndUpdate)              \
  POPOPS_REDUCE_IF_##scaleAndUpdate(                                                               \
      POPOPS_REDUCE_PAIRS_##Pairs(POPOPS_REDUCE_ROW_UPDATE, X, name, ReduceOp, false)              \
          POPOPS_REDUCE_PAIRS_##Pairs(POPOPS_REDUCE_ROW_UPDATE, X, name, ReduceOp, true))
#define POPOPS_REDUCE_INSTANCES_PLAIN(X, name) POPOPS_REDUCE_OPS(POPOPS_REDUCE_ROW_PLAIN, X, name)
#define POPOPS_REDUCE_INSTANCES_SCALED(X, name) POPOPS_REDUCE_OPS(POPOPS_REDUCE_ROW_SCALED, X, name)
