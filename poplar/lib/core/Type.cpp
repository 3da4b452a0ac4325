// The device type constants and their properties, all expanded from Types.def.
#include "core/Errors.hpp"

#include <poplar/Type.hpp>

#include <array>
#include <cstdint>

namespace poplar {

// Constant-initialised (constexpr constructor), so other translation units may use them during
// their own static initialisation.
#define TYPE(Enum, Name, Size, Signed, StorageT) const Type Enum{Type::Id::Enum};
#include "core/Types.def"

namespace {

struct TypeInfo {
  const char *name;
  unsigned size;
  bool isSigned;
};

constexpr std::array<TypeInfo, 13> kTypeInfo = {{
    {"invalid", 0, false},
#define TYPE(Enum, Name, Size, Signed, StorageT) {Name, Size, Signed},
#include "core/Types.def"
}};

// Rows are looked up by Type::Id, so Types.def must list the enumerators in declaration order.
constexpr bool rowsFollowEnumOrder() {
  constexpr Type::Id order[] = {
      Type::Id::INVALID,
#define TYPE(Enum, Name, Size, Signed, StorageT) Type::Id::Enum,
#include "core/Types.def"
  };
  for (unsigned i = 0; i < sizeof(order) / sizeof(order[0]); ++i)
    if (static_cast<unsigned>(order[i]) != i)
      return false;
  return sizeof(order) / sizeof(order[0]) == kTypeInfo.size() &&
         static_cast<unsigned>(Type::Id::FLOAT) + 1 == kTypeInfo.size();
}
static_assert(rowsFollowEnumOrder(), "Types.def rows must follow the order of Type::Id");

const TypeInfo &infoOf(Type t, const char *api) {
  if (!t.isValid())
    detail::raise<type_error>(api, ": the type is invalid (a default-constructed Type)");
  // An id from outside (a serialised executable) could be past the table.
  if (static_cast<unsigned>(t.id()) >= kTypeInfo.size())
    detail::raise<type_error>(api, ": unknown type id ", static_cast<unsigned>(t.id()));
  return kTypeInfo[static_cast<unsigned>(t.id())];
}

} // namespace

const std::string &Type::toString() const {
  // Built on first use so that printing a type never depends on static-initialisation order.
  static const auto names = [] {
    std::array<std::string, kTypeInfo.size()> n;
    for (std::size_t i = 0; i < n.size(); ++i)
      n[i] = kTypeInfo[i].name;
    return n;
  }();
  return names[static_cast<unsigned>(id_)];
}

bool Type::isSigned() const { return infoOf(*this, "Type::isSigned").isSigned; }

unsigned Type::size() const { return infoOf(*this, "Type::size").size; }

std::ostream &operator<<(std::ostream &os, const Type &t) { return os << t.toString(); }

} // namespace poplar
