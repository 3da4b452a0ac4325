// Transposes of small blocks through vector lanes, as popops' Transpose C++ paths do: 4x4 half
// blocks loaded as four half4 rows and rebuilt column by column with __builtin_shufflevector,
// and 2x2 float blocks through float2 swizzles (.xy / .yx / element writes).
#include <poplar/HalfFloat.hpp>
#include <poplar/VectorTypes.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

// `blocks` consecutive 4x4 blocks of halves, each transposed in place.
class TransposeHalf4x4 : public Vertex {
public:
  InOut<Vector<half, VectorLayout::SPAN, 8>> data;

  void compute() {
    half4 *rows = reinterpret_cast<half4 *>(&data[0]);
    for (unsigned b = 0; b < data.size() / 16; ++b, rows += 4) {
      half4 r0 = rows[0], r1 = rows[1], r2 = rows[2], r3 = rows[3];
      half4 lo01 = __builtin_shufflevector(r0, r1, 0, 4, 1, 5); // a00 a10 a01 a11
      half4 lo23 = __builtin_shufflevector(r2, r3, 0, 4, 1, 5); // a20 a30 a21 a31
      half4 hi01 = __builtin_shufflevector(r0, r1, 2, 6, 3, 7);
      half4 hi23 = __builtin_shufflevector(r2, r3, 2, 6, 3, 7);
      rows[0] = __builtin_shufflevector(lo01, lo23, 0, 1, 4, 5);
      rows[1] = __builtin_shufflevector(lo01, lo23, 2, 3, 6, 7);
      rows[2] = __builtin_shufflevector(hi01, hi23, 0, 1, 4, 5);
      rows[3] = __builtin_shufflevector(hi01, hi23, 2, 3, 6, 7);
    }
  }
};

// 2x2 float blocks: out gets each block transposed.
class TransposeFloat2x2 : public Vertex {
public:
  Input<Vector<float, VectorLayout::SPAN, 8>> in;
  Output<Vector<float, VectorLayout::ONE_PTR, 8>> out;

  void compute() {
    const float2 *src = reinterpret_cast<const float2 *>(&in[0]);
    float2 *dst = reinterpret_cast<float2 *>(&out[0]);
    for (unsigned b = 0; b < in.size() / 4; ++b) {
      float2 top = src[2 * b], bottom = src[2 * b + 1];
      float2 first, second;
      first.x = top.x;
      first.y = bottom.x;
      second = __builtin_shufflevector(top, bottom, 1, 3);
      dst[2 * b] = first;
      dst[2 * b + 1] = second.xy;
    }
  }
};
