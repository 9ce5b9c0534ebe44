#include <catch2/catch.hpp>

#include <cmath>

#include "tensor/top.hpp"

using namespace attention;

TEST_CASE("the most probable tokens come first, with softmax's probabilities", "[top]") {
  const std::vector<float> logits = {0.5f, 3.0f, -1.0f, 2.0f, 3.0f};
  const std::vector<token_probability> top = top_probabilities(logits.data(), logits.size(), 3);
  REQUIRE(top.size() == 3);
  // a tie between ids 1 and 4: the lower id first
  CHECK(top[0].id == 1);
  CHECK(top[1].id == 4);
  CHECK(top[2].id == 3);
  double sum = 0;
  for (float l : logits) sum += std::exp(double(l));
  CHECK(top[0].probability == Approx(std::exp(3.0) / sum).epsilon(1e-6));
  CHECK(top[0].probability == top[1].probability);
  CHECK(top[2].probability == Approx(std::exp(2.0) / sum).epsilon(1e-6));
}

TEST_CASE("asking for more tokens than the vocabulary gives every token once", "[top]") {
  const std::vector<float> logits = {1.0f, 1.0f};
  const std::vector<token_probability> top = top_probabilities(logits.data(), 2, 10);
  REQUIRE(top.size() == 2);
  CHECK(top[0].id == 0);
  CHECK(top[1].id == 1);
  CHECK(top[0].probability == 0.5f);
}
