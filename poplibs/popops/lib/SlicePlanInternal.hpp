// The slicing options (one table for every slicing API and embedding::plan) and what a
// SlicePlan holds.
#pragma once

#include <popops/DynamicSlice.hpp>

#include <poplar/OptionFlags.hpp>
#include <poplar/Type.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace popops {

namespace internal {

struct SliceOptions {
  bool remapOutOfBoundIndices = false;
  bool paddingIndexUsed = false;
  bool usedForSlice = true;
  bool usedForUpdate = true;
  std::string operationForUpdate = "add";
  double availableMemoryProportion = 0.6;
  std::string indicesDistribution = "uniform";
  bool indicesAreSorted = false;
  bool validateIndices = false;
  std::string partialType;

  /// The flags the slice vertices read from the top bits of numBaseElements.
  unsigned indexFlags() const;
};

/// `options` read through the slicing option table; a bad key or value is poplar::invalid_option
/// naming `api`.
SliceOptions parseSliceOptions(const std::string &api, const poplar::OptionFlags &options);

} // namespace internal

class SlicePlanInternal {
public:
  bool planned = false; // false for a default-constructed plan
  poplar::Type dataType;
  std::size_t groupSize = 1; // the groups of the grouped ops it plans (1 for the others)
  std::size_t numEntries = 0;
  std::size_t outputSize = 0;
  std::vector<std::size_t> numLookups;
  internal::SliceOptions options;

  std::string text() const;
};

} // namespace popops
