// Host-side IEEE half conversions for HALF tensors (device layout is 2 bytes per element).
#ifdef __POPC__
// Codelet side (popc): `half` is the compiler's 16-bit storage float (popc's ipudef.h, with the
// vector types). Scalar arithmetic promotes to float, as on the IPU; none of the host
// declarations below exist on the tile, so the include guard is defined here to skip them.
#ifndef poplar_HalfFloat_hpp
#define poplar_HalfFloat_hpp
#include <ipudef.h>
// Half literals (3.14_h): always inlined, so that even at -O0 the long double never reaches
// the tile (popc folds the constant conversion).
__attribute__((always_inline)) constexpr half operator""_h(long double x) { return half(x); }
__attribute__((always_inline)) constexpr half operator""_h(unsigned long long x) { return half(x); }
#endif
#endif
#ifndef poplar_HalfFloat_hpp
#define poplar_HalfFloat_hpp

#include <poplar/Target.hpp>

#include <cstddef>
#include <cstdint>

namespace poplar {

std::uint16_t floatToHalf(float f);
float halfToFloat(std::uint16_t h);

void copyFloatToDeviceHalf(const Target &target, const float *src, void *dst,
                           std::size_t numElements);
void copyDeviceHalfToFloat(const Target &target, const void *src, float *dst,
                           std::size_t numElements);
void copyDoubleToDeviceHalf(const Target &target, const double *src, void *dst,
                            std::size_t numElements);
void copyDeviceHalfToDouble(const Target &target, const void *src, double *dst,
                            std::size_t numElements);

/// A host half value, for programs that keep halves in host arrays.
class IeeeHalf {
public:
  IeeeHalf() : bits_(0) {}
  explicit IeeeHalf(float f) : bits_(floatToHalf(f)) {}
  static IeeeHalf fromBits(std::uint16_t bits) {
    IeeeHalf h;
    h.bits_ = bits;
    return h;
  }
  operator float() const { return halfToFloat(bits_); }
  std::uint16_t bit16() const { return bits_; }

private:
  std::uint16_t bits_;
};

} // namespace poplar

#endif
