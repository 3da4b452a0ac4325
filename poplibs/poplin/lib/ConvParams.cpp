// ConvParams: constructors, the sizes each transform gives, validation and comparison.
#include <poplin/ConvParams.hpp>
#include <poplin/ConvUtil.hpp>

#include "support/Raise.hpp"

#include <poputil/exceptions.hpp>

#include <algorithm>
#include <ostream>
#include <sstream>
#include <tuple>

namespace poplin {

using popsdk::support::raise;

namespace {

std::size_t dilated(std::size_t n, unsigned d) { return n == 0 ? 0 : (n - 1) * d + 1; }

template <class V> std::ostream &list(std::ostream &os, const V &v) {
  os << "{";
  for (std::size_t i = 0; i < v.size(); ++i)
    os << (i ? "," : "") << v[i];
  return os << "}";
}

auto tieOf(const ConvParams::InputTransform &t) {
  return std::tie(t.truncationLower, t.truncationUpper, t.dilation, t.paddingLower, t.paddingUpper,
                  t.flip);
}
auto tieOf(const ConvParams::OutputTransform &t) {
  return std::tie(t.truncationLower, t.truncationUpper, t.stride, t.paddingLower, t.paddingUpper);
}
auto tieOf(const ConvParams &p) {
  return std::make_tuple(p.inputType, p.outputType, p.batchSize, p.inputFieldShape, p.kernelShape,
                         p.inputChannelsPerConvGroup, p.outputChannelsPerConvGroup, p.numConvGroups,
                         tieOf(p.inputTransform), tieOf(p.kernelTransform),
                         tieOf(p.outputTransform));
}

/// The size of `field` after `t` in `dim`; throws when truncation removes more than is there.
std::size_t transformedSize(const char *what, std::size_t size, const ConvParams::InputTransform &t,
                            unsigned dim) {
  const std::size_t cut = std::size_t(t.truncationLower[dim]) + t.truncationUpper[dim];
  if (cut > size)
    raise<poputil::poplibs_error>("poplin::ConvParams: ", what, " truncation ",
                                  t.truncationLower[dim], "+", t.truncationUpper[dim],
                                  " in dimension ", dim, " exceeds its size ", size);
  return t.paddingLower[dim] + dilated(size - cut, t.dilation[dim]) + t.paddingUpper[dim];
}

} // namespace

ConvParams::InputTransform::InputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), dilation(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0), flip(size, false) {}

ConvParams::InputTransform::InputTransform(std::vector<unsigned> truncationLower_,
                                           std::vector<unsigned> truncationUpper_,
                                           std::vector<unsigned> dilation_,
                                           std::vector<unsigned> paddingLower_,
                                           std::vector<unsigned> paddingUpper_,
                                           std::vector<bool> flip_)
    : truncationLower(std::move(truncationLower_)), truncationUpper(std::move(truncationUpper_)),
      dilation(std::move(dilation_)), paddingLower(std::move(paddingLower_)),
      paddingUpper(std::move(paddingUpper_)), flip(std::move(flip_)) {}

ConvParams::OutputTransform::OutputTransform(std::size_t size)
    : truncationLower(size, 0), truncationUpper(size, 0), stride(size, 1), paddingLower(size, 0),
      paddingUpper(size, 0) {}

ConvParams::OutputTransform::OutputTransform(std::vector<unsigned> truncationLower_,
                                             std::vector<unsigned> truncationUpper_,
                                             std::vector<unsigned> stride_,
                                             std::vector<unsigned> paddingLower_,
                                             std::vector<unsigned> paddingUpper_)
    : truncationLower(std::move(truncationLower_)), truncationUpper(std::move(truncationUpper_)),
      stride(std::move(stride_)), paddingLower(std::move(paddingLower_)),
      paddingUpper(std::move(paddingUpper_)) {}

ConvParams::ConvParams(const poplar::Type &dataType, std::size_t batchSize_,
                       std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels,
                       std::size_t outputChannels, std::size_t numConvGroups_)
    : ConvParams(dataType, dataType, batchSize_, std::move(inputFieldShape_),
                 std::move(kernelShape_), inputChannels, outputChannels, numConvGroups_) {}

