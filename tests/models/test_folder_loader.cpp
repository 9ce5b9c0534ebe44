// A folder's weights in forward()'s places: the weight matrices kept as
// the file stores them ([out, in]; q_proj, k_proj and v_proj stacked in one
// qkv), each head as head_weights() widens it (its group's key/value head),
// BERT's token type row 0, the masked-LM head, a tied decoder; F16 and BF16
// widened exactly; any chunk size the same.
#include <catch2/catch.hpp>

#include <array>
#include <cstring>

#include "folder_support.hpp"
#include "models/folder_loader.hpp"
#include "transformer/head_weights.hpp"

using namespace attention;

using folder_support::loaded;
using folder_support::value_at;

TEST_CASE("a Llama's weights go where forward() reads them", "[folder-loader]") {
  const auto f = folder_support::small_llama(1);
  const loaded_model m = loaded(f);
  const model_weights& w = m.weights;
  const model_layer& l = w.layers.at(0);
  REQUIRE(l.heads.size() == 2);
  // q (8 outputs), k (4) and v (4) side by side, kept [in, out] in panels (one panel, shared); no float copy
  CHECK(l.qkv.numbers().rows() == 8);
  CHECK(l.qkv.numbers().cols() == 16);
  CHECK(l.qkv.numbers().panelled());
  CHECK_FALSE(l.qkv.is_turned());
  CHECK(l.heads[0].query.size() == 0);
  const model_head h0 = head_weights(l, m.spec, 0), h1 = head_weights(l, m.spec, 1);
  // q_proj row r = head r / 4's output column r % 4, column c its input c
  for (std::size_t r = 0; r < 8; ++r)
    for (std::size_t c = 0; c < 8; ++c)
      CHECK((r / 4 ? h1 : h0).query(c, r % 4) == value_at(f.tensors, "model.layers.0.self_attn.q_proj.weight", r, c));
  // one key/value head, read by both query heads
  CHECK(h0.key.shape() == std::array<std::size_t, 2>{8, 4});
  CHECK(h1.key == h0.key);
  CHECK(h1.value == h0.value);
  CHECK(h0.key(6, 1) == value_at(f.tensors, "model.layers.0.self_attn.k_proj.weight", 1, 6));
  CHECK(h0.value(5, 3) == value_at(f.tensors, "model.layers.0.self_attn.v_proj.weight", 3, 5));
  // o_proj, gate, up, down: the file's [out, in] kept [in, out], in panels
  CHECK(widened(l.proj.numbers())(6, 2) == value_at(f.tensors, "model.layers.0.self_attn.o_proj.weight", 2, 6));
  CHECK(widened(l.fc.numbers()).shape() == std::array<std::size_t, 2>{8, 12});
  CHECK(widened(l.fc.numbers())(7, 11) == value_at(f.tensors, "model.layers.0.mlp.gate_proj.weight", 11, 7));
  CHECK(widened(l.fc_up.numbers())(1, 10) == value_at(f.tensors, "model.layers.0.mlp.up_proj.weight", 10, 1));
  CHECK(widened(l.fc2.numbers())(10, 1) == value_at(f.tensors, "model.layers.0.mlp.down_proj.weight", 1, 10));
  for (const weight* n : {&l.proj, &l.fc, &l.fc_up, &l.fc2, &w.tok}) CHECK(n->numbers().panelled());
  CHECK(l.ln1.weight(0, 5) == value_at(f.tensors, "model.layers.0.input_layernorm.weight", 0, 5));
  CHECK(l.ln1.bias.size() == 0);  // RMSNorm: a weight only
  CHECK(w.ln_f.weight(0, 7) == value_at(f.tensors, "model.norm.weight", 0, 7));
  CHECK(widened(w.unembed.numbers())(5, 7) == value_at(f.tensors, "lm_head.weight", 5, 7));  // kept [V, d]
  CHECK(w.unembed.is_turned());
  CHECK(w.tok.is_turned());  // kept [d, V], the file's [V, d] transposed
  CHECK(widened(w.tok.numbers())(3, 4) == value_at(f.tensors, "model.embed_tokens.weight", 4, 3));
  CHECK(w.pos.size() == 0);
  CHECK_FALSE(w.tied);
  // the spec forward() reads
  const model_spec& s = m.spec;
  CHECK(s.norm.kind == norm_kind::rms);
  CHECK(s.kv_heads == 1);
  CHECK(s.head_size == 4);
  CHECK(s.mlp.width == 12);
  CHECK(s.mlp.kind == mlp_kind::gated);
  CHECK(s.position.kind == position_kind::rotary);
  CHECK(s.position.theta == 10000.0f);
  CHECK(s.causal());
  CHECK(s.norm.eps == 1e-5f);
  CHECK_FALSE(s.post_norm());
}

TEST_CASE("a Qwen2's q, k and v biases go to their heads", "[folder-loader]") {
  auto f = folder_support::small_llama(1);
  f.config["model_type"] = "qwen2";
  for (const char* p : {"q", "k", "v"})
    f.tensors.add(std::string("model.layers.0.self_attn.") + p + "_proj.bias", {p[0] == 'q' ? 8u : 4u});
  const loaded_model m = loaded(f);
  const model_layer& l = m.weights.layers.at(0);
  CHECK(l.heads[1].query_bias(0, 2) == value_at(f.tensors, "model.layers.0.self_attn.q_proj.bias", 0, 6));
  CHECK(l.heads[0].key_bias(0, 3) == value_at(f.tensors, "model.layers.0.self_attn.k_proj.bias", 0, 3));
  CHECK(l.heads[1].key_bias.size() == 0);
}

