// A non-owning view of a contiguous array (shapes, values, program lists), as Poplar's ArrayRef.
#ifndef poplar_ArrayRef_hpp
#define poplar_ArrayRef_hpp

#include <array>
#include <cassert>
#include <cstddef>
#include <initializer_list>
#include <vector>

namespace poplar {

template <class T> class ArrayRef {
public:
  using value_type = T;
  using const_iterator = const T *;
  using iterator = const T *;

  ArrayRef() : data_(nullptr), size_(0) {}
  ArrayRef(const T *p, std::size_t n) : data_(p), size_(n) {}
  ArrayRef(const T *b, const T *e) : data_(b), size_(static_cast<std::size_t>(e - b)) {}
  ArrayRef(const std::vector<T> &v) : data_(v.data()), size_(v.size()) {}
  template <std::size_t N>
  ArrayRef(const std::array<T, N> &a) : data_(a.data()), size_(N) {}
  // The list lives until the end of the full expression, as with Poplar's own ArrayRef, which
  // is all a call like addVariable(FLOAT, {4, 4}) needs; GCC warns about it regardless.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  ArrayRef(std::initializer_list<T> l) : data_(l.begin()), size_(l.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

  const T *data() const { return data_; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T *begin() const { return data_; }
  const T *end() const { return data_ + size_; }
  const T &front() const { return data_[0]; }
  const T &back() const { return data_[size_ - 1]; }
  const T &operator[](std::size_t i) const {
    assert(i < size_);
    return data_[i];
  }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  operator std::vector<T>() const { return vec(); }

private:
  const T *data_;
  std::size_t size_;
};

template <class T> bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!(a[i] == b[i]))
      return false;
  return true;
}
template <class T> bool operator!=(ArrayRef<T> a, ArrayRef<T> b) { return !(a == b); }

} // namespace poplar

#endif
