// popnn pooling over the spatial dimensions of [batch, channels, field...] activations: forward
// and the input gradient.
#ifndef popnn_Pooling_hpp
#define popnn_Pooling_hpp

#include <popnn/PoolingDef.hpp>

#include <poplar/DebugContext.hpp>
#include <poplar/Graph.hpp>
#include <poplar/OptionFlags.hpp>
#include <poplar/Program.hpp>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <utility>
#include <vector>

namespace popnn {
namespace pooling {

/// One pooling: the field and kernel shapes, the stride, and per field dimension the padding
/// (positive) or truncation (negative) of the input at each end.
struct PoolParams {
  PoolingType poolingType;
  std::vector<std::size_t> inputFieldShape;
  std::vector<std::size_t> kernelShape;
  std::vector<unsigned> stride;
  std::vector<int> inputTruncationOrPaddingLower;
  std::vector<int> inputTruncationOrPaddingUpper;
  std::size_t numChannels;
  std::size_t batchSize;
  poplar::Type dType;

  PoolParams(PoolingType poolingType, std::vector<std::size_t> inputFieldShape,
             std::vector<std::size_t> kernelShape, std::vector<unsigned> stride,
             std::vector<int> inputTruncationOrPaddingLower,
             std::vector<int> inputTruncationOrPaddingUpper, std::size_t numChannels,
             std::size_t batchSize, poplar::Type dType)
      : poolingType(poolingType), inputFieldShape(std::move(inputFieldShape)),
        kernelShape(std::move(kernelShape)), stride(std::move(stride)),
        inputTruncationOrPaddingLower(std::move(inputTruncationOrPaddingLower)),
        inputTruncationOrPaddingUpper(std::move(inputTruncationOrPaddingUpper)),
        numChannels(numChannels), batchSize(batchSize), dType(dType) {}

  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  /// Per field dimension: (padded input - kernel) / stride + 1.
  std::vector<std::size_t> getOutputFieldShape() const;
};

std::ostream &operator<<(std::ostream &os, const PoolParams &params);

const char *asString(const PoolingType &method);

std::vector<std::size_t> getOutputFieldShape(const PoolParams &params);

/// Operations of the forward and backward passes: one per window element.
std::uint64_t getFwdFlops(const PoolParams &params);
std::uint64_t getBwdFlops(const PoolParams &params);

/// `in` [batch, channels, field...] pooled into [batch, channels, output field...].
/// Options: "poolUseIntrospectiveMapping" (true, false), accepted for compatibility; the output
/// is always mapped like the input's first window.
poplar::Tensor pool(poplar::Graph &graph, const PoolParams &params, const poplar::Tensor &in,
                    poplar::program::Sequence &prog, const poplar::DebugContext &debugContext = {},
                    const poplar::OptionFlags &options = {});

/// The gradient at the input of `pool` given `pooledGradient` at its output; `in` and `pooled`
/// are the forward input and output. MAX sends each output's gradient to every input position
/// of its window equal to the maximum, divided by their number if `useScaledGradient`; AVG and
/// SUM spread it over the window as the forward pass gathered it.
poplar::Tensor poolInputGradient(poplar::Graph &graph, const PoolParams &params,
                                 const poplar::Tensor &in, const poplar::Tensor &pooled,
                                 const poplar::Tensor &pooledGradient, bool useScaledGradient,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

/// The AVG and SUM gradient, which needs neither the input nor the output (fwdChansPerGroup
/// is a layout hint, accepted for compatibility).
poplar::Tensor poolInputGradient(poplar::Graph &graph, const PoolParams &params,
                                 const unsigned fwdChansPerGroup,
                                 const poplar::Tensor &pooledGradient,
                                 poplar::program::Sequence &prog,
                                 const poplar::DebugContext &debugContext = {},
                                 const poplar::OptionFlags &options = {});

} // namespace pooling
} // namespace popnn

#endif // popnn_Pooling_hpp
