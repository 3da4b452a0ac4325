// The layouts a codelet can ask for a Vector or VectorList field (codelet side and host side).
#ifndef poplar_VectorLayout_hpp
#define poplar_VectorLayout_hpp

namespace poplar {

/// How a Vector field is stored in the vertex state. On the simulated IPU every pointer is a
/// full 32-bit tile address: the compressed forms (SCALED_PTR*, COMPACT_PTR, SHORT_SPAN) are
/// accepted for source compatibility and stored like their uncompressed counterparts, see
/// docs/gp-format.md ("Vertex state layout").
enum class VectorLayout {
  NOT_A_VECTOR,
  ONE_PTR,       ///< address only; the element count is known to the vertex by other means
  SCALED_PTR32,  ///< stored as ONE_PTR
  SCALED_PTR64,  ///< stored as ONE_PTR
  SCALED_PTR128, ///< stored as ONE_PTR
  COMPACT_PTR,   ///< stored as ONE_PTR
  SHORT_SPAN,    ///< stored as SPAN
  SPAN           ///< address + 32-bit element count; has size()
};

/// How a VectorList field is stored. All layouts are stored as the address of an array of
/// {address, count} pairs followed by the number of pairs.
enum class VectorListLayout {
  ONE_PTR,
  SCALED_PTR32,
  SCALED_PTR64,
  SCALED_PTR128,
  DELTAN,
  DELTANELEMENTS,
  COMPACT_DELTAN
};

/// True when a Vector with this layout stores its element count in the vertex state.
constexpr bool vectorLayoutHasSize(VectorLayout layout) {
  return layout == VectorLayout::SPAN || layout == VectorLayout::SHORT_SPAN;
}

} // namespace poplar

#endif
