#include "models/family_config.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "formats/json_fields.hpp"
#include "formats/json_text.hpp"
#include "formats/limits.hpp"
#include "models/hf_config.hpp"

namespace attention {
namespace {

using json = nlohmann::json;

constexpr std::size_t config_bytes = 1u << 20;  // Qwen2.5's is 700 bytes

bool given(const json& c, const char* key) { return c.contains(key) && !c.at(key).is_null(); }

// A positive integer field within `most`; `fallback` when absent (none: required).
std::size_t size_field(const json& c, const char* key, std::uint64_t most,
                       std::optional<std::size_t> fallback = std::nullopt) {
  if (!given(c, key)) {
    ATTENTION_CHECK(fallback.has_value(), "config.", key, ": missing");
    return *fallback;
  }
  const std::uint64_t n = positive_integer(c.at(key));
  ATTENTION_CHECK(n > 0, "config.", key, ": expected a positive integer, got ", shown(c.at(key)));
  ATTENTION_CHECK(n <= most, "config.", key, ": ", n, " is beyond the limit of ", most);
  return static_cast<std::size_t>(n);
}

// A layer count: 0 is honest (embeddings only), unlike every other size.
std::size_t layers_field(const json& c, const char* key, std::optional<std::size_t> fallback = std::nullopt) {
  if (given(c, key) && c.at(key) == 0) return 0;
  return size_field(c, key, limits::models::layers, fallback);
}

// A positive finite number (an eps, a theta), kept as float32 as PyTorch uses it.
float number_field(const json& c, const char* key, double fallback) {
  if (!given(c, key)) return static_cast<float>(fallback);
  const json& v = c.at(key);
  const double x = v.is_number() ? v.get<double>() : -1.0;
  ATTENTION_CHECK(std::isfinite(x) && x > 0 && static_cast<float>(x) > 0 && std::isfinite(static_cast<float>(x)),
                  "config.", key, ": expected a positive number (float32), got ", shown(v));
  return static_cast<float>(x);
}

bool flag_field(const json& c, const char* key, bool fallback) {
  if (!given(c, key)) return fallback;
  ATTENTION_CHECK(c.at(key).is_boolean(), "config.", key, ": expected true or false, got ", shown(c.at(key)));
  return c.at(key).get<bool>();
}

// The value a string field must have when given (hidden_act, position_embedding_type).
void string_is(const json& c, const char* key, const char* expected, const char* why) {
  if (!given(c, key)) return;
  ATTENTION_CHECK(c.at(key) == expected, "config.", key, ": ", shown(c.at(key)), ", expected \"", expected, "\" ", why);
}

void read_llama(const json& c, family_config& f) {
  namespace lim = limits::models;
  model_spec& s = f.block;
  s.heads = size_field(c, "num_attention_heads", lim::embed);
  s.kv_heads = size_field(c, "num_key_value_heads", s.heads, s.heads);
  ATTENTION_CHECK(s.heads % s.kv_heads == 0, "config.num_key_value_heads: ", s.kv_heads,
                  " does not divide num_attention_heads ", s.heads, " (each key/value head serves a whole group)");
  if (given(c, "head_dim")) {
    s.head_size = size_field(c, "head_dim", lim::embed);
  } else {
    ATTENTION_CHECK(s.embed % s.heads == 0, "config.num_attention_heads: ", s.heads, " does not divide hidden_size ",
                    s.embed, ", and no head_dim is given");
    s.head_size = s.embed / s.heads;
  }
  ATTENTION_CHECK(s.head_size % 2 == 0, "config.head_dim: ", s.head_size, " is odd; rotary positions turn pairs");
  ATTENTION_CHECK(s.heads * s.head_size <= lim::embed, "config.head_dim: ", s.heads, " heads of ", s.head_size,
                  " is beyond the limit of ", lim::embed, " query columns");
  s.norm.eps = number_field(c, "rms_norm_eps", 1e-6);
  s.position.theta = number_field(c, "rope_theta", 10000.0);
  f.tie_word_embeddings = flag_field(c, "tie_word_embeddings", false);
  const bool attention_bias = f.model_type == "llama" && flag_field(c, "attention_bias", false);
  f.qkv_bias = f.model_type == "qwen2" || attention_bias;  // Qwen2's q, k and v always have biases
  f.mlp_bias = flag_field(c, "mlp_bias", false);
  string_is(c, "hidden_act", "silu", "(the Llama family's SwiGLU)");
  ATTENTION_CHECK(!given(c, "rope_scaling"), "config.rope_scaling: ", shown(c.at("rope_scaling")),
                  "; models-v2 reads only plain rotary positions (null)");
  const bool windowed = f.model_type == "mistral" || (f.model_type == "qwen2" && flag_field(c, "use_sliding_window", false));
  if (windowed && given(c, "sliding_window")) {
    const std::uint64_t w = positive_integer(c.at("sliding_window"));
    ATTENTION_CHECK(w > 0, "config.sliding_window: expected a positive integer or null, got ", shown(c.at("sliding_window")));
    f.sliding_window = w;
  }
}

void read_bert(const json& c, family_config& f) {
  namespace lim = limits::models;
  model_spec& s = f.block;
  s.heads = size_field(c, "num_attention_heads", lim::embed);
  ATTENTION_CHECK(s.embed % s.heads == 0, "config.num_attention_heads: ", s.heads, " does not divide hidden_size ",
                  s.embed);
  s.kv_heads = s.heads;
  s.head_size = s.embed / s.heads;
  s.norm.eps = number_field(c, "layer_norm_eps", 1e-12);
  f.type_vocab = size_field(c, "type_vocab_size", lim::vocab, 2);
  string_is(c, "hidden_act", "gelu", "(BERT's GELU, the erf form)");
  string_is(c, "position_embedding_type", "absolute", "(a learned table)");
}

// DistilBERT's own field names (models-v3.md section 7), with
// DistilBertConfig's defaults; every LayerNorm's eps is 1e-12, fixed.
void read_distilbert(const json& c, family_config& f) {
  namespace lim = limits::models;
  model_spec& s = f.block;
  s.vocab = size_field(c, "vocab_size", lim::vocab, 30522);
  s.embed = size_field(c, "dim", lim::embed, 768);
  s.length = size_field(c, "max_position_embeddings", lim::length, 512);
  s.mlp.width = size_field(c, "hidden_dim", 4 * lim::embed, 3072);
  s.layers = layers_field(c, "n_layers", 6);
  s.heads = size_field(c, "n_heads", lim::embed, 12);
  ATTENTION_CHECK(s.embed % s.heads == 0, "config.n_heads: ", s.heads, " does not divide dim ", s.embed);
  s.kv_heads = s.heads;
  s.head_size = s.embed / s.heads;
  s.norm.eps = 1e-12f;
  string_is(c, "activation", "gelu", "(DistilBERT's GELU, the erf form)");
  ATTENTION_CHECK(!flag_field(c, "sinusoidal_pos_embds", false),
                  "config.sinusoidal_pos_embds: true, expected false (a learned table)");
}

// Every model_type the core reads, with what the page says of it. BERT's
// and DistilBERT's vocabulary is bert-base-uncased's: lower case, "[MASK]".
struct facts_entry {
  const char* model_type;
  const char* name;
  const char* mask;
  const char* starter;
};
constexpr const char* masked_starter = "the cat sat on the [MASK].";
constexpr facts_entry facts_table[] = {
    {"gpt2", "GPT-2", "", ""},
    {"llama", "Llama", "", ""},
    {"mistral", "Mistral", "", ""},
    {"qwen2", "Qwen2", "", ""},
    {"bert", "BERT", "[MASK]", masked_starter},
    {"distilbert", "DistilBERT", "[MASK]", masked_starter},
};

// A family's axes (model.hpp's model_spec), before its config's sizes, eps
// and rotary base are read into the same description.
model_spec axes_of(model_family family) {
  model_spec s;
  switch (family) {  // no default: a family added to the enum without its axes is a compiler warning
    case model_family::llama:  // RMSNorm before each part, rotary, causal, SwiGLU
      s.norm = {norm_kind::rms, norm_placement::pre, 1e-6f};
      s.position = {position_kind::rotary, 10000.0f};
      s.direction = attention_direction::causal;
      s.scaling = score_scaling::multiply_inverse_root;
      s.mlp = {mlp_kind::gated, activation_kind::silu, 0};
      s.output = output_head::linear;  // lm_head, or the embedding tied
      s.types = token_types::none;
      return s;
    case model_family::bert:  // LayerNorm after each residual add, a learned table, no mask, GELU, the masked-LM head
    case model_family::distilbert:
      s.norm = {norm_kind::layer, norm_placement::post, 1e-12f};
      s.position = {position_kind::learned, 10000.0f};
      s.direction = attention_direction::bidirectional;
      s.scaling = score_scaling::divide_by_root;
      s.mlp = {mlp_kind::plain, activation_kind::gelu, 0};
      s.output = output_head::bert_transform;
      s.types = family == model_family::bert ? token_types::type_zero : token_types::none;  // DistilBERT has no types
      return s;
    case model_family::gpt2:  // a GPT-2 folder's block is the GPT file's (model_plan reads its config)
      break;
  }
  detail::fail("config: no block description for this family");
}

}  // namespace

family_config read_family_config(std::string_view text) {
  ATTENTION_CHECK(text.size() <= config_bytes, "config.json: ", text.size(), " bytes, beyond the limit of ",
                  config_bytes);
  const json c = read_json(text, "config", config_bytes, limits::json_depth, true);
  ATTENTION_CHECK(c.is_object(), "config: not a JSON object");
  ATTENTION_CHECK(given(c, "model_type"),
                  "config.model_type: missing (llama, mistral, qwen2, bert, distilbert or gpt2)");
  const json& type = c.at("model_type");
  family_config f;
  if (type == "gpt2") {
    f.facts = facts_of("gpt2");
    f.overrides = read_hf_config(text);
    return f;
  }
  if (type == "llama" || type == "mistral" || type == "qwen2") f.family = model_family::llama;
  else if (type == "bert") f.family = model_family::bert;
  else if (type == "distilbert") f.family = model_family::distilbert;
  else detail::fail("config.model_type: ", shown(type),
                    " is not one the core reads (llama, mistral, qwen2, bert, distilbert, gpt2)");
  f.model_type = type.get<std::string>();
  f.facts = facts_of(f.model_type);
  f.block = axes_of(f.family);
  if (f.family == model_family::distilbert) {
    read_distilbert(c, f);
    return f;
  }
  namespace lim = limits::models;
  model_spec& s = f.block;
  s.vocab = size_field(c, "vocab_size", lim::vocab);
  s.embed = size_field(c, "hidden_size", lim::embed);
  // a learned table (BERT) is allocated, rows × d; rotation allocates nothing per position
  s.length = size_field(c, "max_position_embeddings", f.family == model_family::llama ? lim::rotary_length : lim::length);
  s.mlp.width = size_field(c, "intermediate_size", 4 * lim::embed);
  s.layers = layers_field(c, "num_hidden_layers");
  if (f.family == model_family::llama) read_llama(c, f);
  else read_bert(c, f);
  return f;
}

family_facts facts_of(std::string_view model_type) {
  for (const facts_entry& e : facts_table)
    if (model_type == e.model_type) return {e.name, e.mask, e.starter};
  detail::fail("model_type \"", model_type, "\": no facts for it (core/models/family_config.cpp's table)");
}

const char* family_name(model_family family) {
  switch (family) {
    case model_family::llama: return "llama";
    case model_family::bert: return "bert";
    case model_family::distilbert: return "distilbert";
    case model_family::gpt2: break;
  }
  return "gpt2";
}

void check_sliding_window(const family_config& f, std::size_t tokens, const std::string& place) {
  if (!f.sliding_window) return;
  ATTENTION_CHECK(*f.sliding_window >= tokens, place, ": ", tokens, " tokens, but config.sliding_window is ",
                  *f.sliding_window, " (", f.model_type,
                  " would attend only to that many earlier positions; the core attends to all)");
}

}  // namespace attention
