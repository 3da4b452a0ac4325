// The arguments of the slicing ops: the checks that name the op and the bad values in a
// poputil::poplibs_error, and the conversion of INT indices to the UNSIGNED_INT the vertices read.
#pragma once

#include <popops/DynamicSlice.hpp>

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poplar/Tensor.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace popops::internal {

/// dims within t's rank and distinct, one size each, no size beyond its dimension.
void checkShapeDimsAndSizes(const std::string &api, const std::vector<std::size_t> &shape,
                            const std::vector<std::size_t> &dims,
                            const std::vector<std::size_t> &sizes);
void checkDimsAndSizes(const std::string &api, const poplar::Tensor &t,
                       const std::vector<std::size_t> &dims, const std::vector<std::size_t> &sizes);
/// An index tensor of UNSIGNED_INT or INT.
void checkIndexType(const std::string &api, const std::string &name, const poplar::Tensor &t);
/// dynamicSlice/dynamicUpdate: a 1-D offset with one element per dimension, and the dims.
void checkDynamicSliceArgs(const std::string &api, const poplar::Tensor &t,
                           const poplar::Tensor &offset, const std::vector<std::size_t> &dims,
                           const std::vector<std::size_t> &sizes);
/// multiSlice/multiUpdate*: offsets [N, 1], one dim, a size of 1.
void checkMultiSliceArgs(const std::string &api, const poplar::Tensor &t,
                         const poplar::Tensor &offsets, const std::vector<std::size_t> &dims,
                         const std::vector<std::size_t> &sizes);
/// `t` (called `name`) has element type `type` and shape `shape`.
void checkShapeAndType(const std::string &api, const std::string &name, const poplar::Tensor &t,
                       const poplar::Type &type, const std::vector<std::size_t> &shape);
/// A planned `plan` was made for this element type.
void checkPlan(const std::string &api, const SlicePlan &plan, const poplar::Type &type,
               const std::vector<std::size_t> &shape, const std::vector<std::size_t> &dims);

/// `indices` as UNSIGNED_INT: itself, or for INT a converted copy (a negative index becomes one
/// far out of range).
poplar::Tensor unsignedIndices(poplar::Graph &graph, const poplar::Tensor &indices,
                               poplar::program::Sequence &prog, const poplar::DebugContext &dc);

} // namespace popops::internal
