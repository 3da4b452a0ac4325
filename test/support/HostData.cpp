// Host <-> device conversions for the test types.
#include "HostData.hpp"

#include <poplar/HalfFloat.hpp>

#include <cmath>
#include <cstring>
#include <random>
#include <stdexcept>

namespace popsdk::test {

using namespace poplar;

namespace {

template <class T> void store(std::uint8_t *p, double x) {
  T v = T(x);
  std::memcpy(p, &v, sizeof v);
}
template <class T> double load(const std::uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return double(v);
}

} // namespace

std::vector<std::uint8_t> toDevice(Type type, const std::vector<double> &values) {
  std::vector<std::uint8_t> bytes(values.size() * type.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    std::uint8_t *p = bytes.data() + i * type.size();
    double x = values[i];
    if (type == HALF)
      store<std::uint16_t>(p, floatToHalf(float(x)));
    else if (type == FLOAT)
      store<float>(p, x);
    else if (type == INT)
      store<std::int32_t>(p, x);
    else if (type == UNSIGNED_INT)
      store<std::uint32_t>(p, x < 0 ? double(std::uint32_t(std::int64_t(x))) : x);
    else if (type == BOOL || type == UNSIGNED_CHAR)
      store<std::uint8_t>(p, type == BOOL ? double(x != 0) : x);
    else if (type == CHAR || type == SIGNED_CHAR)
      store<std::int8_t>(p, x);
    else if (type == SHORT)
      store<std::int16_t>(p, x);
    else if (type == UNSIGNED_SHORT)
      store<std::uint16_t>(p, x);
    else
      throw std::invalid_argument("toDevice: unsupported type " + type.toString());
  }
  return bytes;
}

std::vector<double> fromDevice(Type type, const std::vector<std::uint8_t> &bytes) {
  std::vector<double> values(bytes.size() / type.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::uint8_t *p = bytes.data() + i * type.size();
    if (type == HALF)
      values[i] = halfToFloat(std::uint16_t(load<std::uint16_t>(p)));
    else if (type == FLOAT)
      values[i] = load<float>(p);
    else if (type == INT)
      values[i] = load<std::int32_t>(p);
    else if (type == UNSIGNED_INT)
      values[i] = load<std::uint32_t>(p);
    else if (type == BOOL || type == UNSIGNED_CHAR)
      values[i] = load<std::uint8_t>(p);
    else if (type == CHAR || type == SIGNED_CHAR)
      values[i] = load<std::int8_t>(p);
    else if (type == SHORT)
      values[i] = load<std::int16_t>(p);
    else if (type == UNSIGNED_SHORT)
      values[i] = load<std::uint16_t>(p);
    else
      throw std::invalid_argument("fromDevice: unsupported type " + type.toString());
  }
  return values;
}

double roundTo(Type type, double x) { return fromDevice(type, toDevice(type, {x}))[0]; }

std::vector<double> hostData(Type type, std::size_t n, double lo, double hi, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(lo, hi);
  bool integral = !(type == FLOAT || type == HALF);
  std::vector<double> v(n);
  for (auto &x : v) {
    double d = dist(rng);
    x = type == BOOL ? double(d > (lo + hi) / 2)
        : integral   ? std::round(d)
                     : roundTo(type, std::round(d * 64) / 64);
  }
  return v;
}

} // namespace popsdk::test
