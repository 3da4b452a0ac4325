// Handles to the variables that tensors view, and intervals of them.
#ifndef poplar_VariableRef_hpp
#define poplar_VariableRef_hpp

#include <poplar/Interval.hpp>

#include <ostream>

namespace poplar {

class VariableRef {
public:
  VariableRef() : id_(~0u) {}
  explicit VariableRef(unsigned id) : id_(id) {}
  unsigned getId() const { return id_; }
  friend bool operator==(VariableRef a, VariableRef b) { return a.id_ == b.id_; }
  friend bool operator!=(VariableRef a, VariableRef b) { return a.id_ != b.id_; }
  friend bool operator<(VariableRef a, VariableRef b) { return a.id_ < b.id_; }

private:
  unsigned id_;
};

struct VariableInterval {
  VariableRef var;
  Interval interval;
  VariableInterval() {}
  VariableInterval(VariableRef v, Interval i) : var(v), interval(i) {}
  friend bool operator==(const VariableInterval &a, const VariableInterval &b) {
    return a.var == b.var && a.interval == b.interval;
  }
  friend bool operator<(const VariableInterval &a, const VariableInterval &b) {
    return a.var < b.var || (a.var == b.var && a.interval < b.interval);
  }
};

} // namespace poplar

#endif
