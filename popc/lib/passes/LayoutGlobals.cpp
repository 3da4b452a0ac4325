// Global variables -> the data section image, addressed at run time from the gp register.
#include "Diagnostics.hpp"
#include "passes/Lowering.hpp"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Module.h"

namespace popc {

namespace {

class DataWriter {
public:
  DataWriter(const llvm::DataLayout &layout, mir::Module &out, const GlobalOffsets &offsets)
      : layout_(layout), out_(out), offsets_(offsets) {}

  /// Writes `c` at byte `at` of the data section; returns what it could not encode, or "".
  std::string write(const llvm::Constant *c, std::uint32_t at) {
    if (llvm::isa<llvm::ConstantAggregateZero>(c) || llvm::isa<llvm::ConstantPointerNull>(c) ||
        llvm::isa<llvm::UndefValue>(c))
      return ""; // the image starts zeroed
    if (const auto *i = llvm::dyn_cast<llvm::ConstantInt>(c)) {
      if (i->getBitWidth() > 64)
        return "integer constant wider than 64 bits";
      bytes(at, i->getZExtValue(), layout_.getTypeStoreSize(i->getType()));
      return "";
    }
    if (const auto *f = llvm::dyn_cast<llvm::ConstantFP>(c)) {
      if (!f->getType()->isFloatTy() && !f->getType()->isHalfTy() && !f->getType()->isDoubleTy())
        return "floating-point constant wider than 64 bits";
      llvm::APInt bits = f->getValueAPF().bitcastToAPInt();
      bytes(at, bits.getZExtValue(), bits.getBitWidth() / 8);
      return "";
    }
    if (const auto *seq = llvm::dyn_cast<llvm::ConstantDataSequential>(c)) {
      for (unsigned k = 0; k < seq->getNumElements(); ++k) {
        std::string e = write(seq->getElementAsConstant(k),
                              at + k * layout_.getTypeAllocSize(seq->getElementType()));
        if (!e.empty())
          return e;
      }
      return "";
    }
    if (const auto *s = llvm::dyn_cast<llvm::ConstantStruct>(c)) {
      const llvm::StructLayout *sl = layout_.getStructLayout(s->getType());
      for (unsigned k = 0; k < s->getNumOperands(); ++k) {
        std::string e = write(s->getOperand(k), at + sl->getElementOffset(k));
        if (!e.empty())
          return e;
      }
      return "";
    }
    if (const auto *a = llvm::dyn_cast<llvm::ConstantArray>(c)) {
      std::uint64_t stride = layout_.getTypeAllocSize(a->getType()->getElementType());
      for (unsigned k = 0; k < a->getNumOperands(); ++k) {
        std::string e = write(a->getOperand(k), at + k * stride);
        if (!e.empty())
          return e;
      }
      return "";
    }
    if (c->getType()->isPointerTy()) {
      // A pointer to (an offset inside) another global: patched when the runtime places data.
      llvm::APInt offset(32, 0);
      const llvm::Value *base = c->stripAndAccumulateConstantOffsets(layout_, offset, true);
      const auto *g = llvm::dyn_cast<llvm::GlobalVariable>(base);
      if (!g || !offsets_.count(g))
        return "pointer to a function or to something outside the data section";
      out_.dataRelocations.push_back({poplar::gp::Section::Data, at, poplar::gp::Section::Data,
                                      std::uint32_t(offsets_.at(g) + offset.getZExtValue())});
      return "";
    }
    return "constant expression";
  }

private:
  void bytes(std::uint32_t at, std::uint64_t value, std::uint64_t n) {
    for (std::uint64_t k = 0; k < n; ++k)
      out_.data[at + k] = static_cast<std::uint8_t>(value >> (8 * k));
  }

  const llvm::DataLayout &layout_;
  mir::Module &out_;
  const GlobalOffsets &offsets_;
};

} // namespace

bool layoutGlobals(const llvm::Module &m, mir::Module &out, GlobalOffsets &offsets,
                   SourceDiagnostics &diags) {
  const llvm::DataLayout &layout = m.getDataLayout();
  std::uint32_t size = 0;
  bool ok = true;
  // Offsets first: initialisers may point at globals defined later.
  for (const llvm::GlobalVariable &g : m.globals()) {
    if (g.getName().startswith("llvm."))
      continue;
    if (g.isDeclaration()) {
      diags.error("", 0, 0,
                  "global '" + g.getName().str() +
                      "' is declared but not defined in the codelet sources");
      ok = false;
      continue;
    }
    std::uint32_t align = std::max<std::uint32_t>(g.getAlign() ? g.getAlign()->value() : 4,
                                                  layout.getABITypeAlignment(g.getValueType()));
    size = (size + align - 1) / align * align;
    offsets[&g] = size;
    std::uint32_t bytes = layout.getTypeAllocSize(g.getValueType());
    out.dataSymbols.push_back({g.getName().str(), poplar::gp::Section::Data, size, bytes});
    size += bytes;
    out.dataAlign = std::max(out.dataAlign, align);
  }
  out.data.assign(size, 0);
  DataWriter writer(layout, out, offsets);
  for (const auto &[g, offset] : offsets) {
    std::string problem = writer.write(g->getInitializer(), offset);
    if (!problem.empty()) {
      diags.error("", 0, 0,
                  "cannot place global '" + g->getName().str() + "' in tile memory: " + problem);
      ok = false;
    }
  }
  return ok;
}

} // namespace popc
