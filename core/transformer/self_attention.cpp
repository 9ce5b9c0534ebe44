#include "transformer/self_attention.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <vector>

#include "errors/check.hpp"
#include "tensor/gemm.hpp"
#include "tensor/matmul.hpp"
#include "tensor/row_product.hpp"
#include "tensor/softmax.hpp"
#include "transformer/kv_cache.hpp"
#include "transformer/head_weights.hpp"

namespace attention {
namespace {

// Every head's projections of a layer as one product, (B, T, d) @ (d, width),
// width = (H + 2·KV)·hs: each output is still its own sum over d, so the
// bits are those of the heads' own products, and one wide product keeps the
// vectors full where a head's 16 columns would not; no key or value
// computed twice. Its columns are the file's (qkv_columns).
void project_heads(const tensor3& a, const model_layer& layer, const model_spec& spec, std::vector<head_pass>& heads) {
  const std::size_t H = layer.heads.size();
  if (H == 0) return;
  const std::size_t B = a.shape(0), T = a.shape(1), hs = spec.head_size, KV = spec.kv_heads;
  const qkv_columns at{H, KV, hs};
  weight placed;
  const weight& qkv = qkv_of(layer, spec, placed);
  ATTENTION_CHECK(KV > 0 && H % KV == 0 && qkv.outputs() == at.width(), "forward: ", H, " heads of ", hs, " read by ",
                  KV, " key/value heads do not fit the layer's weights");
  const std::size_t width = at.width();
  const tensor3 kqv = qkv.product(a);  // (B, T, width)
  // one head's block of columns, (B, T, hs), its bias added after the product
  const auto take = [&](tensor3& t, std::size_t first, const tensor2& bias, bool biased) {
    t = tensor3({B, T, hs});
    for (std::size_t r = 0; r < B * T; ++r) std::copy_n(kqv.data() + r * width + first, hs, t.data() + r * hs);
    if (biased) add_bias(t, bias);  // a model file's c_attn has a key bias; training's heads none
  };
  const bias_spec& b = spec.biases;
  heads.resize(H);
  for (std::size_t g = 0; g < KV; ++g) {
    take(heads[g].k, at.key(g), layer.heads[g].key_bias, b.key);
    take(heads[g].v, at.value(g), layer.heads[g].value_bias, b.value);
  }
  for (std::size_t j = 0; j < H; ++j) take(heads[j].q, at.query(j), layer.heads[j].query_bias, b.query);
}

// The weights of one head from its scores q kᵀ, (B, Tq, Tkv), the queries
// at positions offset … offset + Tq − 1 (offset > 0 with a key/value cache):
// scaled as spec.scaling says, masked (causal) and softmaxed. hs: the head size.
tensor3 weights_from(tensor3 scores, std::size_t hs, const model_spec& spec, std::size_t offset, std::size_t layer,
                     std::size_t head) {
  const std::size_t Tq = scores.shape(1), Tkv = scores.shape(2), rows = scores.shape(0) * Tq;
  constexpr float minus_inf = -std::numeric_limits<float>::infinity();
  const bool multiply = spec.scaling == score_scaling::multiply_inverse_root;
  // hs ** -0.5 in Python's double, applied as a float32 scalar (GPT's and the Llama family's)
  const auto scale = static_cast<float>(std::pow(static_cast<double>(hs), -0.5));
  // BERT's scores / math.sqrt(hs), a float32 division
  const auto root = static_cast<float>(std::sqrt(static_cast<double>(hs)));
  if (spec.causal()) {
    for (std::size_t row = 0; row < rows; ++row) {
      float* s = scores.data() + row * Tkv;
      const std::size_t i = offset + row % Tq;  // this query's position
      if (multiply) for (std::size_t j = 0; j <= i; ++j) s[j] *= scale;
      else for (std::size_t j = 0; j <= i; ++j) s[j] /= root;
      for (std::size_t j = i + 1; j < Tkv; ++j) s[j] = minus_inf;
    }
  } else {  // no mask: every score scaled
    float* __restrict s = scores.data();
    if (multiply) for (std::size_t n = 0; n < scores.size(); ++n) s[n] *= scale;
    else for (std::size_t n = 0; n < scores.size(); ++n) s[n] /= root;
  }
  try {
    return softmax(scores);
  } catch (const error&) {  // the one softmax that can see inf: say where
    detail::fail("overflow: layer ", layer, ", head ", head,
                 ": an attention score is not finite in float32 (inf or nan); the weights or inputs are too large");
  }
}

// The weights of one head from its q and its key/value head's k. (B, T, T)
tensor3 weights_of(const tensor3& q, const tensor3& k, const model_spec& spec, std::size_t layer, std::size_t head) {
  // causal: only the cells on and below the diagonal computed, the rest masked
  return weights_from(spec.causal() ? causal_scores_of(q, k) : scores_of(q, k), q.shape(2), spec, 0, layer, head);
}

// One head's new positions offset … offset + T − 1 attending to the n =
// offset + T positions a cache holds: q (1, T, hs), the keys as Kᵀ (hs, n)
// and the values (n, hs), both in panels (kv_cache.hpp). Each sum in the order forward() sums it over the whole window
// (gemm.hpp), so the last row is the bits of forward()'s last row.
void attend_cached(head_pass& hp, const matrix_ref& keys, const matrix_ref& values, std::size_t n, const model_spec& spec,
                   std::size_t offset, std::size_t layer, std::size_t head) {
  const std::size_t T = hp.q.shape(1), hs = hp.q.shape(2);
  tensor3 scores({1, T, n});  // 1. q kᵀ
  stream_gemm(row_major(hp.q.data(), T, hs), keys, scores.data(), n);
  hp.weights = weights_from(std::move(scores), hs, spec, offset, layer, head);  // 2. scaled, masked, softmaxed
  hp.out = tensor3({1, T, hs});  // 3. weights @ v
  stream_gemm(row_major(hp.weights.data(), T, n), values, hp.out.data(), hs);
}

// An ablated head's out, (B, T, hs): zeros, or each batch row's mean over its positions
void ablate(tensor3& out, bool mean) {
  const std::size_t B = out.shape(0), T = out.shape(1), hs = out.shape(2);
  for (std::size_t b = 0; b < B; ++b) {
    float* o = out.data() + b * T * hs;
    std::vector<float> average(hs, 0.0f);
    if (mean) {
      std::vector<double> total(hs, 0.0);
      for (std::size_t t = 0; t < T; ++t)
        for (std::size_t c = 0; c < hs; ++c) total[c] += o[t * hs + c];
      for (std::size_t c = 0; c < hs; ++c) average[c] = static_cast<float>(total[c] / static_cast<double>(T));
    }
    for (std::size_t t = 0; t < T; ++t) std::copy_n(average.data(), hs, o + t * hs);
  }
}

}  // namespace

void self_attention(const tensor3& a, const model_layer& layer, const model_spec& spec, const rotary_table* rotary,
                    std::size_t layer_index, layer_pass& lp, kv_cache* cache,
                    const head_ablation* ablation) {
  const std::size_t B = a.shape(0), T = a.shape(1), H = layer.heads.size(), hs = spec.head_size,
                    width = H * hs;
  project_heads(a, layer, spec, lp.heads);
  if (rotary != nullptr) {  // q of every head, k of every key/value head: each turned once
    for (std::size_t j = 0; j < H; ++j) {
      rotate_rows(lp.heads[j].q.data(), B * T, hs, *rotary);
      if (j < spec.kv_heads) rotate_rows(lp.heads[j].k.data(), B * T, hs, *rotary);
    }
  }
  const std::size_t offset = cache ? cache->length() : 0;  // positions the cache held before these
  if (cache) {  // these positions' keys and values join the cache's, each key/value head once
    for (std::size_t g = 0; g < spec.kv_heads; ++g)
      cache->store(layer_index, g, offset, lp.heads[g].k.data(), lp.heads[g].v.data(), T);
    if (offset > 0) cache->warm(layer_index, offset + T);  // the earlier positions, from memory, at its speed
  }
  lp.concat = tensor3({B, T, width});
  for (std::size_t j = 0; j < H; ++j) {
    head_pass& hp = lp.heads[j];
    const head_pass& kv = lp.heads[spec.kv_head(j)];
    if (offset > 0) {
      const std::size_t g = spec.kv_head(j);
      attend_cached(hp, cache->keys(layer_index, g, offset + T), cache->values(layer_index, g, offset + T), offset + T, spec, offset,
                    layer_index, j);
    } else {
      hp.weights = weights_of(hp.q, kv.k, spec, layer_index, j);
      hp.out = spec.causal() ? causal_weighted_sum(hp.weights, kv.v) : weighted_sum(hp.weights, kv.v);
    }
    if (ablation != nullptr && ablation->ablates(layer_index, j)) ablate(hp.out, ablation->mean);
    for (std::size_t r = 0; r < B * T; ++r) std::copy_n(hp.out.data() + r * hs, hs, lp.concat.data() + r * width + j * hs);
  }
}

}  // namespace attention
