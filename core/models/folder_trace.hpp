// What a Hugging Face folder's model computes, as models-v2.md section 5
// writes it: the trace's config object (exactly its fields), a run of the
// one forward() (logits only when the model unembeds), the trace with
// `last` at a position and the loss of a decoder, one head as a scenario,
// and validate's line. The writers are model_trace's, shared with GPT files;
// write_trace and validate_line pick the format a loaded model writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/loaded_model.hpp"
#include "models/model_run.hpp"

namespace attention {

// {"architecture", "vocab", "length", "embed", "heads", "kv_heads", "head_dim",
// "layers", "intermediate"} plus "tied" (Llama family) or "masked_lm" (BERT).
nlohmann::ordered_json folder_config_json(const loaded_model& model);

// What a model's config.json asks of token ids (`place` names them), for a
// model read with one (nothing for a model file's GPT, whose own checks are
// run_model's and the lenses'): 1 to max_position_embeddings of them, each
// below vocab_size, within the request limits of the work `kind` asks
// (models/work_plan.hpp) and Mistral's sliding window.
void check_config_tokens(const loaded_model& model, const std::vector<std::int64_t>& tokens, const std::string& place,
                         work_kind kind = work_kind::run);

// The same before generating `count` ids after `prompt`: the prompt as a
// generation's tokens, then the context Generate reads (the prompt and the
// new ids, at most max_position_embeddings) against the sliding window,
// named `place`. Nothing for a model file's GPT.
void check_generate_context(const loaded_model& model, const std::vector<std::int64_t>& prompt, std::size_t count,
                            const std::string& place);

// The forward on checked tokens: attention always, the logits' top ten after
// each position and the loss only when the model unembeds.
model_run run_forward(const loaded_model& model, const std::vector<std::int64_t>& tokens);

// --position: default T − 1; refused outside [0, T).
std::size_t trace_position(std::optional<std::size_t> position, std::size_t tokens);

// The trace: `last` at `position` when the model unembeds, `loss` for decoders.
void write_folder_trace(std::ostream& out, const loaded_model& model, const model_run& run, std::size_t position);

// validate's line: "valid: NAME (architecture=llama, V=…, T=…, embed=…, heads=…, kv_heads=…, head_dim=…,
// layers=…, intermediate=…, parameters=…, tied=…)" (masked_lm=… for BERT).
std::string folder_summary(const loaded_model& model, const std::string& name);

// The trace in the model's own format (its loader's trace_format): gpt-v1's
// model trace (`last` at the last position) or the folder trace above.
void write_trace(std::ostream& out, const loaded_model& model, const model_run& run, std::size_t position);

// validate's line in the model's own format: model_summary's or folder_summary's.
std::string validate_line(const loaded_model& model, const std::string& name);

}  // namespace attention
