#include <catch2/catch.hpp>

#include <cmath>

#include "attention/attention.hpp"
#include "errors/check.hpp"
#include "tensor/mask.hpp"
#include "tensor/matmul.hpp"
#include "tensor/softmax.hpp"

using namespace attention;

namespace {
tensor3 ramp(std::size_t B, std::size_t T, std::size_t C, float step) {
  tensor3 t({B, T, C});
  float v = 0.0f;
  for (float& x : t) x = std::sin(v += step);
  return t;
}
tensor2 ramp2(std::size_t R, std::size_t C, float step) {
  tensor2 t({R, C});
  float v = 1.0f;
  for (float& x : t) x = std::cos(v += step);
  return t;
}
}  // namespace

TEST_CASE("the recorded final step equals the plain computation", "[attention]") {
  const tensor3 x = ramp(2, 5, 4, 0.7f);
  const tensor2 wq = ramp2(4, 3, 0.3f), wk = ramp2(4, 3, 0.9f), wv = ramp2(4, 2, 1.3f);
  const head_trace head = attend(x, x, {&wq, &wk, &wv}, causal_mask(5, 5), {});

  // softmax(mask(q kᵀ / sqrt(3))) @ v, written out in one go
  const tensor3 q = project(x, wq), k = project(x, wk), v = project(x, wv);
  tensor3 scores = scores_of(q, k);
  scores *= 1.0f / std::sqrt(3.0f);
  const tensor3 plain = weighted_sum(softmax(mask_fill(scores, causal_mask(5, 5))), v);
  for (std::size_t i = 0; i < plain.size(); ++i) CHECK(head.out.data()[i] == Approx(plain.data()[i]).epsilon(1e-6));
}

TEST_CASE("every step is recorded with its shape", "[attention]") {
  const tensor3 x = ramp(2, 5, 4, 0.7f), context = ramp(2, 7, 4, 0.2f);
  const tensor2 wq = ramp2(4, 3, 0.3f), wk = ramp2(4, 3, 0.9f), wv = ramp2(4, 2, 1.3f);
  const head_trace head = attend(x, context, {&wq, &wk, &wv}, tensor2({5, 7}, 1.0f), {});
  REQUIRE(head.q.has_value());
  REQUIRE(head.k.has_value());
  REQUIRE(head.v.has_value());
  CHECK(head.q->shape() == std::array<std::size_t, 3>{2, 5, 3});
  CHECK(head.k->shape() == std::array<std::size_t, 3>{2, 7, 3});
  CHECK(head.v->shape() == std::array<std::size_t, 3>{2, 7, 2});
  for (auto name : {"scores", "scaled", "masked", "weights"})
    CHECK(head.step(name)->shape() == std::array<std::size_t, 3>{2, 5, 7});
  CHECK(head.out.shape() == std::array<std::size_t, 3>{2, 5, 2});
  CHECK(head.step("nonsense") == nullptr);
}

TEST_CASE("a head with neither query nor key averages the allowed past uniformly", "[attention]") {
  const tensor3 x = ramp(1, 4, 2, 0.5f);
  const head_trace head = attend(x, x, {}, causal_mask(4, 4), {});
  CHECK_FALSE(head.q.has_value());
  CHECK_FALSE(head.v.has_value());
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j <= i; ++j) CHECK(head.weights(0, i, j) == Approx(1.0f / (i + 1)));
  // without value the head aggregates x itself: out[3] is the mean of x[0..3]
  for (std::size_t c = 0; c < 2; ++c)
    CHECK(head.out(0, 3, c) == Approx((x(0, 0, c) + x(0, 1, c) + x(0, 2, c) + x(0, 3, c)) / 4));
}

TEST_CASE("scale divides by sqrt(head_size) and temperature divides further", "[attention]") {
  const tensor3 x = ramp(1, 3, 4, 0.4f);
  const tensor2 w = ramp2(4, 16, 0.2f);
  const head_trace head = attend(x, x, {&w, &w, nullptr}, tensor2({3, 3}, 1.0f), {true, 2.0f});
  for (std::size_t i = 0; i < head.scores.size(); ++i)
    CHECK(head.scaled.data()[i] == Approx(head.scores.data()[i] / 4.0f / 2.0f));
  const head_trace unscaled = attend(x, x, {&w, &w, nullptr}, tensor2({3, 3}, 1.0f), {false, 1.0f});
  CHECK((unscaled.scaled == unscaled.scores));
}

TEST_CASE("batch elements never talk to each other", "[attention]") {
  tensor3 x = ramp(2, 4, 3, 0.3f);
  const tensor2 w = ramp2(3, 3, 0.7f);
  const head_trace before = attend(x, x, {&w, &w, &w}, causal_mask(4, 4), {});
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t c = 0; c < 3; ++c) x(1, t, c) += 5.0f;  // change only batch element 1
  const head_trace after = attend(x, x, {&w, &w, &w}, causal_mask(4, 4), {});
  for (std::size_t t = 0; t < 4; ++t)
    for (std::size_t c = 0; c < 3; ++c) CHECK(after.out(0, t, c) == before.out(0, t, c));
}

