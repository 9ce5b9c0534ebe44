// A model file's header read as a GPT (gpt-v1.md section 2): which scheme
// names its tensors (nanoGPT's nn.Linear or Hugging Face's Conv1D), where
// each tensor goes in the model, every shape against the others and the
// config, the metadata, the limits; all before one weight is allocated.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "formats/safetensors.hpp"
#include "transformer/activation.hpp"

namespace attention {

// How the model's tokens become text: ids only, a character vocabulary
// (__metadata__.vocab), or GPT-2's byte-level BPE (the page's, not the core's).
enum class tokenizer_kind { ids, characters, gpt2 };

const char* tokenizer_name(tokenizer_kind kind);  // "ids", "characters", "gpt2"

struct model_config {
  std::size_t vocab = 0, length = 0, embed = 0, heads = 0, layers = 0;  // V, Tmax, d, heads per layer, layers
  std::size_t mlp_width = 0;          // c_fc's outputs; 0: no MLP
  activation_kind activation = activation_kind::gelu;
  bool bias = false;                  // some Linear has a bias
  bool norm = false;                  // LayerNorms: ln_1 in every block, ln_2 with each MLP, ln_f
  bool tied = false;                  // no lm_head.weight: the unembedding is wte
  bool conv1d = false;                // Hugging Face's layout: h.0's c_attn.weight is [d, 3d]
  std::uint64_t parameters = 0;       // distinct numbers: a tied unembedding once, buffers not at all
  tokenizer_kind tokenizer = tokenizer_kind::ids;
  std::vector<std::string> vocabulary;  // a character model's V strings

  std::size_t head_size() const { return embed / heads; }
};

// What a Hugging Face config.json dropped beside the file says (hf_config.hpp):
// n_head and the activation override the metadata; the sizes must agree with
// the file's tensors.
struct model_overrides {
  std::optional<std::size_t> heads;
  std::optional<activation_kind> activation;
  std::optional<std::uint64_t> vocab, length, embed, layers, mlp_width;
};

// Where one tensor of the file goes.
enum class tensor_slot {
  ignored,  // Hugging Face's attention mask buffers, attn.bias and attn.masked_bias
  wte, wpe, ln_f_weight, ln_f_bias, lm_head_weight, lm_head_bias,
  ln_1_weight, ln_1_bias, c_attn_weight, c_attn_bias, attn_proj_weight, attn_proj_bias,
  ln_2_weight, ln_2_bias, c_fc_weight, c_fc_bias, mlp_proj_weight, mlp_proj_bias,
};

struct planned_tensor {
  safetensors_tensor file;  // its name, dtype, shape and bytes
  tensor_slot slot = tensor_slot::ignored;
  std::size_t layer = 0;    // a block's tensor: which block
};

struct model_plan {
  model_config config;
  std::vector<planned_tensor> tensors;  // in file order, every one of the header's
  std::uint64_t data_bytes = 0;          // what the data section holds, ignored buffers included
};

// Checks a header as a GPT, in torch_model.py's order, and says where every
// tensor goes. Throws one line naming the tensor or the metadata field.
model_plan plan_model(const safetensors_header& header, const model_overrides& overrides = {});

}  // namespace attention
