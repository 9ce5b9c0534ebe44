// config.json read as models-v2's families: transformers' defaults, and
// what the core does not compute refused in one line naming the field.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "folder_support.hpp"
#include "models/family_config.hpp"

using namespace attention;

namespace {

nlohmann::ordered_json with(nlohmann::ordered_json config, const std::string& key, const nlohmann::json& value) {
  config[key] = value;
  return config;
}
nlohmann::ordered_json without(nlohmann::ordered_json config, const std::string& key) {
  config.erase(key);
  return config;
}
family_config read(const nlohmann::ordered_json& config) { return read_family_config(config.dump()); }
const nlohmann::ordered_json llama = folder_support::small_llama(1).config;
const nlohmann::ordered_json bert = folder_support::small_bert().config;

}  // namespace

TEST_CASE("a Llama config reads with transformers' defaults", "[family-config]") {
  const family_config c = read_family_config(llama.dump());
  CHECK(c.family == model_family::llama);
  CHECK(c.model_type == "llama");
  CHECK(c.block.vocab == 6);
  CHECK(c.block.length == 8);
  CHECK(c.block.embed == 8);
  CHECK(c.block.heads == 2);
  CHECK(c.block.kv_heads == 1);
  CHECK(c.block.head_size == 4);
  CHECK(c.block.layers == 1);
  CHECK(c.block.mlp.width == 12);
  CHECK(c.block.norm.eps == 1e-5f);
  CHECK(c.block.position.theta == 10000.0f);
  CHECK_FALSE(c.tie_word_embeddings);
  // absent: KV = H, head_dim = d / H, eps 1e-6, theta 10000
  nlohmann::ordered_json bare = llama;
  for (const char* key : {"num_key_value_heads", "rms_norm_eps", "rope_theta", "rope_scaling", "hidden_act"})
    bare.erase(key);
  const family_config d = read_family_config(bare.dump());
  CHECK(d.block.kv_heads == 2);
  CHECK(d.block.norm.eps == 1e-6f);
  CHECK(d.block.position.theta == 10000.0f);
  CHECK(read(with(llama, "head_dim", 6)).block.head_size == 6);
  CHECK(read(with(llama, "model_type", "qwen2")).family == model_family::llama);
  CHECK(read(with(llama, "model_type", "mistral")).model_type == "mistral");
  CHECK(read_family_config(R"({"model_type": "gpt2", "n_head": 3})").family == model_family::gpt2);
}

TEST_CASE("a BERT config reads with transformers' defaults", "[family-config]") {
  const family_config c = read_family_config(bert.dump());
  CHECK(c.family == model_family::bert);
  CHECK(c.block.kv_heads == 2);
  CHECK(c.block.head_size == 4);
  CHECK(c.block.norm.eps == 1e-12f);
  CHECK(c.type_vocab == 2);
  CHECK(c.block.position.kind == position_kind::learned);  // a table: no rotary base read
  CHECK(read(without(without(bert, "layer_norm_eps"), "type_vocab_size")).type_vocab == 2);
}

TEST_CASE("an unknown model_type is named", "[family-config]") {
  CHECK_THROWS_WITH(read(with(llama, "model_type", "gpt_neox")),
                    "config.model_type: \"gpt_neox\" is not one the core reads (llama, mistral, qwen2, bert, distilbert, "
                    "gpt2)");
  CHECK_THROWS_WITH(read(without(llama, "model_type")),
                    "config.model_type: missing (llama, mistral, qwen2, bert, distilbert or gpt2)");
  CHECK_THROWS_WITH(read(with(llama, "model_type", 7)),
                    "config.model_type: 7 is not one the core reads (llama, mistral, qwen2, bert, distilbert, gpt2)");
}

TEST_CASE("hidden_act other than silu (gelu for BERT) is refused", "[family-config]") {
  CHECK_THROWS_WITH(read(with(llama, "hidden_act", "gelu")),
                    "config.hidden_act: \"gelu\", expected \"silu\" (the Llama family's SwiGLU)");
  CHECK_THROWS_WITH(read(with(bert, "hidden_act", "gelu_new")),
                    "config.hidden_act: \"gelu_new\", expected \"gelu\" (BERT's GELU, the erf form)");
  CHECK_THROWS_WITH(read(with(bert, "position_embedding_type", "relative_key")),
                    "config.position_embedding_type: \"relative_key\", expected \"absolute\" (a learned table)");
}

TEST_CASE("a rope_scaling is refused; null is plain rotary", "[family-config]") {
  CHECK_THROWS_WITH(read(with(llama, "rope_scaling", {{"type", "linear"}, {"factor", 2.0}})),
                    "config.rope_scaling: an object; models-v2 reads only plain rotary positions (null)");
  CHECK_NOTHROW(read(with(llama, "rope_scaling", nullptr)));
}

TEST_CASE("num_key_value_heads must divide num_attention_heads", "[family-config]") {
  nlohmann::ordered_json c = llama;
  c["num_attention_heads"] = 4;
  c["head_dim"] = 2;
  CHECK_THROWS_WITH(read(with(c, "num_key_value_heads", 3)),
                    "config.num_key_value_heads: 3 does not divide num_attention_heads 4 (each key/value head serves "
                    "a whole group)");
  CHECK_THROWS_WITH(read(with(c, "num_key_value_heads", 8)),
                    "config.num_key_value_heads: 8 is beyond the limit of 4");
  CHECK(read(with(c, "num_key_value_heads", 2)).block.kv_heads == 2);
}

