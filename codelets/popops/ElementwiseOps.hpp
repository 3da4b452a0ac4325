// The element-wise op table: each op once, with the element types its vertices are built for
// and its result type. Host code (names, type checks, estimators) and codelets (instantiations)
// both expand it:
//   POPOPS_UNARY_OPS(X, args...)   X(args..., Op, Types, Result) for each unary op
//   POPOPS_BINARY_OPS(X, args...)  the same for each binary op
// Types names a list of TypeLists.hpp (F float, H half, I int, U unsigned, B bool); Result is SAME
// (the element type) or BOOL. A macro list rather than a .def file, so that a vertex-table row
// can expand it (Vertices.def).
#pragma once

#define POPOPS_UNARY_OPS(X, ...)                                                                   \
  X(__VA_ARGS__, ABSOLUTE, FHI, SAME)                                                              \
  X(__VA_ARGS__, ASIN, FH, SAME)                                                                   \
  X(__VA_ARGS__, BITWISE_NOT, IU, SAME)                                                            \
  X(__VA_ARGS__, CBRT, FH, SAME)                                                                   \
  X(__VA_ARGS__, CEIL, FH, SAME)                                                                   \
  X(__VA_ARGS__, COS, FH, SAME)                                                                    \
  X(__VA_ARGS__, COUNT_LEADING_ZEROS, IU, SAME)                                                    \
  X(__VA_ARGS__, ERF, FH, SAME)                                                                    \
  X(__VA_ARGS__, EXPONENT, FH, SAME)                                                               \
  X(__VA_ARGS__, EXPONENT_MINUS_ONE, FH, SAME)                                                     \
  X(__VA_ARGS__, EXPONENT2, FH, SAME)                                                              \
  X(__VA_ARGS__, FLOOR, FH, SAME)                                                                  \
  X(__VA_ARGS__, GELU_ERF, FH, SAME)                                                               \
  X(__VA_ARGS__, INVERSE, FH, SAME)                                                                \
  X(__VA_ARGS__, IS_FINITE, FH, BOOL)                                                              \
  X(__VA_ARGS__, IS_INF, FH, BOOL)                                                                 \
  X(__VA_ARGS__, IS_NAN, FH, BOOL)                                                                 \
  X(__VA_ARGS__, LOGARITHM, FH, SAME)                                                              \
  X(__VA_ARGS__, LOGARITHM_ONE_PLUS, FH, SAME)                                                     \
  X(__VA_ARGS__, LOGICAL_NOT, B, SAME)                                                             \
  X(__VA_ARGS__, NEGATE, FHI, SAME)                                                                \
  X(__VA_ARGS__, NEARBY_INT, FH, SAME)                                                             \
  X(__VA_ARGS__, POPCOUNT, IU, SAME)                                                               \
  X(__VA_ARGS__, RELU, FHI, SAME)                                                                  \
  X(__VA_ARGS__, SIGNUM, FHI, SAME)                                                                \
  X(__VA_ARGS__, SIN, FH, SAME)                                                                    \
  X(__VA_ARGS__, TAN, FH, SAME)                                                                    \
  X(__VA_ARGS__, TANH, FH, SAME)                                                                   \
  X(__VA_ARGS__, ROUND, FH, SAME)                                                                  \
  X(__VA_ARGS__, SQRT, FHI, SAME)                                                                  \
  X(__VA_ARGS__, SQUARE, FHIU, SAME)                                                               \
  X(__VA_ARGS__, SIGMOID, FH, SAME)                                                                \
  X(__VA_ARGS__, RSQRT, FH, SAME)                                                                  \
  X(__VA_ARGS__, TRUNC, FH, SAME)

#define POPOPS_BINARY_OPS(X, ...)                                                                  \
  X(__VA_ARGS__, ADD, FHIU, SAME)                                                                  \
  X(__VA_ARGS__, ATAN2, FH, SAME)                                                                  \
  X(__VA_ARGS__, BITWISE_AND, IU, SAME)                                                            \
  X(__VA_ARGS__, BITWISE_OR, IU, SAME)                                                             \
  X(__VA_ARGS__, BITWISE_XOR, IU, SAME)                                                            \
  X(__VA_ARGS__, BITWISE_XNOR, IU, SAME)                                                           \
  X(__VA_ARGS__, DIVIDE, FHIU, SAME)                                                               \
  X(__VA_ARGS__, EQUAL, FHIUB, BOOL)                                                               \
  X(__VA_ARGS__, GREATER_THAN_EQUAL, FHIUB, BOOL)                                                  \
  X(__VA_ARGS__, GREATER_THAN, FHIUB, BOOL)                                                        \
  X(__VA_ARGS__, INV_STD_DEV_TO_VARIANCE, FH, SAME)                                                \
  X(__VA_ARGS__, LESS_THAN_EQUAL, FHIUB, BOOL)                                                     \
  X(__VA_ARGS__, LOGICAL_AND, B, SAME)                                                             \
  X(__VA_ARGS__, LOGICAL_OR, B, SAME)                                                              \
  X(__VA_ARGS__, LESS_THAN, FHIUB, BOOL)                                                           \
  X(__VA_ARGS__, MAXIMUM, FHIU, SAME)                                                              \
  X(__VA_ARGS__, MINIMUM, FHIU, SAME)                                                              \
  X(__VA_ARGS__, MULTIPLY, FHIU, SAME)                                                             \
  X(__VA_ARGS__, NOT_EQUAL, FHIUB, BOOL)                                                           \
  X(__VA_ARGS__, POWER, FH, SAME)                                                                  \
  X(__VA_ARGS__, REMAINDER, FHIU, SAME)                                                            \
  X(__VA_ARGS__, SHIFT_LEFT, IU, SAME)                                                             \
  X(__VA_ARGS__, SHIFT_RIGHT, IU, SAME)                                                            \
  X(__VA_ARGS__, SHIFT_RIGHT_SIGN_EXTEND, I, SAME)                                                 \
  X(__VA_ARGS__, SUBTRACT, FHIU, SAME)                                                             \
  X(__VA_ARGS__, VARIANCE_TO_INV_STD_DEV, FH, SAME)
