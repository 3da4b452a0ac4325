// Vertices in the style of open-source IPU projects, which lean on what Graphcore's headers bring
// in: poplar/FieldTypes.hpp and VectorListTypes.hpp, std::size_t, uint8_t and memset after
// including only Vertex.hpp, float2 and rptsize_t after ipu_builtins.h, __builtin_ipu_min on
// float2, Output<bool>, const members with a declared constructor, void compute, lambdas and
// std::is_same with no <type_traits> of its own.
#include <float.h>
#include <ipu_builtins.h>
#include <poplar/FieldTypes.hpp>
#include <poplar/VectorListTypes.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

// Smallest uncovered element of a row: pairs through float2, covered columns pushed to FLT_MAX.
class RowUncoveredMin : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> row;
  Input<Vector<float, VectorLayout::ONE_PTR, 8>> covered; // 1.0f or 0.0f per column
  Output<float> rowMin;

  void compute() {
    const unsigned n = row.size();
    const float2 big = {FLT_MAX, FLT_MAX};
    float2 least = big;
    const float2 *row2 = reinterpret_cast<const float2 *>(&row[0]);
    const float2 *covered2 = reinterpret_cast<const float2 *>(&covered[0]);
    for (rptsize_t i = 0; i < n / 2; ++i)
      least = __builtin_ipu_min(row2[i] + covered2[i] * big, least);
    float m = __builtin_ipu_min(least[0], least[1]);
    if (n % 2 && covered[n - 1] == 0.0f && row[n - 1] < m)
      m = row[n - 1];
    *rowMin = m;
  }
};

// Counts byte values into 16 bins (value >> 4); `found` says whether any byte reached `limit`.
class ByteHistogram : public Vertex {
public:
  ByteHistogram();
  Input<Vector<unsigned char>> bytes;
  Output<Vector<unsigned, VectorLayout::ONE_PTR>> bins;
  Output<bool> found;
  const unsigned limit;

  void compute() {
    static_assert(std::is_same<decltype(limit), const unsigned>::value, "a const state member");
    unsigned counts[16];
    memset(counts, 0, sizeof counts);
    bool any = false;
    auto count = [&](uint8_t b) {
      ++counts[b >> 4];
      any = any || b >= limit;
    };
    for (std::size_t i = 0; i < bytes.size(); ++i)
      count(bytes[i]);
    for (unsigned k = 0; k < 16; ++k)
      bins[k] = counts[k];
    *found = any;
  }
};
