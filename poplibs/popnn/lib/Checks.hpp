// Argument checks shared by popnn's ops: each throws poputil::poplibs_error naming the API, the
// tensor and the offending values.
#pragma once

#include <poplar/Tensor.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace popnn::internal {

/// t holds float or half.
void checkFloatingPoint(const std::string &api, const std::string &name, const poplar::Tensor &t);
/// t has exactly `rank` dimensions.
void checkRank(const std::string &api, const std::string &name, const poplar::Tensor &t,
               std::size_t rank);
/// t has at least `rank` dimensions.
void checkMinRank(const std::string &api, const std::string &name, const poplar::Tensor &t,
                  std::size_t rank);
/// t has `shape`.
void checkShape(const std::string &api, const std::string &name, const poplar::Tensor &t,
                const std::vector<std::size_t> &shape);
/// t has `type`.
void checkType(const std::string &api, const std::string &name, const poplar::Tensor &t,
               const poplar::Type &type);

} // namespace popnn::internal
