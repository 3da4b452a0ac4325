// A spin-wait's pause between two looks at what it waits for.
#pragma once

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace poplar::detail {

/// Lets the core's other hardware thread run and saves power in a spin loop (x86 `pause`).
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

} // namespace poplar::detail