TEST_CASE("sizes are checked before any tensor is looked at", "[family-config]") {
  CHECK_THROWS_WITH(read(without(llama, "hidden_size")), "config.hidden_size: missing");
  CHECK_THROWS_WITH(read(with(llama, "hidden_size", -8)),
                    "config.hidden_size: expected a positive integer, got -8");
  CHECK_THROWS_WITH(read(with(llama, "vocab_size", 1u << 30)),
                    "config.vocab_size: 1073741824 is beyond the limit of 262144");
  CHECK_THROWS_WITH(read(with(llama, "num_attention_heads", 3)),
                    "config.num_attention_heads: 3 does not divide hidden_size 8, and no head_dim is given");
  CHECK_THROWS_WITH(read(with(llama, "head_dim", 5)),
                    "config.head_dim: 5 is odd; rotary positions turn pairs");
  CHECK_THROWS_WITH(read(with(llama, "rms_norm_eps", "small")),
                    "config.rms_norm_eps: expected a positive number (float32), got \"small\"");
  CHECK_THROWS_WITH(read(with(llama, "rope_theta", 1e300)),
                    "config.rope_theta: expected a positive number (float32), got 1e+300");
  CHECK_THROWS_WITH(read(with(bert, "num_attention_heads", 3)),
                    "config.num_attention_heads: 3 does not divide hidden_size 8");
  CHECK_THROWS_WITH(read_family_config("[1]"), "config: not a JSON object");
  CHECK_THROWS_WITH(read_family_config(std::string((1u << 20) + 1, ' ')),
                    "config.json: 1048577 bytes, beyond the limit of 1048576");
}

TEST_CASE("a rotary model's max_position_embeddings is not a table: Llama 3's and Qwen2.5's read, BERT's table stays bounded", "[family-config]") {
  CHECK(read(with(llama, "max_position_embeddings", 131072)).block.length == 131072);  // Llama 3.1
  CHECK(read(with(llama, "max_position_embeddings", 1u << 20)).block.length == 1u << 20);
  CHECK_THROWS_WITH(read(with(llama, "max_position_embeddings", (1u << 20) + 1)),
                    "config.max_position_embeddings: 1048577 is beyond the limit of 1048576");
  CHECK_THROWS_WITH(read(with(bert, "max_position_embeddings", 131072)),
                    "config.max_position_embeddings: 131072 is beyond the limit of 8192");
}

TEST_CASE("Mistral's sliding_window smaller than the tokens is refused", "[family-config]") {
  const family_config m = read(with(with(llama, "model_type", "mistral"), "sliding_window", 4));
  CHECK_NOTHROW(check_sliding_window(m, 4, "--tokens"));
  CHECK_THROWS_WITH(check_sliding_window(m, 5, "--tokens"),
                    "--tokens: 5 tokens, but config.sliding_window is 4 (mistral would attend only to that many "
                    "earlier positions; the core attends to all)");
  // null: no window; Llama's field is not Mistral's
  CHECK_NOTHROW(check_sliding_window(read(with(with(llama, "model_type", "mistral"), "sliding_window",
                                                             nullptr)), 8, "--tokens"));
  CHECK_NOTHROW(check_sliding_window(read(with(llama, "sliding_window", 2)), 8, "--tokens"));
}

TEST_CASE("every family's facts are set where its config is read: name, [MASK] and a starter for the masked LMs", "[family-config]") {
  struct expected {
    const char* model_type;
    const char* name;
    bool masked;
  };
  for (const expected& e : {expected{"gpt2", "GPT-2", false}, expected{"llama", "Llama", false},
                            expected{"mistral", "Mistral", false}, expected{"qwen2", "Qwen2", false},
                            expected{"bert", "BERT", true}, expected{"distilbert", "DistilBERT", true}}) {
    CAPTURE(e.model_type);
    const family_facts f = facts_of(e.model_type);
    CHECK(f.name == e.name);
    CHECK(f.mask == (e.masked ? "[MASK]" : ""));
    if (e.masked) CHECK(f.starter.find("[MASK]") != std::string::npos);
    else CHECK(f.starter.empty());
  }
  // each reader's config carries them
  CHECK(read(llama).facts.name == "Llama");
  CHECK(read(with(llama, "model_type", "qwen2")).facts.name == "Qwen2");
  CHECK(read(bert).facts.mask == "[MASK]");
  CHECK(read_family_config(R"({"model_type": "gpt2"})").facts.name == "GPT-2");
  const family_config distil = read_family_config(R"({"model_type": "distilbert"})");
  CHECK(distil.facts.name == "DistilBERT");
  CHECK(distil.facts.mask == "[MASK]");
  CHECK(distil.facts.starter == "the cat sat on the [MASK].");
  CHECK_THROWS_WITH(facts_of("gpt_neox"), "model_type \"gpt_neox\": no facts for it (core/models/family_config.cpp's table)");
}
