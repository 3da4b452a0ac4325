// popops::Operation: the operations a reduction (and multiUpdateOp) can apply. Shared by host
// code and codelets (compiled by popc), so this header includes nothing.
#ifndef popops_OperationDef_hpp
#define popops_OperationDef_hpp

namespace popops {

/// The operation a reduction folds its inputs with.
enum class Operation {
  ADD,
  MUL,
  MIN,
  MAX,
  LOGICAL_AND, ///< bool operands only
  LOGICAL_OR,  ///< bool operands only
  SQUARE_ADD,  ///< each element is squared, then the squares are added
  LOG_ADD,     ///< acc = max + log(1 + exp(min - max)): addition of values held as logarithms
};

} // namespace popops

#endif // popops_OperationDef_hpp
