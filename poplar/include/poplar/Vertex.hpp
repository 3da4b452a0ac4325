// Codelet-side vertex API: the vertex base classes and the field wrappers whose layout is the
// vertex state that the runtime fills (see docs/gp-format.md, "Vertex state layout").
#ifndef poplar_Vertex_hpp
#define poplar_Vertex_hpp

#include <poplar/VectorLayout.hpp>

#ifdef __POPC__
// Codelets written for Graphcore's SDK use `half`, std::size_t, std::uint32_t, memset,
// std::is_same and std::swap after including only this header: the tile's standard headers give
// them. <utility> matters beyond the names: libc++'s <type_traits> declares std::swap without
// defining it, so a codelet that calls it with only <type_traits> seen would call an undefined
// function.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <poplar/HalfFloat.hpp>
#include <type_traits>
#include <utility>
#endif

// Nothing else is included: on the host this header must stay self-sufficient under -std=c++11.

namespace poplar {

/// Written between `class` and a worker vertex's name: its vertex state is 8-byte aligned, so that
/// the worker can load pairs of its 32-bit fields with one 64-bit load. popc records the class's
/// alignment as the vertex's stateAlign and graph compile places the state on it.
#define WORKER_ALIGN __attribute__((aligned(8)))

/// A vertex whose compute() runs once in one worker context. compute() returns bool
/// (false reports a failure) or void.
class Vertex {
public:
  static const bool isExternalCodelet = false;
};

/// A vertex whose compute(unsigned workerId) runs once in each of the tile's worker contexts.
class MultiVertex {
public:
  static const bool isExternalCodelet = false;
  static constexpr unsigned numWorkers() { return 6; }
};

/// A vertex whose compute() runs in the supervisor context.
class SupervisorVertex {
public:
  static const bool isExternalCodelet = false;
};

namespace detail {
template <bool Supervisor> struct SupervisorVertexIfImpl { typedef SupervisorVertex type; };
template <> struct SupervisorVertexIfImpl<false> { typedef Vertex type; };
} // namespace detail

/// SupervisorVertex if the condition holds, else Vertex (PopLibs derives from it with conditions
/// on whether assembly is available).
template <bool Supervisor>
using SupervisorVertexIf = typename detail::SupervisorVertexIfImpl<Supervisor>::type;

namespace detail {

/// The stored part of a Vector: the address, then the element count if the layout keeps one.
/// These members are the vertex state; their order and sizes are part of the .gp contract.
template <typename T, bool HasSize> class VectorStorage {
public:
  unsigned size() const { return size_; }
  T *begin() const { return ptr_; }
  T *end() const { return ptr_ + size_; }

protected:
  T *ptr_;
  unsigned size_;
};

template <typename T> class VectorStorage<T, false> {
protected:
  T *ptr_;
};

} // namespace detail

/// A contiguous run of elements in tile memory. MinAlign (bytes) is the alignment the runtime
/// guarantees for the data; Interleaved is accepted for compatibility and has no effect.
template <typename T, VectorLayout Layout = VectorLayout::SPAN, unsigned MinAlign = alignof(T),
          bool Interleaved = false>
class Vector : public detail::VectorStorage<T, vectorLayoutHasSize(Layout)> {
public:
  typedef T value_type;
  static constexpr VectorLayout layout = Layout;
  static constexpr unsigned minAlign = MinAlign;

  T &operator[](unsigned i) const { return this->ptr_[i]; }
  T *data() const { return this->ptr_; }
};

/// A list of vectors: the address of an array of {address, count} pairs, and the pair count.
/// MinAlign (bytes) is the alignment of each vector's data; Interleaved has no effect.
template <typename T, VectorListLayout Layout = VectorListLayout::DELTANELEMENTS,
          unsigned MinAlign = alignof(T), bool Interleaved = false>
class VectorList {
public:
  typedef Vector<T, VectorLayout::SPAN, MinAlign> value_type;
  static constexpr VectorListLayout layout = Layout;
  static constexpr unsigned minAlign = MinAlign;

  const value_type &operator[](unsigned i) const { return lists_[i]; }
  unsigned size() const { return size_; }
  const value_type *begin() const { return lists_; }
  const value_type *end() const { return lists_ + size_; }

private:
  const value_type *lists_;
  unsigned size_;
};

namespace detail {

/// A scalar edge field: the address of one element, readable (Input) or writable too.
template <typename T> class ScalarEdge {
public:
  T &operator*() const { return *p_; }
  T *operator->() const { return p_; }
  operator T() const { return *p_; }

protected:
  T *p_;
};

/// A writable scalar edge: assignment writes through to the connected element.
template <typename T> class WritableScalarEdge : public ScalarEdge<T> {
public:
  WritableScalarEdge &operator=(const WritableScalarEdge &o) {
    *this->p_ = *o.p_;
    return *this;
  }
  WritableScalarEdge &operator=(const T &v) {
    *this->p_ = v;
    return *this;
  }
  WritableScalarEdge &operator+=(const T &v) {
    *this->p_ += v;
    return *this;
  }
  WritableScalarEdge &operator-=(const T &v) {
    *this->p_ -= v;
    return *this;
  }
  WritableScalarEdge &operator*=(const T &v) {
    *this->p_ *= v;
    return *this;
  }
  WritableScalarEdge &operator/=(const T &v) {
    *this->p_ /= v;
    return *this;
  }
};

/// An edge to a Vector or VectorList: behaves as the vector itself, and `->` and `*` give it.
template <typename V> class VectorEdge : public V {
public:
  const V &operator*() const { return *this; }
  const V *operator->() const { return this; }
};

} // namespace detail

/// A field connected to a tensor the vertex reads. T is a scalar, a Vector or a VectorList.
template <typename T> class Input : public detail::ScalarEdge<const T> {};
template <typename T, VectorLayout L, unsigned A, bool I>
class Input<Vector<T, L, A, I>> : public detail::VectorEdge<Vector<const T, L, A, I>> {};
template <typename T, VectorListLayout L, unsigned A, bool I>
class Input<VectorList<T, L, A, I>> : public detail::VectorEdge<VectorList<const T, L, A, I>> {};

/// A field connected to a tensor the vertex writes (reading it before writing is undefined).
template <typename T> class Output : public detail::WritableScalarEdge<T> {
public:
  using detail::WritableScalarEdge<T>::operator=;
};
template <typename T, VectorLayout L, unsigned A, bool I>
class Output<Vector<T, L, A, I>> : public detail::VectorEdge<Vector<T, L, A, I>> {};
template <typename T, VectorListLayout L, unsigned A, bool I>
class Output<VectorList<T, L, A, I>> : public detail::VectorEdge<VectorList<T, L, A, I>> {};

/// A field connected to a tensor the vertex reads and writes.
template <typename T> class InOut : public detail::WritableScalarEdge<T> {
public:
  using detail::WritableScalarEdge<T>::operator=;
};
template <typename T, VectorLayout L, unsigned A, bool I>
class InOut<Vector<T, L, A, I>> : public detail::VectorEdge<Vector<T, L, A, I>> {};
template <typename T, VectorListLayout L, unsigned A, bool I>
class InOut<VectorList<T, L, A, I>> : public detail::VectorEdge<VectorList<T, L, A, I>> {};

} // namespace poplar

#endif
