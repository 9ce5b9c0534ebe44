#include "transformer/head_weights.hpp"

#include <algorithm>

#include "errors/check.hpp"

namespace attention {

void add_bias(tensor3& out, const tensor2& bias) {
  const std::size_t n = out.shape(2), rows = out.size() / n;
  ATTENTION_CHECK(bias.size() == n, "forward: a bias of ", bias.size(), " numbers for ", n, " outputs");
  // raw pointers that cannot alias: the compiler then adds whole vectors
  const float* __restrict b = bias.data();
  for (std::size_t r = 0; r < rows; ++r) {
    float* __restrict row = out.data() + r * n;
    for (std::size_t c = 0; c < n; ++c) row[c] += b[c];
  }
}

const weight& qkv_of(const model_layer& layer, const model_spec& spec, weight& placed) {
  if (!layer.qkv.empty() || layer.heads.empty()) return layer.qkv;
  const std::size_t H = layer.heads.size(), KV = spec.kv_heads, hs = spec.head_size, d = layer.heads[0].query.shape(0);
  ATTENTION_CHECK(KV > 0 && KV <= H, "forward: ", H, " heads read by ", KV, " key/value heads");
  const qkv_columns at{H, KV, hs};
  const std::size_t width = at.width();
  tensor2 w({d, width});  // (d, width)
  // Rows of hs floats copied whole (std::copy_n on raw pointers): element by
  // element through xtensor's indexing this cost GPT-2 small ~2 ms a layer in wasm.
  const auto place = [&](const tensor2& part, std::size_t first) {
    ATTENTION_CHECK(part.shape(0) == d && part.shape(1) == hs, "forward: a head's projection is (",
                    part.shape(0), ", ", part.shape(1), "), expected (", d, ", ", hs, ")");
    for (std::size_t i = 0; i < d; ++i) std::copy_n(part.data() + i * hs, hs, w.data() + i * width + first);
  };
  for (std::size_t j = 0; j < H; ++j) place(layer.heads[j].query, at.query(j));
  for (std::size_t g = 0; g < KV; ++g) {
    place(layer.heads[g].key, at.key(g));
    place(layer.heads[g].value, at.value(g));
  }
  placed = weight(std::move(w));
  return placed;
}

model_head head_weights(const model_layer& layer, const model_spec& spec, std::size_t j) {
  const std::size_t g = spec.kv_head(j);
  ATTENTION_CHECK(j < layer.heads.size() && g < layer.heads.size(), "head ", j, " is outside the layer's ",
                  layer.heads.size(), " heads");
  const model_head &q = layer.heads[j], &kv = layer.heads[g];
  model_head head;
  head.query_bias = q.query_bias;
  head.key_bias = kv.key_bias;
  head.value_bias = kv.value_bias;
  weight placed;
  const weight& qkv = qkv_of(layer, spec, placed);
  const qkv_columns at{spec.heads, spec.kv_heads, spec.head_size};
  head.query = qkv.columns(at.query(j), at.hs);
  head.key = qkv.columns(at.key(g), at.hs);
  head.value = qkv.columns(at.value(g), at.hs);
  return head;
}

std::size_t weight_bytes(const model_weights& w) {
  std::size_t bytes = 0;
  for (const tensor2* t : w.all()) bytes += t->size() * sizeof(float);
  // training's floats are counted in all(); a file's numbers here
  for (const weight* m : {&w.tok, &w.transform, &w.unembed}) bytes += m->numbers().byte_size();
  for (const model_layer& layer : w.layers)
    for (const weight* m : {&layer.qkv, &layer.proj, &layer.fc, &layer.fc_up, &layer.fc2}) bytes += m->numbers().byte_size();
  return bytes;
}

}  // namespace attention
