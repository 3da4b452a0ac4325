// The 8-bit float `quarter` of codelets (Poplar's poplar/QuarterFloat.hpp, ipu21): the value type,
// its metadata (format and power-of-two scale) and the conversions to and from half. Formats
// are Graphcore's: f143 is 1 sign, 4 exponent (bias 8) and 3 mantissa bits, largest 240; f152
// is 1, 5 (bias 16) and 2, largest 57344. Neither has infinities or a negative zero: 0x80 is
// the one NaN. A quarter q with metadata {fmt, scale} stands for decode(q) * 2^scale.
//
// Codelet-only. The simulated tile has no FP8 conversion instructions or $FP_NFMT/$FP_SCL
// registers: the conversions here are software, take the metadata as an argument, and round to
// nearest even, saturating to the largest finite value; setQuarterConfig() therefore has
// nothing to set.
#ifndef poplar_QuarterFloat_hpp
#define poplar_QuarterFloat_hpp

#ifdef __POPC__
#include <ipudef.h>

typedef struct quarter {
  unsigned char value;
} quarter;

typedef struct quarter_metadata {
  enum format { f152, f143 } fmt;
  signed char scale;
} quarter_metadata;

/// The packed metadata byte Poplar stores beside a QUARTER tensor: bit 7 set for f143, bits
/// 0-5 the scale (two's complement).
typedef unsigned char MetadataType;

namespace poplar {
namespace detail {

struct QuarterFormat {
  int mantissaBits, bias, maxExponentField;
};

inline QuarterFormat quarterFormat(quarter_metadata md) {
  return md.fmt == quarter_metadata::f143 ? QuarterFormat{3, 8, 15} : QuarterFormat{2, 16, 31};
}

/// 2^e as a float, for |e| < 127.
inline float powerOfTwo(int e) { return __builtin_bit_cast(float, unsigned(e + 127) << 23); }

inline float quarterToFloat(quarter q, quarter_metadata md) {
  QuarterFormat f = quarterFormat(md);
  unsigned v = q.value;
  if (v == 0x80)
    return __builtin_nanf("");
  unsigned magnitude = v & 0x7f;
  int exponent = int(magnitude >> f.mantissaBits);
  unsigned mantissa = magnitude & ((1u << f.mantissaBits) - 1);
  // Subnormals (exponent 0) have no implicit leading one and the exponent of the first normal.
  unsigned significand = exponent ? mantissa | (1u << f.mantissaBits) : mantissa;
  int unbiased = (exponent ? exponent : 1) - f.bias - f.mantissaBits + md.scale;
  float x = float(significand) * powerOfTwo(unbiased);
  return v & 0x80 ? -x : x;
}

inline quarter floatToQuarter(float x, quarter_metadata md) {
  QuarterFormat f = quarterFormat(md);
  if (__builtin_isnan(x))
    return quarter{0x80};
  unsigned sign = __builtin_signbit(x) ? 0x80 : 0;
  float a = __builtin_fabsf(x) * powerOfTwo(-md.scale);
  const int minExponent = 1 - f.bias, maxExponent = f.maxExponentField - f.bias;
  const unsigned maxSignificand = (2u << f.mantissaBits) - 1;
  // The power of two at or below a (the first normal's for subnormals), then the significand
  // in units of the last mantissa bit, rounded to nearest even.
  int exponent = int((__builtin_bit_cast(unsigned, a) >> 23) & 0xff) - 127;
  if (exponent < minExponent)
    exponent = minExponent;
  if (exponent > maxExponent)
    return quarter{static_cast<unsigned char>(sign | 0x7f)};
  unsigned significand = unsigned(__builtin_rintf(a * powerOfTwo(f.mantissaBits - exponent)));
  if (significand > maxSignificand) { // rounded up to the next power of two
    significand >>= 1;
    if (++exponent > maxExponent)
      return quarter{static_cast<unsigned char>(sign | 0x7f)};
  }
  if (significand == 0)
    return quarter{0}; // no negative zero
  unsigned field = significand >> f.mantissaBits ? unsigned(exponent + f.bias) : 0;
  unsigned mantissa = significand & ((1u << f.mantissaBits) - 1);
  return quarter{static_cast<unsigned char>(sign | field << f.mantissaBits | mantissa)};
}

} // namespace detail

inline half toHalf(quarter q, quarter_metadata md) { return half(detail::quarterToFloat(q, md)); }
inline float toFloat(quarter q, quarter_metadata md) { return detail::quarterToFloat(q, md); }
inline quarter toQuarter(half h, quarter_metadata md) { return detail::floatToQuarter(h, md); }
inline quarter toQuarter(float x, quarter_metadata md) { return detail::floatToQuarter(x, md); }

} // namespace poplar

inline void setQuarterConfig(quarter_metadata) {}
inline half quarterToHalf(quarter *in, quarter_metadata md) { return poplar::toHalf(*in, md); }
inline quarter halfToQuarter(half *in, quarter_metadata md) { return poplar::toQuarter(*in, md); }
inline quarter quarterToQuarter(quarter *in, quarter_metadata from, quarter_metadata to) {
  return poplar::toQuarter(poplar::toHalf(*in, from), to);
}
#endif

#endif
