#include "training/self_attention.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <vector>

#include "errors/check.hpp"
#include "tensor/matmul.hpp"
#include "tensor/softmax.hpp"
#include "training/narrow_weights.hpp"

namespace attention {
namespace {

// Every head's projections of a layer as one product, (B, T, d) @ (d, width):
// each output is still its own sum over d, so the bits are those of the
// heads' own products, and one wide product keeps the vectors full where a
// head's 16 columns would not; no key or value computed twice, width =
// (H + 2·KV)·hs. A model file's narrow qkv is that product as the file
// lays it out (narrow_weights.hpp's qkv_columns); training's float heads
// are placed per key/value head g: its key, its value, then the queries of
// the heads that read it (GPT: k, v, q of each head).
void project_heads(const tensor3& a, const model_layer& layer, const model_spec& spec, std::vector<head_pass>& heads) {
  const std::size_t H = layer.heads.size();
  if (H == 0) return;
  const std::size_t B = a.shape(0), T = a.shape(1), d = a.shape(2), hs = spec.head_size(), KV = spec.kv_count(),
                    group = H / KV, width = (H + 2 * KV) * hs;
  const narrow_matrix& qkv = layer.narrow.qkv;
  const bool narrow = !qkv.empty();
  const std::size_t outputs = narrow ? (layer.narrow.conv1d ? qkv.cols() : qkv.rows()) : layer.heads[0].key.shape(1) * (H + 2 * KV);
  ATTENTION_CHECK(KV > 0 && H % KV == 0 && outputs == width, "forward: ", H, " heads of ", hs, " read by ", KV,
                  " key/value heads do not fit the layer's weights");
  // where each head's block of columns starts
  const qkv_columns file{H, KV, hs};
  const auto key_at = [&](std::size_t g) { return narrow ? file.key(g) : g * (group + 2) * hs; };
  const auto value_at = [&](std::size_t g) { return narrow ? file.value(g) : key_at(g) + hs; };
  const auto query_at = [&](std::size_t j) { return narrow ? file.query(j) : key_at(j / group) + (2 + j % group) * hs; };
  tensor3 kqv;  // (B, T, width)
  if (narrow) {
    kqv = product_of(a, tensor2(), qkv, layer.narrow.conv1d);
  } else {
    // Rows of hs floats copied whole (std::copy_n on raw pointers): element by
    // element through xtensor's indexing this cost GPT-2 small ~2 ms a layer in wasm.
    tensor2 w({d, width});  // (d, width)
    const auto place = [&](const tensor2& part, std::size_t at) {
      for (std::size_t i = 0; i < d; ++i) std::copy_n(part.data() + i * hs, hs, w.data() + i * width + at);
    };
    for (std::size_t g = 0; g < KV; ++g) {
      place(layer.heads[g].key, key_at(g));
      place(layer.heads[g].value, value_at(g));
    }
    for (std::size_t j = 0; j < H; ++j) place(layer.heads[j].query, query_at(j));
    kqv = project(a, w);
  }
  // one head's block of columns, (B, T, hs), its bias added after the product
  const auto take = [&](tensor3& t, std::size_t at, const tensor2& bias) {
    t = tensor3({B, T, hs});
    for (std::size_t r = 0; r < B * T; ++r) std::copy_n(kqv.data() + r * width + at, hs, t.data() + r * hs);
    add_bias(t, bias);  // a model file's c_attn has a key bias; training's heads none
  };
  heads.resize(H);
  for (std::size_t g = 0; g < KV; ++g) {
    take(heads[g].k, key_at(g), layer.heads[g].key_bias);
    take(heads[g].v, value_at(g), layer.heads[g].value_bias);
  }
  for (std::size_t j = 0; j < H; ++j) take(heads[j].q, query_at(j), layer.heads[j].query_bias);
}

// The weights of one head from its q and its key/value head's k: scores
// scaled, masked (causal) and softmaxed. (B, T, T)
tensor3 weights_of(const tensor3& q, const tensor3& k, const model_spec& spec, std::size_t layer, std::size_t head) {
  const std::size_t T = q.shape(1), rows = q.shape(0) * T, hs = q.shape(2);
  constexpr float minus_inf = -std::numeric_limits<float>::infinity();
  tensor3 scores;
  if (spec.causal) {
    // hs ** -0.5 in Python's double, applied as a float32 scalar (GPT's and the Llama family's)
    const auto scale = static_cast<float>(std::pow(static_cast<double>(hs), -0.5));
    scores = causal_scores_of(q, k);  // (B, T, T), masked below
    for (std::size_t row = 0; row < rows; ++row) {
      float* s = scores.data() + row * T;
      const std::size_t i = row % T;
      for (std::size_t j = 0; j <= i; ++j) s[j] *= scale;
      for (std::size_t j = i + 1; j < T; ++j) s[j] = minus_inf;
    }
  } else {
    // BERT's encoder, the one without a mask: scores / math.sqrt(hs), a float32 division
    const auto root = static_cast<float>(std::sqrt(static_cast<double>(hs)));
    scores = scores_of(q, k);
    float* __restrict s = scores.data();
    for (std::size_t n = 0; n < scores.size(); ++n) s[n] /= root;
  }
  try {
    return softmax(scores);
  } catch (const error&) {  // the one softmax that can see inf: say where
    detail::fail("overflow: layer ", layer, ", head ", head,
                 ": an attention score is not finite in float32 (inf or nan); the weights or inputs are too large");
  }
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
                    std::size_t layer_index, layer_pass& lp, const head_ablation* ablation) {
  const std::size_t B = a.shape(0), T = a.shape(1), H = layer.heads.size(), hs = spec.head_size(),
                    width = H * hs;
  project_heads(a, layer, spec, lp.heads);
  if (rotary != nullptr) {  // q of every head, k of every key/value head: each turned once
    for (std::size_t j = 0; j < H; ++j) {
      rotate_rows(lp.heads[j].q.data(), B * T, hs, *rotary);
      if (lp.heads[j].k.size() != 0) rotate_rows(lp.heads[j].k.data(), B * T, hs, *rotary);
    }
  }
  lp.concat = tensor3({B, T, width});
  for (std::size_t j = 0; j < H; ++j) {
    head_pass& hp = lp.heads[j];
    const head_pass& kv = lp.heads[spec.kv_head(j)];
    hp.weights = weights_of(hp.q, kv.k, spec, layer_index, j);
    hp.out = spec.causal ? causal_weighted_sum(hp.weights, kv.v) : weighted_sum(hp.weights, kv.v);
    if (ablation != nullptr && ablation->ablates(layer_index, j)) ablate(hp.out, ablation->mean);
    for (std::size_t r = 0; r < B * T; ++r) std::copy_n(hp.out.data() + r * hs, hs, lp.concat.data() + r * width + j * hs);
  }
}

}  // namespace attention
