// Vertices for LayoutTest.cpp: alignment, in-place lists, state members, a table, a supervisor.
#include <poplar/HalfFloat.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

// Fails unless the runtime honoured the 8-byte alignment the field asks for.
class AlignedSum : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> in;
  Input<Vector<half, VectorLayout::ONE_PTR, 8>> halves; // in.size() elements
  Output<float> out;
  bool compute() {
    if (reinterpret_cast<unsigned>(&in[0]) % 8 != 0 ||
        reinterpret_cast<unsigned>(&halves[0]) % 8 != 0)
      return false;
    float s = 0;
    for (unsigned i = 0; i < in.size(); ++i)
      s += in[i] + float(halves[i]);
    *out = s;
    return true;
  }
};

// Negates every element of every vector of an InOut list.
class ListNegate : public Vertex {
public:
  InOut<VectorList<int>> lists;
  bool compute() {
    for (unsigned j = 0; j < lists.size(); ++j)
      for (unsigned i = 0; i < lists[j].size(); ++i)
        lists[j][i] = -lists[j][i];
    return true;
  }
};

// A table in this object's data section (Shapes.cpp has its own).
static const int kCubes[10] = {0, 1, 8, 27, 64, 125, 216, 343, 512, 729};

class CubeDigits : public Vertex {
public:
  Input<Vector<unsigned>> in;
  Output<Vector<int>> out;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = kCubes[in[i] % 10];
    return true;
  }
};

// State members narrower than a word, next to each other.
class Ramp : public Vertex {
public:
  Output<Vector<float>> out;
  half step;
  unsigned short count;
  unsigned char offset;
  bool compute() {
    for (unsigned i = 0; i < out.size(); ++i)
      out[i] = i < count ? float(step) * float(i) + float(offset) : -1.0f;
    return true;
  }
};

// A supervisor vertex: runs once, in the supervisor context.
class SupervisorCopy : public SupervisorVertex {
public:
  Input<Vector<int>> in;
  Output<Vector<int>> out;
  __attribute__((target("supervisor"))) bool compute() {
    for (unsigned i = 0; i < in.size(); ++i)
      out[i] = in[i] + 1;
    return true;
  }
};

// Vector and bool state members: the runtime allocates the vector and fills it from
// setInitialValue.
class Polynomial : public Vertex {
public:
  Input<Vector<float>> in;
  Output<Vector<float>> out;
  Vector<float> coeffs; // lowest power first
  bool negate;
  bool compute() {
    for (unsigned i = 0; i < in.size(); ++i) {
      float y = 0;
      for (unsigned k = coeffs.size(); k-- > 0;)
        y = y * in[i] + coeffs[k];
      out[i] = negate ? -y : y;
    }
    return true;
  }
};
