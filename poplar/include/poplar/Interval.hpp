// Half-open index intervals [begin, end), used by tile mappings and tensor regions.
#ifndef poplar_Interval_hpp
#define poplar_Interval_hpp

#include <cstddef>
#include <ostream>

namespace poplar {

template <class T> class GenericInterval {
public:
  GenericInterval() : begin_(0), end_(0) {}
  GenericInterval(T begin, T end) : begin_(begin), end_(end) {}
  const T &begin() const { return begin_; }
  const T &end() const { return end_; }
  const T &lower() const { return begin_; }
  const T &upper() const { return end_; }
  T size() const { return end_ - begin_; }

  friend bool operator==(const GenericInterval &a, const GenericInterval &b) {
    return a.begin_ == b.begin_ && a.end_ == b.end_;
  }
  friend bool operator!=(const GenericInterval &a, const GenericInterval &b) { return !(a == b); }
  friend bool operator<(const GenericInterval &a, const GenericInterval &b) {
    return a.begin_ < b.begin_ || (a.begin_ == b.begin_ && a.end_ < b.end_);
  }
  friend std::ostream &operator<<(std::ostream &os, const GenericInterval &i) {
    return os << '[' << i.begin_ << ", " << i.end_ << ')';
  }

private:
  T begin_, end_;
};

typedef GenericInterval<std::size_t> Interval;

} // namespace poplar

#endif
