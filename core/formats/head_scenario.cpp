#include "formats/head_scenario.hpp"

#include <sstream>

#include <nlohmann/json.hpp>

#include "formats/trace_json.hpp"

namespace attention {
namespace {

void write_rows(std::ostream& out, const float* data, std::size_t rows, std::size_t cols) {
  out << '[';
  for (std::size_t r = 0; r < rows; ++r) {
    if (r) out << ',';
    write_floats_json(out, data + r * cols, cols);
  }
  out << ']';
}

}  // namespace

std::string head_scenario_text(const head_scenario_parts& p) {
  const model_head& w = *p.head;
  const model_head& kv = p.kv ? *p.kv : w;
  const std::size_t hs = w.query.shape(1);
  std::ostringstream out;
  out << "{\"version\":1,\"id\":" << nlohmann::json(p.id).dump() << ",\"title\":" << nlohmann::json(p.title).dump();
  if (!p.labels.empty()) out << ",\"tokens\":" << nlohmann::json(p.labels).dump();
  out << ",\"tensors\":[{\"name\":\"x\",\"values\":";
  write_rows(out, p.x, p.length, p.embed);
  out << '}';
  // W_query, b_query, W_key, b_key, W_value, b_value: torch_model.py's order
  std::string entry;
  const auto part = [&](const char* role, const char* name, const tensor2& weight, const tensor2& bias) {
    out << ",{\"name\":\"W_" << name << "\",\"values\":";
    write_rows(out, weight.data(), p.embed, hs);
    out << '}';
    entry += std::string(entry.empty() ? "" : ",") + "\"" + role + "\":\"W_" + name + "\"";
    if (bias.size() == 0) return;
    out << ",{\"name\":\"b_" << name << "\",\"values\":";
    write_floats_json(out, bias.data(), hs);
    out << '}';
    entry += std::string(",\"") + role + "_bias\":\"b_" + name + "\"";
  };
  part("query", "query", w.query, w.query_bias);
  part("key", "key", kv.key, kv.key_bias);
  part("value", "value", kv.value, kv.value_bias);
  out << "],\"attention\":{\"x\":\"x\",\"heads\":[{" << entry << "}],\"mask\":\"" << (p.causal ? "causal" : "none")
      << "\",\"scale\":true";
  if (p.rotary_theta) out << ",\"rotary\":{\"theta\":" << nlohmann::json(static_cast<double>(*p.rotary_theta)).dump() << ",\"offset\":0}";
  out << "}}";
  return out.str();
}

}  // namespace attention
