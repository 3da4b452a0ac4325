// Device types: names as Poplar prints them, sizes, signedness and host-type equivalence.
#include <poplar/Type.hpp>
#include <poplar/exceptions.hpp>

#include <gtest/gtest.h>

#include <sstream>

using namespace poplar;

TEST(Type, NamesSizesAndSignedness) {
  struct Row {
    Type type;
    const char *name;
    unsigned size;
    bool isSigned;
  };
  const Row rows[] = {{BOOL, "bool", 1, false},
                      {CHAR, "char", 1, true},
                      {UNSIGNED_CHAR, "unsigned char", 1, false},
                      {SIGNED_CHAR, "signed char", 1, true},
                      {SHORT, "short", 2, true},
                      {UNSIGNED_SHORT, "unsigned short", 2, false},
                      {INT, "int", 4, true},
                      {UNSIGNED_INT, "unsigned int", 4, false},
                      {LONGLONG, "long long", 8, true},
                      {UNSIGNED_LONGLONG, "unsigned long long", 8, false},
                      {HALF, "half", 2, true},
                      {FLOAT, "float", 4, true}};
  for (const Row &r : rows) {
    EXPECT_TRUE(r.type.isValid()) << r.name;
    EXPECT_EQ(r.type.toString(), r.name);
    EXPECT_EQ(r.type.size(), r.size) << r.name;
    EXPECT_EQ(r.type.isSigned(), r.isSigned) << r.name;
    std::ostringstream os;
    os << r.type;
    EXPECT_EQ(os.str(), r.name);
  }
}

TEST(Type, ConstantsAreDistinctAndOrdered) {
  EXPECT_EQ(FLOAT.id(), Type::Id::FLOAT);
  EXPECT_EQ(HALF.id(), Type::Id::HALF);
  EXPECT_EQ(BOOL.id(), Type::Id::BOOL);
  EXPECT_NE(FLOAT, HALF);
  EXPECT_LT(BOOL, FLOAT);
  EXPECT_TRUE(FLOAT.isFloatingPoint());
  EXPECT_TRUE(HALF.isFloatingPoint());
  EXPECT_FALSE(INT.isFloatingPoint());
}

TEST(Type, EquivalentDeviceTypes) {
  EXPECT_EQ(equivalent_device_type<float>().value, FLOAT);
  EXPECT_EQ(equivalent_device_type<int>().value, INT);
  EXPECT_EQ(equivalent_device_type<unsigned>().value, UNSIGNED_INT);
  EXPECT_EQ(equivalent_device_type<bool>().value, BOOL);
  EXPECT_EQ(equivalent_device_type<unsigned long long>().value, UNSIGNED_LONGLONG);
  EXPECT_EQ(equivalent_device_type<float>().value.size(), sizeof(float));
  EXPECT_EQ(equivalent_device_type<short>().value.size(), sizeof(short));
}

TEST(Type, InvalidTypeIsReportedNotUsed) {
  Type t;
  EXPECT_FALSE(t.isValid());
  EXPECT_EQ(t.toString(), "invalid");
  EXPECT_THROW(t.size(), poplar_error);
  EXPECT_THROW(t.isSigned(), type_error);
}
