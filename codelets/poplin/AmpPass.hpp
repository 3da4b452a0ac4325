// The AMP builtins for an AMP vertex's input and partials types, shared by the AMP codelets.
#pragma once

#include <ipu_builtins.h>

#include <type_traits>

namespace poplin {

/// Loads the coefficient block at `w` of `shape` (output channels | input channels << 8 | the
/// weights' row length << 16) into the AMP.
template <class FPType>
__attribute__((always_inline)) inline void ampLoad(const FPType *w, unsigned shape) {
  if constexpr (std::is_same<FPType, float>::value)
    __builtin_ipu_amp_load_f32(w, shape);
  else
    __builtin_ipu_amp_load_f16(w, shape);
}

/// One AMP pass of the loaded coefficients over the positions `ctl` names (its count, and bit 31
/// to overwrite rather than accumulate), from `x` into the partials at `y`.
template <class FPType, class AccumType>
__attribute__((always_inline)) inline void ampRun(const FPType *x, AccumType *y, unsigned ctl) {
  if constexpr (std::is_same<FPType, float>::value)
    __builtin_ipu_amp_f32(x, y, ctl);
  else if constexpr (std::is_same<AccumType, float>::value)
    __builtin_ipu_amp_f16(x, y, ctl);
  else
    __builtin_ipu_amp_f16h(x, y, ctl);
}

} // namespace poplin
