// Problems found after code generation are reported at the source line of the instruction.
// RUN: not popc -S %s -o /dev/null 2>&1 | FileCheck %s
#include <poplar/Vertex.hpp>

float helper(float x);

class External : public poplar::Vertex {
public:
  poplar::Input<float> in;
  poplar::Output<float> out;
  bool compute() {
    *out = helper(*in);
    // CHECK-DAG: diag_backend.cpp:[[@LINE-1]]:12: error: call to 'helper(float)', which is not defined in the codelet sources
    return true;
  }
};

class Doubles : public poplar::Vertex {
public:
  poplar::Input<float> in;
  poplar::Output<float> out;
  bool compute() {
    *out = *in / 3.0 + *in;
    // CHECK-DAG: diag_backend.cpp:[[@LINE-1]]:{{[0-9]+}}: error: double-precision floating point is not supported on the tile
    return true;
  }
};

// A double constant in a loop is reported where it is used (constant hoisting leaves it alone).
class DoubleInLoop : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> v;
  bool compute() {
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] *= 1.01;
    // CHECK-DAG: diag_backend.cpp:[[@LINE-1]]:{{[0-9]+}}: error: double-precision floating point is not supported on the tile
    return true;
  }
};

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
// CHECK-DAG: diag_backend.cpp:[[@LINE-1]]:37: error: recursive call to 'fib(int)' is not supported on the tile

class Recursive : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  bool compute() {
    x = fib(x);
    return true;
  }
};
