#include "models/model_trace.hpp"

#include <cctype>

#include "errors/check.hpp"
#include "formats/float_text.hpp"
#include "formats/head_scenario.hpp"
#include "formats/limits.hpp"
#include "formats/scenario_file.hpp"
#include "formats/trace_json.hpp"
#include "transformer/head_weights.hpp"

namespace attention {

void put_sizes(nlohmann::ordered_json& config, std::size_t vocab, std::size_t length, std::size_t embed,
               std::size_t heads) {
  config["vocab"] = vocab;
  config["length"] = length;
  config["embed"] = embed;
  config["heads"] = heads;
}

nlohmann::ordered_json model_config_json(const model_config& c) {
  nlohmann::ordered_json config;
  put_sizes(config, c.vocab, c.length, c.embed, c.heads);
  config["layers"] = c.layers;
  // a whole multiple as an integer (4), else the ratio (torch_model.py's mlp // d or mlp / d)
  if (c.mlp_width % c.embed == 0) config["mlp"] = c.mlp_width / c.embed;
  else config["mlp"] = static_cast<double>(c.mlp_width) / static_cast<double>(c.embed);
  config["activation"] = activation_name(c.activation);
  config["bias"] = c.bias;
  config["parameters"] = c.parameters;
  return config;
}

void check_model_trace(const model_config& c, std::size_t tokens, const std::string& place) {
  const std::uint64_t T = tokens, limit = limits::models::trace_numbers;
  const std::uint64_t attention = saturating_times(saturating_times(c.layers, c.heads), saturating_times(T, T));
  ATTENTION_CHECK(attention <= limit, place, ": ", T, " tokens would print ", attention,
                  " attention weights (layers · heads · T²), beyond the limit of ", limit, " numbers in a trace");
  // the tokens, the last position's logits and its ten guesses (id and probability)
  const std::uint64_t numbers = attention + T + c.vocab + 20;
  ATTENTION_CHECK(numbers <= limit, place, ": ", T, " tokens would print ", attention, " attention weights and ",
                  c.vocab, " logits, ", numbers, " numbers, beyond the limit of ", limit, " numbers in a trace");
}

void write_model_trace(std::ostream& out, const nlohmann::ordered_json& config, const model_run& run,
                       const trace_tail& tail) {
  const std::size_t T = run.length(), L = run.pass.layers.size(), H = config.at("heads").get<std::size_t>();
  out << "{\"version\":1,\"config\":" << config.dump() << ",\"tokens\":[";
  for (std::size_t t = 0; t < T; ++t) out << (t ? "," : "") << run.tokens[t];
  // [layers, heads, T, T], written head by head from the forward's own tensors
  out << "],\"attention\":{\"shape\":[" << L << ',' << H << ',' << T << ',' << T << "],\"data\":[";
  for (std::size_t l = 0; l < L; ++l)
    for (std::size_t h = 0; h < H; ++h)  // a stream that failed (a full disk) stops it at once
      if (!write_floats(out, run.attention(l, h), T * T, ",", l + h > 0)) return;
  out << "]}";
  if (tail.last) {
    out << ",\"last\":{";
    if (tail.position) out << "\"position\":" << *tail.position << ',';
    out << "\"logits\":";
    write_tensor_json(out, {tail.logits.size()}, tail.logits.data());
    out << ",\"top\":[";
    for (std::size_t n = 0; n < tail.top.size(); ++n)
      out << (n ? "," : "") << '[' << tail.top[n].id << ',' << float_text(tail.top[n].probability) << ']';
    out << "]}";
  }
  if (tail.loss) out << ",\"loss\":" << float_text(*tail.loss);
  out << "}\n";
}

void write_model_trace(std::ostream& out, const loaded_model& model, const model_run& run) {
  const std::size_t T = run.length();
  check_model_trace(model.config, T, "tokens");
  trace_tail tail;
  tail.logits = run.last_logits;
  // the last position's ten most probable next tokens
  const auto top = run.top.begin() + static_cast<std::ptrdiff_t>((T - 1) * run.top_k);
  tail.top.assign(top, top + static_cast<std::ptrdiff_t>(std::min<std::size_t>(10, run.top_k)));
  tail.loss = run.loss;
  write_model_trace(out, model_config_json(model.config), run, tail);
}

void check_head_tokens(std::size_t tokens, const std::string& place) {
  ATTENTION_CHECK(tokens <= limits::sequence, place, ": ", tokens, " tokens, beyond the limit of ", limits::sequence,
                  " positions in a scenario (a head is written as one)");
}

std::string model_head_scenario(const loaded_model& model, const model_run& run, std::size_t layer, std::size_t head,
                                const std::string& name, std::vector<std::string> labels, const std::string& place) {
  const model_config& c = model.config;
  ATTENTION_CHECK(layer < c.layers, "--layer: ", layer, " is outside [0, ", c.layers, ")");
  ATTENTION_CHECK(head < c.heads, "--head: ", head, " is outside [0, ", c.heads, ")");
  const std::size_t T = run.length();
  ATTENTION_CHECK(labels.empty() || labels.size() == T, "labels: ", labels.size(), " for ", T, " tokens");
  if (labels.empty() && c.tokenizer == tokenizer_kind::characters)
    for (std::int64_t id : run.tokens) labels.push_back(c.vocabulary[static_cast<std::size_t>(id)]);
  head_scenario_parts parts;
  parts.id = name + "-layer-" + std::to_string(layer) + "-head-" + std::to_string(head);
  parts.title = "Layer " + std::to_string(layer) + ", head " + std::to_string(head) + " of " + name;
  parts.labels = std::move(labels);
  // what the heads read, (1, T, d): ln_1 or RMSNorm of the stream, BERT's (post-norm) stream itself
  parts.x = run.pass.layers[layer].attended().data();
  parts.length = T;
  parts.embed = c.embed;
  // its query, its group's key and value, widened from the file's narrow weights
  const model_head weights = head_weights(model.weights.layers[layer], model.spec, head);
  parts.head = parts.kv = &weights;
  if (model.spec.rotary()) parts.rotary_theta = model.spec.position.theta;
  parts.causal = model.spec.causal();
  check_head_tokens(T, place);
  std::string text = head_scenario_text(parts);
  try {  // what trace and the page will check: written here only if they accept it
    parse_scenario(text);
  } catch (const error& e) {
    detail::fail(place, ": ", T, " tokens make a scenario beyond a scenario's limits: ", e.what());
  }
  return text;
}

std::string model_name(const std::string& path) {
  std::string stem = path.substr(path.find_last_of('/') == std::string::npos ? 0 : path.find_last_of('/') + 1);
  if (stem.find('.') != std::string::npos) stem = stem.substr(0, stem.rfind('.'));
  std::string name;
  for (char ch : stem) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const bool kept = (lower >= 'a' && lower <= 'z') || (lower >= '0' && lower <= '9') || lower == '-';
    if (kept) name += lower;
    else if (name.empty() || name.back() != '-') name += '-';
  }
  while (!name.empty() && name.front() == '-') name.erase(0, 1);
  while (!name.empty() && name.back() == '-') name.pop_back();
  if (name.size() > 64) name.resize(64);
  return name.empty() ? "model" : name;
}

std::string model_summary(const model_config& c, const std::string& name) {
  return "valid: " + name + " (layout=" + (c.conv1d ? "hf" : "nanogpt") + ", V=" + std::to_string(c.vocab) +
         ", T=" + std::to_string(c.length) + ", embed=" + std::to_string(c.embed) + ", heads=" +
         std::to_string(c.heads) + ", layers=" + std::to_string(c.layers) + ", mlp=" + model_config_json(c)["mlp"].dump() +
         ", parameters=" + std::to_string(c.parameters) + ", tokenizer=" + tokenizer_name(c.tokenizer) + ")";
}

}  // namespace attention
