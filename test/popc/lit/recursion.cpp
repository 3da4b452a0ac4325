// Recursion: a recursive function's stack holds --recursion-depth levels of its frame (deeper
// recursion traps as a stack overflow at run time); libc++'s std::sort (introsort) compiles.
// RUN: popc -S %s -o - | FileCheck %s
// RUN: popc --recursion-depth=4 -S %s -o - | FileCheck %s --check-prefix=SHALLOW
#include <algorithm>
#include <poplar/Vertex.hpp>

int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

class Fib : public poplar::Vertex {
public:
  poplar::InOut<int> x;
  void compute() { *x = fib(*x); }
};

class Sort : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> v;
  void compute() { std::sort(v.begin(), v.end()); }
};
// fib's frame is 16 bytes: 16 levels by default, 4 with --recursion-depth=4, and the vertex's
// entry adds its own frame (8 bytes).
// CHECK: ; vertex Fib (Vertex): {{.*}} stack 264 bytes
// CHECK: ; vertex Sort (Vertex)
// SHALLOW: ; vertex Fib (Vertex): {{.*}} stack 72 bytes
