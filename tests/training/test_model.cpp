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

TEST_CASE("what forward keeps changes no number: the last position's logits alone are the full ones' last row", "[model]") {
  model_spec spec{9, 5, 8, 2, 2};
  spec.mlp = 2;
  spec.norm = true;
  spec.bias = true;
  generator gen(3);
  const model_weights w = init_weights(gen, spec);
  const std::vector<std::int64_t> tokens = {1, 4, 2, 8, 0, 3, 3, 7, 5, 6};  // B = 2, T = 5
  const forward_pass full = forward(w, spec, tokens, 2);
  const forward_pass attention = forward(w, spec, tokens, 2, {kept::attention, false});
  const forward_pass last = forward(w, spec, tokens, 2, {kept::logits, true});
  REQUIRE(last.logits.shape() == std::array<std::size_t, 3>{2, 1, 9});
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t v = 0; v < 9; ++v) CHECK(last.logits(b, 0, v) == full.logits(b, 4, v));
  CHECK((attention.logits == full.logits));
  for (std::size_t l = 0; l < 2; ++l) {
    CHECK((attention.layers[l].attended() == full.layers[l].attended()));
    CHECK((attention.layers[l].heads[1].weights == full.layers[l].heads[1].weights));
    CHECK(attention.layers[l].hidden.size() == 0);
    CHECK(last.layers[l].heads[0].weights.size() == 0);
  }
}

TEST_CASE("a model file's unembedding: tied to tok, or lm_head rows, as x @ Wᵀ", "[model]") {
  model_spec spec{7, 4, 6, 2, 1};
  generator gen(5);
  model_weights w = init_weights(gen, spec);
  const std::vector<std::int64_t> tokens = {1, 2, 6, 0};
  // unembed (d, V) as lm_head (V, d) rows gives the same logits
  model_weights rows = w;
  rows.lm_head = tensor2({7, 6});
  for (std::size_t v = 0; v < 7; ++v)
    for (std::size_t c = 0; c < 6; ++c) rows.lm_head(v, c) = w.unembed(c, v);
  rows.unembed = tensor2();
  CHECK((forward(rows, spec, tokens, 1).logits == forward(w, spec, tokens, 1).logits));
  // tied: the logits are x @ tokᵀ, tok read in place
  model_weights tied = w;
  tied.tied = true;
  tied.unembed = tensor2();
  model_weights copied = w;
  for (std::size_t v = 0; v < 7; ++v)
    for (std::size_t c = 0; c < 6; ++c) copied.unembed(c, v) = w.tok(v, c);
  CHECK((forward(tied, spec, tokens, 1).logits == forward(copied, spec, tokens, 1).logits));
}

TEST_CASE("a key bias adds q·b to a whole row of scores: the attention does not move", "[model]") {
  model_spec spec{7, 5, 8, 2, 1};
  generator gen(7);
  model_weights w = init_weights(gen, spec);
  model_weights biased = w;
  for (model_head& head : biased.layers[0].heads) head.key_bias = tensor2({{0.5f, -1.0f, 2.0f, 0.25f}});
  const std::vector<std::int64_t> tokens = {1, 2, 3, 4, 5};
  const forward_pass a = forward(w, spec, tokens, 1), b = forward(biased, spec, tokens, 1);
  CHECK((b.layers[0].heads[0].k != a.layers[0].heads[0].k));  // the keys moved
  for (std::size_t i = 0; i < 25; ++i)
    CHECK(b.layers[0].heads[1].weights.data()[i] == Approx(a.layers[0].heads[1].weights.data()[i]).margin(1e-6));
}
