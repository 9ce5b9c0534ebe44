// gpt-v1's view of a model's config (gpt-v1.md section 2): the sizes a
// model file's header gives, its tokenizer, and what a Hugging Face
// config.json beside it may override. Every loaded model has one: a file's
// own, or a folder's summary.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

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

};

// What a Hugging Face config.json beside the file says (hf_config.hpp):
// n_head and the activation override the metadata; the sizes must agree with
// the file's tensors.
struct model_overrides {
  std::optional<std::size_t> heads;
  std::optional<activation_kind> activation;
  std::optional<std::uint64_t> vocab, length, embed, layers, mlp_width;
};

}  // namespace attention