TEST_CASE("a layer concatenates heads on the last axis, then applies the output projection", "[attention]") {
  const tensor3 x = ramp(1, 3, 2, 0.9f);
  const tensor2 v1 = {{1, 0}, {0, 1}}, v2 = {{2, 0}, {0, 0}};
  const tensor2 keep({3, 3}, 1.0f);
  const layer_trace layer = attend_layer(x, x, {{nullptr, nullptr, &v1}, {nullptr, nullptr, &v2}}, keep, {});
  REQUIRE(layer.out.shape() == std::array<std::size_t, 3>{1, 3, 4});
  CHECK(layer.out(0, 1, 0) == layer.heads[0].out(0, 1, 0));
  CHECK(layer.out(0, 1, 2) == layer.heads[1].out(0, 1, 0));

  const tensor2 output = {{1}, {1}, {1}, {1}};
  const layer_trace projected = attend_layer(x, x, {{nullptr, nullptr, &v1}, {nullptr, nullptr, &v2}}, keep, {}, &output);
  REQUIRE(projected.out.shape() == std::array<std::size_t, 3>{1, 3, 1});
  CHECK(projected.out(0, 2, 0) ==
        Approx(layer.out(0, 2, 0) + layer.out(0, 2, 1) + layer.out(0, 2, 2) + layer.out(0, 2, 3)));
}

TEST_CASE("scores that overflow float32 are an error naming the step, not NaN", "[attention]") {
  const tensor3 x({1, 2, 2}, 1e18f);
  const tensor2 w = {{1e10f, 0}, {0, 1e10f}};  // q = k = 1e28: finite; q·k = 2e56 is not
  CHECK_THROWS_WITH(attend(x, x, {&w, &w, nullptr}, causal_mask(2, 2), {}, 3),
                    "attention.heads[3].scores: overflows float32; the inputs are too large");
}

TEST_CASE("q, k and v that overflow float32 are errors naming their weight", "[attention]") {
  const tensor3 x({1, 2, 2}, 3e30f);
  const tensor2 big = {{1e10f, 0}, {0, 1e10f}}, small = {{1, 0}, {0, 1}};
  CHECK_THROWS_WITH(attend(x, x, {&big, &small, nullptr}, causal_mask(2, 2), {}, 1),
                    "attention.heads[1].query: q = x @ W overflows float32; the inputs are too large");
  CHECK_THROWS_WITH(attend(x, x, {&small, &big, nullptr}, causal_mask(2, 2), {}, 0),
                    "attention.heads[0].key: k = context @ W overflows float32; the inputs are too large");
  // v overflows where the weights are 0 too: the trace would hold inf in v
  const tensor2 tiny = {{1e-30f, 0}, {0, 1e-30f}};
  CHECK_THROWS_WITH(attend(x, x, {&tiny, &tiny, &big}, causal_mask(2, 2), {}, 2),
                    "attention.heads[2].value: v = context @ W overflows float32; the inputs are too large");
}

TEST_CASE("a bias is added after its product, on every row, and the layer's after the projection", "[attention]") {
  const tensor3 x = ramp(2, 4, 3, 0.4f);
  const tensor2 wq = ramp2(3, 2, 0.3f), wk = ramp2(3, 2, 0.9f), wv = ramp2(3, 2, 1.3f);
  const tensor1 bq = {0.5f, -1.0f}, bk = {2.0f, 0.25f}, bv = {-0.75f, 3.0f};
  const head_trace plain = attend(x, x, {&wq, &wk, &wv}, causal_mask(4, 4), {});
  const head_trace biased = attend(x, x, {&wq, &wk, &wv, &bq, &bk, &bv}, causal_mask(4, 4), {});
  for (std::size_t b = 0; b < 2; ++b)
    for (std::size_t t = 0; t < 4; ++t)
      for (std::size_t c = 0; c < 2; ++c) {
        CHECK((*biased.q)(b, t, c) == (*plain.q)(b, t, c) + bq(c));
        CHECK((*biased.k)(b, t, c) == (*plain.k)(b, t, c) + bk(c));
        CHECK((*biased.v)(b, t, c) == (*plain.v)(b, t, c) + bv(c));
      }
  // a key bias shifts each row of scores by q·b, which softmax ignores: the
  // weights barely move, the scores do
  CHECK(biased.scores(0, 3, 1) != plain.scores(0, 3, 1));

  const tensor2 output = {{1, 0}, {0, 2}};
  const tensor1 bo = {10.0f, -10.0f};
  const layer_trace layer = attend_layer(x, x, {{&wq, &wk, &wv}}, causal_mask(4, 4), {}, &output);
  const layer_trace with_bias = attend_layer(x, x, {{&wq, &wk, &wv}}, causal_mask(4, 4), {}, &output, &bo);
  for (std::size_t t = 0; t < 4; ++t) {
    CHECK(with_bias.out(1, t, 0) == layer.out(1, t, 0) + 10.0f);
    CHECK(with_bias.out(1, t, 1) == layer.out(1, t, 1) - 10.0f);
  }
}
