// DistilBERT (models-v3.md section 7): its config's own field names with
// DistilBertConfig's defaults, what it refuses in one line naming the field,
// its block (BERT's without token types), its tensor names with or without
// the "distilbert." prefix, the vocab_* head never prefixed and tied when
// vocab_projector.weight is absent, position_ids ignored in any dtype.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "folder_support.hpp"
#include "models/family_config.hpp"
#include "models/folder_tensors.hpp"
#include "transformer/head_weights.hpp"

using namespace attention;

namespace {

using folder_support::folder_builder;
using folder_support::loaded;
using folder_support::refusal;
using folder_support::value_at;

// A small DistilBERT: V 6, Tmax 8, dim 8, 2 heads, 1 layer, hidden_dim 12; `prefix` "distilbert." or "",
// and the masked-LM head (vocab_projector.weight absent: tied) or not.
folder_builder small_distilbert(const std::string& prefix = "distilbert.", bool head = true) {
  folder_builder f;
  f.config = {{"model_type", "distilbert"}, {"vocab_size", 6}, {"dim", 8}, {"n_heads", 2}, {"n_layers", 1},
              {"hidden_dim", 12}, {"max_position_embeddings", 8}, {"activation", "gelu"},
              {"sinusoidal_pos_embds", false}, {"dropout", 0.1}, {"pad_token_id", 0}};
  auto& t = f.tensors;
  const auto pair = [&](const std::string& at, std::vector<std::uint64_t> weight, std::uint64_t bias) {
    t.add(at + ".weight", weight);
    t.add(at + ".bias", {bias});
  };
  const std::string e = prefix + "embeddings.";
  t.add(e + "word_embeddings.weight", {6, 8});
  t.add(e + "position_embeddings.weight", {8, 8});
  pair(e + "LayerNorm", {8}, 8);
  const std::string p = prefix + "transformer.layer.0.";
  for (const char* n : {"q_lin", "k_lin", "v_lin", "out_lin"}) pair(p + "attention." + n, {8, 8}, 8);
  pair(p + "sa_layer_norm", {8}, 8);
  pair(p + "ffn.lin1", {12, 8}, 12);
  pair(p + "ffn.lin2", {8, 12}, 8);
  pair(p + "output_layer_norm", {8}, 8);
  if (head) {
    pair("vocab_transform", {8, 8}, 8);
    pair("vocab_layer_norm", {8}, 8);
    t.add("vocab_projector.bias", {6});
  }
  return f;
}

nlohmann::ordered_json config_with(const std::string& key, const nlohmann::json& value) {
  nlohmann::ordered_json c = small_distilbert().config;
  c[key] = value;
  return c;
}
family_config read(const nlohmann::ordered_json& c) { return read_family_config(c.dump()); }

}  // namespace

TEST_CASE("a DistilBERT config reads dim, n_heads, n_layers and hidden_dim, with DistilBertConfig's defaults",
          "[distilbert]") {
  const family_config c = read(small_distilbert().config);
  CHECK(c.family == model_family::distilbert);
  CHECK(c.model_type == "distilbert");
  CHECK(std::string(family_name(c.family)) == "distilbert");
  CHECK(c.block.vocab == 6);
  CHECK(c.block.length == 8);
  CHECK(c.block.embed == 8);
  CHECK(c.block.heads == 2);
  CHECK(c.block.kv_heads == 2);
  CHECK(c.block.head_size == 4);
  CHECK(c.block.layers == 1);
  CHECK(c.block.mlp.width == 12);
  CHECK(c.block.norm.eps == 1e-12f);  // fixed in the code: no config field
  CHECK(c.type_vocab == 0);
  // absent: distilbert-base-uncased's sizes
  const family_config d = read_family_config(R"({"model_type": "distilbert"})");
  CHECK(d.block.vocab == 30522);
  CHECK(d.block.embed == 768);
  CHECK(d.block.heads == 12);
  CHECK(d.block.head_size == 64);
  CHECK(d.block.layers == 6);
  CHECK(d.block.mlp.width == 3072);
  CHECK(d.block.length == 512);
  // BERT's names are not DistilBERT's: hidden_size is not read
  CHECK(read(config_with("hidden_size", 99)).block.embed == 8);
}

