#include "models/folder_trace.hpp"

#include <algorithm>

#include "errors/check.hpp"
#include "models/model_trace.hpp"

namespace attention {

nlohmann::ordered_json folder_config_json(const loaded_model& m) {
  const model_spec& s = m.spec;
  nlohmann::ordered_json j;
  j["architecture"] = m.family.value().model_type;
  put_sizes(j, s.vocab, s.length, s.embed, s.heads);
  j["kv_heads"] = s.kv_heads;
  j["head_dim"] = s.head_size;
  j["layers"] = s.layers;
  j["intermediate"] = s.mlp.width;
  // BERT's head (present or not) is its masked-LM one; a linear head is lm_head or tied
  if (m.spec.output == output_head::linear) j["tied"] = m.config.tied;
  else j["masked_lm"] = m.masked_lm();
  return j;
}

void check_config_tokens(const loaded_model& m, const std::vector<std::int64_t>& tokens, const std::string& place,
                         work_kind kind) {
  if (!m.family) return;  // a model file's GPT: its own checks, in run_model and the lenses
  ATTENTION_CHECK(tokens.size() <= m.spec.length, place, ": ", tokens.size(),
                  " tokens, beyond config.max_position_embeddings ", m.spec.length);
  check_tokens(m, tokens, place, kind);
  check_sliding_window(*m.family, tokens.size(), place);
}

void check_generate_context(const loaded_model& m, const std::vector<std::int64_t>& prompt, std::size_t count,
                            const std::string& place) {
  if (!m.family) return;
  check_config_tokens(m, prompt, "tokens", work_kind::generate);  // the whole run: generate_tokens
  // the context Generate reads: the prompt and the new tokens, the last max_position_embeddings of them
  check_sliding_window(*m.family, std::min<std::size_t>(prompt.size() + count, m.spec.length), place);
}

model_run run_forward(const loaded_model& m, const std::vector<std::int64_t>& tokens) {
  if (m.logits()) return run_model(m, tokens);
  model_run run;  // a BERT without its head: attention only
  run.tokens = tokens;
  run.pass = forward(m.weights, m.spec, tokens, 1, {kept::attention, false, false});
  return run;
}

std::size_t trace_position(std::optional<std::size_t> position, std::size_t tokens) {
  const std::size_t p = position.value_or(tokens - 1);
  ATTENTION_CHECK(p < tokens, "--position: ", p, " is outside [0, ", tokens, ")");
  return p;
}

void write_folder_trace(std::ostream& out, const loaded_model& m, const model_run& run, std::size_t position) {
  const std::size_t T = run.length();
  check_model_trace(m.config, T, "tokens");
  trace_tail tail;
  tail.last = m.logits();
  if (m.logits()) {
    tail.position = position;
    const tensor3 logits = logits_of(m, run, position, 1);  // (1, 1, V)
    tail.logits.assign(logits.data(), logits.data() + logits.size());
    const auto top = run.top.begin() + static_cast<std::ptrdiff_t>(position * run.top_k);
    tail.top.assign(top, top + static_cast<std::ptrdiff_t>(std::min<std::size_t>(10, run.top_k)));
  }
  if (m.spec.causal()) tail.loss = run.loss;  // the next token's loss: decoders only; T ≥ 2
  write_model_trace(out, folder_config_json(m), run, tail);
}

std::string folder_summary(const loaded_model& m, const std::string& name) {
  std::string line = "valid: " + name + " (";
  bool first = true;
  const nlohmann::ordered_json config = folder_config_json(m);
  for (const auto& item : config.items()) {
    const std::string& key = item.key();
    const auto& value = item.value();
    line += (first ? "" : ", ") + key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
    first = false;
    if (key == "intermediate") line += ", parameters=" + std::to_string(m.config.parameters);
  }
  return line + ")";
}

void write_trace(std::ostream& out, const loaded_model& m, const model_run& run, std::size_t position) {
  if (m.trace() == trace_format::folder) write_folder_trace(out, m, run, position);
  else write_model_trace(out, m, run);
}

std::string validate_line(const loaded_model& m, const std::string& name) {
  return m.trace() == trace_format::folder ? folder_summary(m, name) : model_summary(m.config, name);
}

}  // namespace attention
