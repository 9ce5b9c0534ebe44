#include "attention/summary.hpp"

#include <nlohmann/json.hpp>

#include "tensor/mask.hpp"

namespace attention {

std::string summary_json(const scenario& s, const trace& t) {
  using nlohmann::json;
  auto labels = [&](bool context) {
    json lists = json::array();
    const std::size_t length = context ? s.context_length : s.query_length;
    for (std::size_t b = 0; b < s.batch; ++b) {
      // self-attention: the context is x, and so are its labels
      std::vector<std::string> given = s.labels(b, context && s.is_cross());
      if (given.empty())  // positions are labels when the scenario names none
        for (std::size_t i = 0; i < length; ++i) given.push_back(std::to_string(i));
      lists.push_back(given);
    }
    return lists;
  };
  const char* mask = s.attention.mask.type == mask_spec::kind::causal ? "causal"
                     : s.attention.mask.type == mask_spec::kind::none ? "none" : "custom";

  json heads = json::array();
  for (std::size_t h = 0; h < t.layer.heads.size(); ++h) {
    const head_trace& head = t.layer.heads[h];
    json steps = json::object();
    for (std::string_view name : step_names)
      if (const tensor3* step = head.step(name)) steps[std::string(name)] = {step->shape(1), step->shape(2)};
    const head_spec& spec = s.attention.heads[h];
    heads.push_back({{"query", spec.query}, {"key", spec.key}, {"value", spec.value},
                     {"query_bias", spec.query_bias}, {"key_bias", spec.key_bias},
                     {"value_bias", spec.value_bias}, {"steps", steps}});
  }
  json tensors = json::array();
  for (const named_tensor& named : t.tensors)
    tensors.push_back({{"name", named.name}, {"shape", std::vector<std::size_t>(named.value.shape().begin(), named.value.shape().end())}});

  json summary = {
      {"id", s.id}, {"title", s.title}, {"source", s.source}, {"description", s.description},
      {"batched", s.batched}, {"batch", s.batch}, {"query_length", s.query_length},
      {"context_length", s.context_length}, {"cross", s.is_cross()},
      {"x", s.attention.x}, {"context", s.attention.context},
      {"tokens", labels(false)}, {"context_tokens", labels(true)},
      {"mask", mask},
      {"scale", s.attention.options.scale}, {"temperature", s.attention.options.temperature},
      {"output", s.attention.output}, {"output_bias", s.attention.output_bias}, {"heads", heads}, {"tensors", tensors},
      {"out", {t.layer.out.shape(1), t.layer.out.shape(2)}}};
  const auto& rotary = s.attention.options.rotary;  // the rotate step's numbers come from angles()
  summary["rotary"] = rotary ? json{{"theta", rotary->theta}, {"offset", rotary->offset}} : json(nullptr);
  return summary.dump();
}

}  // namespace attention
