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
  for (model_layer& layer : model_.weights.layers) layer.heads.resize(c.heads);
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
  const auto transposed = placed_transposed;
  // a Linear's weight: Conv1D's [in, out] as it is, nn.Linear's turned
  const auto linear = [&](tensor2& target, std::size_t in, std::size_t out) {
    float* data = allocated(target, in, out);
    return c.conv1d ? direct(data, in, out) : transposed(data, out, in);
  };
  if (t.slot == tensor_slot::ignored) return {};
  model_weights& w = model_.weights;
  model_layer* layer = w.layers.empty() ? nullptr : &w.layers[std::min(t.layer, w.layers.size() - 1)];
  // c_attn's [q | k | v], each d wide and split into H heads of hs, in that
  // order: the targets of each part and head, part by part
  const auto heads_of = [&](bool bias) {
    std::vector<float*> targets;
    for (int part = 0; part < 3; ++part)
      for (model_head& head : layer->heads) {
        tensor2& target = part == 0 ? (bias ? head.query_bias : head.query)
                          : part == 1 ? (bias ? head.key_bias : head.key)
                                      : (bias ? head.value_bias : head.value);
        targets.push_back(allocated(target, bias ? 1 : d, hs));
      }
    return targets;
  };
  switch (t.slot) {
    case tensor_slot::wte: return direct(allocated(w.tok, c.vocab, d), c.vocab, d);
    case tensor_slot::wpe: return direct(allocated(w.pos, c.length, d), c.length, d);
    case tensor_slot::ln_f_weight: return direct(allocated(w.ln_f.weight, 1, d), 1, d);
    case tensor_slot::ln_f_bias: return direct(allocated(w.ln_f.bias, 1, d), 1, d);
    case tensor_slot::lm_head_weight: return direct(allocated(w.lm_head, c.vocab, d), c.vocab, d);  // kept [V, d]
    case tensor_slot::lm_head_bias: return direct(allocated(w.unembed_bias, 1, c.vocab), 1, c.vocab);
    case tensor_slot::ln_1_weight: return direct(allocated(layer->ln1.weight, 1, d), 1, d);
    case tensor_slot::ln_1_bias: return direct(allocated(layer->ln1.bias, 1, d), 1, d);
    case tensor_slot::ln_2_weight: return direct(allocated(layer->ln2.weight, 1, d), 1, d);
    case tensor_slot::ln_2_bias: return direct(allocated(layer->ln2.bias, 1, d), 1, d);
    case tensor_slot::c_attn_weight: {
      weight_placement p;
      p.targets = heads_of(false);  // each (d, hs)
      if (c.conv1d) {  // [d, 3d]: a row is one input, its columns run through every part and head
        p.rows = p.row_block = d;
        p.cols = 3 * d;
        p.col_block = hs;
        p.row_stride = hs;
        p.col_stride = 1;
      } else {  // [3d, d]: hs rows per head, each row one output column of the head
        p.rows = 3 * d;
        p.row_block = hs;
        p.cols = p.col_block = d;
        p.row_stride = 1;
        p.col_stride = hs;
      }
      return p;
    }
    case tensor_slot::c_attn_bias: {
      weight_placement p;
      p.targets = heads_of(true);  // each (1, hs)
      p.cols = 3 * d;
      p.col_block = hs;
      return p;
    }
    case tensor_slot::attn_proj_weight: return linear(layer->proj, d, d);
    case tensor_slot::attn_proj_bias: return direct(allocated(layer->proj_bias, 1, d), 1, d);
    case tensor_slot::c_fc_weight: return linear(layer->fc, d, width);
    case tensor_slot::c_fc_bias: return direct(allocated(layer->fc_bias, 1, width), 1, width);
    case tensor_slot::mlp_proj_weight: return linear(layer->fc2, width, d);
    case tensor_slot::mlp_proj_bias: return direct(allocated(layer->fc2_bias, 1, d), 1, d);
    case tensor_slot::ignored: break;
  }
  return {};
}

void model_loader::feed(const unsigned char* bytes, std::size_t n) { stream_.feed(bytes, n); }

std::size_t model_loader::prepare(std::size_t bytes) { return stream_.prepare(bytes); }

gpt_model model_loader::finish() {
  ATTENTION_CHECK(!stream_.spent(), "model: this load failed or finished; open the file again");
  ATTENTION_CHECK(complete(), "model: the data ended after ", received(), " of its ", expected(), " bytes");
  stream_.spend();
  return std::move(model_);
}

}  // namespace attention
