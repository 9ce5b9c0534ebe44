// The attention part of a block (transformer/self_attention.hpp), each option
// on its own: key/value heads shared by groups, rotary positions, attention
// without a mask, and the overflow named by layer and head. PyTorch's
// numbers for the whole block are test_model.cpp's (a tiny Llama and BERT).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "tensor/matmul.hpp"
#include "tensor/rotary.hpp"
#include "transformer/self_attention.hpp"

using namespace attention;

namespace {

// (rows, cols) of varied numbers
tensor2 wave2(std::size_t rows, std::size_t cols, float step, float phase) {
  tensor2 t({rows, cols});
  float v = phase;
  for (float& x : t) x = std::sin(v += step) * 0.8f;
  return t;
}

tensor3 wave3(std::size_t B, std::size_t T, std::size_t d, float step) {
  tensor3 t({B, T, d});
  float v = 0.2f;
  for (float& x : t) x = std::cos(v += step) * 1.3f;
  return t;
}

// H heads of hs reading d, with kv key/value heads (in heads[g] for g < kv)
model_layer layer_of(std::size_t d, std::size_t H, std::size_t kv, std::size_t hs) {
  model_layer layer;
  layer.heads.resize(H);
  for (std::size_t j = 0; j < H; ++j) {
    layer.heads[j].query = wave2(d, hs, 0.37f, 0.1f * static_cast<float>(j));
    layer.heads[j].query_bias = wave2(1, hs, 0.9f, static_cast<float>(j));
  }
  for (std::size_t g = 0; g < kv; ++g) {
    layer.heads[g].key = wave2(d, hs, 0.53f, 1.0f + static_cast<float>(g));
    layer.heads[g].value = wave2(d, hs, 0.71f, 2.0f + static_cast<float>(g));
    layer.heads[g].key_bias = wave2(1, hs, 1.3f, static_cast<float>(g));
    layer.heads[g].value_bias = wave2(1, hs, 1.7f, static_cast<float>(g));
  }
  return layer;
}

model_spec spec_of(std::size_t d, std::size_t H, std::size_t kv, std::size_t hs) {
  model_spec s;
  s.embed = d;
  s.heads = H;
  s.kv_heads = kv;
  s.head_size = hs;
  s.biases.query = s.biases.key = s.biases.value = true;  // layer_of's
  return s;
}

}  // namespace

TEST_CASE("grouped-query heads: head j reads key/value head j / (H / KV), each projected once", "[self_attention]") {
  const std::size_t d = 10, H = 6, KV = 2, hs = 4;
  const tensor3 a = wave3(2, 5, d, 0.41f);
  const model_layer grouped = layer_of(d, H, KV, hs);
  // the same layer with every head holding its own copy of its group's key and value
  model_layer copied = grouped;
  for (std::size_t j = 0; j < H; ++j) {
    const model_head& g = grouped.heads[j / (H / KV)];
    copied.heads[j].key = g.key;
    copied.heads[j].value = g.value;
    copied.heads[j].key_bias = g.key_bias;
    copied.heads[j].value_bias = g.value_bias;
  }
  const model_spec spec = spec_of(d, H, KV, hs);
  CHECK(spec.kv_head(0) == 0);
  CHECK(spec.kv_head(2) == 0);
  CHECK(spec.kv_head(3) == 1);
  layer_pass shared, own;
  self_attention(a, grouped, spec, nullptr, 0, shared);
  self_attention(a, copied, spec_of(d, H, H, hs), nullptr, 0, own);
  for (std::size_t j = 0; j < H; ++j) {
    INFO("head " << j);
    CHECK((shared.heads[j].q == own.heads[j].q));
    CHECK((shared.heads[j].weights == own.heads[j].weights));  // the same bits
    CHECK((shared.heads[j].out == own.heads[j].out));
    CHECK(shared.heads[j].k.size() == (j < KV ? 2 * 5 * hs : 0));  // k and v only where the weights are
  }
  CHECK((shared.concat == own.concat));
  REQUIRE(shared.concat.shape() == std::array<std::size_t, 3>{2, 5, H * hs});
  // each head's q and k as their own products: x @ Wq + bq
  tensor3 q = project(a, grouped.heads[4].query);
  for (std::size_t r = 0; r < 10; ++r)
    for (std::size_t c = 0; c < hs; ++c) q.data()[r * hs + c] += grouped.heads[4].query_bias(0, c);
  CHECK((shared.heads[4].q == q));
}

