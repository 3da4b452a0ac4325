// <cmath> on the tile: every unary and binary function real codelets use, over float and half,
// against the host's double-precision results (tolerances: the ISA's own and math.h's).
#include "Rig.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>

using namespace poplar;
using namespace realworld;

namespace {

struct Unary {
  const char *name;
  std::function<double(double)> host;
  double lo, hi;
  double tolerance; // relative to max(1, |want|), for float; half adds its own rounding
};

double sigmoid(double x) { return 1 / (1 + std::exp(-x)); }
double rintEven(double x) { return std::nearbyint(x); }

const Unary kUnary[] = {
    {"EXP", [](double x) { return std::exp(x); }, -8, 8, 1e-6},
    {"LOG", [](double x) { return std::log(x); }, 0.125, 100, 1e-6},
    {"SQRT", [](double x) { return std::sqrt(x); }, 0, 100, 1e-7},
    {"TANH", [](double x) { return std::tanh(x); }, -5, 5, 1e-6},
    {"ABS", [](double x) { return std::fabs(x); }, -50, 50, 0},
    {"FLOOR", [](double x) { return std::floor(x); }, -50, 50, 0},
    {"CEIL", [](double x) { return std::ceil(x); }, -50, 50, 0},
    {"ROUND", [](double x) { return std::round(x); }, -50, 50, 0},
    {"SIGMOID", sigmoid, -8, 8, 1e-6},
    {"EXP2", [](double x) { return std::exp2(x); }, -8, 8, 1e-6},
    {"LOG2", [](double x) { return std::log2(x); }, 0.125, 100, 1e-6},
    {"LOG10", [](double x) { return std::log10(x); }, 0.125, 100, 1e-6},
    {"CBRT", [](double x) { return std::cbrt(x); }, -100, 100, 1e-6},
    {"ERF", [](double x) { return std::erf(x); }, -3, 3, 3e-7},
    {"ATAN", [](double x) { return std::atan(x); }, -20, 20, 1e-6},
    {"ASIN", [](double x) { return std::asin(x); }, -1, 1, 1e-6},
    {"SINH", [](double x) { return std::sinh(x); }, -5, 5, 1e-6},
    {"EXPM1", [](double x) { return std::expm1(x); }, -2, 2, 1e-6},
    {"LOG1P", [](double x) { return std::log1p(x); }, -0.5, 4, 1e-6},
    {"RSQRT", [](double x) { return 1 / std::sqrt(x); }, 0.125, 100, 1e-6},
    {"TRUNC", [](double x) { return std::trunc(x); }, -50, 50, 0},
    {"RINT", rintEven, -50, 50, 0},
};

void expectClose(double got, double want, double tolerance, const std::string &what) {
  double scale = std::max(1.0, std::fabs(want));
  EXPECT_LE(std::fabs(got - want), tolerance * scale)
      << what << ": got " << got << " want " << want;
}

TEST(RealWorld, UnaryMathOverFloatAndHalf) {
  for (const Unary &u : kUnary)
    for (Type type : {FLOAT, HALF}) {
      Rig rig("UnaryMath.cpp");
      auto data = randomData(40, u.lo, u.hi, 1.0 / 16, 7);
      data.push_back(u.lo); // ties (x.5) are in the data: they separate round from rint
      data.push_back(2.5);
      for (double &x : data)
        x = std::clamp(roundTo(type, x), u.lo, u.hi);
      auto in = rig.tensor(type, data);
      auto out = rig.tensor(type, std::vector<double>(data.size()));
      auto v = rig.vertex(std::string("UnaryOp1D<expr::UnaryOpType::") + u.name + "," +
                          type.toString() + ">");
      rig.graph().connect(v["in"], in);
      rig.graph().connect(v["out"], out);
      ASSERT_EQ(rig.run(), "") << u.name;
      auto got = rig.values(out);
      for (std::size_t i = 0; i < data.size(); ++i) {
        double want = u.host(data[i]);
        // half: the float result rounded to half, so within half an ulp of half (2^-11).
        double tol = type == HALF ? u.tolerance + 1.0 / 2048 : u.tolerance;
        expectClose(got[i], want, tol,
                    std::string(u.name) + "<" + type.toString() + ">(" + std::to_string(data[i]) +
                        ")");
      }
    }
}

struct Binary {
  const char *op;
  Type type;
  std::function<double(double, double)> host;
  double lo, hi, tolerance;
  bool positiveRhs;
};

const Binary kBinary[] = {
    {"ADD", HALF, [](double a, double b) { return a + b; }, -100, 100, 0, false},
    {"POW", FLOAT, [](double a, double b) { return std::pow(a, b); }, 0.25, 4, 2e-6, false},
    {"FMOD", FLOAT, [](double a, double b) { return std::fmod(a, b); }, -1000, 1000, 0, true},
    {"FMOD", HALF, [](double a, double b) { return std::fmod(a, b); }, -100, 100, 0, true},
    {"ATAN2", FLOAT, [](double a, double b) { return std::atan2(a, b); }, -10, 10, 1e-6, false},
    {"HYPOT", FLOAT, [](double a, double b) { return std::hypot(a, b); }, -100, 100, 1e-6, false},
    {"MAX", HALF, [](double a, double b) { return std::max(a, b); }, -100, 100, 0, false},
    {"MIN", UNSIGNED_INT, [](double a, double b) { return std::min(a, b); }, 0, 1000, 0, false},
    {"DIVIDE", INT, [](double a, double b) { return std::trunc(a / b); }, -1000, 1000, 0, true},
    {"DIVIDE", HALF, [](double a, double b) { return a / b; }, -100, 100, 0, true},
    {"REMAINDER", INT, [](double a, double b) { return std::fmod(a, b); }, -1000, 1000, 0, true},
    {"REMAINDER", FLOAT, [](double a, double b) { return std::remainder(a, b); }, -1000, 1000, 0,
     true},
    {"SHIFT_LEFT", UNSIGNED_INT,
     [](double a, double b) { return double(unsigned(a) << unsigned(b)); }, 0, 20, 0, false},
};

TEST(RealWorld, BinaryMathOverFloatHalfAndIntegers) {
  for (const Binary &b : kBinary) {
    Rig rig("BinaryMath.cpp");
    bool integral = b.type == INT || b.type == UNSIGNED_INT;
    double step = integral ? 1 : 1.0 / 8;
    auto x = randomData(33, b.lo, b.hi, step, 11), y = randomData(33, b.lo, b.hi, step, 12);
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (b.positiveRhs)
        y[i] = std::max(1.0, std::fabs(y[i]) / 7);
      x[i] = roundTo(b.type, x[i]);
      y[i] = roundTo(b.type, y[i]);
    }
    auto t1 = rig.tensor(b.type, x), t2 = rig.tensor(b.type, y);
    auto out = rig.tensor(b.type, std::vector<double>(x.size()));
    auto v =
        rig.vertex(std::string("BinaryOp1D<BinaryOpType::") + b.op + "," + b.type.toString() + ">");
    rig.graph().connect(v["in1"], t1);
    rig.graph().connect(v["in2"], t2);
    rig.graph().connect(v["out"], out);
    ASSERT_EQ(rig.run(), "") << b.op;
    auto got = rig.values(out);
    for (std::size_t i = 0; i < x.size(); ++i) {
      double want = roundTo(b.type, b.host(x[i], y[i]));
      double tol = b.type == HALF && b.tolerance ? b.tolerance + 1.0 / 2048 : b.tolerance;
      expectClose(got[i], want, tol,
                  std::string(b.op) + "<" + b.type.toString() + ">(" + std::to_string(x[i]) + ", " +
                      std::to_string(y[i]) + ")");
    }
  }
}

} // namespace
