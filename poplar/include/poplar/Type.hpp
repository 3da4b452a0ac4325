// Device element types (FLOAT, HALF, INT, ...) and the mapping from host C++ types to them.
#ifndef poplar_Type_hpp
#define poplar_Type_hpp

#include <cstdint>
#include <ostream>
#include <string>

namespace poplar {

/// An element type of the device. Deliberately not constructible from strings or integers by
/// users: a `const char *` must convert to DebugContext, never to Type.
class Type {
public:
  /// Internal identity of each type; the order is the one of Types.def.
  enum class Id : unsigned char {
    INVALID,
    BOOL,
    CHAR,
    UNSIGNED_CHAR,
    SIGNED_CHAR,
    SHORT,
    UNSIGNED_SHORT,
    INT,
    UNSIGNED_INT,
    LONGLONG,
    UNSIGNED_LONGLONG,
    HALF,
    FLOAT
  };

  constexpr Type() : id_(Id::INVALID) {}
  constexpr explicit Type(Id id) : id_(id) {}

  const std::string &toString() const;
  Id id() const { return id_; }
  bool isValid() const { return id_ != Id::INVALID; }
  bool isFloatingPoint() const { return id_ == Id::HALF || id_ == Id::FLOAT; }
  bool isSigned() const;
  /// Size of one element in device memory, in bytes.
  unsigned size() const;

  friend bool operator==(Type a, Type b) { return a.id_ == b.id_; }
  friend bool operator!=(Type a, Type b) { return a.id_ != b.id_; }
  friend bool operator<(Type a, Type b) { return a.id_ < b.id_; }

private:
  Id id_;
};

std::ostream &operator<<(std::ostream &os, const Type &t);

extern const Type BOOL;
extern const Type CHAR;
extern const Type UNSIGNED_CHAR;
extern const Type SIGNED_CHAR;
extern const Type SHORT;
extern const Type UNSIGNED_SHORT;
extern const Type INT;
extern const Type UNSIGNED_INT;
extern const Type LONGLONG;
extern const Type UNSIGNED_LONGLONG;
extern const Type HALF;
extern const Type FLOAT;

/// The device type that holds a host C++ type, as `equivalent_device_type<float>().value`.
template <class T> struct equivalent_device_type {};
#define POPLAR_EQUIVALENT(HostT, TypeId)                                                  \
  template <> struct equivalent_device_type<HostT> {                                      \
    const Type value = Type(Type::Id::TypeId);                                           \
  };
POPLAR_EQUIVALENT(bool, BOOL)
POPLAR_EQUIVALENT(char, CHAR)
POPLAR_EQUIVALENT(unsigned char, UNSIGNED_CHAR)
POPLAR_EQUIVALENT(signed char, SIGNED_CHAR)
POPLAR_EQUIVALENT(short, SHORT)
POPLAR_EQUIVALENT(unsigned short, UNSIGNED_SHORT)
POPLAR_EQUIVALENT(int, INT)
POPLAR_EQUIVALENT(unsigned, UNSIGNED_INT)
POPLAR_EQUIVALENT(long long, LONGLONG)
POPLAR_EQUIVALENT(unsigned long long, UNSIGNED_LONGLONG)
POPLAR_EQUIVALENT(float, FLOAT)
#undef POPLAR_EQUIVALENT

namespace detail {
/// How host values passed to addConstant/setInitialValue are laid out, so the library can
/// convert them to any device type (for example float values into a HALF constant).
enum class HostType : unsigned char {
  Bool,
  Char,
  SignedChar,
  UnsignedChar,
  Short,
  UnsignedShort,
  Int,
  UnsignedInt,
  Long,
  UnsignedLong,
  LongLong,
  UnsignedLongLong,
  Float,
  Double
};
template <class T> struct HostTypeOf;
#define POPLAR_HOST_TYPE(HostT, Tag)                                                      \
  template <> struct HostTypeOf<HostT> {                                                  \
    static constexpr HostType value = HostType::Tag;                                      \
  };
POPLAR_HOST_TYPE(bool, Bool)
POPLAR_HOST_TYPE(char, Char)
POPLAR_HOST_TYPE(signed char, SignedChar)
POPLAR_HOST_TYPE(unsigned char, UnsignedChar)
POPLAR_HOST_TYPE(short, Short)
POPLAR_HOST_TYPE(unsigned short, UnsignedShort)
POPLAR_HOST_TYPE(int, Int)
POPLAR_HOST_TYPE(unsigned, UnsignedInt)
POPLAR_HOST_TYPE(long, Long)
POPLAR_HOST_TYPE(unsigned long, UnsignedLong)
POPLAR_HOST_TYPE(long long, LongLong)
POPLAR_HOST_TYPE(unsigned long long, UnsignedLongLong)
POPLAR_HOST_TYPE(float, Float)
POPLAR_HOST_TYPE(double, Double)
#undef POPLAR_HOST_TYPE
} // namespace detail

} // namespace poplar

#endif
