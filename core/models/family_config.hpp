// A Hugging Face folder's config.json read as models-v2.md's families
// (sections 1 to 3) and models-v3.md's DistilBERT (section 7): model_type
// picks the family (llama, mistral and qwen2 are the Llama family, bert
// BERT, distilbert DistilBERT, gpt2 stays gpt-v1's hf_config), each
// field is checked as its family reads it, with transformers' defaults,
// and what the core does not compute is refused in one line naming the
// field: another hidden_act, a rope_scaling, heads that do not share
// key/value heads evenly. Sizes are checked against the limits before any
// tensor is looked at.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "models/model_config.hpp"
#include "transformer/model.hpp"

namespace attention {

enum class model_family { gpt2, llama, bert, distilbert };

// What the page says of a family, from the core's entry alone (a family
// added here shows right with no edit to the page): its display name
// ("BERT", "DistilBERT", "Llama", "Mistral", "Qwen2", "GPT-2"), the token a
// masked LM hides a word behind ("[MASK]"; "" for a decoder) and a first
// sentence holding it, every word in the family's vocabulary ("" for a decoder).
struct family_facts {
  std::string name;
  std::string mask;
  std::string starter;
};

struct family_config {
  std::string model_type;   // "llama", "mistral", "qwen2", "bert", "distilbert" or "gpt2"
  model_family family = model_family::gpt2;
  bool tie_word_embeddings = false;  // the Llama family: no lm_head.weight, the embedding unembeds
  bool qkv_bias = false;             // q, k and v's biases required: Qwen2's, or a Llama's attention_bias
  bool mlp_bias = false;             // the MLP's biases required
  std::optional<std::uint64_t> sliding_window;  // Mistral's (and a Qwen2's with use_sliding_window)
  std::size_t type_vocab = 0;  // BERT's type_vocab_size
  // forward()'s block description: the family's axes, and the sizes, eps
  // and rotary base its fields give (vocab_size, hidden_size, heads,
  // key/value heads, head_dim, layers, intermediate_size), read into it
  // where the config is read (core/models/README.md's table). The output
  // head is the family's whole one; a BERT folder without its masked-LM
  // head has none (folder_plan.cpp, from the file's tensors).
  model_spec block;
  family_facts facts;  // facts_of(model_type), GPT-2's for gpt2
  // gpt2's: its config.json read as a GPT's overrides (hf_config.hpp); the
  // folder's header is then read as a model file's (plan_model)
  model_overrides overrides;
};

// The facts of a model_type the core reads (gpt2 included): the one table
// of them. An unknown model_type is refused in one line.
family_facts facts_of(std::string_view model_type);

// "gpt2", "llama", "bert" or "distilbert": the family's name as the page knows it.
const char* family_name(model_family family);

// config.json's text: at most 1 MiB, JSON, an object. For gpt2 the text is
// read as a model file's overrides (read_hf_config).
family_config read_family_config(std::string_view text);

// Mistral's window against the tokens asked for: refused when smaller
// (the forward attends to every earlier position). `place` names the tokens.
void check_sliding_window(const family_config& config, std::size_t tokens, const std::string& place);

}  // namespace attention
