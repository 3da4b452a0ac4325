// The non-linearities that have vertices (every NonLinearityType but the softmaxes, which are
// composed of popops ops): POPNN_NL_TYPES(X, args...) expands X(args..., TYPE) for each.
#pragma once

#define POPNN_NL_TYPES(X, ...)                                                                     \
  X(__VA_ARGS__, SIGMOID)                                                                          \
  X(__VA_ARGS__, HARD_SIGMOID)                                                                     \
  X(__VA_ARGS__, RELU)                                                                             \
  X(__VA_ARGS__, TANH) X(__VA_ARGS__, GELU) X(__VA_ARGS__, GELU_ERF) X(__VA_ARGS__, SWISH)
