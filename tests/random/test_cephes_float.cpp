#include <catch2/catch.hpp>

#include <cmath>

#include "random/cephes_float.hpp"

using namespace attention;

TEST_CASE("Cephes log agrees with libm to float precision between 0 and 1", "[cephes]") {
  CHECK(cephes::log(1.0f) == 0.0f);
  for (float x = 1e-7f; x <= 1.0f; x *= 1.37f) {
    INFO("x = " << x);
    CHECK(cephes::log(x) == Approx(std::log(x)).epsilon(2e-7).margin(1e-7));
  }
}

TEST_CASE("Cephes log of a non-positive number is NaN", "[cephes]") {
  CHECK(std::isnan(cephes::log(0.0f)));
  CHECK(std::isnan(cephes::log(-1.0f)));
}

TEST_CASE("Cephes sincos agrees with libm over one turn and keeps signs", "[cephes]") {
  for (float x = -6.3f; x <= 6.3f; x += 0.0173f) {
    float s, c;
    cephes::sincos(x, s, c);
    INFO("x = " << x);
    CHECK(s == Approx(std::sin(x)).margin(2e-7));
    CHECK(c == Approx(std::cos(x)).margin(2e-7));
  }
  float s, c;
  cephes::sincos(0.0f, s, c);
  CHECK(s == 0.0f);
  CHECK(c == 1.0f);
}
