// A convolution as a grouped matmul: views that fold the kernel positions into the input
// channels (im2col), the weights as the right-hand matrix, and the product as the output.
#pragma once

#include "MatMulPlan.hpp"

#include <poplin/ConvParams.hpp>

#include <poplar/Graph.hpp>

namespace poplin::internal {

/// The matmul a convolution becomes: groups G, positions M = batch x output field (before
/// output padding), K = kernel positions x input channels per group, N = output channels per
/// group.
MatMulProblem matMulProblemOf(const ConvParams &params);

/// The output field after truncation and stride (before padding), and the kernel after its
/// transform.
std::vector<std::size_t> stridedOutputShape(const ConvParams &params);
std::vector<std::size_t> transformedKernelShape(const ConvParams &params);
/// Output positions (batch x the strided output field: the product's M) and the transformed
/// kernel's positions; an overflowing count is an overflow_error.
std::size_t outputPositions(const ConvParams &params);
std::size_t kernelPositions(const ConvParams &params);

/// [G][batch][span...][inChansPerGroup] view of `in` after the input transform, each field
/// dimension cut to the span the strided output reads (from the output's truncation on); every
/// output field dimension must be non-empty.
poplar::Tensor inputFieldGrouped(poplar::Graph &graph, const ConvParams &params,
                                 const poplar::Tensor &in);
/// [G][M][K] view of `in` ([batch][inChans][field...]) after the input transform.
poplar::Tensor inputAsMatrix(poplar::Graph &graph, const ConvParams &params,
                             const poplar::Tensor &in);
/// [G][K][N] view of `weights` ([G][outChansPerGroup][inChansPerGroup][kernel...]) after the
/// kernel transform.
poplar::Tensor weightsAsMatrix(poplar::Graph &graph, const ConvParams &params,
                               const poplar::Tensor &weights);
/// [batch][outChans][outField...] (before output padding) view of a [G][M][N] product, and back.
poplar::Tensor outputFromMatrix(const ConvParams &params, const poplar::Tensor &product);
poplar::Tensor matrixFromOutput(const ConvParams &params, const poplar::Tensor &out);
/// [G][outChansPerGroup][inChansPerGroup][kernel...] of the untransformed kernel, from the
/// gradient of the [G][K][N] weights matrix (the kernel transform undone).
poplar::Tensor weightsFromMatrix(const ConvParams &params, const poplar::Tensor &matrix);

/// `t` with the output transform's padding (zeros) added around its field dimensions.
poplar::Tensor padOutput(poplar::Graph &graph, const ConvParams &params, const poplar::Tensor &t);
/// `t` without the output padding (the gradient of padding positions is dropped).
poplar::Tensor unpadOutput(const ConvParams &params, const poplar::Tensor &t);

/// `shape` of zeros: a view of one constant element.
poplar::Tensor zeros(poplar::Graph &graph, const poplar::Type &type,
                     const std::vector<std::size_t> &shape);

} // namespace poplin::internal
