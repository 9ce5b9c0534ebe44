#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "errors/check.hpp"
#include "support.hpp"
#include "tensor/softmax.hpp"

using namespace attention;

TEST_CASE("softmax rows sum to one", "[softmax]") {
  tensor3 scores({2, 3, 4});
  float v = -3.0f;
  for (float& x : scores) x = (v += 0.37f);
  const tensor3 weights = softmax(scores);
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t i = 0; i < 3; ++i) {
      float sum = 0;
      for (std::size_t j = 0; j < 4; ++j) {
        CHECK(weights(b, i, j) > 0.0f);
        sum += weights(b, i, j);
      }
      CHECK(sum == Approx(1.0f).epsilon(1e-6));
    }
}

TEST_CASE("softmax of huge scores stays finite (the row max is subtracted)", "[softmax]") {
  const tensor3 scores = {{{1000.0f, 1001.0f, -1000.0f}, {3e38f, 3e38f, 0.0f}}};
  const tensor3 weights = softmax(scores);
  for (float w : weights) CHECK(std::isfinite(w));
  CHECK(weights(0, 0, 1) == Approx(1.0f / (1.0f + std::exp(-1.0f))));
  CHECK(weights(0, 1, 0) == Approx(0.5f));
  CHECK(weights(0, 0, 2) == 0.0f);
}

TEST_CASE("masked entries (-inf) get exactly zero weight", "[softmax]") {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  const tensor3 masked = {{{0.0f, minus_inf, minus_inf}, {0.0f, 0.0f, minus_inf}}};
  const tensor3 weights = softmax(masked);
  CHECK(weights(0, 0, 0) == 1.0f);
  CHECK(weights(0, 0, 1) == 0.0f);
  CHECK(weights(0, 1, 0) == 0.5f);
  CHECK(weights(0, 1, 2) == 0.0f);
}

TEST_CASE("a row with every position masked is an error, not NaN", "[softmax]") {
  const float minus_inf = -std::numeric_limits<float>::infinity();
  const tensor3 masked = {{{minus_inf, minus_inf}}};
  CHECK_THROWS_WITH(softmax(masked), Catch::Contains("allows no position"));
}

TEST_CASE("softmax of a vector matches the notebook's printed numbers", "[softmax]") {
  const std::vector<float> w = softmax(std::vector<float>{0.1f, -0.2f, 0.3f, -0.2f, 0.5f});
  const std::vector<float> printed = {0.1925f, 0.1426f, 0.2351f, 0.1426f, 0.2872f};
  for (std::size_t i = 0; i < 5; ++i) CHECK(w[i] == Approx(printed[i]).margin(5e-5));
}

TEST_CASE("a score that is not finite is named as such, not as a fully masked row", "[softmax]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // a row of NaN once read as "every entry is -inf": NaN never wins the max
  CHECK_THROWS_WITH(softmax(tensor3{{{nan, nan}}}), "softmax: a score is not finite (inf or nan): the numbers overflow float32");
  CHECK_THROWS_WITH(softmax(tensor3{{{1.0f, inf}}}), Catch::StartsWith("softmax: a score is not finite"));
  CHECK_THROWS_WITH(softmax(tensor3{{{1.0f, nan, -inf}}}), Catch::StartsWith("softmax: a score is not finite"));
}

TEST_CASE("long rows are checked whole vectors at a time: inf or nan anywhere, or every entry masked", "[softmax]") {
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  // rows of 37: two vectors of 16 (or more of 8, 4) and a scalar tail
  for (std::size_t at : {0, 5, 15, 16, 31, 36})
    for (float bad : {inf, nan}) {
      INFO("entry " << at << " is " << bad);
      tensor3 row = xt::zeros<float>({std::size_t{1}, std::size_t{2}, std::size_t{37}});
      row(0, 1, 2) = -inf;  // masked entries are allowed
      row(0, 1, at) = bad;
      test_support::at_every_width([&](int) {
        CHECK_THROWS_WITH(softmax(row), Catch::StartsWith("softmax: a score is not finite"));
      });
    }
  tensor3 masked = xt::zeros<float>({std::size_t{1}, std::size_t{2}, std::size_t{37}});
  for (std::size_t j = 0; j < 37; ++j) masked(0, 1, j) = -inf;
  test_support::at_every_width([&](int) {
    CHECK_THROWS_WITH(softmax(masked), Catch::Contains("allows no position"));
    masked(0, 1, 36) = 2.0f;  // one allowed position: all its weight
    const tensor3 w = softmax(masked);
    CHECK(w(0, 1, 36) == 1.0f);
    CHECK(w(0, 1, 0) == 0.0f);
    masked(0, 1, 36) = -inf;
  });
}
