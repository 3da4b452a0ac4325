// A codelet that includes only poplar/Vertex.hpp and calls std::swap (as PopLibs' sort vertices
// do) compiles: before the fix libc++'s <type_traits> declared std::swap without defining it and
// popc reported a call to an undefined function.
// RUN: popc -S %s -o - | FileCheck %s
#include <poplar/Vertex.hpp>

class SwapPairs : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<float>> keys;
  void compute() {
    for (unsigned i = 0; i + 1 < keys.size(); i += 2)
      if (keys[i] > keys[i + 1])
        std::swap(keys[i], keys[i + 1]);
  }
};
// CHECK-LABEL: __runCodelet_SwapPairs:
// CHECK-NOT: call
// CHECK: ret
