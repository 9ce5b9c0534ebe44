#include <catch2/catch.hpp>

#include <cmath>

#include "attention/run.hpp"
#include "errors/check.hpp"
#include "lessons/space.hpp"
#include "support.hpp"

using namespace attention;

namespace {
using loaded = test_support::loaded_preset;
loaded load(const std::string& id) { return test_support::load_preset(id); }
}  // namespace

TEST_CASE("without positions, permuting the tokens permutes the outputs the same way", "[space]") {
  const loaded l = load("sun-rises");
  const space_lesson lesson = permute_tokens(l.s, l.t, {5, 3, 1, 0, 2, 4}, false);
  CHECK(lesson.equivariant);
  CHECK(lesson.largest_difference < 1e-5f);
  for (std::size_t c = 0; c < 4; ++c) CHECK(lesson.permuted_out(0, 0, c) == Approx(lesson.out(0, 5, c)).margin(1e-5));
}

TEST_CASE("with positional encodings the outputs no longer just permute", "[space]") {
  const loaded l = load("sun-rises");
  const space_lesson lesson = permute_tokens(l.s, l.t, {5, 3, 1, 0, 2, 4}, true);
  CHECK_FALSE(lesson.equivariant);
  CHECK(lesson.largest_difference > 1e-2f);
}

TEST_CASE("the identity order changes nothing, with or without positions", "[space]") {
  const loaded l = load("bank-projected");
  CHECK(permute_tokens(l.s, l.t, {0, 1, 2}, true).equivariant);
}

TEST_CASE("sinusoidal positional encoding: sin on even channels, cos on odd", "[space]") {
  const tensor2 pe = positional_encoding(4, 6);
  CHECK(pe(0, 0) == 0.0f);
  CHECK(pe(0, 1) == 1.0f);
  CHECK(pe(1, 0) == Approx(std::sin(1.0)));
  CHECK(pe(3, 3) == Approx(std::cos(3.0 / std::pow(10000.0, 2.0 / 6.0))));
}

TEST_CASE("a bad order or a cross-attention scenario is refused with a message", "[space]") {
  const loaded l = load("sun-rises");
  CHECK_THROWS_WITH(permute_tokens(l.s, l.t, {0, 1, 2}, false), "space: expected a permutation of 6 positions, got 3");
  CHECK_THROWS_WITH(permute_tokens(l.s, l.t, {0, 0, 1, 2, 3, 4}, false),
                    "space: the order must list each position 0 … 5 once");
  const loaded cross = load("sun-rises-cross");
  CHECK_THROWS_WITH(permute_tokens(cross.s, cross.t, {0, 1, 2, 3, 4, 5}, false),
                    "space: the lesson needs self-attention (context = x)");
}
