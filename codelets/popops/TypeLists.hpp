// Element-type lists for instantiating vertex templates: POPOPS_TYPES_<list>(X, args...) expands
// X(args..., T) for each type T of the list. Host code and codelets share them.
#pragma once

#define POPOPS_TYPES_F(X, ...) X(__VA_ARGS__, float)
#define POPOPS_TYPES_FH(X, ...) X(__VA_ARGS__, float) X(__VA_ARGS__, half)
#define POPOPS_TYPES_I(X, ...) X(__VA_ARGS__, int)
#define POPOPS_TYPES_U(X, ...) X(__VA_ARGS__, unsigned)
#define POPOPS_TYPES_IU(X, ...) X(__VA_ARGS__, int) X(__VA_ARGS__, unsigned)
#define POPOPS_TYPES_B(X, ...) X(__VA_ARGS__, bool)
#define POPOPS_TYPES_FHI(X, ...) POPOPS_TYPES_FH(X, __VA_ARGS__) X(__VA_ARGS__, int)
#define POPOPS_TYPES_FHIU(X, ...) POPOPS_TYPES_FH(X, __VA_ARGS__) POPOPS_TYPES_IU(X, __VA_ARGS__)
#define POPOPS_TYPES_FHIUB(X, ...) POPOPS_TYPES_FHIU(X, __VA_ARGS__) X(__VA_ARGS__, bool)
// The types PopLibs transposes: every 4-byte and 2-byte type, and the 2-byte ones its fast
// (sides a multiple of 4) transposes take.
#define POPOPS_TYPES_TRANSPOSE_FAST(X, ...)                                                        \
  X(__VA_ARGS__, half) X(__VA_ARGS__, short) X(__VA_ARGS__, unsigned short)
#define POPOPS_TYPES_TRANSPOSE(X, ...)                                                             \
  X(__VA_ARGS__, float)                                                                            \
  X(__VA_ARGS__, int) X(__VA_ARGS__, unsigned) POPOPS_TYPES_TRANSPOSE_FAST(X, __VA_ARGS__)

// Pair lists: POPOPS_PAIRS_<list>(X, args...) expands X(args..., From, To) for each pair.
#define POPOPS_CAST_FROM(X, from, ...)                                                             \
  X(__VA_ARGS__, from, float)                                                                      \
  X(__VA_ARGS__, from, half)                                                                       \
  X(__VA_ARGS__, from, int) X(__VA_ARGS__, from, unsigned) X(__VA_ARGS__, from, bool)
#define POPOPS_PAIRS_CAST(X, ...)                                                                  \
  POPOPS_CAST_FROM(X, float, __VA_ARGS__)                                                          \
  POPOPS_CAST_FROM(X, half, __VA_ARGS__)                                                           \
  POPOPS_CAST_FROM(X, int, __VA_ARGS__)                                                            \
  POPOPS_CAST_FROM(X, unsigned, __VA_ARGS__) POPOPS_CAST_FROM(X, bool, __VA_ARGS__)

// multiUpdateAdd: (data, scale); half data takes a half or a float scale.
#define POPOPS_PAIRS_SCALED_UPDATE(X, ...)                                                         \
  X(__VA_ARGS__, float, float)                                                                     \
  X(__VA_ARGS__, half, half)                                                                       \
  X(__VA_ARGS__, half, float) X(__VA_ARGS__, int, int) X(__VA_ARGS__, unsigned, unsigned)

// NaN checks: (data, nanOrInf).
#define POPOPS_PAIRS_NAN_CHECK(X, ...)                                                             \
  X(__VA_ARGS__, float, false)                                                                     \
  X(__VA_ARGS__, float, true) X(__VA_ARGS__, half, false) X(__VA_ARGS__, half, true)

// normaliseImage: (input, output); 8-bit pixels give half.
#define POPOPS_PAIRS_NORMALISE_IMAGE(X, ...)                                                       \
  X(__VA_ARGS__, float, float) X(__VA_ARGS__, half, half) X(__VA_ARGS__, unsigned char, half)

// histogram: (data, count).
#define POPOPS_PAIRS_HISTOGRAM(X, ...)                                                             \
  X(__VA_ARGS__, float, float)                                                                     \
  X(__VA_ARGS__, float, unsigned) X(__VA_ARGS__, half, float) X(__VA_ARGS__, half, unsigned)

// (first, T) for each T of FHIU.
#define POPOPS_WITH_FHIU(X, first, ...)                                                            \
  X(__VA_ARGS__, first, float)                                                                     \
  X(__VA_ARGS__, first, half) X(__VA_ARGS__, first, int) X(__VA_ARGS__, first, unsigned)
// encodeOneHot: (index, output).
#define POPOPS_PAIRS_ONE_HOT(X, ...)                                                               \
  POPOPS_WITH_FHIU(X, unsigned, __VA_ARGS__) POPOPS_WITH_FHIU(X, int, __VA_ARGS__)
// Key-value sorts: (key, value).
#define POPOPS_PAIRS_SORT_KV(X, ...)                                                               \
  POPOPS_WITH_FHIU(X, float, __VA_ARGS__)                                                          \
  POPOPS_WITH_FHIU(X, half, __VA_ARGS__)                                                           \
  POPOPS_WITH_FHIU(X, int, __VA_ARGS__) POPOPS_WITH_FHIU(X, unsigned, __VA_ARGS__)
