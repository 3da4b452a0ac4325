// poplin::ConvParams: the shape of a convolution (batch, field, kernel, channels, groups) and
// the transforms of its input, kernel and output (truncation, dilation, padding, flip, stride).
#ifndef poplin_ConvParams_hpp
#define poplin_ConvParams_hpp

#include <poplar/Type.hpp>

#include <cstddef>
#include <iosfwd>
#include <vector>

namespace poplin {

struct ConvParams {
  /// Applied to the input (or the kernel) in this order: truncation, dilation (zeros between
  /// elements), padding (zeros at the ends), flip. One entry per field dimension.
  struct InputTransform {
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    std::vector<unsigned> dilation;
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;
    std::vector<bool> flip;
    InputTransform() = default;
    /// The identity transform of `size` dimensions.
    explicit InputTransform(std::size_t size);
    InputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                   std::vector<unsigned> dilation, std::vector<unsigned> paddingLower,
                   std::vector<unsigned> paddingUpper, std::vector<bool> flip);
  };
  /// Applied to the output in this order: truncation, striding, padding.
  struct OutputTransform {
    std::vector<unsigned> truncationLower;
    std::vector<unsigned> truncationUpper;
    std::vector<unsigned> stride;
    std::vector<unsigned> paddingLower;
    std::vector<unsigned> paddingUpper;
    OutputTransform() = default;
    explicit OutputTransform(std::size_t size);
    OutputTransform(std::vector<unsigned> truncationLower, std::vector<unsigned> truncationUpper,
                    std::vector<unsigned> stride, std::vector<unsigned> paddingLower,
                    std::vector<unsigned> paddingUpper);
  };

  poplar::Type inputType;
  poplar::Type outputType;
  std::size_t batchSize = 0;
  std::vector<std::size_t> inputFieldShape;
  std::vector<std::size_t> kernelShape;
  std::size_t inputChannelsPerConvGroup = 0;
  std::size_t outputChannelsPerConvGroup = 0;
  std::size_t numConvGroups = 1;
  InputTransform inputTransform;
  InputTransform kernelTransform;
  OutputTransform outputTransform;

  ConvParams() = default;
  ConvParams(const poplar::Type &dataType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
             std::size_t inputChannelsPerConvGroup, std::size_t outputChannelsPerConvGroup,
             std::size_t numConvGroups);
  ConvParams(const poplar::Type &inputType, const poplar::Type &outputType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
             std::size_t inputChannelsPerConvGroup, std::size_t outputChannelsPerConvGroup,
             std::size_t numConvGroups);
  ConvParams(const poplar::Type &inputType, const poplar::Type &outputType, std::size_t batchSize,
             std::vector<std::size_t> inputFieldShape, std::vector<std::size_t> kernelShape,
             std::size_t inputChannelsPerConvGroup, std::size_t outputChannelsPerConvGroup,
             std::size_t numConvGroups, InputTransform inputTransform,
             InputTransform kernelTransform, OutputTransform outputTransform);

  std::size_t getNumFieldDims() const { return inputFieldShape.size(); }
  std::size_t getBatchSize() const { return batchSize; }
  std::size_t getNumConvGroups() const { return numConvGroups; }
  std::size_t getNumInputChansPerConvGroup() const { return inputChannelsPerConvGroup; }
  std::size_t getNumOutputChansPerConvGroup() const { return outputChannelsPerConvGroup; }
  std::size_t getNumInputChans() const { return inputChannelsPerConvGroup * numConvGroups; }
  std::size_t getNumOutputChans() const { return outputChannelsPerConvGroup * numConvGroups; }
  const std::vector<std::size_t> &getInputFieldShape() const { return inputFieldShape; }
  const std::vector<std::size_t> &getKernelShape() const { return kernelShape; }
  std::size_t getInputSize(unsigned dim) const { return inputFieldShape[dim]; }
  std::size_t getKernelSize(unsigned dim) const { return kernelShape[dim]; }
  const poplar::Type &getInputType() const { return inputType; }
  const poplar::Type &getOutputType() const { return outputType; }
  /// The input's (kernel's) size in `dim` after its transform.
  std::size_t getTransformedInputSize(unsigned dim) const;
  std::size_t getTransformedKernelSize(unsigned dim) const;
  /// The output's size in `dim` before (after) the output transform.
  std::size_t getUntransformedOutputSize(unsigned dim) const;
  std::size_t getOutputSize(unsigned dim) const;
  std::vector<std::size_t> getOutputFieldShape() const;
  /// Throws poputil::poplibs_error for inconsistent parameters.
  void validate() const;
  /// The same convolution with no transform of size zero left (here: validated and returned).
  ConvParams canonicalize() const;

  friend bool operator<(const ConvParams &a, const ConvParams &b);
  friend bool operator==(const ConvParams &a, const ConvParams &b);
  friend bool operator!=(const ConvParams &a, const ConvParams &b) { return !(a == b); }
};

std::ostream &operator<<(std::ostream &os, const ConvParams &p);

} // namespace poplin

#endif
