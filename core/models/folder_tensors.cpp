#include "models/folder_tensors.hpp"

namespace attention {
namespace {

using shape = std::vector<std::uint64_t>;

bool starts(const std::string& s, const std::string& prefix) { return s.compare(0, prefix.size(), prefix) == 0; }
bool ends(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

struct table_builder {
  tensor_table table;
  void add(const std::string& name, tensor_slot slot, std::size_t layer, shape s, tensor_need need, std::string why) {
    table.tensors[name] = {name, slot, layer, std::move(s), need, std::move(why)};
  }
  // a Linear at `at` ("….query."): its weight [out, in] and bias [out]; `why` names out's and in's keys
  void linear(const std::string& at, tensor_slot w, tensor_slot bias, std::size_t layer, std::uint64_t out,
              std::uint64_t in, const std::string& why, tensor_need need) {
    add(at + "weight", w, layer, {out, in}, need, why);
    add(at + "bias", bias, layer, {out}, need, why.substr(0, why.find(',')));
  }
  // a LayerNorm at `at` ("….LayerNorm."): its weight and bias [d]
  void norm(const std::string& at, tensor_slot w, tensor_slot bias, std::size_t layer, std::uint64_t d,
            const std::string& why, tensor_need need) {
    add(at + "weight", w, layer, {d}, need, why);
    add(at + "bias", bias, layer, {d}, need, why);
  }
};

}  // namespace

tensor_table llama_tensors(const family_config& c) {
  table_builder b;
  const std::uint64_t V = c.block.vocab, d = c.block.embed, q = c.block.heads * c.block.head_size, kv = c.block.kv_heads * c.block.head_size,
                      I = c.block.mlp.width;
  const std::string hd = "head_dim " + std::to_string(c.block.head_size);
  const std::string qw = "num_attention_heads " + std::to_string(c.block.heads) + " · " + hd + ", hidden_size";
  const std::string kvw = "num_key_value_heads " + std::to_string(c.block.kv_heads) + " · " + hd + ", hidden_size";
  const auto r = tensor_need::required, o = tensor_need::optional;
  // q, k, v biases: required as the config says (Qwen2's always, a Llama's attention_bias); read when present otherwise
  const tensor_need qkv_bias = c.qkv_bias ? r : o;
  // o_proj's bias: read when present (torch_hf.py's --qkv-bias folders have attention_bias and none)
  const tensor_need o_bias = o;
  const tensor_need mlp_bias = c.mlp_bias ? r : o;
  b.add("model.embed_tokens.weight", tensor_slot::tok, 0, {V, d}, r, "vocab_size, hidden_size");
  for (std::size_t i = 0; i < c.block.layers; ++i) {
    const std::string p = "model.layers." + std::to_string(i) + ".";
    b.add(p + "input_layernorm.weight", tensor_slot::ln1_weight, i, {d}, r, "hidden_size");
    b.add(p + "self_attn.q_proj.weight", tensor_slot::query, i, {q, d}, r, qw);
    b.add(p + "self_attn.k_proj.weight", tensor_slot::key, i, {kv, d}, r, kvw);
    b.add(p + "self_attn.v_proj.weight", tensor_slot::value, i, {kv, d}, r, kvw);
    b.add(p + "self_attn.o_proj.weight", tensor_slot::proj, i, {d, q}, r, "hidden_size, " + qw.substr(0, qw.rfind(',')));
    b.add(p + "self_attn.q_proj.bias", tensor_slot::query_bias, i, {q}, qkv_bias, qw.substr(0, qw.rfind(',')));
    b.add(p + "self_attn.k_proj.bias", tensor_slot::key_bias, i, {kv}, qkv_bias, kvw.substr(0, kvw.rfind(',')));
    b.add(p + "self_attn.v_proj.bias", tensor_slot::value_bias, i, {kv}, qkv_bias, kvw.substr(0, kvw.rfind(',')));
    b.add(p + "self_attn.o_proj.bias", tensor_slot::proj_bias, i, {d}, o_bias, "hidden_size");
    b.add(p + "post_attention_layernorm.weight", tensor_slot::ln2_weight, i, {d}, r, "hidden_size");
    b.add(p + "mlp.gate_proj.weight", tensor_slot::fc, i, {I, d}, r, "intermediate_size, hidden_size");
    b.add(p + "mlp.up_proj.weight", tensor_slot::fc_up, i, {I, d}, r, "intermediate_size, hidden_size");
    b.add(p + "mlp.down_proj.weight", tensor_slot::fc2, i, {d, I}, r, "hidden_size, intermediate_size");
    b.add(p + "mlp.gate_proj.bias", tensor_slot::fc_bias, i, {I}, mlp_bias, "intermediate_size");
    b.add(p + "mlp.up_proj.bias", tensor_slot::fc_up_bias, i, {I}, mlp_bias, "intermediate_size");
    b.add(p + "mlp.down_proj.bias", tensor_slot::fc2_bias, i, {d}, mlp_bias, "hidden_size");
  }
  b.add("model.norm.weight", tensor_slot::ln_f_weight, 0, {d}, r, "hidden_size");
  // absent and tied: the embedding unembeds; present, it is used (as torch_hf.py does)
  b.add("lm_head.weight", tensor_slot::lm_head, 0, {V, d}, c.tie_word_embeddings ? o : r,
        c.tie_word_embeddings ? "vocab_size, hidden_size" : "vocab_size, hidden_size; tie_word_embeddings is false");
  return b.table;
}

tensor_table bert_tensors(const family_config& c, const std::string& P) {
  table_builder b;
  const std::uint64_t V = c.block.vocab, d = c.block.embed, I = c.block.mlp.width;
  const auto r = tensor_need::required, h = tensor_need::head;
  const auto norm = [&](const std::string& at, tensor_slot w, tensor_slot bias, std::size_t layer, tensor_need need) {
    b.norm(at + "LayerNorm.", w, bias, layer, d, "hidden_size", need);
    b.table.aliases[at + "LayerNorm.gamma"] = at + "LayerNorm.weight";
    b.table.aliases[at + "LayerNorm.beta"] = at + "LayerNorm.bias";
  };
  const std::string e = P + "embeddings.";
  b.add(e + "word_embeddings.weight", tensor_slot::tok, 0, {V, d}, r, "vocab_size, hidden_size");
  b.add(e + "position_embeddings.weight", tensor_slot::pos, 0, {c.block.length, d}, r, "max_position_embeddings, hidden_size");
  b.add(e + "token_type_embeddings.weight", tensor_slot::token_type, 0, {c.type_vocab, d}, r,
        "type_vocab_size, hidden_size");
  norm(e, tensor_slot::ln_e_weight, tensor_slot::ln_e_bias, 0, r);
  const std::string dd = "hidden_size, hidden_size";
  for (std::size_t i = 0; i < c.block.layers; ++i) {
    const std::string p = P + "encoder.layer." + std::to_string(i) + ".";
    b.linear(p + "attention.self.query.", tensor_slot::query, tensor_slot::query_bias, i, d, d, dd, r);
    b.linear(p + "attention.self.key.", tensor_slot::key, tensor_slot::key_bias, i, d, d, dd, r);
    b.linear(p + "attention.self.value.", tensor_slot::value, tensor_slot::value_bias, i, d, d, dd, r);
    b.linear(p + "attention.output.dense.", tensor_slot::proj, tensor_slot::proj_bias, i, d, d, dd, r);
    norm(p + "attention.output.", tensor_slot::ln1_weight, tensor_slot::ln1_bias, i, r);
    b.linear(p + "intermediate.dense.", tensor_slot::fc, tensor_slot::fc_bias, i, I, d, "intermediate_size, hidden_size",
             r);
    b.linear(p + "output.dense.", tensor_slot::fc2, tensor_slot::fc2_bias, i, d, I, "hidden_size, intermediate_size",
             r);
    norm(p + "output.", tensor_slot::ln2_weight, tensor_slot::ln2_bias, i, r);
  }
  // the masked-LM head: all of it or none; decoder.weight absent is tied to the word embeddings
  const std::string t = "cls.predictions.transform.";
  b.linear(t + "dense.", tensor_slot::transform, tensor_slot::transform_bias, 0, d, d, dd, h);
  norm(t, tensor_slot::transform_ln_weight, tensor_slot::transform_ln_bias, 0, h);
  b.add("cls.predictions.bias", tensor_slot::unembed_bias, 0, {V}, h, "vocab_size");
  b.add("cls.predictions.decoder.weight", tensor_slot::lm_head, 0, {V, d}, tensor_need::optional,
        "vocab_size, hidden_size");
  return b.table;
}

tensor_table distilbert_tensors(const family_config& c, const std::string& P) {
  table_builder b;
  b.table.layers_field = "n_layers";
  b.table.unknown_tensor_line = true;
  const std::uint64_t V = c.block.vocab, d = c.block.embed, I = c.block.mlp.width;
  const auto r = tensor_need::required, h = tensor_need::head;
  const std::string e = P + "embeddings.", dd = "dim, dim";
  b.add(e + "word_embeddings.weight", tensor_slot::tok, 0, {V, d}, r, "vocab_size, dim");
  b.add(e + "position_embeddings.weight", tensor_slot::pos, 0, {c.block.length, d}, r, "max_position_embeddings, dim");
  b.norm(e + "LayerNorm.", tensor_slot::ln_e_weight, tensor_slot::ln_e_bias, 0, d, "dim", r);
  for (std::size_t i = 0; i < c.block.layers; ++i) {
    const std::string p = P + "transformer.layer." + std::to_string(i) + ".";
    b.linear(p + "attention.q_lin.", tensor_slot::query, tensor_slot::query_bias, i, d, d, dd, r);
    b.linear(p + "attention.k_lin.", tensor_slot::key, tensor_slot::key_bias, i, d, d, dd, r);
    b.linear(p + "attention.v_lin.", tensor_slot::value, tensor_slot::value_bias, i, d, d, dd, r);
    b.linear(p + "attention.out_lin.", tensor_slot::proj, tensor_slot::proj_bias, i, d, d, dd, r);
    b.norm(p + "sa_layer_norm.", tensor_slot::ln1_weight, tensor_slot::ln1_bias, i, d, "dim", r);
    b.linear(p + "ffn.lin1.", tensor_slot::fc, tensor_slot::fc_bias, i, I, d, "hidden_dim, dim", r);
    b.linear(p + "ffn.lin2.", tensor_slot::fc2, tensor_slot::fc2_bias, i, d, I, "dim, hidden_dim", r);
    b.norm(p + "output_layer_norm.", tensor_slot::ln2_weight, tensor_slot::ln2_bias, i, d, "dim", r);
  }
  // the masked-LM head, never prefixed: all of it or none; vocab_projector.weight absent is tied to the word embeddings
  b.linear("vocab_transform.", tensor_slot::transform, tensor_slot::transform_bias, 0, d, d, dd, h);
  b.norm("vocab_layer_norm.", tensor_slot::transform_ln_weight, tensor_slot::transform_ln_bias, 0, d, "dim", h);
  b.add("vocab_projector.bias", tensor_slot::unembed_bias, 0, {V}, h, "vocab_size");
  b.add("vocab_projector.weight", tensor_slot::lm_head, 0, {V, d}, tensor_need::optional, "vocab_size, dim");
  return b.table;
}

tensor_table family_tensors(const family_config& c, const std::vector<std::string>& names) {
  if (c.family == model_family::llama) return llama_tensors(c);
  const std::string prefix = c.family == model_family::distilbert ? "distilbert." : "bert.";
  bool prefixed = false;  // a ...ForMaskedLM file's names
  for (const std::string& name : names) prefixed = prefixed || name == prefix + "embeddings.word_embeddings.weight";
  const std::string P = prefixed ? prefix : "";
  return c.family == model_family::distilbert ? distilbert_tensors(c, P) : bert_tensors(c, P);
}

std::optional<ignored_bound> ignored_tensor_bound(const family_config& c, const std::string& name) {
  const std::uint64_t d = c.block.embed;
  const std::string hidden = "hidden_size " + std::to_string(d);
  if (c.family == model_family::llama) {
    // model.layers.<i>.self_attn.rotary_emb.inv_freq, i a layer of the config: one a layer, no more
    const std::string prefix = "model.layers.", suffix = ".self_attn.rotary_emb.inv_freq";
    if (!starts(name, prefix) || !ends(name, suffix) || name.size() <= prefix.size() + suffix.size()) return std::nullopt;
    const std::string layer = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (layer.size() > 9 || (layer.size() > 1 && layer[0] == '0') ||
        layer.find_first_not_of("0123456789") != std::string::npos || std::stoul(layer) >= c.block.layers)
      return std::nullopt;
    return ignored_bound{c.block.head_size, "head_dim " + std::to_string(c.block.head_size)};  // r/2 frequencies, r ≤ head_dim
  }
  if (c.family == model_family::distilbert) {  // embeddings.position_ids, [1, length]
    if (name != "distilbert.embeddings.position_ids" && name != "embeddings.position_ids") return std::nullopt;
    return ignored_bound{c.block.length, "max_position_embeddings " + std::to_string(c.block.length)};
  }
  for (const std::string P : {"bert.", ""}) {
    if (starts(name, P + "pooler.")) return ignored_bound{d * d, hidden + " squared"};
    if (name == P + "embeddings.position_ids" || name == P + "embeddings.token_type_ids")
      return ignored_bound{c.block.length, "max_position_embeddings " + std::to_string(c.block.length)};  // [1, length]
  }
  if (starts(name, "cls.seq_relationship.")) return ignored_bound{2 * d, "2 · " + hidden};
  if (name == "cls.predictions.decoder.bias") return ignored_bound{c.block.vocab, "vocab_size " + std::to_string(c.block.vocab)};
  return std::nullopt;
}

std::uint64_t ignored_numbers_together(const family_config& c) {
  const std::uint64_t d = c.block.embed;
  if (c.family == model_family::llama) return static_cast<std::uint64_t>(c.block.layers) * c.block.head_size;
  if (c.family == model_family::distilbert) return c.block.length;  // position_ids
  // the pooler's dense weight and bias, the next-sentence head's, position_ids, token_type_ids, the decoder's bias
  return d * d + d + 2 * d + 2 + 2 * static_cast<std::uint64_t>(c.block.length) + c.block.vocab;
}

bool ignored_tensor(const family_config& c, const std::string& name) {
  return ignored_tensor_bound(c, name).has_value();
}

}  // namespace attention
