#include "models/model_loader.hpp"

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

model_loader::model_loader(model_plan plan) : plan_(std::move(plan)) {
  const model_spec& spec = plan_.spec;
  model_.config = plan_.config;
  model_.spec = spec;
  model_.family = plan_.family;
  model_.facts = plan_.facts;
  model_weights& w = model_.weights;
  w.layers.resize(spec.layers);
  for (model_layer& layer : w.layers) layer.heads.resize(spec.heads);  // their biases, or GQA's float weights
  w.tied = plan_.config.tied;
  stack_projections();
  for (const planned_shard& s : plan_.shards) {
    std::vector<weight_placement> places;
    for (const planned_tensor& t : s.tensors) places.push_back(t.used ? place(t) : weight_placement{});
    streams_.emplace_back(s.header.tensors, std::move(places), s.header.data_bytes);
  }
}

void model_loader::stack_projections() {
  const model_spec& c = plan_.spec;
  const std::size_t L = c.layers;
  // each layer's q_proj, k_proj and v_proj dtypes; stacked when they agree
  std::vector<std::vector<std::string>> dtypes(L);
  for (const planned_shard& s : plan_.shards)
    for (const planned_tensor& t : s.tensors)
      if (t.used && t.layer < L &&
          (t.slot == tensor_slot::query || t.slot == tensor_slot::key || t.slot == tensor_slot::value))
        dtypes[t.layer].push_back(t.file.dtype);
  for (std::size_t l = 0; l < L; ++l) {
    const std::vector<std::string>& d = dtypes[l];
    if (d.size() != 3 || d[1] != d[0] || d[2] != d[0]) continue;  // the float heads, as training's
    model_.weights.layers[l].qkv = weight(
        narrow_matrix(*dtype_named(d[0]), c.embed, (c.heads + 2 * c.kv_heads) * c.head_size, number_layout::panels),
        false);
  }
}

