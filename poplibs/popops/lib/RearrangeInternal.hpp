// What Rearrange.cpp (the transposes) and Regroup.cpp (regrouping through them) share: the
// types the transposes take, and the regroup every public regrouping function reduces to.
#pragma once

#include <poplar/Graph.hpp>
#include <poplar/Program.hpp>
#include <poputil/VarStructure.hpp>

#include <vector>

namespace popops::rearrange::internal {

/// The transposes exist for 2-byte and 4-byte types (half, short, unsigned short, float, int,
/// unsigned int).
bool isTransposableType(const poplar::Type &type);

/// Throws poplibs_error, naming `api`, when `type` is not transposable.
void checkTransposeType(const char *api, const poplar::Type &type);

/// `t` regrouped from `from` to `to`, the copies appended to `copies` and the transposes added to
/// `transposeCS`; argument errors name `api`.
poplar::Tensor regroup(poplar::Graph &graph, const poplar::Tensor &t,
                       std::vector<poplar::program::Copy> &copies,
                       const poplar::ComputeSet &transposeCS, poputil::GroupingInfo from,
                       poputil::GroupingInfo to, const char *api,
                       const poplar::DebugContext &debugContext);

} // namespace popops::rearrange::internal
