// 64-bit integers live in register pairs: an add carries through cmpltu, a multiply takes the
// high word of the low product from mulhu, i64 arguments use two argument registers and the
// result returns in r1:r2; the same code compiles at -O0.
// RUN: popc -S %s -o - | FileCheck %s
// RUN: popc -O0 -S %s -o /dev/null
#include <cstdint>
#include <poplar/Vertex.hpp>

[[gnu::noinline]] std::uint64_t mulAdd(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
  return a * b + c;
}
// CHECK-LABEL: _Z6mulAddyyy:
// CHECK-DAG: mulhu
// CHECK-DAG: cmpltu
// CHECK: ret

class Wide : public poplar::Vertex {
public:
  poplar::InOut<poplar::Vector<long long>> v;
  bool compute() {
    for (unsigned i = 0; i + 2 < v.size(); ++i)
      v[i] = (long long)mulAdd(v[i], v[i + 1], v[i + 2]) >> 3;
    return true;
  }
};
// CHECK-LABEL: __runCodelet_Wide:
// CHECK: call
