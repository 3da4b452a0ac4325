// The tile's random generator and 64-bit data: __builtin_ipu_urand32/urand64 called without an
// include (they are compiler builtins for Graphcore's popc), and global tables initialised with
// 64-bit integers and doubles, which the data section must hold bit for bit.
#include <poplar/Vertex.hpp>

using namespace poplar;

// Each worker writes its own `perWorker` draws: urand32 for even k, the high word of urand64 for
// odd k (both step the same per-context generator).
class RandomDraws : public MultiVertex {
public:
  Output<Vector<unsigned>> out;
  const unsigned perWorker;

  void compute(unsigned wid) {
    for (unsigned k = 0; k < perWorker; ++k)
      out[wid * perWorker + k] =
          (k % 2 == 0) ? __builtin_ipu_urand32() : unsigned(__builtin_ipu_urand64() >> 32);
  }
};

// A Monte Carlo estimate of pi, as community codelets write it: hits inside the unit circle.
class PiHits : public MultiVertex {
public:
  Output<Vector<unsigned>> hits;
  const unsigned iterations;

  void compute(unsigned wid) {
    unsigned count = 0;
    for (unsigned i = 0; i < iterations; ++i) {
      float x = float(__builtin_ipu_urand32() >> 8) * (1.0f / 16777216.0f);
      float y = float(__builtin_ipu_urand32() >> 8) * (1.0f / 16777216.0f);
      count += (x * x + y * y) < 1.0f;
    }
    hits[wid] = count;
  }
};

static const unsigned long long kMixers[4] = {0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull,
                                              0x94d049bb133111ebull, 0x0123456789abcdefull};
static const double kScales[4] = {0.5, -1.25, 3.0e10, 1.0 / 3.0};

// out[2i], out[2i+1] = the low and high words of kMixers[in[i] % 4] ^ in[i]; scaled[i] =
// kScales[in[i] % 4] * in[i], rounded to float.
class Lookup64 : public Vertex {
public:
  Input<Vector<unsigned>> in;
  Output<Vector<unsigned>> out;
  Output<Vector<float>> scaled;

  void compute() {
    for (unsigned i = 0; i < in.size(); ++i) {
      unsigned long long x = kMixers[in[i] % 4] ^ in[i];
      out[2 * i] = unsigned(x);
      out[2 * i + 1] = unsigned(x >> 32);
      scaled[i] = float(kScales[in[i] % 4] * double(in[i]));
    }
  }
};
