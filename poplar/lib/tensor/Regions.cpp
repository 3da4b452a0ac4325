// Region merging, flat-element lookup by binary search on starts, and strided gathers.
#include "tensor/Regions.hpp"

#include <algorithm>

namespace poplar::detail {

void RegionBuilder::append(unsigned var, std::size_t begin, std::size_t end) {
  if (begin == end)
    return;
  if (!regions_.empty() && regions_.back().var == var && regions_.back().end == begin) {
    regions_.back().end = end;
  } else {
    regions_.push_back({var, begin, end});
    starts_.push_back(total_);
  }
  total_ += end - begin;
}

void RegionBuilder::moveInto(TensorImpl &impl) {
  impl.regions = std::move(regions_);
  impl.starts = std::move(starts_);
  regions_.clear();
  starts_.clear();
  total_ = 0;
}

std::size_t RegionCursor::find(std::size_t flat) {
  const auto &starts = t_->starts;
  const auto &regions = t_->regions;
  const auto holds = [&](std::size_t k) {
    return k < regions.size() && starts[k] <= flat && flat < starts[k] + regions[k].size();
  };
  if (holds(k_))
    return k_;
  if (holds(k_ + 1))
    return k_ + 1;
  // The last start not beyond `flat`; starts[0] is 0, so there is one.
  const auto it = std::upper_bound(starts.begin(), starts.end(), flat);
  return static_cast<std::size_t>(it - starts.begin()) - 1;
}

void RegionCursor::copy(std::size_t begin, std::size_t end, RegionBuilder &out) {
  if (begin >= end)
    return;
  std::size_t k = find(begin);
  for (;;) {
    const Region &r = t_->regions[k];
    const std::size_t offset = begin - t_->starts[k];
    const std::size_t take = std::min(end - begin, r.size() - offset);
    out.append(r.var, r.begin + offset, r.begin + offset + take);
    begin += take;
    if (begin == end)
      break;
    ++k;
  }
  k_ = k;
}

StridedView identityView(const std::vector<std::size_t> &shape) {
  StridedView view;
  view.axes.resize(shape.size());
  std::ptrdiff_t stride = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    view.axes[i] = {shape[i], stride};
    stride *= static_cast<std::ptrdiff_t>(shape[i]);
  }
  return view;
}

std::shared_ptr<TensorImpl> gather(const TensorImpl &src, std::vector<std::size_t> shape,
                                   const StridedView &view) {
  auto impl = std::make_shared<TensorImpl>();
  impl->type = src.type;
  impl->shape = std::move(shape);

  // Drop unit axes and fuse an axis with the next when they step through memory as one, so
  // that contiguous views become a single run however many dimensions they have.
  std::vector<Axis> axes;
  for (const Axis &a : view.axes) {
    if (a.extent == 0)
      return impl;
    if (a.extent == 1)
      continue;
    if (!axes.empty() && axes.back().stride == a.stride * static_cast<std::ptrdiff_t>(a.extent))
      axes.back() = {axes.back().extent * a.extent, a.stride};
    else
      axes.push_back(a);
  }

  RegionBuilder out;
  RegionCursor cursor(src);
  const auto at = [](std::ptrdiff_t flat) { return static_cast<std::size_t>(flat); };
  if (axes.empty()) {
    cursor.copy(at(view.offset), at(view.offset) + 1, out);
    out.moveInto(*impl);
    return impl;
  }

  const Axis inner = axes.back();
  const std::size_t outerAxes = axes.size() - 1;
  std::vector<std::size_t> index(outerAxes, 0);
  std::ptrdiff_t base = view.offset;
  for (;;) {
    if (inner.stride == 1) {
      cursor.copy(at(base), at(base) + inner.extent, out);
    } else {
      std::ptrdiff_t flat = base;
      for (std::size_t j = 0; j < inner.extent; ++j, flat += inner.stride)
        cursor.copy(at(flat), at(flat) + 1, out);
    }
    // Odometer step over the outer axes, last axis fastest.
    std::size_t d = outerAxes;
    for (; d > 0; --d) {
      Axis &axis = axes[d - 1];
      base += axis.stride;
      if (++index[d - 1] < axis.extent)
        break;
      base -= axis.stride * static_cast<std::ptrdiff_t>(axis.extent);
      index[d - 1] = 0;
    }
    if (d == 0)
      break;
  }
  out.moveInto(*impl);
  return impl;
}

} // namespace poplar::detail
