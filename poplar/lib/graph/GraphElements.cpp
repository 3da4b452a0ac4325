// DataStream handle accessors.
#include "core/Errors.hpp"
#include "graph/GraphState.hpp"

#include <poplar/GraphElements.hpp>

namespace poplar {

DataStream::DataStream() = default;
DataStream::DataStream(std::shared_ptr<const detail::StreamDesc> desc) : desc_(std::move(desc)) {}

const detail::StreamDesc &DataStream::getImpl() const {
  if (!desc_)
    detail::raise<poplar_error>("DataStream: the stream is empty (default-constructed)");
  return *desc_;
}
std::string DataStream::handle() const { return getImpl().handle; }
Type DataStream::elementType() const { return getImpl().type; }
std::size_t DataStream::numElements() const { return getImpl().numElements; }

} // namespace poplar
