// Names of the memory categories, expanded from MemoryCategories.def.
#include "profile/ProfileData.hpp"

namespace poplar::detail {

const char *memoryCategoryLabel(MemoryCategory c) {
  static const char *const labels[] = {
#define MEMORY_CATEGORY(id, label) label,
#include "profile/MemoryCategories.def"
  };
  return unsigned(c) < kNumMemoryCategories ? labels[unsigned(c)] : "<unknown memory category>";
}

const char *memoryCategoryId(MemoryCategory c) {
  static const char *const ids[] = {
#define MEMORY_CATEGORY(id, label) #id,
#include "profile/MemoryCategories.def"
  };
  return unsigned(c) < kNumMemoryCategories ? ids[unsigned(c)] : "<unknown memory category>";
}

} // namespace poplar::detail
