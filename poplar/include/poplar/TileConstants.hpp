// Tile constants for codelets, as Poplar's poplar/TileConstants.hpp names them: worker contexts,
// tile memory, and the control/status register (CSR) indices and fields codelets pass to
// __builtin_ipu_get/put. Macros only, so the header is valid on the host, in codelets and in
// assembly. popc implements __builtin_ipu_get(CSR_W_WSR__INDEX) (the worker id); a read or
// write of another register is a popc error naming it (ipu_builtins.h), since the simulated
// tile keeps no such state.
#ifndef poplar_TileConstants_hpp
#define poplar_TileConstants_hpp

// Worker contexts per tile (MultiVertex::numWorkers()); with the supervisor, all contexts.
#define CTXT_WORKERS 6
#define CTXT_TOTAL 7
// Tile memory: the first address (isa::kTileMemoryBase on the simulated tile), and the width
// of a memory element in bytes.
#define TMEM_REGION0_BASE_ADDR 0x40000
#define TMEM_BASE_ADDR 0x40000
#define TMEM_ELEMSIZE 0x10
// Elements of one 64-bit AMP input load (PopLibs' convolution vertices size their worklists and
// strides in these), spelled as PopLibs' older poplibs_support/TileConstants.hpp spells them so
// that a codelet including both headers sees one definition.
#define CONV_UNIT_INPUT_LOAD_ELEMS_FLOAT (2)
#define CONV_UNIT_INPUT_LOAD_ELEMS_HALF (4)
// Bits of one stride in a packed triple-stride register (ld2x64pace and friends; PopLibs' AMP
// nx1 vertices pack and unpack their strides with it).
#define NUM_STRIDE_BITS 10

// A CSR field is (value >> NAME__SHIFT) & NAME__MASK.
// Worker CSRs.
#define CSR_W_WSR__INDEX 0x1 // worker status: CTXTID_M1 is the worker id
#define CSR_W_WSR__CTXTID_M1__SHIFT 0
#define CSR_W_WSR__CTXTID_M1__MASK 0x7
#define CSR_W_VERTEX_BASE__INDEX 0x2
#define CSR_W_WORKER_BASE__INDEX 0x3
#define CSR_W_REPEAT_COUNT__INDEX 0x4
#define CSR_W_REPEAT_COUNT__VALUE__SHIFT 0
#define CSR_W_REPEAT_COUNT__VALUE__MASK 0xffff
#define CSR_W_REPEAT_FIRST__INDEX 0x5
#define CSR_W_REPEAT_END__INDEX 0x6
#define CSR_W_COUNT_L__INDEX 0x60
#define CSR_W_COUNT_U__INDEX 0x61
#define CSR_W_FP_STS__INDEX 0x100 // floating-point exception status
#define CSR_W_FP_CLR__INDEX 0x101 // writing 1s clears status bits; ZAACC zeroes the accumulators
#define CSR_W_FP_CTL__INDEX 0x102 // floating-point control (exceptions, rounding, NaN-on-overflow)
#define CSR_W_FP_STS__INV__SHIFT 0
#define CSR_W_FP_STS__INV__MASK 0x1
#define CSR_W_FP_STS__DIV0__SHIFT 1
#define CSR_W_FP_STS__DIV0__MASK 0x1
#define CSR_W_FP_STS__OFLO__SHIFT 2
#define CSR_W_FP_STS__OFLO__MASK 0x1
#define CSR_W_FP_CLR__INV__SHIFT 0
#define CSR_W_FP_CLR__INV__MASK 0x1
#define CSR_W_FP_CLR__DIV0__SHIFT 1
#define CSR_W_FP_CLR__DIV0__MASK 0x1
#define CSR_W_FP_CLR__OFLO__SHIFT 2
#define CSR_W_FP_CLR__OFLO__MASK 0x1
#define CSR_W_FP_CLR__ZAACC__SHIFT 3
#define CSR_W_FP_CLR__ZAACC__MASK 0x1
#define CSR_W_FP_CTL__INV__SHIFT 0
#define CSR_W_FP_CTL__INV__MASK 0x1
#define CSR_W_FP_CTL__DIV0__SHIFT 1
#define CSR_W_FP_CTL__DIV0__MASK 0x1
#define CSR_W_FP_CTL__OFLO__SHIFT 2
#define CSR_W_FP_CTL__OFLO__MASK 0x1
#define CSR_W_FP_CTL__RND__SHIFT 16 // stochastic rounding enable
#define CSR_W_FP_CTL__RND__MASK 0x7
#define CSR_W_FP_CTL__ESR__SHIFT 19
#define CSR_W_FP_CTL__ESR__MASK 0x1
#define CSR_W_FP_CTL__NANOO__SHIFT 20
#define CSR_W_FP_CTL__NANOO__MASK 0x1
#define CSR_W_PRNG_0_0__INDEX 0x103
#define CSR_W_PRNG_0_1__INDEX 0x104
#define CSR_W_PRNG_1_0__INDEX 0x105
#define CSR_W_PRNG_1_1__INDEX 0x106
#define CSR_W_PRNG_SEED__INDEX 0x107
#define CSR_W_TAS__INDEX 0x108 // axpy scale / AMP temporary

// Supervisor CSRs.
#define CSR_S_TILE_ID__INDEX 0x3
#define CSR_S_TILE_ID__TILE_ID__SHIFT 0
#define CSR_S_TILE_ID__TILE_ID__MASK 0x7ff
#define CSR_S_FP_ICTL__INDEX 0x20  // FP_CTL of each worker at launch
#define CSR_S_CCCSLOAD__INDEX 0x50 // address ld64putcs / ld128putcs post-increment
#define CSR_S_SCOUNT_L__INDEX 0x60
#define CSR_S_SCOUNT_U__INDEX 0x61

// Exchange sync zones (supervisor `sync`); the simulated tile synchronises per compute set.
#define TEXCH_SYNCZONE_LOCAL 0
#define TEXCH_SYNCZONE_GLOBAL 1

#endif
