// Argument checks of the slicing ops, and INT indices converted to UNSIGNED_INT on the device.
#include "SliceArgs.hpp"

#include "SlicePlanInternal.hpp"
#include "support/CheckedMath.hpp"
#include "support/Raise.hpp"

#include <poplar/exceptions.hpp>
#include <poputil/VertexTemplates.hpp>
#include <poputil/exceptions.hpp>

#include <algorithm>

namespace popops::internal {

using namespace poplar;
using popsdk::support::raise;
using popsdk::support::shapeText;

void checkShapeDimsAndSizes(const std::string &api, const std::vector<std::size_t> &shape,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes) {
  if (dims.size() != sizes.size())
    raise<poputil::poplibs_error>(api, ": dims ", shapeText(dims), " and sizes ", shapeText(sizes),
                                  " must have the same length");
  // The layout multiplies dimensions into rows and columns: a shape whose count wraps is refused.
  popsdk::support::shapeElements<poplar::overflow_error>(shape, api.c_str());
  std::vector<bool> used(shape.size());
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] >= shape.size())
      raise<poputil::poplibs_error>(api, ": dimension ", dims[i], " is not a dimension of shape ",
                                    shapeText(shape));
    if (used[dims[i]])
      raise<poputil::poplibs_error>(api, ": dimension ", dims[i], " is given twice in dims ",
                                    shapeText(dims));
    used[dims[i]] = true;
    if (sizes[i] > shape[dims[i]])
      raise<poputil::poplibs_error>(api, ": slice size ", sizes[i], " in dimension ", dims[i],
                                    " is larger than the dimension (", shape[dims[i]],
                                    ") of shape ", shapeText(shape));
  }
}

void checkDimsAndSizes(const std::string &api, const Tensor &t,
                       const std::vector<std::size_t> &dims,
                       const std::vector<std::size_t> &sizes) {
  checkShapeDimsAndSizes(api, t.shape(), dims, sizes);
}

void checkIndexType(const std::string &api, const std::string &name, const Tensor &t) {
  if (t.elementType() != UNSIGNED_INT && t.elementType() != INT)
    raise<poputil::poplibs_error>(api, ": ", name, " has type ", t.elementType(),
                                  "; indices must be unsigned int or int");
}

void checkDynamicSliceArgs(const std::string &api, const Tensor &t, const Tensor &offset,
                           const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes) {
  checkIndexType(api, "offset", offset);
  if (offset.rank() != 1 || offset.dim(0) != dims.size())
    raise<poputil::poplibs_error>(api, ": offset has shape ", shapeText(offset.shape()),
                                  " but must be 1-D with one element per sliced dimension (dims ",
                                  shapeText(dims), ")");
  checkDimsAndSizes(api, t, dims, sizes);
}

void checkMultiSliceArgs(const std::string &api, const Tensor &t, const Tensor &offsets,
                         const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes) {
  checkIndexType(api, "offsets", offsets);
  if (dims.size() != 1 || sizes.size() != 1)
    raise<poputil::poplibs_error>(api, ": dims ", shapeText(dims), " and sizes ", shapeText(sizes),
                                  " must each have one entry");
  if (offsets.rank() != 2 || offsets.dim(1) != 1)
    raise<poputil::poplibs_error>(api, ": offsets has shape ", shapeText(offsets.shape()),
                                  " but must be [numIndices, 1]");
  checkDimsAndSizes(api, t, dims, sizes);
  if (sizes[0] != 1)
    raise<poputil::poplibs_error>(api, ": slice size ", sizes[0],
                                  " is not supported; multi-slices are of size 1");
}

void checkShapeAndType(const std::string &api, const std::string &name, const Tensor &t,
                       const Type &type, const std::vector<std::size_t> &shape) {
  if (t.elementType() != type)
    raise<poputil::poplibs_error>(api, ": ", name, " has type ", t.elementType(), " but ", type,
                                  " is needed");
  if (t.shape() != shape)
    raise<poputil::poplibs_error>(api, ": ", name, " has shape ", shapeText(t.shape()),
                                  " but shape ", shapeText(shape), " is needed");
}

void checkPlan(const std::string &api, const SlicePlan &plan, const Type &type,
               const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims) {
  const auto &p = plan.getImpl();
  if (!p.planned)
    return;
  if (p.dataType != type)
    raise<poputil::poplibs_error>(api, ": the plan is for ", p.dataType, " data but the type is ",
                                  type);
  if (dims.size() == 1 && shape.size() == 2 && shape[dims[0]] != p.numEntries)
    raise<poputil::poplibs_error>(api, ": the plan is for ", p.numEntries,
                                  " entries but dimension ", dims[0], " of shape ",
                                  shapeText(shape), " has ", shape[dims[0]]);
}

Tensor unsignedIndices(Graph &graph, const Tensor &indices, program::Sequence &prog,
                       const DebugContext &dc) {
  if (indices.elementType() == UNSIGNED_INT || indices.numElements() == 0)
    return indices;
  // Few indices: one Cast1D vertex (the cast family's) on the tile of the first.
  auto mapping = graph.getTileMapping(indices);
  unsigned tile = 0;
  while (tile + 1 < mapping.size() && mapping[tile].empty())
    ++tile;
  Tensor out = graph.addVariable(UNSIGNED_INT, indices.shape(), {dc, "unsignedIndices"});
  graph.setTileMapping(out, tile);
  auto cs = graph.addComputeSet({dc, "unsignedIndices"});
  auto v = graph.addVertex(cs, poputil::templateVertex("popops::Cast1D", INT, UNSIGNED_INT),
                           {{"src", indices.flatten()}, {"dst", out.flatten()}});
  graph.setTileMapping(v, tile);
  prog.add(program::Execute(cs));
  return out;
}

} // namespace popops::internal
