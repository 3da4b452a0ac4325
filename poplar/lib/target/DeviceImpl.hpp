// The state behind a Device: its target, id and whether it behaves like attachable hardware.
#pragma once

#include <poplar/Target.hpp>

namespace poplar::detail {

struct DeviceImpl {
  Target target;
  unsigned id = 0;
  /// Simulated hardware: the first of the target's IPUs in the manager's numbering; a device
  /// holds IPUs [firstIPU, firstIPU + numIPUs) while attached.
  unsigned firstIPU = 0;
  /// Simulated hardware devices are shared by id across the process; model devices are not.
  bool isHardware = false;
  mutable bool attached = false;
};

} // namespace poplar::detail
