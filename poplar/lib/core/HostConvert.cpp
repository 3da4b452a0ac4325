// Host value <-> device element conversions, dispatched over HostType and Types.def.
#include "core/HostConvert.hpp"

#include "core/Errors.hpp"

#include <poplar/HalfFloat.hpp>

#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

namespace poplar::detail {

namespace {

/// Floating point to integer without undefined behaviour: truncate, saturate, NaN -> 0.
template <class I, class F> I saturatingCast(F f) {
  if (std::isnan(f))
    return 0;
  // Both bounds are powers of two (or zero), hence exact in F.
  constexpr F lo = static_cast<F>(std::numeric_limits<I>::min());
  constexpr F hiExclusive = static_cast<F>(std::numeric_limits<I>::max() / 2 + 1) * 2;
  if (f <= lo)
    return std::numeric_limits<I>::min();
  if (f >= hiExclusive)
    return std::numeric_limits<I>::max();
  return static_cast<I>(f);
}

/// One host value converted to the storage type D of a device element; `isHalf` marks HALF,
/// whose storage type is its bits.
template <class D, bool isHalf, class H> D convertOne(H v) {
  if constexpr (isHalf) {
    if constexpr (std::is_same_v<H, float>)
      return floatToHalf(v);
    else // Integers up to 2^53 and doubles convert exactly, then round once.
      return doubleToHalf(static_cast<double>(v));
  } else if constexpr (std::is_floating_point_v<D>) {
    return static_cast<D>(v);
  } else if constexpr (std::is_floating_point_v<H>) {
    return saturatingCast<D>(v);
  } else {
    return static_cast<D>(v);
  }
}

template <class D, bool isHalf, bool isBool, class H>
void convertArray(const void *src, std::size_t n, void *dst) {
  const auto *in = static_cast<const unsigned char *>(src);
  auto *out = static_cast<unsigned char *>(dst);
  for (std::size_t i = 0; i < n; ++i) {
    H v;
    std::memcpy(&v, in + i * sizeof(H), sizeof(H));
    D d;
    if constexpr (isBool)
      d = v != H(0) ? 1 : 0;
    else
      d = convertOne<D, isHalf>(v);
    std::memcpy(out + i * sizeof(D), &d, sizeof(D));
  }
}

template <class H> void convertFrom(const void *src, std::size_t n, Type to, void *dst) {
  switch (to.id()) {
#define TYPE(Enum, Name, Size, Signed, StorageT)                                                   \
  case Type::Id::Enum:                                                                             \
    static_assert(sizeof(StorageT) == Size, "storage type must match the device size");            \
    return convertArray<StorageT, Type::Id::Enum == Type::Id::HALF,                                \
                        Type::Id::Enum == Type::Id::BOOL, H>(src, n, dst);
#include "core/Types.def"
  case Type::Id::INVALID:
    break;
  }
  raise<type_error>("convertHostToDevice: cannot convert ", n,
                    " host values to an invalid device type");
}

/// Reads the storage value of element `p` and hands it, decoded, to `f`.
template <class F> auto visitElement(Type t, const void *p, const char *api, F f) {
  switch (t.id()) {
#define TYPE(Enum, Name, Size, Signed, StorageT)                                                   \
  case Type::Id::Enum: {                                                                           \
    StorageT v;                                                                                    \
    std::memcpy(&v, p, sizeof v);                                                                  \
    if constexpr (Type::Id::Enum == Type::Id::HALF)                                                \
      return f(halfToFloat(static_cast<std::uint16_t>(v)));                                        \
    else                                                                                           \
      return f(v);                                                                                 \
  }
#include "core/Types.def"
  case Type::Id::INVALID:
    break;
  }
  raise<type_error>(api, ": cannot read an element of an invalid type");
}

} // namespace

void convertHostToDevice(HostType from, const void *src, std::size_t n, Type to, void *dst) {
  switch (from) {
  case HostType::Bool:
    return convertFrom<bool>(src, n, to, dst);
  case HostType::Char:
    return convertFrom<char>(src, n, to, dst);
  case HostType::SignedChar:
    return convertFrom<signed char>(src, n, to, dst);
  case HostType::UnsignedChar:
    return convertFrom<unsigned char>(src, n, to, dst);
  case HostType::Short:
    return convertFrom<short>(src, n, to, dst);
  case HostType::UnsignedShort:
    return convertFrom<unsigned short>(src, n, to, dst);
  case HostType::Int:
    return convertFrom<int>(src, n, to, dst);
  case HostType::UnsignedInt:
    return convertFrom<unsigned>(src, n, to, dst);
  case HostType::Long:
    return convertFrom<long>(src, n, to, dst);
  case HostType::UnsignedLong:
    return convertFrom<unsigned long>(src, n, to, dst);
  case HostType::LongLong:
    return convertFrom<long long>(src, n, to, dst);
  case HostType::UnsignedLongLong:
    return convertFrom<unsigned long long>(src, n, to, dst);
  case HostType::Float:
    return convertFrom<float>(src, n, to, dst);
  case HostType::Double:
    return convertFrom<double>(src, n, to, dst);
  }
  raise<type_error>("convertHostToDevice: unknown host type ", static_cast<unsigned>(from));
}

double deviceElementToDouble(Type t, const void *p) {
  return visitElement(t, p, "deviceElementToDouble", [](auto v) { return static_cast<double>(v); });
}

std::int64_t deviceElementToInt(Type t, const void *p) {
  return visitElement(t, p, "deviceElementToInt", [](auto v) -> std::int64_t {
    using V = decltype(v);
    if constexpr (std::is_floating_point_v<V>)
      return saturatingCast<std::int64_t>(v);
    else if constexpr (std::is_same_v<V, std::uint64_t>)
      return v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())
                 ? std::numeric_limits<std::int64_t>::max()
                 : static_cast<std::int64_t>(v);
    else
      return static_cast<std::int64_t>(v);
  });
}

} // namespace poplar::detail
