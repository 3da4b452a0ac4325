// The cycle bounds of each vertex family: how far the simulation of popops' C++ vertices may sit
// from PopLibs' estimates, and why (docs/cycles-popops.md, "Bounds").
#include "CycleLog.hpp"

#include <set>

namespace popsdk::test {

namespace {

bool isInteger(poplar::Type t) { return t == poplar::INT || t == poplar::UNSIGNED_INT; }

/// PopLibs' figure is a software routine where the tile ISA has an instruction or a short
/// sequence (fpow, divs/rems, fsqrt, flog, compare-and-select): the simulation is faster.
bool popLibsRoutine(const PopopsVertex &v) {
  static const std::set<std::string> routines = {"POWER", "REMAINDER", "ATAN2",
                                                 "LOGARITHM_ONE_PLUS", "LOGICAL_NOT"};
  return routines.count(v.op) || ((v.op == "DIVIDE" || v.op == "SQRT") && isInteger(v.type));
}

} // namespace

CycleBound cycleBound(const PopopsVertex &v) {
  if (popLibsRoutine(v))
    return {1.0 / 40, 1};
  // fsin and fcos cost PopLibs' float figure, 2300 a call, whatever the element type; PopLibs'
  // half sin and cos take 25 and 26 per element.
  if (v.type == poplar::HALF && (v.op == "SIN" || v.op == "COS"))
    return {50, 150};
  bool half = v.type == poplar::HALF || v.outType == poplar::HALF;
  // Element-wise ops: PopLibs' vector loops handle 2 floats or 4 halves a trip where popc's
  // scalar loops handle one element, halves through float (2-cycle half loads and stores plus
  // conversions); PopLibs' scalar C++ figures for integers are slower than popc's loops.
  if (v.unary || v.binary)
    return half ? CycleBound{1.0 / 3, 20} : CycleBound{1.0 / 3, 8};
  // Integer scaled add and clamp, and select, are per-element loops on both sides.
  if (isInteger(v.type) && (v.templ.rfind("ScaledAdd", 0) == 0 || v.templ == "Clamp1D"))
    return {0.5, 2};
  if (v.templ == "Select1D")
    return {1, 4};
  // Fill, cast, float and half scaled add and clamp: PopLibs stores 64 bits a cycle (up to 8
  // elements) and converts float <-> half 4 a cycle; popc's loops one element.
  return {0.5, 20};
}

} // namespace popsdk::test