TEST_CASE("DistilBERT refuses what the core does not compute, naming the field", "[distilbert]") {
  CHECK_THROWS_WITH(read(config_with("activation", "relu")),
                    "config.activation: \"relu\", expected \"gelu\" (DistilBERT's GELU, the erf form)");
  CHECK_THROWS_WITH(read(config_with("sinusoidal_pos_embds", true)),
                    "config.sinusoidal_pos_embds: true, expected false (a learned table)");
  CHECK_THROWS_WITH(read(config_with("sinusoidal_pos_embds", "no")),
                    "config.sinusoidal_pos_embds: expected true or false, got \"no\"");
  CHECK_THROWS_WITH(read(config_with("n_heads", 3)), "config.n_heads: 3 does not divide dim 8");
  CHECK_THROWS_WITH(read(config_with("dim", 0)), "config.dim: expected a positive integer, got 0");
  CHECK_THROWS_WITH(read(config_with("hidden_dim", 1.5)), "config.hidden_dim: expected a positive integer, got 1.5");
  CHECK_NOTHROW(read(config_with("activation", nullptr)));  // null: the default, gelu
}

TEST_CASE("a DistilBERT folder's block is BERT's with no token types; without vocab_transform, no head",
          "[distilbert][folder-golden]") {
  const loaded_model mlm = folder_support::read(folder_support::golden_folder("distilbert-mlm"));
  const model_spec& s = mlm.spec;
  const model_spec& bert = folder_support::read(folder_support::golden_folder("bert-mlm")).spec;
  CHECK(s.heads == 2);
  CHECK(s.kv_heads == 2);
  CHECK(s.head_size == 6);
  CHECK(s.mlp.width == 24);
  // every axis as BERT has it (models-v3.md section 7: "BERT's block with zero token types")
  CHECK(s.norm.kind == bert.norm.kind);
  CHECK(s.norm.placement == norm_placement::post);
  CHECK(s.norm.eps == bert.norm.eps);
  CHECK(s.position.kind == bert.position.kind);
  CHECK(s.direction == bert.direction);
  CHECK(s.scaling == score_scaling::divide_by_root);  // q / √hd: the same float32 divisor as BERT's scores
  CHECK(s.scaling == bert.scaling);
  CHECK(s.mlp.kind == bert.mlp.kind);
  CHECK(s.mlp.activation == activation_kind::gelu);
  CHECK(s.output == output_head::bert_transform);
  CHECK(bert.types == token_types::type_zero);
  CHECK(s.types == token_types::none);
  CHECK(mlm.masked_lm());
  CHECK(mlm.weights.tied);  // no vocab_projector.weight
  CHECK(mlm.weights.token_type.size() == 0);
  const loaded_model bare = folder_support::read(folder_support::golden_folder("distilbert-model-f16"));
  CHECK(bare.spec.output == output_head::none);
  CHECK_FALSE(bare.logits());
  CHECK(bare.spec.types == token_types::none);
  const loaded_model untied = folder_support::read(folder_support::golden_folder("distilbert-untied-bf16"));
  CHECK_FALSE(untied.weights.tied);
  CHECK(untied.weights.unembed.numbers().dtype() == weight_dtype::bf16);
}

