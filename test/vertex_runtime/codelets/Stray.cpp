// Vertices whose accesses stay inside tile memory but outside what they were given, for
// MemCheckTest.cpp (debug.checkMemoryAccess); each stray statement carries a `FAULT:<tag>`.
#include <poplar/Vertex.hpp>

using namespace poplar;

// The classic off-by-one: writes one element past the end of its output.
class WritePastEnd : public Vertex {
public:
  Output<Vector<int>> out;
  bool compute() {
    for (unsigned i = 0; i <= out.size(); ++i)
      out[i] = int(i) + 1; // FAULT:past-end
    return true;
  }
};

// Reads `offset` elements from the start of its input (the test makes it negative).
class ReadAtOffset : public Vertex {
public:
  Input<Vector<int>> in;
  Output<int> out;
  int offset;
  bool compute() {
    const int *p = &in[0];
    *out = p[offset]; // FAULT:before-start
    return true;
  }
};

// Keeps a pointer to its output in a global...
int *savedPointer;
class SavePointer : public Vertex {
public:
  Output<Vector<int>> out;
  bool compute() {
    savedPointer = &out[0];
    out[0] = 1;
    return true;
  }
};

// ...which this vertex, in a later compute set, writes through: the memory is another
// vertex's tensor by then.
class WriteThroughSaved : public Vertex {
public:
  Output<int> out;
  bool compute() {
    *savedPointer = 99; // FAULT:stale
    *out = 1;
    return true;
  }
};

// Writes an element of a local array at `index` (the test makes it negative, below the frame).
class StackIndex : public Vertex {
public:
  Output<int> out;
  int index;
  bool compute() {
    volatile int local[4] = {1, 2, 3, 4};
    local[index] = 5; // FAULT:stack
    *out = local[0] + local[3];
    return true;
  }
};

// Writes into its input, which it may only read.
class StoreToInput : public Vertex {
public:
  Input<Vector<int>> in;
  bool compute() {
    const_cast<int &>(in[1]) = 7; // FAULT:input
    return true;
  }
};

// Legal accesses of every kind: scalar, vector, list and vector-of-edges fields, its own
// vector member, a global table, and the stack.
static const int kTable[4] = {10, 20, 30, 40};
class EveryLegalAccess : public Vertex {
public:
  Input<int> scale;
  Input<VectorList<int, VectorListLayout::DELTANELEMENTS>> lists;
  Vector<Input<Vector<int>>> edges;
  InOut<Vector<int>> acc;
  Vector<int> own;
  bool compute() {
    volatile int local[4];
    for (unsigned i = 0; i < 4; ++i)
      local[i] = kTable[i] * *scale;
    for (unsigned i = 0; i < acc.size(); ++i) {
      int sum = acc[i] + local[i % 4] + own[i % own.size()];
      for (unsigned l = 0; l < lists.size(); ++l)
        sum += lists[l][i % lists[l].size()];
      for (unsigned e = 0; e < edges.size(); ++e)
        sum += edges[e][i % edges[e].size()];
      acc[i] = sum;
    }
    return true;
  }
};
