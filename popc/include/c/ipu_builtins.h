// Graphcore's ipu_builtins.h: the IPU builtins (__popc_builtins.h, which popc also includes in
// every codelet), with the vector types, the C math functions and the tile's CSR constants that
// codelets using them expect after including it.
#ifndef _POPC_IPU_BUILTINS_H
#define _POPC_IPU_BUILTINS_H

#include <__popc_builtins.h>
#include <ipudef.h>
#include <math.h>
#include <poplar/TileConstants.hpp>

#endif
