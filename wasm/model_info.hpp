// What the page reads of an open model (wasm/README.md, Model.config()):
// a model file's GPT or a Hugging Face folder's model described with the
// same fields, so that the views adapt to the family from data alone.
#pragma once

#include <nlohmann/json.hpp>

#include "models/folder_loader.hpp"
#include "models/folder_trace.hpp"
#include "models/model_plan.hpp"
#include "models/model_trace.hpp"
#include "models/vocabulary.hpp"

namespace glue {

// What the page reads of a model, the same fields for every family
// (web/engine/README.md): family, architecture, kvHeads, headDim, causal,
// maskedLm (a head that guesses a token at any position), logits (the
// model unembeds), rotary (θ, or null).
inline nlohmann::json describe(const attention::model_config& c) {
  return {{"config", attention::model_config_json(c)},
          {"tokenizer", attention::tokenizer_name(c.tokenizer)},
          {"vocabulary", c.vocabulary},
          {"layout", c.conv1d ? "hf" : "nanogpt"},
          {"tied", c.tied},
          {"norm", c.norm},
          {"family", "gpt2"},
          {"architecture", "gpt2"},
          {"kvHeads", c.heads},
          {"headDim", c.embed / c.heads},
          {"causal", true},
          {"maskedLm", false},
          {"logits", true},
          {"rotary", nullptr},
          {"parameters", c.parameters}};
}

inline nlohmann::json describe_folder(const attention::folder_model& m) {
  const attention::family_config& c = m.config;
  const bool llama = c.family == attention::model_family::llama;
  nlohmann::json rotary = nullptr;
  if (llama) rotary = {{"theta", c.rope_theta}};
  return {{"config", attention::folder_config_json(m)},
          {"tokenizer", "ids"},
          {"vocabulary", nlohmann::json::array()},
          {"layout", "hf"},
          {"tied", m.model.config.tied},
          {"norm", true},
          {"family", llama ? "llama" : "bert"},
          {"architecture", c.model_type},
          {"kvHeads", c.kv_heads},
          {"headDim", c.head_dim},
          {"causal", llama},
          {"maskedLm", m.masked_lm},
          {"logits", m.logits},
          {"rotary", rotary},
          {"parameters", m.model.config.parameters}};
}

}  // namespace glue
