// SlicePlan (a value type around SlicePlanInternal), embedding::plan and the slicing options.
#include "SlicePlanInternal.hpp"

#include "popops/SliceIndex.hpp"
#include "support/OptionSpec.hpp"
#include "support/Raise.hpp"

#include <poputil/exceptions.hpp>

#include <ostream>
#include <tuple>

namespace popops {

namespace internal {

unsigned SliceOptions::indexFlags() const {
  return (remapOutOfBoundIndices ? slice::REMAP_OUT_OF_BOUND : 0) |
         (paddingIndexUsed ? slice::PADDING_INDEX : 0);
}

SliceOptions parseSliceOptions(const std::string &api, const poplar::OptionFlags &options) {
  using popsdk::support::OptionHandler;
  SliceOptions o;
  const popsdk::support::OptionSpec spec{
      {"remapOutOfBoundIndices", OptionHandler::boolean(o.remapOutOfBoundIndices)},
      {"paddingIndexUsed", OptionHandler::boolean(o.paddingIndexUsed)},
      {"usedForSlice", OptionHandler::boolean(o.usedForSlice)},
      {"usedForUpdate", OptionHandler::boolean(o.usedForUpdate)},
      {"operationForUpdate", OptionHandler::oneOf(o.operationForUpdate, {"none", "add", "max"})},
      {"availableMemoryProportion", OptionHandler::number(o.availableMemoryProportion, 0, 1)},
      {"indicesDistribution", OptionHandler::oneOf(o.indicesDistribution, {"uniform", "onePoint"})},
      {"indicesAreSorted", OptionHandler::boolean(o.indicesAreSorted)},
      {"validateIndices", OptionHandler::boolean(o.validateIndices)},
      {"partialType", OptionHandler::oneOf(o.partialType, {"half", "float"})},
  };
  spec.parse(api, options);
  return o;
}

} // namespace internal

std::string SlicePlanInternal::text() const {
  if (!planned)
    return "SlicePlan{}";
  std::string s = "SlicePlan{" + dataType.toString() + ", groupSize=" + std::to_string(groupSize) +
                  ", numEntries=" + std::to_string(numEntries) +
                  ", outputSize=" + std::to_string(outputSize) + ", numLookups=[";
  for (std::size_t i = 0; i < numLookups.size(); ++i)
    s += (i ? "," : "") + std::to_string(numLookups[i]);
  return s + "], operationForUpdate=" + options.operationForUpdate + "}";
}

namespace {
auto key(const SlicePlanInternal &p) {
  return std::make_tuple(p.planned, p.dataType.toString(), p.groupSize, p.numEntries, p.outputSize,
                         p.numLookups, p.options.usedForSlice, p.options.usedForUpdate,
                         p.options.operationForUpdate, p.options.indicesAreSorted,
                         p.options.remapOutOfBoundIndices, p.options.paddingIndexUsed);
}
} // namespace

SlicePlan::SlicePlan() : internal(std::make_unique<SlicePlanInternal>()) {}
SlicePlan::~SlicePlan() = default;
SlicePlan::SlicePlan(const SlicePlan &other)
    : internal(std::make_unique<SlicePlanInternal>(*other.internal)) {}
SlicePlan::SlicePlan(SlicePlan &&other) : SlicePlan(static_cast<const SlicePlan &>(other)) {}
SlicePlan &SlicePlan::operator=(const SlicePlan &other) {
  *internal = *other.internal;
  return *this;
}
SlicePlan &SlicePlan::operator=(SlicePlan &&other) {
  *internal = *other.internal;
  return *this;
}
SlicePlan::SlicePlan(std::unique_ptr<SlicePlanInternal> p) : internal(std::move(p)) {}

std::ostream &operator<<(std::ostream &o, const SlicePlan &p) { return o << p.internal->text(); }
bool operator<(const SlicePlan &a, const SlicePlan &b) noexcept {
  return key(*a.internal) < key(*b.internal);
}
bool operator==(const SlicePlan &a, const SlicePlan &b) noexcept {
  return key(*a.internal) == key(*b.internal);
}
bool operator!=(const SlicePlan &a, const SlicePlan &b) noexcept { return !(a == b); }

namespace embedding {

SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType,
               const std::size_t numEntries, const std::size_t outputSize,
               const std::vector<std::size_t> &numLookups, const poplar::OptionFlags &options) {
  return plan(graph, dataType, 1, numEntries, outputSize, numLookups, options);
}

SlicePlan plan(const poplar::Graph &graph, const poplar::Type &dataType,
               const std::size_t groupSize, const std::size_t numEntries,
               const std::size_t outputSize, const std::vector<std::size_t> &numLookups,
               const poplar::OptionFlags &options) {
  (void)graph;
  using popsdk::support::raise;
  auto p = std::make_unique<SlicePlanInternal>();
  p->options = internal::parseSliceOptions("popops::embedding::plan", options);
  if (!p->options.usedForSlice && !p->options.usedForUpdate)
    raise<poputil::poplibs_error>("popops::embedding::plan: usedForSlice and usedForUpdate are "
                                  "both false; the plan would be used for nothing");
  if (dataType != poplar::FLOAT && dataType != poplar::HALF && dataType != poplar::INT &&
      dataType != poplar::UNSIGNED_INT)
    raise<poputil::poplibs_error>("popops::embedding::plan: data type ", dataType,
                                  " is not float, half, int or unsigned int");
  if (groupSize == 0)
    raise<poputil::poplibs_error>("popops::embedding::plan: groupSize must be at least 1");
  p->planned = true;
  p->dataType = dataType;
  p->groupSize = groupSize;
  p->numEntries = numEntries;
  p->outputSize = outputSize;
  p->numLookups = numLookups;
  return SlicePlan(std::move(p));
}

} // namespace embedding

} // namespace popops
