// The interpreter loops' shared entry: where a run is, handed from a fast loop to the exact one.
#pragma once

#include "interp/Print.hpp"
#include "interp/RptKernels.hpp"

namespace poplar::interp::detail {

// A run in progress. The fast loops (block-charged, fused) start at a block entry with
// nothing prepaid; when a block or rpt does not fit in the budget left they hand the run, at
// that point and again with nothing prepaid, to the checked loop, which issues one plain
// instruction at a time and stops exactly where the budget runs out.
struct Cursor {
  uint32_t index;   // into DecodedCode::insns
  uint32_t rptLeft; // rpt passes left, counting the current one (only inside a body copy)
  uint64_t budget, left, cycles;
};

RunResult executeGoto(const DecodedCode &, const TileMemory, WorkerState &, Cursor);
RunResult executeSwitch(const DecodedCode &, const TileMemory, WorkerState &, Cursor);
RunResult executeChecked(const DecodedCode &, const TileMemory, WorkerState &, Cursor);
RunResult executeMemChecked(const DecodedCode &, const TileMemory, WorkerState &, Cursor,
                            const AccessMap &);
RunResult executeMemCheckedFast(const DecodedCode &, const TileMemory, WorkerState &, Cursor,
                                const AccessMap &);
// The fast loop of `dispatch` from `cur` (execute() and the native tier's hand-over).
RunResult executeFast(const DecodedCode &, const TileMemory, WorkerState &, Cursor, Dispatch);

} // namespace poplar::interp::detail
