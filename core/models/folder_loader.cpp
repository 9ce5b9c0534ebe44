#include "models/folder_loader.hpp"

#include <algorithm>
#include <utility>

#include "errors/check.hpp"
#include "errors/quote.hpp"

namespace attention {
namespace {

float* allocated(tensor2& target, std::size_t rows, std::size_t cols) {
  target = tensor2({rows, cols});
  return target.data();
}

// [n · hs, d] as nn.Linear stores n heads' outputs: hs rows a head, each row
// one output column of the head, turned to each head's (d, hs) [in, out].
weight_placement heads_of(std::vector<float*> targets, std::size_t hs, std::size_t d) {
  weight_placement p;
  p.rows = targets.size() * hs;
  p.row_block = hs;
  p.cols = p.col_block = d;
  p.row_stride = 1;
  p.col_stride = hs;
  p.targets = std::move(targets);
  return p;
}

// [n · hs]: each head's (1, hs) bias
weight_placement head_biases(std::vector<float*> targets, std::size_t hs) {
  weight_placement p;
  p.cols = targets.size() * hs;
  p.col_block = hs;
  p.targets = std::move(targets);
  return p;
}

}  // namespace

folder_loader::folder_loader(folder_plan plan) : plan_(std::move(plan)) {
  const family_config& c = plan_.config;
  model_.family = c;
  model_.masked_lm = plan_.masked_lm;
  model_.logits = plan_.logits;
  model_.trace = trace_format::folder;
  model_.text = text_tokenizer::tokenizer_json;
  model_.config = plan_.summary;
  model_.spec = plan_.spec;
  model_weights& w = model_.weights;
  w.layers.resize(c.layers);
  for (model_layer& layer : w.layers) layer.heads.resize(c.heads);
  w.tied = plan_.summary.tied;
  stack_projections();
  for (const folder_shard& s : plan_.shards) {
    std::vector<weight_placement> places;
    for (const folder_entry& t : s.tensors) places.push_back(t.used ? place(t) : weight_placement{});
    streams_.emplace_back(s.header.tensors, std::move(places), s.header.data_bytes);
  }
}

void folder_loader::stack_projections() {
  const family_config& c = plan_.config;
  const std::size_t L = c.layers;
  // each layer's q_proj, k_proj and v_proj dtypes; stacked when they agree
  std::vector<std::vector<std::string>> dtypes(L);
  for (const folder_shard& s : plan_.shards)
    for (const folder_entry& t : s.tensors)
      if (t.used && t.layer < L &&
          (t.slot == folder_slot::query || t.slot == folder_slot::key || t.slot == folder_slot::value))
        dtypes[t.layer].push_back(t.file.dtype);
  for (std::size_t l = 0; l < L; ++l) {
    const std::vector<std::string>& d = dtypes[l];
    if (d.size() != 3 || d[1] != d[0] || d[2] != d[0]) continue;  // the float heads, as training's
    model_.weights.layers[l].qkv = weight(
        narrow_matrix(*dtype_named(d[0]), c.embed, (c.heads + 2 * c.kv_heads) * c.head_dim, number_layout::panels),
        false);
  }
}

weight_placement folder_loader::place(const folder_entry& t) {
  const family_config& c = plan_.config;
  const std::size_t d = c.embed, hs = c.head_dim, q = c.heads * hs, V = c.vocab, I = c.intermediate;
  model_weights& w = model_.weights;
  model_layer* layer = w.layers.empty() ? nullptr : &w.layers[std::min(t.layer, w.layers.size() - 1)];  // the plan's layer < L
  const auto row = [&](tensor2& target, std::size_t n) { return placed_as_is(allocated(target, 1, n), 1, n); };
  // query heads: every head; key and value: the first kv_heads (model_head's GQA storage)
  const auto heads = [&](tensor2 model_head::*part, std::size_t count, bool bias) {
    std::vector<float*> targets;
    for (std::size_t j = 0; j < count; ++j) targets.push_back(allocated(layer->heads[j].*part, bias ? 1 : d, hs));
    return bias ? head_biases(std::move(targets), hs) : heads_of(std::move(targets), hs, d);
  };
  // a weight matrix kept as the file stores it, [out, in] (BERT's transform, an lm_head)
  const auto narrow = [&](weight& target) {
    target = weight(narrow_matrix(*dtype_named(t.file.dtype), static_cast<std::size_t>(t.file.shape[0]),
                                  static_cast<std::size_t>(t.file.shape[1])),
                    true);
    return placed_narrow(target.numbers());
  };
  // a layer's Linear [out, in] kept [in, out] in panels: a new token reads it in one stream (narrow.hpp)
  const auto linear = [&](weight& target) {
    target = weight(narrow_matrix(*dtype_named(t.file.dtype), static_cast<std::size_t>(t.file.shape[1]),
                                  static_cast<std::size_t>(t.file.shape[0]), number_layout::panels),
                    false);
    return placed_narrow_transposed(target.numbers());
  };
  // q_proj, k_proj, v_proj side by side in the layer's qkv (stack_projections): its columns from `column`
  narrow_matrix* qkv = layer != nullptr && !layer->qkv.empty() ? &layer->qkv.numbers() : nullptr;
  const auto stacked = [&](std::size_t column) {
    return placed_narrow_transposed(*qkv, column * d * dtype_bytes(qkv->dtype()));
  };
  const std::size_t kv = c.kv_heads * hs;
  switch (t.slot) {
    case folder_slot::tok: {  // kept [d, V] in panels: tok[x] a column, the tied logits' one-row product without transposes
      w.tok = weight(narrow_matrix(*dtype_named(t.file.dtype), static_cast<std::size_t>(t.file.shape[1]),
                                   static_cast<std::size_t>(t.file.shape[0]), number_layout::panels),
                     true);
      return placed_narrow_transposed(w.tok.numbers());
    }
    case folder_slot::pos: return placed_as_is(allocated(w.pos, c.length, d), c.length, d);
    case folder_slot::token_type: {  // row 0 kept (token type 0 everywhere); the other rows read past into one
      weight_placement p = placed_as_is(allocated(w.token_type, 1, d), c.type_vocab, d);
      p.row_block = 1;
      p.targets.resize(c.type_vocab, allocated(unused_rows_, 1, d));
      p.targets[0] = w.token_type.data();
      return p;
    }
    case folder_slot::ln_e_weight: return row(w.ln_e.weight, d);
    case folder_slot::ln_e_bias: return row(w.ln_e.bias, d);
    case folder_slot::ln1_weight: return row(layer->ln1.weight, d);
    case folder_slot::ln1_bias: return row(layer->ln1.bias, d);
    case folder_slot::ln2_weight: return row(layer->ln2.weight, d);
    case folder_slot::ln2_bias: return row(layer->ln2.bias, d);
    case folder_slot::query: return qkv ? stacked(0) : heads(&model_head::query, c.heads, false);
    case folder_slot::key: return qkv ? stacked(q) : heads(&model_head::key, c.kv_heads, false);
    case folder_slot::value: return qkv ? stacked(q + kv) : heads(&model_head::value, c.kv_heads, false);
    case folder_slot::query_bias: return heads(&model_head::query_bias, c.heads, true);
    case folder_slot::key_bias: return heads(&model_head::key_bias, c.kv_heads, true);
    case folder_slot::value_bias: return heads(&model_head::value_bias, c.kv_heads, true);
    case folder_slot::proj: return linear(layer->proj);
    case folder_slot::proj_bias: return row(layer->proj_bias, d);
    case folder_slot::fc: return linear(layer->fc);
    case folder_slot::fc_bias: return row(layer->fc_bias, I);
    case folder_slot::fc_up: return linear(layer->fc_up);
    case folder_slot::fc_up_bias: return row(layer->fc_up_bias, I);
    case folder_slot::fc2: return linear(layer->fc2);
    case folder_slot::fc2_bias: return row(layer->fc2_bias, d);
    case folder_slot::ln_f_weight: return row(w.ln_f.weight, d);
    case folder_slot::transform: return narrow(w.transform);
    case folder_slot::transform_bias: return row(w.transform_bias, d);
    case folder_slot::transform_ln_weight: return row(w.transform_ln.weight, d);
    case folder_slot::transform_ln_bias: return row(w.transform_ln.bias, d);
    case folder_slot::unembed_bias: return row(w.unembed_bias, V);
    case folder_slot::lm_head: return narrow(w.unembed);  // kept [V, d]
  }
  return {};
}

void folder_loader::feed(std::size_t shard, const unsigned char* bytes, std::size_t n) {
  ATTENTION_CHECK(shard < streams_.size() && !finished_, "model: no shard ", shard, " to feed");
  streams_[shard].feed(bytes, n);
}

loaded_model folder_loader::finish() {
  ATTENTION_CHECK(!finished_, "model: this load finished; open the folder again");
  for (std::size_t s = 0; s < streams_.size(); ++s)
    ATTENTION_CHECK(streams_[s].complete(), quote(plan_.shards[s].file, 200), ": the data ended after ",
                    streams_[s].received(), " of its ", streams_[s].expected(), " bytes");
  finished_ = true;
  return std::move(model_);
}

}  // namespace attention
