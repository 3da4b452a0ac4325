// Tile constants for codelets, as Poplar's poplar/TileConstants.hpp names them: worker contexts,
// the tile memory base and the control/status register fields codelets read. Macros only, so
// the header is valid on the host as well as in codelets.
#ifndef poplar_TileConstants_hpp
#define poplar_TileConstants_hpp

// Worker contexts per tile (MultiVertex::numWorkers()).
#define CTXT_WORKERS 6
// The first tile memory address (isa::kTileMemoryBase on the simulated tile).
#define TMEM_REGION0_BASE_ADDR 0x40000

// Control/status registers popc implements through __builtin_ipu_get (ipu_builtins.h): the
// worker status register, whose CTXTID_M1 field is the worker id.
#define CSR_W_WSR__INDEX 0x1
#define CSR_W_WSR__CTXTID_M1__SHIFT 0
#define CSR_W_WSR__CTXTID_M1__MASK 0x7

// Exchange sync zones (supervisor `sync`); the simulated tile synchronises per compute set.
#define TEXCH_SYNCZONE_LOCAL 0
#define TEXCH_SYNCZONE_GLOBAL 1

#endif
