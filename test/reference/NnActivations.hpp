// Host reference for popnn's non-linearities, softmaxes and log-softmax, in double precision.
#pragma once

#include <popnn/NonLinearityDef.hpp>

#include <cstddef>
#include <vector>

namespace popsdk::reference {

/// An element-wise non-linearity (every NonLinearityType but the softmaxes) of x.
double nonLinearity(popnn::NonLinearityType type, double x);

/// `type` of `x` (row-major, innermost rows of `rowLength`): element-wise, or the softmax of each
/// row (times SOFTMAX_SCALING for SOFTMAX_SCALED).
std::vector<double> nonLinearity(popnn::NonLinearityType type, const std::vector<double> &x,
                                 std::size_t rowLength);

/// log(softmax(row)) of each innermost row.
std::vector<double> logSoftmax(const std::vector<double> &x, std::size_t rowLength);

/// The gradient popnn::nonLinearityInputGradient is given `act` for: the forward output of `in`
/// for SIGMOID, RELU, TANH and the softmaxes, `in` itself for the others.
std::vector<double> gradientActivations(popnn::NonLinearityType type, const std::vector<double> &in,
                                        std::size_t rowLength);

/// d/d in of sum(outGrad * nonLinearity(in)) by central differences of the forward reference
/// with step h: what the input gradient must be, derived from the forward pass alone.
std::vector<double> finiteDifferenceGradient(popnn::NonLinearityType type,
                                             const std::vector<double> &in,
                                             const std::vector<double> &outGrad,
                                             std::size_t rowLength, double h = 1e-5);

} // namespace popsdk::reference