ConvParams::ConvParams(const poplar::Type &inputType_, const poplar::Type &outputType_,
                       std::size_t batchSize_, std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels,
                       std::size_t outputChannels, std::size_t numConvGroups_)
    : ConvParams(inputType_, outputType_, batchSize_, inputFieldShape_, kernelShape_, inputChannels,
                 outputChannels, numConvGroups_, InputTransform(inputFieldShape_.size()),
                 InputTransform(inputFieldShape_.size()),
                 OutputTransform(inputFieldShape_.size())) {}

ConvParams::ConvParams(const poplar::Type &inputType_, const poplar::Type &outputType_,
                       std::size_t batchSize_, std::vector<std::size_t> inputFieldShape_,
                       std::vector<std::size_t> kernelShape_, std::size_t inputChannels,
                       std::size_t outputChannels, std::size_t numConvGroups_,
                       InputTransform inputTransform_, InputTransform kernelTransform_,
                       OutputTransform outputTransform_)
    : inputType(inputType_), outputType(outputType_), batchSize(batchSize_),
      inputFieldShape(std::move(inputFieldShape_)), kernelShape(std::move(kernelShape_)),
      inputChannelsPerConvGroup(inputChannels), outputChannelsPerConvGroup(outputChannels),
      numConvGroups(numConvGroups_), inputTransform(std::move(inputTransform_)),
      kernelTransform(std::move(kernelTransform_)), outputTransform(std::move(outputTransform_)) {
  validate();
}

std::size_t ConvParams::getTransformedInputSize(unsigned dim) const {
  return transformedSize("input", inputFieldShape[dim], inputTransform, dim);
}

std::size_t ConvParams::getTransformedKernelSize(unsigned dim) const {
  return transformedSize("kernel", kernelShape[dim], kernelTransform, dim);
}

std::size_t ConvParams::getUntransformedOutputSize(unsigned dim) const {
  const std::size_t in = getTransformedInputSize(dim), k = getTransformedKernelSize(dim);
  return in + 1 < k ? 0 : in + 1 - k;
}

std::size_t ConvParams::getOutputSize(unsigned dim) const {
  const auto &t = outputTransform;
  const std::size_t out = getUntransformedOutputSize(dim);
  const std::size_t cut = std::size_t(t.truncationLower[dim]) + t.truncationUpper[dim];
  const std::size_t kept = cut > out ? 0 : out - cut;
  return t.paddingLower[dim] + (kept + t.stride[dim] - 1) / t.stride[dim] + t.paddingUpper[dim];
}

std::vector<std::size_t> ConvParams::getOutputFieldShape() const {
  std::vector<std::size_t> shape;
  for (unsigned d = 0; d < getNumFieldDims(); ++d)
    shape.push_back(getOutputSize(d));
  return shape;
}

void ConvParams::validate() const {
  const std::size_t dims = inputFieldShape.size();
  std::ostringstream self;
  self << *this;
  auto fail = [&](const auto &...parts) {
    raise<poputil::poplibs_error>("poplin::ConvParams: ", parts..., " in ", self.str());
  };
  if (kernelShape.size() != dims)
    fail("kernel has ", kernelShape.size(), " dimensions but the field has ", dims);
  auto checkInput = [&](const char *what, const InputTransform &t) {
    if (t.truncationLower.size() != dims || t.truncationUpper.size() != dims ||
        t.dilation.size() != dims || t.paddingLower.size() != dims ||
        t.paddingUpper.size() != dims || t.flip.size() != dims)
      fail(what, " transform does not have one entry per field dimension (", dims, ")");
    for (unsigned d = 0; d < dims; ++d)
      if (t.dilation[d] == 0)
        fail(what, " dilation is 0 in dimension ", d);
  };
  checkInput("input", inputTransform);
  checkInput("kernel", kernelTransform);
  const auto &o = outputTransform;
  if (o.truncationLower.size() != dims || o.truncationUpper.size() != dims ||
      o.stride.size() != dims || o.paddingLower.size() != dims || o.paddingUpper.size() != dims)
    fail("output transform does not have one entry per field dimension (", dims, ")");
  for (unsigned d = 0; d < dims; ++d)
    if (o.stride[d] == 0)
      fail("output stride is 0 in dimension ", d);
  if (numConvGroups == 0 || inputChannelsPerConvGroup == 0 || outputChannelsPerConvGroup == 0)
    fail("zero channels or groups");
  for (unsigned d = 0; d < dims; ++d) {
    if (kernelShape[d] == 0)
      fail("kernel size is 0 in dimension ", d);
    if (getTransformedKernelSize(d) > getTransformedInputSize(d))
      fail("the kernel (", getTransformedKernelSize(d), " after its transform) is larger than the ",
           "input (", getTransformedInputSize(d), ") in dimension ", d);
  }
}

