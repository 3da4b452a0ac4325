// concat/append: interleave the tensors' flat ranges per outer index, copy-free.
#include "tensor/Regions.hpp"
#include "tensor/TensorChecks.hpp"

#include <poplar/Tensor.hpp>

namespace poplar {

using namespace detail;

Tensor concat(ArrayRef<Tensor> ts, unsigned dimension) {
  const char *api = "concat";
  if (ts.empty())
    raise<poplar_error>(api, ": no tensors to concatenate (dimension ", dimension, ")");
  const TensorImpl &first = implOf(ts[0], api);
  checkDim(first, dimension, api);
  std::vector<std::size_t> shape = first.shape;
  for (std::size_t i = 1; i < ts.size(); ++i) {
    const TensorImpl &t = implOf(ts[i], api);
    if (t.type != first.type)
      raise<poplar_error>(api, ": tensor ", i, " has type ", t.type, " but tensor 0 has type ",
                          first.type);
    bool compatible = t.shape.size() == first.shape.size();
    for (std::size_t d = 0; compatible && d < t.shape.size(); ++d)
      compatible = d == dimension || t.shape[d] == first.shape[d];
    if (!compatible)
      raise<poplar_error>(api, ": tensor ", i, " of shape ", shapeText(t.shape),
                          " does not match tensor 0 of shape ", shapeText(first.shape),
                          " outside dimension ", dimension);
    shape[dimension] += t.shape[dimension];
  }
  if (ts.size() == 1)
    return ts[0];

  auto impl = std::make_shared<TensorImpl>();
  impl->type = first.type;
  impl->shape = shape;
  if (impl->numElements() != 0) {
    std::size_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < dimension; ++d)
      outer *= shape[d];
    for (std::size_t d = dimension + 1; d < shape.size(); ++d)
      inner *= shape[d];
    std::vector<RegionCursor> cursors;
    cursors.reserve(ts.size());
    for (const Tensor &t : ts)
      cursors.emplace_back(t.getImpl());
    RegionBuilder out;
    for (std::size_t o = 0; o < outer; ++o) {
      for (std::size_t i = 0; i < ts.size(); ++i) {
        const std::size_t chunk = ts[i].getImpl().shape[dimension] * inner;
        cursors[i].copy(o * chunk, (o + 1) * chunk, out);
      }
    }
    out.moveInto(*impl);
  }
  return Tensor(std::move(impl));
}

Tensor concat(const Tensor &first, const Tensor &second, unsigned dimension) {
  const Tensor both[] = {first, second};
  return concat(ArrayRef<Tensor>(both, 2), dimension);
}

Tensor append(const Tensor &first, const Tensor &second, unsigned dimension) {
  return concat(first, second, dimension);
}

} // namespace poplar
