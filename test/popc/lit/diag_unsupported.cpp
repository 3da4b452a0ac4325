// Each construct the tile cannot run is a diagnostic at its source position, and popc fails.
// RUN: not popc -S %s -o /dev/null 2>&1 | FileCheck %s
#include <poplar/Vertex.hpp>

struct Shape {
  virtual float area();
  // CHECK-DAG: diag_unsupported.cpp:[[@LINE-1]]:17: error: virtual function 'Shape::area' is not supported on the tile
};

class BadField : public poplar::Vertex {
public:
  poplar::Input<double> d;
  // CHECK-DAG: diag_unsupported.cpp:[[@LINE-1]]:25: error: field 'd' of vertex 'BadField' cannot be vertex state
  int *p;
  // CHECK-DAG: diag_unsupported.cpp:[[@LINE-1]]:8: error: field 'p' of vertex 'BadField' cannot be vertex state
  bool compute() { return true; }
};

class Heap : public poplar::Vertex {
public:
  poplar::Output<int> out;
  bool compute() {
    int *p = new int[4];
    // CHECK-DAG: diag_unsupported.cpp:[[@LINE-1]]:14: error: heap allocation ('new') is not supported on the tile
    *out = p[0];
    return true;
  }
};

class Throws : public poplar::Vertex {
public:
  poplar::Output<int> out;
  bool compute() {
    throw 1;
    // CHECK-DAG: diag_unsupported.cpp:[[@LINE-1]]:5: error: cannot use 'throw' with exceptions disabled
  }
};
