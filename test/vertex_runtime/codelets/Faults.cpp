// Vertices that fault on purpose, for FaultTest.cpp.
//
// Each faulting statement carries a `FAULT:<tag>` comment: the test finds its line number by
// the tag and expects it in the error.
#include <poplar/Vertex.hpp>

using namespace poplar;

// Reads far past the end of its input: outside the tile's memory.
class OobRead : public Vertex {
public:
  Input<Vector<int>> in;
  Output<int> out;
  unsigned index;
  bool compute() {
    *out = in[index]; // FAULT:oob-read
    return true;
  }
};

// Writes far past the end of its output.
class OobWrite : public Vertex {
public:
  Output<Vector<int>> out;
  unsigned index;
  bool compute() {
    out[index] = 42; // FAULT:oob-write
    return true;
  }
};

// Dereferences an address held in vertex state; the test sets it to 0.
class NullDeref : public Vertex {
public:
  Output<int> out;
  unsigned address;
  bool compute() {
    *out = *reinterpret_cast<const volatile int *>(address); // FAULT:null
    return true;
  }
};

// Divides by its second input, which the test makes zero.
class DivideInts : public Vertex {
public:
  Input<int> a;
  Input<int> b;
  Output<int> out;
  bool compute() {
    *out = *a / *b; // FAULT:div
    return true;
  }
};

// Spins until a flag the test never sets: the instruction budget stops it.
class Runaway : public Vertex {
public:
  Input<int> flag;
  bool compute() {
    while (*reinterpret_cast<const volatile int *>(&*flag) == 0) { // FAULT:runaway
    }
    return true;
  }
};

// Reports failure when its input is negative.
class CheckPositive : public Vertex {
public:
  Input<Vector<int>> in;
  bool compute() {
    for (int v : in)
      if (v < 0)
        return false; // FAULT:false
    return true;
  } // FAULT:false-merged (-O2 merges the returns into one ret at the closing brace)
};

// A MultiVertex whose worker 3 faults.
class WorkerFault : public MultiVertex {
public:
  Output<Vector<int>> out;
  bool compute(unsigned workerId) {
    out[workerId == 3 ? 1000000 : workerId] = int(workerId); // FAULT:worker
    return true;
  }
};

// The fault happens inside a helper that is not inlined.
__attribute__((noinline)) int loadAt(const int *p, unsigned i) {
  return p[i]; // FAULT:helper
}

class HelperFault : public Vertex {
public:
  Input<Vector<int>> in;
  Output<int> out;
  unsigned index;
  bool compute() {
    *out = loadAt(&in[0], index);
    return true;
  }
};

// A 32-bit load from an address that is not a multiple of 4.
class MisalignedLoad : public Vertex {
public:
  Input<Vector<int>> in;
  Output<int> out;
  bool compute() {
    unsigned address = reinterpret_cast<unsigned>(&in[0]) + 1;
    *out = *reinterpret_cast<const volatile int *>(address); // FAULT:misaligned
    return true;
  }
};

// __builtin_trap() stops the vertex.
class Trapping : public Vertex {
public:
  Input<int> in;
  bool compute() {
    if (*in == 13)
      __builtin_trap(); // FAULT:trap
    return true;
  }
};