TEST_CASE("rotary positions turn q and k after their biases, once per key/value head", "[self_attention]") {
  const std::size_t d = 8, H = 4, KV = 2, hs = 6, T = 5;
  const tensor3 a = wave3(2, T, d, 0.29f);
  const model_layer layer = layer_of(d, H, KV, hs);
  model_spec spec = spec_of(d, H, KV, hs);
  spec.position = {position_kind::rotary, 500000.0f};
  const rotary_table table = rotary_table_of(rotary_angles(T, 0, hs, spec.position.theta));
  layer_pass plain, turned;
  self_attention(a, layer, spec, nullptr, 0, plain);
  self_attention(a, layer, spec, &table, 0, turned);
  const tensor2 angles = rotary_angles(T, 0, hs, spec.position.theta);
  for (std::size_t j = 0; j < H; ++j) CHECK((turned.heads[j].q == rotate(plain.heads[j].q, angles)));
  for (std::size_t g = 0; g < KV; ++g) CHECK((turned.heads[g].k == rotate(plain.heads[g].k, angles)));
  CHECK((turned.heads[1].v == plain.heads[1].v));  // never v
  CHECK((turned.heads[3].weights != plain.heads[3].weights));
}

TEST_CASE("without a mask every position reads every position: softmax(q kᵀ / √hs)", "[self_attention]") {
  const std::size_t d = 6, H = 2, hs = 3, T = 4;
  const tensor3 a = wave3(1, T, d, 0.61f);
  const model_layer layer = layer_of(d, H, H, hs);
  model_spec spec = spec_of(d, H, H, hs);
  spec.direction = attention_direction::bidirectional;
  spec.scaling = score_scaling::divide_by_root;
  layer_pass lp;
  self_attention(a, layer, spec, nullptr, 0, lp);
  for (std::size_t j = 0; j < H; ++j) {
    const head_pass& hp = lp.heads[j];
    for (std::size_t i = 0; i < T; ++i) {
      double scores[T], total = 0;
      for (std::size_t k = 0; k < T; ++k) {
        double s = 0;
        for (std::size_t c = 0; c < hs; ++c) s += static_cast<double>(hp.q(0, i, c)) * hp.k(0, k, c);
        scores[k] = std::exp(s / std::sqrt(3.0));
        total += scores[k];
      }
      for (std::size_t k = 0; k < T; ++k) CHECK(hp.weights(0, i, k) == Approx(scores[k] / total).margin(1e-6));
    }
    CHECK(hp.weights(0, 0, T - 1) > 0.0f);  // the first position reads the last
  }
  // causal: nothing above the diagonal, exactly
  spec.direction = attention_direction::causal;
  layer_pass causal;
  self_attention(a, layer, spec, nullptr, 0, causal);
  CHECK(causal.heads[1].weights(0, 1, 2) == 0.0f);
  CHECK(causal.heads[1].weights(0, 0, 0) == 1.0f);
}

TEST_CASE("a score that overflows float32 is named by its layer and head", "[self_attention]") {
  model_layer layer = layer_of(4, 2, 2, 2);
  layer.heads[1].query = tensor2({4, 2}, std::numeric_limits<float>::max());
  layer_pass lp;
  CHECK_THROWS_WITH(self_attention(wave3(1, 3, 4, 0.5f), layer, spec_of(4, 2, 2, 2), nullptr, 7, lp),
                    "overflow: layer 7, head 1: an attention score is not finite in float32 (inf or nan); the weights or "
                    "inputs are too large");
}

TEST_CASE("an ablated head's out is zeros or its mean over positions; its key/value head still serves the others",
          "[self_attention]") {
  const std::size_t B = 2, T = 5, d = 8, H = 4, kv = 2, hs = 3;
  const model_layer layer = layer_of(d, H, kv, hs);
  const model_spec spec = spec_of(d, H, kv, hs);
  const tensor3 a = wave3(B, T, d, 0.29f);
  layer_pass plain, zero, mean;
  self_attention(a, layer, spec, nullptr, 1, plain);
  const head_ablation zeros{{{1, 1}, {0, 2}}, false};  // (0, 2) is another layer's: untouched here
  self_attention(a, layer, spec, nullptr, 1, zero, nullptr, &zeros);
  const head_ablation means{{{1, 1}}, true};
  self_attention(a, layer, spec, nullptr, 1, mean, nullptr, &means);
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t)
      for (std::size_t j = 0; j < H; ++j)
        for (std::size_t c = 0; c < hs; ++c) {
          const float was = plain.concat(b, t, j * hs + c);
          if (j != 1) {  // head 0 shares head 1's key/value head and is unchanged, as every other head
            CHECK(zero.concat(b, t, j * hs + c) == was);
            CHECK(mean.concat(b, t, j * hs + c) == was);
            continue;
          }
          CHECK(zero.concat(b, t, j * hs + c) == 0.0f);
          CHECK(zero.heads[1].out(b, t, c) == 0.0f);
          double total = 0;  // the head's mean over this batch row's positions
          for (std::size_t u = 0; u < T; ++u) total += plain.heads[1].out(b, u, c);
          CHECK(mean.concat(b, t, j * hs + c) == Approx(total / T).margin(1e-6));
        }
  // the weights themselves are the head's as ever: only what it writes is replaced
  const bool same_weights = zero.heads[1].weights == plain.heads[1].weights;
  CHECK(same_weights);
}
