// attention/'s rotary layer (tensor/rotary.hpp turns the rows): q and k
// recorded before and after their turn, and the scores of the turned ones.
#include <catch2/catch.hpp>

#include <cmath>

#include "attention/attention.hpp"
#include "tensor/rotary.hpp"
#include "tensor/mask.hpp"
#include "tensor/matmul.hpp"

using namespace attention;

namespace {

// (B, T, d) of varied numbers
tensor3 wave(std::size_t B, std::size_t T, std::size_t d, float step) {
  tensor3 t({B, T, d});
  float v = 0.3f;
  for (float& x : t) x = std::sin(v += step) * 1.5f;
  return t;
}

}  // namespace

TEST_CASE("a rotary layer records q and k before and after turning, and scores the turned ones", "[rotary][attention]") {
  const tensor3 x = wave(2, 5, 4, 0.7f);
  tensor2 wq({4, 6}), wk({4, 6}), wv({4, 2});
  float v = 0.1f;
  for (float& w : wq) w = std::cos(v += 0.3f);
  for (float& w : wk) w = std::cos(v += 0.9f);
  for (float& w : wv) w = std::cos(v += 1.3f);
  layer_options options;
  options.rotary = rotary_options{10000.0f, 2};
  const head_trace head = attend(x, x, {&wq, &wk, &wv}, causal_mask(5, 5), options);
  REQUIRE(head.q_rotated.has_value());
  REQUIRE(head.k_rotated.has_value());
  CHECK(head.q_rotated->shape() == head.q->shape());
  CHECK(head.step("k_rotated") == &*head.k_rotated);
  const tensor3 expected_q = rotate(*head.q, rotary_angles(5, 2, 6, 10000.0f));
  CHECK(*head.q_rotated == expected_q);
  const tensor3 scores = scores_of(*head.q_rotated, *head.k_rotated);
  CHECK(head.scores == scores);

  const head_trace plain = attend(x, x, {&wq, &wk, &wv}, causal_mask(5, 5), {});
  CHECK_FALSE(plain.q_rotated.has_value());
  CHECK(plain.step("q_rotated") == nullptr);
  CHECK(plain.scores != head.scores);
}
