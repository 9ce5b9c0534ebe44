#include "models/model_loader.hpp"

#include <algorithm>
#include <utility>

#include "errors/check.hpp"

namespace attention {

model_loader::model_loader(model_plan plan) : plan_(std::move(plan)) {
  const model_config& c = plan_.config;
  model_.config = c;
  model_.spec = spec_of(c);
  model_.weights.layers.resize(c.layers);
  for (model_layer& layer : model_.weights.layers)
    layer.heads.resize(c.heads);  // their biases; the weights stay narrow, in the file's layout
  model_.weights.tied = c.tied;
  std::vector<safetensors_tensor> tensors;
  std::vector<weight_placement> places;
  for (const planned_tensor& t : plan_.tensors) {
    tensors.push_back(t.file);
    places.push_back(place(t));
  }
  stream_ = weight_stream(std::move(tensors), std::move(places), plan_.data_bytes);
}

weight_placement model_loader::place(const planned_tensor& t) {
  const model_config& c = model_.config;
  const std::size_t d = c.embed, hs = c.head_size(), width = c.mlp_width;
  const auto allocated = [](tensor2& target, std::size_t rows, std::size_t cols) {
    target = tensor2({rows, cols});
    return target.data();
  };
  const auto direct = placed_as_is;
  if (t.slot == tensor_slot::ignored) return {};
  model_weights& w = model_.weights;
  model_layer* layer = w.layers.empty() ? nullptr : &w.layers[std::min(t.layer, w.layers.size() - 1)];
  // a weight matrix [out, in] kept as the file stores it, (rows, cols) its shape: the weight's transpose
  const auto narrow = [&](weight& target) {
    const std::vector<std::uint64_t>& s = t.file.shape;  // rank 2, checked by the plan
    target = weight(narrow_matrix(*dtype_named(t.file.dtype), static_cast<std::size_t>(s[0]), static_cast<std::size_t>(s[1])),
                    true);
    return placed_narrow(target.numbers());
  };
  // a layer's Conv1D weight [in, out], kept in panels: a new token reads it in one stream (narrow.hpp)
  const auto layer_weight = [&](weight& target) {
    if (!c.conv1d) return narrow(target);
    const std::vector<std::uint64_t>& s = t.file.shape;
    target = weight(narrow_matrix(*dtype_named(t.file.dtype), static_cast<std::size_t>(s[0]), static_cast<std::size_t>(s[1]),
                                  number_layout::panels),
                    false);
    return placed_narrow(target.numbers());
  };
  // c_attn.bias's [q | k | v], each d wide and split into H heads of hs, in
  // that order: each head's (1, hs) bias, part by part
  const auto biases = [&] {
    std::vector<float*> targets;
    for (tensor2 model_head::*part : {&model_head::query_bias, &model_head::key_bias, &model_head::value_bias})
      for (model_head& head : layer->heads) targets.push_back(allocated(head.*part, 1, hs));
    return targets;
  };
  switch (t.slot) {
    case tensor_slot::wte: {  // kept [d, V] in panels: tok[x] a column, the tied logits' one-row product without transposes
      const std::vector<std::uint64_t>& s = t.file.shape;
      w.tok = weight(narrow_matrix(*dtype_named(t.file.dtype), static_cast<std::size_t>(s[1]),
                                   static_cast<std::size_t>(s[0]), number_layout::panels),
                     true);
      return placed_narrow_transposed(w.tok.numbers());
    }
    case tensor_slot::wpe: return direct(allocated(w.pos, c.length, d), c.length, d);
    case tensor_slot::ln_f_weight: return direct(allocated(w.ln_f.weight, 1, d), 1, d);
    case tensor_slot::ln_f_bias: return direct(allocated(w.ln_f.bias, 1, d), 1, d);
    case tensor_slot::lm_head_weight: return narrow(w.unembed);  // kept [V, d]
    case tensor_slot::lm_head_bias: return direct(allocated(w.unembed_bias, 1, c.vocab), 1, c.vocab);
    case tensor_slot::ln_1_weight: return direct(allocated(layer->ln1.weight, 1, d), 1, d);
    case tensor_slot::ln_1_bias: return direct(allocated(layer->ln1.bias, 1, d), 1, d);
    case tensor_slot::ln_2_weight: return direct(allocated(layer->ln2.weight, 1, d), 1, d);
    case tensor_slot::ln_2_bias: return direct(allocated(layer->ln2.bias, 1, d), 1, d);
    case tensor_slot::c_attn_weight: return layer_weight(layer->qkv);  // [q | k | v], each H heads of hs
    case tensor_slot::c_attn_bias: {
      weight_placement p;
      p.targets = biases();
      p.cols = 3 * d;
      p.col_block = hs;
      return p;
    }
    case tensor_slot::attn_proj_weight: return layer_weight(layer->proj);
    case tensor_slot::attn_proj_bias: return direct(allocated(layer->proj_bias, 1, d), 1, d);
    case tensor_slot::c_fc_weight: return layer_weight(layer->fc);
    case tensor_slot::c_fc_bias: return direct(allocated(layer->fc_bias, 1, width), 1, width);
    case tensor_slot::mlp_proj_weight: return layer_weight(layer->fc2);
    case tensor_slot::mlp_proj_bias: return direct(allocated(layer->fc2_bias, 1, d), 1, d);
    case tensor_slot::ignored: break;
  }
  return {};
}

void model_loader::feed(const unsigned char* bytes, std::size_t n) { stream_.feed(bytes, n); }

std::size_t model_loader::prepare(std::size_t bytes) { return stream_.prepare(bytes); }

loaded_model model_loader::finish() {
  ATTENTION_CHECK(!stream_.spent(), "model: this load failed or finished; open the file again");
  ATTENTION_CHECK(complete(), "model: the data ended after ", received(), " of its ", expected(), " bytes");
  stream_.spend();
  return std::move(model_);
}

}  // namespace attention
