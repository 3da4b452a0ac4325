// Debug printing from a vertex, as codelets do with <print.h>: integers, floats (promoted to
// double by the call, never computed as double), half, strings and characters.
#include <cstdio>
#include <poplar/Vertex.hpp>
#include <print.h>

using namespace poplar;

class PrintStats : public Vertex {
public:
  Input<Vector<float>> in;
  Input<half> h;
  Output<float> total;

  bool compute() {
    float sum = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      sum += in[i];
    printf("PrintStats: %u elements, sum %.3f, first %g, half %.2f, %s%c\n", in.size(), sum, in[0],
           *h, "ok", '!');
    std::printf("%5d|%-4x|%%|%08.2f\n", -42, 255u, 3.25f);
    puts("done");
    *total = sum;
    return true;
  }
};
