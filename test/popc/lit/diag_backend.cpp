// Problems found after code generation are reported at the source line of the instruction.
// RUN: not popc --recursion-depth=0 -S %s -o /dev/null 2>&1 | FileCheck %s
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

// Double arithmetic is software (doubles.cpp); a double math function is not.
double cube(double x);

class Doubles : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> v;
  bool compute() {
    for (unsigned i = 0; i < v.size(); ++i)
      v[i] = float(cube(v[i] * 1.01));
    // CHECK-DAG: diag_backend.cpp:[[@LINE-1]]:{{[0-9]+}}: error: this use of double precision is not supported on the tile
    return true;
  }
};

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
// CHECK-DAG: diag_backend.cpp:[[@LINE-1]]:37: error: recursive call to 'fib(int)' with --recursion-depth=0

class Recursive : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  bool compute() {
    x = fib(x);
    return true;
  }
};
