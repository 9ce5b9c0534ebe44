// What a model file's GPT computes, as gpt-v1.md section 2 writes it: the
// model trace (config, tokens, every head's attention, the last position's
// logits and top ten, the loss), one head as a scenario, and the summary
// line `validate` prints.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/model_run.hpp"

namespace attention {

// The sizes both traces' "config" objects open with, in both specs' order
// (gpt-v1 section 2, models-v2 section 5): vocab, length, embed, heads.
void put_sizes(nlohmann::ordered_json& config, std::size_t vocab, std::size_t length, std::size_t embed,
               std::size_t heads);

// "config": vocab, length, embed, heads, layers, mlp (the width over d),
// activation, bias, parameters, in the spec's order.
nlohmann::ordered_json model_config_json(const model_config& config);

// The numbers a model trace of T tokens prints, checked before the forward
// against limits::models::trace_numbers as a scenario's trace is: the
// message names the tokens (`place`) and what is too large, the attention
// (layers · heads · T²) or, with it, the logits.
void check_model_trace(const model_config& config, std::size_t tokens, const std::string& place);

// Throws (check_model_trace, "tokens") before writing anything when the trace is too large.
void write_model_trace(std::ostream& out, const loaded_model& model, const model_run& run);

// What follows the attention: `last` (a position's logits and top ten) and the loss.
struct trace_tail {
  bool last = true;                     // false: a BERT without its head
  std::optional<std::size_t> position;  // written in `last` when given (models-v2.md section 5)
  std::vector<float> logits;            // (V)
  std::vector<token_probability> top;   // the most probable, at most 10
  std::optional<float> loss;
};

// The model trace of any family: `config` as given, the run's tokens and
// attention [layers, heads, T, T], then the tail. The caller has checked its size.
void write_model_trace(std::ostream& out, const nlohmann::ordered_json& config, const model_run& run,
                       const trace_tail& tail);

// Head `head` of layer `layer` on the run's tokens as scenario text: id
// "<name>-layer-<l>-head-<h>", the tokens labelled by `labels` (a character
// model's own when none are given), biases where c_attn has them.
// Before the forward, check_head_tokens refuses tokens whose scenario would
// break a scenario's positions limit; the text written is then read back as
// `trace` reads a scenario, so that no limit of it (elements, multiply-adds,
// trace numbers, text size) is broken: `place` names the tokens either way.
void check_head_tokens(std::size_t tokens, const std::string& place);
std::string model_head_scenario(const loaded_model& model, const model_run& run, std::size_t layer, std::size_t head,
                                const std::string& name, std::vector<std::string> labels = {},
                                const std::string& place = "tokens");

// A file name as a scenario's id: its stem, lower case, runs of anything but
// [a-z0-9-] as one '-' ("GPT2 Small.safetensors" → "gpt2-small"), or "model".
std::string model_name(const std::string& path);

// validate's line: "valid: NAME (layout=…, V=…, T=…, embed=…, heads=…, layers=…, mlp=…, parameters=…, tokenizer=…)".
std::string model_summary(const model_config& config, const std::string& name);

}  // namespace attention