ConvParams ConvParams::canonicalize() const {
  validate();
  return *this;
}

bool operator<(const ConvParams &a, const ConvParams &b) { return tieOf(a) < tieOf(b); }
bool operator==(const ConvParams &a, const ConvParams &b) { return tieOf(a) == tieOf(b); }

std::ostream &operator<<(std::ostream &os, const ConvParams &p) {
  os << "ConvParams{" << p.inputType << "->" << p.outputType << ", batch " << p.batchSize
     << ", field ";
  list(os, p.inputFieldShape) << ", kernel ";
  list(os, p.kernelShape) << ", chans " << p.inputChannelsPerConvGroup << "->"
                          << p.outputChannelsPerConvGroup << " x " << p.numConvGroups << " groups";
  auto input = [&](const char *what, const ConvParams::InputTransform &t) {
    os << ", " << what << " {trunc ";
    list(os, t.truncationLower) << "/";
    list(os, t.truncationUpper) << ", dilation ";
    list(os, t.dilation) << ", padding ";
    list(os, t.paddingLower) << "/";
    list(os, t.paddingUpper) << ", flip ";
    list(os, t.flip) << "}";
  };
  input("input", p.inputTransform);
  input("kernel", p.kernelTransform);
  const auto &o = p.outputTransform;
  os << ", output {trunc ";
  list(os, o.truncationLower) << "/";
  list(os, o.truncationUpper) << ", stride ";
  list(os, o.stride) << ", padding ";
  list(os, o.paddingLower) << "/";
  list(os, o.paddingUpper) << "}}";
  return os;
}

ConvParams getGradientParams(const ConvParams &fwd) {
  const std::size_t dims = fwd.getNumFieldDims();
  const auto &in = fwd.inputTransform;
  const auto &k = fwd.kernelTransform;
  const auto &o = fwd.outputTransform;
  for (unsigned d = 0; d < dims; ++d)
    if (in.truncationLower[d] || in.truncationUpper[d] || in.dilation[d] != 1 || in.flip[d] ||
        k.truncationLower[d] || k.truncationUpper[d] || k.paddingLower[d] || k.paddingUpper[d] ||
        k.flip[d] || o.truncationLower[d] || o.truncationUpper[d] || o.paddingLower[d] ||
        o.paddingUpper[d]) {
      std::ostringstream os;
      os << fwd;
      raise<poputil::poplibs_error>(
          "poplin::getGradientParams supports input padding, kernel dilation and output stride; "
          "other transforms are set in ",
          os.str());
    }
  // dIn[i] = sum_t dOut-dilated-by-stride[i + padLower - (k - 1) dk + t dk] * flipped w[t]:
  // a convolution of the output gradients dilated by the stride, padded so that it spans the
  // input, with the flipped kernel.
  ConvParams::InputTransform bwdIn(dims), bwdKernel(dims);
  ConvParams::OutputTransform bwdOut(dims);
  for (unsigned d = 0; d < dims; ++d) {
    const long reach = long(fwd.kernelShape[d] - 1) * k.dilation[d];
    const long lower = reach - long(in.paddingLower[d]);
    const long dilatedOut = long(dilated(fwd.getOutputSize(d), o.stride[d]));
    const long upper = long(fwd.inputFieldShape[d]) + reach - lower - dilatedOut;
    // Padding of the forward input beyond the kernel's reach: those gradient positions
    // exist but reach no input element, so they are cut from the output.
    bwdIn.dilation[d] = o.stride[d];
    bwdIn.paddingLower[d] = unsigned(std::max(0L, lower));
    bwdOut.truncationLower[d] = unsigned(std::max(0L, -lower));
    bwdIn.paddingUpper[d] = unsigned(std::max(0L, upper));
    bwdOut.truncationUpper[d] = unsigned(std::max(0L, -upper));
    bwdKernel.dilation[d] = k.dilation[d];
  }
  return ConvParams(fwd.inputType, fwd.outputType, fwd.batchSize, fwd.getOutputFieldShape(),
                    fwd.kernelShape, fwd.outputChannelsPerConvGroup, fwd.inputChannelsPerConvGroup,
                    fwd.numConvGroups, bwdIn, bwdKernel, bwdOut);
}

} // namespace poplin