TEST_CASE("DistilBERT's tensors, prefixed or not: the prefix is where the word embeddings are", "[distilbert]") {
  for (const std::string prefix : {"distilbert.", ""}) {
    INFO(prefix);
    const folder_builder f = small_distilbert(prefix);
    const loaded_model m = loaded(f);
    const model_weights& w = m.weights;
    const std::string e = prefix + "embeddings.", p = prefix + "transformer.layer.0.";
    CHECK(w.pos(7, 1) == value_at(f.tensors, e + "position_embeddings.weight", 7, 1));
    CHECK(w.ln_e.bias(0, 2) == value_at(f.tensors, e + "LayerNorm.bias", 0, 2));
    const model_layer& l = w.layers.at(0);
    CHECK(head_weights(l, m.spec, 1).key(2, 3) == value_at(f.tensors, p + "attention.k_lin.weight", 7, 2));
    CHECK(l.heads[1].value_bias(0, 1) == value_at(f.tensors, p + "attention.v_lin.bias", 0, 5));
    CHECK(l.ln1.weight(0, 4) == value_at(f.tensors, p + "sa_layer_norm.weight", 0, 4));
    CHECK(l.ln2.bias(0, 3) == value_at(f.tensors, p + "output_layer_norm.bias", 0, 3));
    CHECK(widened(w.transform.numbers())(5, 2) == value_at(f.tensors, "vocab_transform.weight", 5, 2));
    CHECK(w.transform_ln.weight(0, 6) == value_at(f.tensors, "vocab_layer_norm.weight", 0, 6));
    CHECK(w.unembed_bias(0, 4) == value_at(f.tensors, "vocab_projector.bias", 0, 4));
    CHECK(w.tied);
    CHECK(m.masked_lm());
  }
  auto untied = small_distilbert();
  untied.tensors.add("vocab_projector.weight", {6, 8});
  const loaded_model u = loaded(untied);
  CHECK_FALSE(u.weights.tied);
  CHECK(widened(u.weights.unembed.numbers())(5, 0) == value_at(untied.tensors, "vocab_projector.weight", 5, 0));
  // the table's names, as family_tensors picks them
  const family_config c = read(small_distilbert().config);
  const tensor_table plain = family_tensors(c, {"embeddings.word_embeddings.weight"});
  CHECK(plain.tensors.count("transformer.layer.0.ffn.lin1.bias") == 1);
  CHECK(plain.tensors.count("vocab_projector.weight") == 1);
  const tensor_table prefixed = family_tensors(c, {"distilbert.embeddings.word_embeddings.weight"});
  CHECK(prefixed.tensors.count("distilbert.transformer.layer.0.ffn.lin1.bias") == 1);
  CHECK(prefixed.tensors.count("vocab_transform.weight") == 1);  // the head is never prefixed
  CHECK(prefixed.tensors.count("distilbert.vocab_transform.weight") == 0);
}

TEST_CASE("DistilBERT names an unknown tensor and a missing one; position_ids is read past in any dtype",
          "[distilbert]") {
  auto types = small_distilbert();
  types.tensors.add("distilbert.embeddings.token_type_embeddings.weight", {2, 8});
  CHECK(refusal(types) == "distilbert.embeddings.token_type_embeddings.weight: unknown tensor");
  auto pooler = small_distilbert("");
  pooler.tensors.add("pooler.dense.weight", {8, 8});  // BERT's ignored pooler is not DistilBERT's
  CHECK(refusal(pooler) == "pooler.dense.weight: unknown tensor");
  auto prefixed_head = small_distilbert();
  prefixed_head.tensors.add("distilbert.vocab_projector.weight", {6, 8});
  CHECK(refusal(prefixed_head) == "distilbert.vocab_projector.weight: unknown tensor");
  auto beyond = small_distilbert();
  beyond.tensors.add("distilbert.transformer.layer.1.sa_layer_norm.weight", {8});
  CHECK(refusal(beyond) == "distilbert.transformer.layer.1.sa_layer_norm.weight: unknown tensor (config.n_layers is 1)");
  auto missing = small_distilbert();
  missing.remove("distilbert.transformer.layer.0.ffn.lin2.bias");
  CHECK(refusal(missing) == "distilbert.transformer.layer.0.ffn.lin2.bias: missing");
  auto half_head = small_distilbert("");
  half_head.remove("vocab_layer_norm.bias");
  CHECK(refusal(half_head) == "vocab_layer_norm.bias: missing (the masked-LM head's other tensors are there)");
  auto shape = small_distilbert();
  shape.remove("distilbert.transformer.layer.0.ffn.lin1.weight");
  shape.tensors.add("distilbert.transformer.layer.0.ffn.lin1.weight", {8, 8});
  CHECK(refusal(shape) == "distilbert.transformer.layer.0.ffn.lin1.weight: shape [8, 8], expected [12, 8] (config's "
                          "hidden_dim, dim)");
  for (const std::string prefix : {"distilbert.", ""}) {
    auto ids = small_distilbert(prefix);
    ids.tensors.add(prefix + "embeddings.position_ids", {1, 8});
    ids.tensors.tensors.back().dtype = "I64";
    ids.tensors.tensors.back().bytes = std::string(64, '\0');
    CHECK(refusal(ids) == "");
  }
  auto many = small_distilbert();
  many.tensors.add("distilbert.embeddings.position_ids", {1, 9});
  CHECK(refusal(many) == "distilbert.embeddings.position_ids: 9 numbers, beyond the 8 this skipped buffer may hold "
                         "(config's max_position_embeddings 8)");
}
