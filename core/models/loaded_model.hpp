// One model read and ready to run, whatever it came from (a model file, a
// Hugging Face folder, its shards, a stream): gpt-v1's summary of its
// config, forward()'s block description and weights, and the facts its
// consumers ask (does it unembed, which trace it writes, how its text
// becomes ids), each set from the plan the loader allocated. Nothing downstream asks
// where the weights came from.
#pragma once

#include <optional>

#include "models/family_config.hpp"
#include "models/model_plan.hpp"
#include "transformer/model.hpp"

namespace attention {

// The trace a run of the model writes: gpt-v1's model trace (its config
// object model_config_json's) or models-v2's folder trace (folder_config_json's).
enum class trace_format { model, folder };

// How the model's text becomes ids: the core's, as config.tokenizer says
// (a character vocabulary, GPT-2's BPE ids or ids alone), or a tokenizer.json
// the page reads (a folder's), which the core never encodes.
enum class text_tokenizer { core, tokenizer_json };

struct loaded_model {
  model_config config;    // gpt-v1's view: a file's own, a folder's summary
  model_spec spec;        // what forward() reads of the config
  model_weights weights;  // per head (d, hs) as [in, out]; lm_head (V, d) or tied to tok
  // config.json's family when it describes the model beyond gpt-v1 (the
  // Llama family, BERT, DistilBERT: check_config_tokens, folder_config_json,
  // folder_summary); none for a GPT, a model file's or a gpt2 folder's.
  std::optional<family_config> family;
  family_facts facts;  // what the page and the messages call it (BERT, Llama, GPT-2)

  // What it computes is its block description's: whether it unembeds (all
  // but a BERT without its head), and guesses a hidden token (BERT's head).
  bool logits() const { return has_unembedding(spec); }
  bool masked_lm() const { return spec.output == output_head::bert_transform; }

  // The trace it writes and how its text becomes ids follow from that:
  // models-v2's trace and a tokenizer.json for a family's folder, gpt-v1's
  // and the core's tokenizer for a GPT.
  trace_format trace() const { return family ? trace_format::folder : trace_format::model; }
  text_tokenizer text() const { return family ? text_tokenizer::tokenizer_json : text_tokenizer::core; }
};

}  // namespace attention
