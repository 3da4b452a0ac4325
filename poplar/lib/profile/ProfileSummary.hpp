// printProfileSummary: the text report of a compile and its runs, in Poplar's layout.
#pragma once

#include "profile/ProfileData.hpp"

#include <poplar/OptionFlags.hpp>

#include <iosfwd>

namespace poplar::detail {

/// Prints Target, Graph, Memory Usage and Execution blocks. Options (values "true"/"false"):
/// showExecutionSteps (list each executed step), showVarStorage (variable and constant storage),
/// showPerIpuMemoryUsage (totals per IPU), showOptimizations (accepted; this simulator applies
/// no optimisations worth listing), colours (bold section titles). Any other option, or another
/// value, throws invalid_option naming it.
void printProfileSummary(std::ostream &out, const ProfileData &data, const OptionFlags &opts);

} // namespace poplar::detail