TEST_CASE("a tied Llama has no lm_head", "[folder-loader]") {
  auto f = folder_support::small_llama(2);
  f.remove("lm_head.weight");
  f.config["tie_word_embeddings"] = true;
  const loaded_model m = loaded(f);
  CHECK(m.weights.tied);
  CHECK(m.weights.unembed.empty());
  CHECK(m.weights.layers[0].qkv.numbers().cols() == (2 + 2 * 2) * 4);  // two key/value heads
  const model_head h1 = head_weights(m.weights.layers[0], m.spec, 1);
  CHECK(h1.key(2, 3) == value_at(f.tensors, "model.layers.0.self_attn.k_proj.weight", 7, 2));
}

TEST_CASE("BERT's weights, prefixed or not, old names or new", "[folder-loader]") {
  for (const bool gamma : {false, true})
    for (const std::string prefix : {"bert.", ""}) {
      INFO(prefix << (gamma ? " gamma/beta" : ""));
      const auto f = folder_support::small_bert(prefix, true, gamma);
      const loaded_model m = loaded(f);
      const model_weights& w = m.weights;
      const std::string e = prefix + "embeddings.";
      CHECK(w.token_type.shape() == std::array<std::size_t, 2>{1, 8});  // row 0 only
      CHECK(w.token_type(0, 3) == value_at(f.tensors, e + "token_type_embeddings.weight", 0, 3));
      CHECK(w.pos(7, 1) == value_at(f.tensors, e + "position_embeddings.weight", 7, 1));
      CHECK(w.ln_e.bias(0, 2) == value_at(f.tensors, e + "LayerNorm." + (gamma ? "beta" : "bias"), 0, 2));
      const model_layer& l = w.layers.at(0);
      CHECK(head_weights(l, m.spec, 1).key(2, 3) == value_at(f.tensors, prefix + "encoder.layer.0.attention.self.key.weight", 7, 2));
      CHECK(l.heads[1].key_bias(0, 1) == value_at(f.tensors, prefix + "encoder.layer.0.attention.self.key.bias", 0, 5));
      CHECK(l.ln1.weight(0, 4) ==
            value_at(f.tensors, prefix + "encoder.layer.0.attention.output.LayerNorm." + (gamma ? "gamma" : "weight"), 0, 4));
      CHECK(l.ln2.weight.size() == 8);
      CHECK(widened(w.transform.numbers())(5, 2) == value_at(f.tensors, "cls.predictions.transform.dense.weight", 5, 2));
      CHECK(w.unembed_bias(0, 4) == value_at(f.tensors, "cls.predictions.bias", 0, 4));
      CHECK(w.tied);  // no decoder.weight: the word embeddings
      CHECK(m.masked_lm);
      CHECK(m.logits);
      CHECK(m.spec.post_norm());
      CHECK_FALSE(m.spec.causal());
      CHECK(m.spec.norm.eps == 1e-12f);
      CHECK(m.spec.mlp.activation == activation_kind::gelu);
    }
  auto decoder = folder_support::small_bert();
  decoder.tensors.add("cls.predictions.decoder.weight", {6, 8});
  const loaded_model d = loaded(decoder);
  CHECK_FALSE(d.weights.tied);
  CHECK(widened(d.weights.unembed.numbers())(5, 0) == value_at(decoder.tensors, "cls.predictions.decoder.weight", 5, 0));
  const loaded_model headless = loaded(folder_support::small_bert("", false));
  CHECK_FALSE(headless.masked_lm);
  CHECK_FALSE(headless.logits);
  CHECK(headless.weights.transform.empty());
}

TEST_CASE("F16 and BF16 widen exactly as the loader of model files widens them", "[folder-loader]") {
  auto f = folder_support::small_llama(1);
  auto& norm = f.tensors.tensors[1];  // input_layernorm.weight, 8 numbers
  REQUIRE(norm.name == "model.layers.0.input_layernorm.weight");
  norm.dtype = "BF16";
  norm.bytes = std::string("\x80\x3f\x00\xc0\x40\x40\x00\x00\x80\x3f\x80\x3f\x80\x3f\x80\x3f", 16);  // 1, -2, 3, 0, 1…
  auto& final_norm = f.tensors.tensors[10];
  REQUIRE(final_norm.name == "model.norm.weight");
  final_norm.dtype = "F16";
  final_norm.bytes = std::string("\x00\x3c\x00\xb8\x01\x00\x00\x3c\x00\x3c\x00\x3c\x00\x3c\x00\x3c", 16);  // 1, -0.5, 2⁻²⁴…
  const model_weights w = loaded(f).weights;
  CHECK(w.layers[0].ln1.weight(0, 0) == 1.0f);
  CHECK(w.layers[0].ln1.weight(0, 1) == -2.0f);
  CHECK(w.layers[0].ln1.weight(0, 2) == 3.0f);
  CHECK(w.ln_f.weight(0, 1) == -0.5f);
  CHECK(w.ln_f.weight(0, 2) == 5.9604644775390625e-8f);
}

TEST_CASE("a NaN is named with its tensor and element; the loader checks every shard arrived", "[folder-loader]") {
  auto f = folder_support::small_llama(1);
  f.tensors.tensors[3].bytes.replace(4 * 9, 4, std::string("\x00\x00\xc0\x7f", 4));
  CHECK(folder_support::refusal(f) == "model.layers.0.self_attn.k_proj.weight: holds a NaN or an infinity (element [1, 1])");
}
