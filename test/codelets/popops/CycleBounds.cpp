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
  bool floating = v.type == poplar::FLOAT || v.type == poplar::HALF;
  // float and half ops with an f32v2/f16v4 instruction: 64-bit vector loops on both sides, 3
  // cycles a vector (the arithmetic bundled with a store); our prologues are longer.
  static const std::set<std::string> vectorOps = {"ADD", "SUBTRACT", "MULTIPLY", "SQUARE"};
  if ((v.unary || v.binary) && floating && vectorOps.count(v.op))
    return {1, 3};
  // Other element-wise ops: PopLibs' vector loops handle 2 floats or 4 halves a trip where
  // popc's handle one float, or 4 halves through float lane by lane; PopLibs' scalar C++
  // figures for integers are slower than popc's loops.
  if (v.unary || v.binary)
    return half ? CycleBound{1.0 / 3, 20} : CycleBound{1.0 / 3, 8};
  // Fills: 64-bit stores on both sides, a cycle a store.
  if (v.templ.rfind("Fill", 0) == 0)
    return {0.8, 2.5};
  // float <-> half casts: 5 cycles per 4 elements against PopLibs' 2; float and half scaled
  // add: two multiplies and an add per 2 floats, halves widened for float scales, against 3.
  bool floatHalfCast = v.templ.rfind("Cast", 0) == 0 && floating && v.outType != v.type &&
                       (v.outType == poplar::FLOAT || v.outType == poplar::HALF);
  if (floatHalfCast)
    return {1.5, 4};
  if (v.templ.rfind("ScaledAdd", 0) == 0 && floating)
    return {1.5, 8};
  // Integer scaled add and clamp, and select, are per-element loops on both sides.
  if (isInteger(v.type) && (v.templ.rfind("ScaledAdd", 0) == 0 || v.templ == "Clamp1D"))
    return {0.5, 2};
  if (v.templ == "Select1D")
    return {1, 4};
  // Other casts, float and half clamp: PopLibs' vector figures against popc's per-element loops.
  return {0.5, 20};
}

} // namespace popsdk::test
