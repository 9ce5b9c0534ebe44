#include "training/init_weights.hpp"

#include <utility>

#include "random/sampling.hpp"
#include "transformer/layer_norm.hpp"

namespace attention {

namespace {

tensor2 normal_table(generator& gen, std::size_t rows, std::size_t cols) {
  tensor2 table({rows, cols});
  fill_normal(gen, table.data(), table.size());
  return table;
}

}  // namespace

model_weights init_weights(generator& gen, const model_spec& spec) {
  const std::size_t d = spec.embed, hs = spec.head_size, hidden = spec.mlp.width;
  // nn.Linear: its weight, then its bias when the spec gives the part one
  const auto linear_of = [&](std::size_t in, std::size_t out, tensor2& weight, tensor2* bias, bool biased) {
    weight = linear(gen, in, out);
    if (biased) *bias = linear_bias(gen, in, out);
  };
  const bias_spec& b = spec.biases;
  model_weights w;
  w.tok = normal_table(gen, spec.vocab, d);
  w.pos = normal_table(gen, spec.length, d);
  for (std::size_t l = 0; l < spec.layers; ++l) {
    model_layer layer;
    for (std::size_t h = 0; h < spec.heads; ++h) {
      model_head head;
      linear_of(d, hs, head.key, &head.key_bias, b.key);  // key, query, value: Head.__init__'s order
      linear_of(d, hs, head.query, &head.query_bias, b.query);
      linear_of(d, hs, head.value, &head.value_bias, b.value);
      layer.heads.push_back(std::move(head));
    }
    linear_of(d, d, layer.proj.floats(), &layer.proj_bias, b.proj);
    if (spec.mlp.kind != mlp_kind::none) {
      linear_of(d, hidden, layer.fc.floats(), &layer.fc_bias, b.fc);
      linear_of(hidden, d, layer.fc2.floats(), &layer.fc2_bias, b.fc2);
    }
    if (spec.norm.kind != norm_kind::none) {
      layer.ln1 = layer_norm_init(d);
      layer.ln2 = layer_norm_init(d);
    }
    w.layers.push_back(std::move(layer));
  }
  if (spec.norm.kind != norm_kind::none) w.ln_f = layer_norm_init(d);
  linear_of(d, spec.vocab, w.unembed.floats(), &w.unembed_bias, b.unembed);
  return w;
}

}  // namespace attention
