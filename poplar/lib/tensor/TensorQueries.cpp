// Questions about a tensor's regions (contiguity, overlap, aliasing), equality and printing.
#include "tensor/TensorChecks.hpp"

#include <poplar/Tensor.hpp>

#include <algorithm>
#include <tuple>

namespace poplar {

using namespace detail;

namespace {

/// One region tagged with the tensor it came from, for overlap sweeps.
struct Tagged {
  Region region;
  unsigned owner;
};

/// Sorts by (var, begin) and reports whether a region overlaps an earlier one with an owner
/// `conflicts` accepts. Sorted by begin, an earlier region overlaps the current one exactly when
/// it ends after the current begin, so tracking the furthest end per owner is enough.
template <class Conflicts>
bool sweepOverlaps(std::vector<Tagged> &rs, unsigned numOwners, Conflicts conflicts) {
  std::sort(rs.begin(), rs.end(), [](const Tagged &a, const Tagged &b) {
    return std::tie(a.region.var, a.region.begin) < std::tie(b.region.var, b.region.begin);
  });
  std::vector<std::size_t> furthestEnd(numOwners, 0);
  for (std::size_t i = 0; i < rs.size(); ++i) {
    const Region &r = rs[i].region;
    if (i > 0 && rs[i - 1].region.var != r.var)
      std::fill(furthestEnd.begin(), furthestEnd.end(), 0);
    for (unsigned owner = 0; owner < numOwners; ++owner)
      if (conflicts(owner, rs[i].owner) && r.begin < furthestEnd[owner])
        return true;
    furthestEnd[rs[i].owner] = std::max(furthestEnd[rs[i].owner], r.end);
  }
  return false;
}

} // namespace

std::vector<Interval> Tensor::getContiguousRegions() const {
  const TensorImpl &t = implOf(*this, "Tensor::getContiguousRegions");
  // Regions are kept maximal (continuing regions are merged), so each is one interval.
  std::vector<Interval> result;
  result.reserve(t.regions.size());
  for (std::size_t k = 0; k < t.regions.size(); ++k)
    result.emplace_back(t.starts[k], t.starts[k] + t.regions[k].size());
  return result;
}

std::vector<VariableInterval> Tensor::getVarRegions() const {
  const TensorImpl &t = implOf(*this, "Tensor::getVarRegions");
  std::vector<VariableInterval> result;
  result.reserve(t.regions.size());
  for (const Region &r : t.regions)
    result.emplace_back(VariableRef(r.var), Interval(r.begin, r.end));
  return result;
}

// A tensor without elements occupies no memory, so it counts as contiguous.
bool Tensor::isContiguous() const {
  return implOf(*this, "Tensor::isContiguous").regions.size() <= 1;
}

bool Tensor::intersectsWith(const Tensor &other) const {
  const TensorImpl &a = implOf(*this, "Tensor::intersectsWith");
  const TensorImpl &b = implOf(other, "Tensor::intersectsWith");
  std::vector<Tagged> rs;
  rs.reserve(a.regions.size() + b.regions.size());
  for (const Region &r : a.regions)
    rs.push_back({r, 0});
  for (const Region &r : b.regions)
    rs.push_back({r, 1});
  return sweepOverlaps(rs, 2,
                       [](unsigned earlier, unsigned current) { return earlier != current; });
}

bool Tensor::containsAliases() const {
  const TensorImpl &t = implOf(*this, "Tensor::containsAliases");
  std::vector<Tagged> rs;
  rs.reserve(t.regions.size());
  for (const Region &r : t.regions)
    rs.push_back({r, 0});
  return sweepOverlaps(rs, 1, [](unsigned, unsigned) { return true; });
}

std::string Tensor::shapeToString() const {
  return shapeText(implOf(*this, "Tensor::shapeToString").shape);
}

bool operator==(const Tensor &a, const Tensor &b) {
  if (!a.valid() || !b.valid())
    return a.valid() == b.valid();
  const TensorImpl &x = a.getImpl();
  const TensorImpl &y = b.getImpl();
  return x.type == y.type && x.shape == y.shape && x.regions == y.regions;
}

std::ostream &operator<<(std::ostream &os, const Tensor &t) {
  if (!t.valid())
    return os << "Tensor<invalid>";
  const TensorImpl &impl = t.getImpl();
  return os << "Tensor<" << impl.type << '>' << shapeText(impl.shape);
}

} // namespace poplar
