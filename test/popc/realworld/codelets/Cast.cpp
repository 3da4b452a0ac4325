// popops-style Cast<Src, Dst> over float, half, int, unsigned, short and unsigned char, with
// std::is_same / std::conditional choosing the conversion path and std::numeric_limits for
// saturating float -> integer casts.
#include <cstdint>
#include <limits>
#include <poplar/Vertex.hpp>
#include <type_traits>

using namespace poplar;

template <typename Src, typename Dst> Dst convert(Src x) {
  constexpr bool toInteger = std::is_integral<Dst>::value;
  constexpr bool fromFloat = std::is_floating_point<Src>::value || std::is_same<Src, half>::value;
  if constexpr (toInteger && fromFloat) {
    // Saturate as PopLibs' Cast does for narrow integers.
    float f = float(x);
    f = f < float(std::numeric_limits<Dst>::lowest()) ? float(std::numeric_limits<Dst>::lowest())
                                                      : f;
    f = f > float(std::numeric_limits<Dst>::max()) ? float(std::numeric_limits<Dst>::max()) : f;
    return static_cast<Dst>(f);
  } else {
    using Via = std::conditional_t<std::is_same<Dst, half>::value, float, Dst>;
    return static_cast<Dst>(static_cast<Via>(x));
  }
}

template <typename Src, typename Dst> class Cast1D : public Vertex {
public:
  Input<Vector<Src, VectorLayout::ONE_PTR>> src;
  Output<Vector<Dst>> dst;

  bool compute() {
    for (std::size_t i = 0; i < dst.size(); ++i)
      dst[i] = convert<Src, Dst>(src[i]);
    return true;
  }
};

template class Cast1D<float, half>;
template class Cast1D<half, float>;
template class Cast1D<float, int>;
template class Cast1D<half, short>;
template class Cast1D<float, unsigned char>;
template class Cast1D<int, half>;
template class Cast1D<unsigned, float>;
