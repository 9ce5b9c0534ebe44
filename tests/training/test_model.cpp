// The model's forward pass and its loss: causal attention whose rows sum to
// one, the cross-entropy over targets only, the first index on ties.
#include <catch2/catch.hpp>

#include <cmath>

#include "random/generator.hpp"
#include "training/model.hpp"

using namespace attention;

TEST_CASE("forward: every head attends to the past only, each row summing to one", "[model]") {
  const model_spec spec{8, 6, 8, 2, 2};  // V, T, d, heads, layers
  generator gen(1);
  const model_weights w = init_weights(gen, spec);
  const std::vector<std::int64_t> tokens = {1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4};  // B = 2, T = 6
  const forward_pass pass = forward(w, spec, tokens, 2);
  REQUIRE(pass.layers.size() == 2);
  CHECK(pass.logits.shape(2) == 8);
  for (const layer_pass& layer : pass.layers)
    for (const head_pass& head : layer.heads)
      for (std::size_t b = 0; b < 2; ++b)
        for (std::size_t i = 0; i < 6; ++i) {
          float sum = 0;
          for (std::size_t j = 0; j < 6; ++j) {
            if (j > i) CHECK(head.weights(b, i, j) == 0.0f);
            sum += head.weights(b, i, j);
          }
          CHECK(sum == Approx(1.0f).epsilon(1e-6));
        }
}

TEST_CASE("cross-entropy counts targets only; predictions take the first index on ties", "[model]") {
  tensor3 logits({1, 3, 2});
  logits(0, 0, 0) = 0; logits(0, 0, 1) = 0;           // a tie
  logits(0, 1, 0) = 2; logits(0, 1, 1) = 0;
  logits(0, 2, 0) = 5; logits(0, 2, 1) = 5;
  const loss_value l = cross_entropy(logits, {-100, 1, 0});
  CHECK(l.counted == 2);
  CHECK(l.correct == 1);  // position 2: a tie, argmax 0 = the target
  const double expected = (-std::log(std::exp(0.0) / (std::exp(2.0) + 1)) + std::log(2.0)) / 2;
  CHECK(l.loss == Approx(expected).epsilon(1e-6));
  CHECK(predictions(logits) == std::vector<std::int64_t>{0, 0, 0});
}
