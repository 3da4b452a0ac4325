// 8-bit floats as ipu21 codelets use them (poplar/QuarterFloat.hpp): codes stored as unsigned
// char, converted to and from half with a format and a scale given by the host.
#include <poplar/QuarterFloat.hpp>
#include <poplar/Vertex.hpp>

using namespace poplar;

template <bool f143> quarter_metadata metadata(int scale) {
  return {f143 ? quarter_metadata::f143 : quarter_metadata::f152, static_cast<signed char>(scale)};
}

template <bool f143> class QuarterToHalf : public Vertex {
public:
  Input<Vector<unsigned char>> codes;
  Output<Vector<half, VectorLayout::ONE_PTR>> values;
  int scale;

  void compute() {
    const quarter_metadata md = metadata<f143>(scale);
    setQuarterConfig(md);
    for (unsigned i = 0; i < codes.size(); ++i)
      values[i] = toHalf(quarter{codes[i]}, md);
  }
};
template class QuarterToHalf<true>;
template class QuarterToHalf<false>;

template <bool f143> class HalfToQuarter : public Vertex {
public:
  Input<Vector<half>> values;
  Output<Vector<unsigned char, VectorLayout::ONE_PTR>> codes;
  int scale;

  void compute() {
    const quarter_metadata md = metadata<f143>(scale);
    for (unsigned i = 0; i < values.size(); ++i) {
      half h = values[i];
      codes[i] = halfToQuarter(&h, md).value;
    }
  }
};
template class HalfToQuarter<true>;
template class HalfToQuarter<false>;
