// tests/fixtures/forward_families.json (made by make_forward_families.py
// with PyTorch): tensors read back as the core's, and its tiny Llama and
// BERT, from Hugging Face's names and [out, in] layout into forward()'s
// model_spec and model_weights, as a folder reader fills them (optional
// tensors when present: biases, lm_head, the masked-LM head).
#pragma once

#include <string>

#include "support.hpp"
#include "transformer/model.hpp"

namespace forward_fixture {

using attention::tensor2;
using attention::tensor3;
using nlohmann::json;

inline const json& fixture() {
  static const json data = test_support::read_json(test_support::tests_dir() + "/fixtures/forward_families.json");
  return data;
}

inline std::vector<float> values(const json& t) { return t.at("data").get<std::vector<float>>(); }

// {shape, data} as (B, T, d): a matrix is one sequence, a vector one row
inline tensor3 as_tensor3(const json& t) {
  const auto shape = t.at("shape").get<std::vector<std::size_t>>();
  const std::vector<float> v = values(t);
  tensor3 x(shape.size() == 3 ? std::array<std::size_t, 3>{shape[0], shape[1], shape[2]}
            : shape.size() == 2 ? std::array<std::size_t, 3>{1, shape[0], shape[1]}
                                : std::array<std::size_t, 3>{1, 1, v.size()});
  std::copy(v.begin(), v.end(), x.data());
  return x;
}

// a vector as a (1, n) row
inline tensor2 row(const json& t) {
  const std::vector<float> v = values(t);
  tensor2 r({1, v.size()});
  std::copy(v.begin(), v.end(), r.data());
  return r;
}

// rows [first, first + n) of an nn.Linear weight (out, in), as [in, out]: (in, n)
inline tensor2 columns(const json& t, std::size_t first, std::size_t n) {
  const auto shape = t.at("shape").get<std::vector<std::size_t>>();
  const std::vector<float> v = values(t);
  tensor2 w({shape[1], n});
  for (std::size_t i = 0; i < shape[1]; ++i)
    for (std::size_t o = 0; o < n; ++o) w(i, o) = v[(first + o) * shape[1] + i];
  return w;
}
inline tensor2 linear(const json& t) { return columns(t, 0, t.at("shape")[0].get<std::size_t>()); }

// entries [first, first + n) of a vector, as a (1, n) row
inline tensor2 part(const json& t, std::size_t first, std::size_t n) {
  const std::vector<float> v = values(t);
  tensor2 r({1, n});
  std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(first), n, r.data());
  return r;
}

// a table as stored, (rows, cols)
inline tensor2 table(const json& t) {
  const auto shape = t.at("shape").get<std::vector<std::size_t>>();
  const std::vector<float> v = values(t);
  tensor2 m({shape[0], shape[1]});
  std::copy(v.begin(), v.end(), m.data());
  return m;
}

struct model {
  attention::model_spec spec;
  attention::model_weights weights;
  std::vector<std::int64_t> tokens;
  const json* expected;
};

// {config, tokens, weights} of a Llama-family model, config.json's defaults filled
inline model llama(const json& f) {
  const json& c = f.at("config");
  const json& w = f.at("weights");
  model m;
  m.expected = &f;
  m.tokens = f.at("tokens").get<std::vector<std::int64_t>>();
  attention::model_spec& s = m.spec;
  s.vocab = c.at("vocab_size");
  s.length = c.at("max_position_embeddings");
  s.embed = c.at("hidden_size");
  s.heads = c.at("num_attention_heads");
  s.layers = c.at("num_hidden_layers");
  s.norm = {attention::norm_kind::rms, attention::norm_placement::pre, c.at("rms_norm_eps").get<float>()};
  s.kv_heads = c.value("num_key_value_heads", s.heads);
  s.head_size = c.value("head_dim", s.embed / s.heads);
  s.mlp = {attention::mlp_kind::gated, attention::activation_kind::silu, c.at("intermediate_size").get<std::size_t>()};
  s.position = {attention::position_kind::rotary, c.value("rope_theta", 10000.0f)};
  // Qwen2's q, k and v biases (or a Llama's attention_bias), as the reader finds them
  s.biases.query = s.biases.key = s.biases.value = w.contains("model.layers.0.self_attn.q_proj.bias");
  const std::size_t hd = s.head_size;
  attention::model_weights& mw = m.weights;
  mw.tok = table(w.at("model.embed_tokens.weight"));
  for (std::size_t l = 0; l < s.layers; ++l) {
    const std::string p = "model.layers." + std::to_string(l) + ".";
    attention::model_layer layer;
    layer.heads.resize(s.heads);
    const auto bias = [&](const std::string& name, std::size_t first) {
      return w.contains(p + name) ? part(w.at(p + name), first, hd) : tensor2();
    };
    for (std::size_t j = 0; j < s.heads; ++j) {
      layer.heads[j].query = columns(w.at(p + "self_attn.q_proj.weight"), j * hd, hd);
      layer.heads[j].query_bias = bias("self_attn.q_proj.bias", j * hd);
    }
    for (std::size_t g = 0; g < s.kv_heads; ++g) {  // key/value head g in heads[g]
      layer.heads[g].key = columns(w.at(p + "self_attn.k_proj.weight"), g * hd, hd);
      layer.heads[g].key_bias = bias("self_attn.k_proj.bias", g * hd);
      layer.heads[g].value = columns(w.at(p + "self_attn.v_proj.weight"), g * hd, hd);
      layer.heads[g].value_bias = bias("self_attn.v_proj.bias", g * hd);
    }
    layer.proj = linear(w.at(p + "self_attn.o_proj.weight"));
    layer.fc = linear(w.at(p + "mlp.gate_proj.weight"));
    layer.fc_up = linear(w.at(p + "mlp.up_proj.weight"));
    layer.fc2 = linear(w.at(p + "mlp.down_proj.weight"));
    layer.ln1.weight = row(w.at(p + "input_layernorm.weight"));
    layer.ln2.weight = row(w.at(p + "post_attention_layernorm.weight"));
    mw.layers.push_back(std::move(layer));
  }
  mw.ln_f.weight = row(w.at("model.norm.weight"));
  if (w.contains("lm_head.weight"))
    mw.unembed = attention::weight::turned(table(w.at("lm_head.weight")));  // (V, d), read as x @ lm_headᵀ
  else
    mw.tied = true;
  return m;
}
inline model llama() { return llama(fixture().at("llama")); }

