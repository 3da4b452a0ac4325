// WORKER_ALIGN between `class` and the vertex's name makes its vertex state 8-byte aligned (the
// alignment the .gp records and graph compile allocates the state on); without it, 4.
// RUN: popc -S %s -o - | FileCheck %s
#include <poplar/Vertex.hpp>

class WORKER_ALIGN Aligned : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  const unsigned short n;
  void compute() {}
};
class Plain : public poplar::Vertex {
public:
  poplar::Input<poplar::Vector<float>> in;
  const unsigned short n;
  void compute() {}
};
// CHECK: vertex Aligned (Vertex): entry @{{[0-9]+}}, state 16 bytes align 8
// CHECK: vertex Plain (Vertex): entry @{{[0-9]+}}, state 12 bytes align 4
