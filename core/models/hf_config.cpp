#include "models/hf_config.hpp"

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_fields.hpp"
#include "formats/json_text.hpp"
#include "formats/limits.hpp"

namespace attention {
namespace {

constexpr std::size_t config_bytes = 1u << 20;  // GPT-2's is 665 bytes

// A size of config.json as written, 64 bits wide (compared, never narrowed blindly).
// n_layer may be 0: a model without blocks (embeddings, ln_f, logits) says so honestly.
std::optional<std::uint64_t> size_of(const nlohmann::json& config, const char* key, bool zero = false) {
  if (!config.contains(key) || config.at(key).is_null()) return std::nullopt;
  const nlohmann::json& value = config.at(key);
  if (zero && value.is_number_unsigned() && value.get<std::uint64_t>() == 0) return 0;
  const std::uint64_t n = positive_integer(value);
  ATTENTION_CHECK(n > 0, "config.", key, ": expected a ", zero ? "non-negative" : "positive", " integer, got ",
                  shown(value));
  return n;
}

}  // namespace

model_overrides read_hf_config(std::string_view text) {
  const nlohmann::json config = read_json(text, "config", config_bytes, limits::json_depth, true);
  ATTENTION_CHECK(config.is_object(), "config: not a JSON object");
  if (config.contains("model_type")) {
    const nlohmann::json& type = config.at("model_type");
    ATTENTION_CHECK(type == "gpt2", "config.model_type: ", shown(type),
                    " is not \"gpt2\"; only GPT-2's architecture is read (no rotary positions, RMSNorm or grouped queries)");
  }
  model_overrides o;
  if (const auto heads = size_of(config, "n_head")) {
    ATTENTION_CHECK(*heads <= limits::models::embed, "config.n_head: ", *heads, " is beyond the limit of ",
                    limits::models::embed);
    o.heads = static_cast<std::size_t>(*heads);
  }
  if (config.contains("activation_function")) {
    const nlohmann::json& f = config.at("activation_function");
    // GPT-2's gelu_new is the tanh approximation, as is gelu_pytorch_tanh
    if (f == "gelu_new" || f == "gelu_pytorch_tanh") o.activation = activation_kind::gelu_tanh;
    else if (f == "gelu") o.activation = activation_kind::gelu;
    else if (f == "relu") o.activation = activation_kind::relu;
    else
      detail::fail("config.activation_function: ", shown(f),
                   " is not one the core computes (gelu_new, gelu_pytorch_tanh, gelu or relu)");
  }
  if (config.contains("layer_norm_epsilon")) {
    const nlohmann::json& eps = config.at("layer_norm_epsilon");
    ATTENTION_CHECK(eps.is_number() && static_cast<float>(eps.get<double>()) == 1e-5f, "config.layer_norm_epsilon: ",
                    shown(eps), ", but the core's LayerNorm uses eps 1e-5 (gpt-v1.md)");
  }
  for (const char* flag : {"scale_attn_weights", "scale_attn_by_inverse_layer_idx"}) {
    if (!config.contains(flag)) continue;
    const bool expected = std::string(flag) == "scale_attn_weights";
    ATTENTION_CHECK(config.at(flag) == expected, "config.", flag, ": ", shown(config.at(flag)),
                    "; the core scales every head's scores by 1/sqrt(head_size), as GPT-2 does");
  }
  o.vocab = size_of(config, "vocab_size");
  o.length = size_of(config, "n_positions");
  o.embed = size_of(config, "n_embd");
  o.layers = size_of(config, "n_layer", true);
  o.mlp_width = size_of(config, "n_inner");
  return o;
}

}  // namespace attention
