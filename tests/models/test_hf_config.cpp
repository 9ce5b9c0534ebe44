// A Hugging Face config.json beside a model file: overrides, and what the
// core does not compute refused in one line.
#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "models/hf_config.hpp"

using namespace attention;

TEST_CASE("GPT-2's own config.json reads as its overrides", "[hf-config]") {
  // Hugging Face's gpt2/config.json, its keys that matter and some that do not
  const model_overrides o = read_hf_config(R"({
    "activation_function": "gelu_new", "architectures": ["GPT2LMHeadModel"], "attn_pdrop": 0.1,
    "bos_token_id": 50256, "embd_pdrop": 0.1, "eos_token_id": 50256, "initializer_range": 0.02,
    "layer_norm_epsilon": 1e-05, "model_type": "gpt2", "n_ctx": 1024, "n_embd": 768, "n_head": 12,
    "n_layer": 12, "n_positions": 1024, "resid_pdrop": 0.1, "summary_activation": null,
    "task_specific_params": {"text-generation": {"do_sample": true, "max_length": 50}}, "vocab_size": 50257})");
  CHECK(o.heads == 12u);
  CHECK(o.activation == activation_kind::gelu_tanh);
  CHECK(o.vocab == 50257u);
  CHECK(o.length == 1024u);
  CHECK(o.embed == 768u);
  CHECK(o.layers == 12u);
  CHECK_FALSE(o.mlp_width.has_value());
  CHECK(read_hf_config(R"({"activation_function": "gelu"})").activation == activation_kind::gelu);
  CHECK(read_hf_config(R"({"activation_function": "relu"})").activation == activation_kind::relu);
  CHECK(read_hf_config(R"({"n_inner": 3072})").mlp_width == 3072u);
}

TEST_CASE("what the core does not compute is refused in one line", "[hf-config]") {
  CHECK_THROWS_WITH(read_hf_config(R"({"model_type": "llama"})"),
                    "config.model_type: \"llama\" is not \"gpt2\"; only GPT-2's architecture is read (no rotary "
                    "positions, RMSNorm or grouped queries)");
  CHECK_THROWS_WITH(read_hf_config(R"({"activation_function": "silu"})"),
                    "config.activation_function: \"silu\" is not one the core computes (gelu_new, gelu_pytorch_tanh, "
                    "gelu or relu)");
  CHECK_THROWS_WITH(read_hf_config(R"({"layer_norm_epsilon": 1e-6})"),
                    "config.layer_norm_epsilon: 1e-06, but the core's LayerNorm uses eps 1e-5 (gpt-v1.md)");
  CHECK_THROWS_WITH(read_hf_config(R"({"scale_attn_weights": false})"),
                    "config.scale_attn_weights: false; the core scales every head's scores by 1/sqrt(head_size), as GPT-2 does");
  CHECK_THROWS_WITH(read_hf_config(R"({"n_head": 0})"), "config.n_head: expected a positive integer, got 0");
  CHECK_THROWS_WITH(read_hf_config(R"({"n_head": 12, "n_head": 12})"), Catch::Contains("duplicate key"));
  CHECK_THROWS_WITH(read_hf_config("[1]"), "config: not a JSON object");
  CHECK_THROWS_WITH(read_hf_config("{"), Catch::StartsWith("config: not valid JSON at line 1"));
}

TEST_CASE("config.json's lines all start with config., a duplicate key's too", "[hf-config]") {
  CHECK_THROWS_WITH(read_hf_config(R"({"n_head": 2, "n_head": 3})"), "config.n_head: duplicate key; each key may appear once");
  CHECK_THROWS_WITH(read_hf_config(R"({"task_specific_params": {"a": 1, "a": 1}})"),
                    "config.task_specific_params.a: duplicate key; each key may appear once");
}

TEST_CASE("an honest n_layer 0 is a model without blocks, other sizes stay positive", "[hf-config]") {
  CHECK(read_hf_config(R"({"n_layer": 0})").layers == 0u);
  CHECK_THROWS_WITH(read_hf_config(R"({"n_layer": -1})"), "config.n_layer: expected a non-negative integer, got -1");
  CHECK_THROWS_WITH(read_hf_config(R"({"n_layer": 0.5})"), "config.n_layer: expected a non-negative integer, got 0.5");
  CHECK_THROWS_WITH(read_hf_config(R"({"n_head": 0})"), "config.n_head: expected a positive integer, got 0");
}