weight_placement model_loader::place(const planned_tensor& t) {
  const model_spec& c = plan_.spec;
  const std::size_t d = c.embed, hs = c.head_size, q = c.heads * hs, V = c.vocab, I = c.mlp.width;
  model_weights& w = model_.weights;
  // a block's tensor: the plan's layer < L (never another layer's place)
  ATTENTION_CHECK(t.layer == 0 || t.layer < w.layers.size(), tensor_place(t.file.name), ": layer ", t.layer,
                  " beyond the plan's ", w.layers.size());
  model_layer* layer = t.layer < w.layers.size() ? &w.layers[t.layer] : nullptr;
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
  // a layer's weight matrix [in, out] in panels, a new token reads it in one stream (narrow.hpp): nn.Linear's
  // [out, in] turned as it loads, Conv1D's as it is; or nanoGPT's [out, in] kept
  const auto linear = [&](weight& target) {
    const auto rows = static_cast<std::size_t>(t.file.shape[0]), cols = static_cast<std::size_t>(t.file.shape[1]);
    const weight_dtype dtype = *dtype_named(t.file.dtype);
    if (t.layout == weight_layout::linear_kept) return narrow(target);
    if (t.layout == weight_layout::conv1d) {
      target = weight(narrow_matrix(dtype, rows, cols, number_layout::panels), false);
      return placed_narrow(target.numbers());
    }
    target = weight(narrow_matrix(dtype, cols, rows, number_layout::panels), false);
    return placed_narrow_transposed(target.numbers());
  };
  // q_proj, k_proj, v_proj side by side in the layer's qkv (stack_projections): its columns from `column`
  narrow_matrix* qkv = layer != nullptr && !layer->qkv.empty() ? &layer->qkv.numbers() : nullptr;
  const auto stacked = [&](std::size_t column) {
    return placed_narrow_transposed(*qkv, column * d * dtype_bytes(qkv->dtype()));
  };
  const std::size_t kv = c.kv_heads * hs;
  switch (t.slot) {
    case tensor_slot::tok: {  // kept [d, V] in panels: tok[x] a column, the tied logits' one-row product without transposes
      w.tok = weight(narrow_matrix(*dtype_named(t.file.dtype), static_cast<std::size_t>(t.file.shape[1]),
                                   static_cast<std::size_t>(t.file.shape[0]), number_layout::panels),
                     true);
      return placed_narrow_transposed(w.tok.numbers());
    }
    case tensor_slot::pos: return placed_as_is(allocated(w.pos, c.length, d), c.length, d);
    case tensor_slot::token_type: {  // row 0 kept (token type 0 everywhere); the other rows read past into one
      const std::size_t types = plan_.family.value().type_vocab;  // only BERT has the slot
      weight_placement p = placed_as_is(allocated(w.token_type, 1, d), types, d);
      p.row_block = 1;
      p.targets.resize(types, allocated(unused_rows_, 1, d));
      p.targets[0] = w.token_type.data();
      return p;
    }
    case tensor_slot::ln_e_weight: return row(w.ln_e.weight, d);
    case tensor_slot::ln_e_bias: return row(w.ln_e.bias, d);
    case tensor_slot::ln1_weight: return row(layer->ln1.weight, d);
    case tensor_slot::ln1_bias: return row(layer->ln1.bias, d);
    case tensor_slot::qkv: return linear(layer->qkv);  // [q | k | v], each H heads of hs
    case tensor_slot::qkv_bias: {                      // each head's (1, hs) bias, part by part
      std::vector<float*> targets;
      for (tensor2 model_head::*part : {&model_head::query_bias, &model_head::key_bias, &model_head::value_bias})
        for (model_head& head : layer->heads) targets.push_back(allocated(head.*part, 1, hs));
      return head_biases(std::move(targets), hs);
    }
    case tensor_slot::ln2_weight: return row(layer->ln2.weight, d);
    case tensor_slot::ln2_bias: return row(layer->ln2.bias, d);
    case tensor_slot::query: return qkv ? stacked(0) : heads(&model_head::query, c.heads, false);
    case tensor_slot::key: return qkv ? stacked(q) : heads(&model_head::key, c.kv_heads, false);
    case tensor_slot::value: return qkv ? stacked(q + kv) : heads(&model_head::value, c.kv_heads, false);
    case tensor_slot::query_bias: return heads(&model_head::query_bias, c.heads, true);
    case tensor_slot::key_bias: return heads(&model_head::key_bias, c.kv_heads, true);
    case tensor_slot::value_bias: return heads(&model_head::value_bias, c.kv_heads, true);
    case tensor_slot::proj: return linear(layer->proj);
    case tensor_slot::proj_bias: return row(layer->proj_bias, d);
    case tensor_slot::fc: return linear(layer->fc);
    case tensor_slot::fc_bias: return row(layer->fc_bias, I);
    case tensor_slot::fc_up: return linear(layer->fc_up);
    case tensor_slot::fc_up_bias: return row(layer->fc_up_bias, I);
    case tensor_slot::fc2: return linear(layer->fc2);
    case tensor_slot::fc2_bias: return row(layer->fc2_bias, d);
    case tensor_slot::ln_f_weight: return row(w.ln_f.weight, d);
    case tensor_slot::ln_f_bias: return row(w.ln_f.bias, d);
    case tensor_slot::transform: return narrow(w.transform);
    case tensor_slot::transform_bias: return row(w.transform_bias, d);
    case tensor_slot::transform_ln_weight: return row(w.transform_ln.weight, d);
    case tensor_slot::transform_ln_bias: return row(w.transform_ln.bias, d);
    case tensor_slot::unembed_bias: return row(w.unembed_bias, V);
    case tensor_slot::lm_head: return narrow(w.unembed);  // kept [V, d]
  }
  return {};
}

void model_loader::feed(std::size_t shard, const unsigned char* bytes, std::size_t n) {
  ATTENTION_CHECK(shard < streams_.size(), "model: no shard ", shard, " to feed");
  streams_[shard].feed(bytes, n);
}

bool model_loader::complete() const {
  for (const weight_stream& s : streams_)
    if (!s.complete()) return false;
  return true;
}

std::size_t model_loader::prepare(std::size_t bytes) {
  std::size_t touched = 0;
  for (std::size_t s = 0; s < streams_.size() && touched < bytes; ++s)
    if (!streams_[s].spent()) touched += streams_[s].prepare(bytes - touched);
  return touched;
}

loaded_model model_loader::finish() {
  const bool spent = finished_ || std::any_of(streams_.begin(), streams_.end(), [](const weight_stream& s) { return s.spent(); });
  ATTENTION_CHECK(!spent, "model: this load failed or finished; open the file again");
  for (std::size_t s = 0; s < streams_.size(); ++s) {
    const std::string& file = plan_.shards[s].file;  // "" for a lone model file
    ATTENTION_CHECK(streams_[s].complete(), file.empty() ? std::string("model") : quote(file, 200),
                    ": the data ended after ", streams_[s].received(), " of its ", streams_[s].expected(), " bytes");
  }
  for (weight_stream& s : streams_) s.spend();
  finished_ = true;
  return std::move(model_);
}

}  // namespace attention
