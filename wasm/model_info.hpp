// What the page reads of an open model (wasm/README.md, Model.config()):
// a model file's GPT or a Hugging Face folder's model described with the
// same fields, so that the views adapt to the family from data alone.
#pragma once

#include <nlohmann/json.hpp>

#include "models/folder_trace.hpp"
#include "models/loaded_model.hpp"
#include "models/model_plan.hpp"
#include "models/model_trace.hpp"
#include "models/vocabulary.hpp"

namespace glue {

// What the page reads of a model, the same fields for every family
// (web/engine/README.md): family, architecture, kvHeads, headDim, causal,
// maskedLm (a head that guesses a token at any position), logits (the
// model unembeds), rotary (θ, or null), trace ("model": gpt-v1's config and
// trace, the core's tokenizer; "folder": models-v2's, a tokenizer.json's ids),
// and the family's facts: familyName (what the page calls it), maskToken
// and starter ("" for a decoder).
// These are the fields the block description and the facts give.
inline nlohmann::json described(const attention::model_spec& s, const attention::family_facts& f) {
  return {{"norm", s.norm.kind != attention::norm_kind::none},
          {"kvHeads", s.kv_heads},
          {"headDim", s.head_size},
          {"causal", s.causal()},
          {"maskedLm", s.output == attention::output_head::bert_transform},
          {"logits", attention::has_unembedding(s)},
          {"familyName", f.name},
          {"maskToken", f.mask},
          {"starter", f.starter}};
}

inline nlohmann::json describe_file(const attention::loaded_model& m) {
  const attention::model_config& c = m.config;
  nlohmann::json info = described(m.spec, m.facts);
  info.update({{"config", attention::model_config_json(c)},
               {"tokenizer", attention::tokenizer_name(c.tokenizer)},
               {"vocabulary", c.vocabulary},
               {"layout", c.conv1d ? "hf" : "nanogpt"},
               {"tied", c.tied},
               {"family", "gpt2"},
               {"trace", "model"},
               {"architecture", "gpt2"},
               {"rotary", nullptr},
               {"parameters", c.parameters}});
  return info;
}

inline nlohmann::json describe_folder(const attention::loaded_model& m) {
  const attention::family_config& c = m.family.value();
  const attention::model_spec& s = m.spec;
  nlohmann::json rotary = nullptr;
  if (s.rotary()) rotary = {{"theta", s.position.theta}};
  nlohmann::json info = described(s, m.facts);
  info.update({{"config", attention::folder_config_json(m)},
               {"tokenizer", "ids"},
               {"vocabulary", nlohmann::json::array()},
               {"layout", "hf"},
               {"tied", m.config.tied},
               {"family", attention::family_name(c.family)},
               {"trace", "folder"},
               {"architecture", c.model_type},
               {"rotary", rotary},
               {"parameters", m.config.parameters}});
  return info;
}

// An open model described in the format its loader gave it: its trace's
// config object and the fields above.
inline nlohmann::json describe(const attention::loaded_model& m) {
  return m.trace() == attention::trace_format::folder ? describe_folder(m) : describe_file(m);
}

}  // namespace glue
