// popc -MD lists every file the compile read, local and system headers alike, as a make rule
// (the codelet cache keys its entries on them); without -MF it goes beside the output.
// RUN: rm -rf %t && mkdir -p %t
// RUN: popc -MD -MF %t/deps.d %s -o %t/out.gp
// RUN: FileCheck %s < %t/deps.d
// RUN: popc -MD %s -o %t/beside.gp
// RUN: FileCheck %s < %t/beside.d
// RUN: not popc -MD -S %s 2>&1 | FileCheck %s --check-prefix=NOFILE
#include "Inputs/scale_factor.h"
#include <poplar/Vertex.hpp>

class ScaleVertex : public poplar::Vertex {
public:
  poplar::InOut<float> x;
  bool compute() {
    *x *= kScaleFactor;
    return true;
  }
};

// CHECK: {{.*}}.gp: \
// CHECK-DAG: {{^  /.*}}dependency_file.cpp
// CHECK-DAG: {{^  /.*}}Inputs/scale_factor.h
// CHECK-DAG: {{^  /.*}}poplar/Vertex.hpp
// NOFILE: -MD needs -MF or -o