inline attention::layer_norm_weights norm(const json& w, const std::string& name) {
  return {row(w.at(name + ".weight")), row(w.at(name + ".bias"))};
}

// {config, tokens, weights} of a BERT, its tensors named with the prefix bert.
inline model bert(const json& f) {
  const json& c = f.at("config");
  const json& w = f.at("weights");
  model m;
  m.expected = &f;
  m.tokens = f.at("tokens").get<std::vector<std::int64_t>>();
  attention::model_spec& s = m.spec;
  s.vocab = c.at("vocab_size");
  s.length = c.at("max_position_embeddings");
  s.embed = c.at("hidden_size");
  s.heads = c.at("num_attention_heads");
  s.layers = c.at("num_hidden_layers");
  s.norm = {attention::norm_kind::layer, attention::norm_placement::post, c.at("layer_norm_eps").get<float>()};
  s.kv_heads = s.heads;
  s.head_size = s.embed / s.heads;
  s.biases = {true, true, true, true, true, true, true, true, true};  // every Linear's and LayerNorm's
  s.mlp = {attention::mlp_kind::plain, attention::activation_kind::gelu, c.at("intermediate_size").get<std::size_t>()};
  s.direction = attention::attention_direction::bidirectional;
  s.scaling = attention::score_scaling::divide_by_root;
  s.types = attention::token_types::type_zero;
  s.output = w.contains("cls.predictions.bias") ? attention::output_head::bert_transform : attention::output_head::none;
  const std::size_t hd = s.head_size;
  attention::model_weights& mw = m.weights;
  const std::string e = "bert.embeddings.";
  mw.tok = table(w.at(e + "word_embeddings.weight"));
  mw.pos = table(w.at(e + "position_embeddings.weight"));
  mw.token_type = tensor2({1, s.embed});
  std::copy_n(table(w.at(e + "token_type_embeddings.weight")).data(), s.embed, mw.token_type.data());  // type 0's row
  mw.ln_e = norm(w, e + "LayerNorm");
  for (std::size_t l = 0; l < s.layers; ++l) {
    const std::string p = "bert.encoder.layer." + std::to_string(l) + ".";
    attention::model_layer layer;
    layer.heads.resize(s.heads);
    for (std::size_t j = 0; j < s.heads; ++j) {
      attention::model_head& h = layer.heads[j];
      h.query = columns(w.at(p + "attention.self.query.weight"), j * hd, hd);
      h.query_bias = part(w.at(p + "attention.self.query.bias"), j * hd, hd);
      h.key = columns(w.at(p + "attention.self.key.weight"), j * hd, hd);
      h.key_bias = part(w.at(p + "attention.self.key.bias"), j * hd, hd);
      h.value = columns(w.at(p + "attention.self.value.weight"), j * hd, hd);
      h.value_bias = part(w.at(p + "attention.self.value.bias"), j * hd, hd);
    }
    layer.proj = linear(w.at(p + "attention.output.dense.weight"));
    layer.proj_bias = row(w.at(p + "attention.output.dense.bias"));
    layer.ln1 = norm(w, p + "attention.output.LayerNorm");
    layer.fc = linear(w.at(p + "intermediate.dense.weight"));
    layer.fc_bias = row(w.at(p + "intermediate.dense.bias"));
    layer.fc2 = linear(w.at(p + "output.dense.weight"));
    layer.fc2_bias = row(w.at(p + "output.dense.bias"));
    layer.ln2 = norm(w, p + "output.LayerNorm");
    mw.layers.push_back(std::move(layer));
  }
  if (!w.contains("cls.predictions.bias")) return m;  // no masked-LM head
  const std::string t = "cls.predictions.transform.";
  mw.transform = linear(w.at(t + "dense.weight"));
  mw.transform_bias = row(w.at(t + "dense.bias"));
  mw.transform_ln = norm(w, t + "LayerNorm");
  if (w.contains("cls.predictions.decoder.weight"))
    mw.unembed = attention::weight::turned(table(w.at("cls.predictions.decoder.weight")));
  else
    mw.tied = true;  // no decoder.weight in the file: the word embeddings unembed
  mw.unembed_bias = row(w.at("cls.predictions.bias"));
  return m;
}
inline model bert() { return bert(fixture().at("bert")); }

}  // namespace forward_fixture
