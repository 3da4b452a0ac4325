// The AMP pass's hot loops over field positions, built for several host vector widths.
#pragma once

#include "interp/Interpreter.hpp"

#include <cstdint>

namespace poplar::interp {

/// out[p][o] (+)= sum_i W[o][i] * in[p][i] for p < n, on host pointers to tile memory whose
/// bounds and alignment the caller checked; NaN results become the canonical NaN.
void ampPositionsF32(const AmpPassState &a, const uint8_t *in, uint8_t *out, uint32_t n, bool zero);
/// The same for f16 data, with f32 partials or (halfPartials) f16 ones.
void ampPositionsF16(const AmpPassState &a, const uint8_t *in, uint8_t *out, uint32_t n, bool zero,
                     bool halfPartials);

/// Rows [0, a.inChans) of a.w from f16 coefficients at src (a.outChans of them a row, rows
/// rowBytes apart), zero beyond a.outChans.
void ampLoadRowsF16(AmpPassState &a, const uint8_t *src, uint32_t rowBytes);

} // namespace poplar::interp
