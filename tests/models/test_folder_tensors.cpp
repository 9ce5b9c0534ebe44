// Each family's table of tensors: names, shapes from the config, which are
// required, BERT's prefix and old LayerNorm names, the ignored buffers.
#include <catch2/catch.hpp>

#include "folder_support.hpp"
#include "models/folder_tensors.hpp"

using namespace attention;

TEST_CASE("the Llama family's tensors by name", "[folder-tensors]") {
  family_config c = read_family_config(folder_support::small_llama(1).config.dump());
  tensor_table t = llama_tensors(c);
  CHECK(t.tensors.size() == 1 + 16 + 2);  // embedding, a layer's 16 (8 of them biases), norm and lm_head
  const expected_tensor& k = t.tensors.at("model.layers.0.self_attn.k_proj.weight");
  CHECK(k.shape == std::vector<std::uint64_t>{4, 8});
  CHECK(k.slot == tensor_slot::key);
  CHECK(k.need == tensor_need::required);
  CHECK(t.tensors.at("model.layers.0.self_attn.q_proj.bias").need == tensor_need::optional);
  CHECK(t.tensors.at("lm_head.weight").need == tensor_need::required);
  // a tied Qwen2: its q, k and v biases required, as its config reads
  nlohmann::ordered_json qwen2 = folder_support::small_llama(1).config;
  qwen2["model_type"] = "qwen2";
  qwen2["tie_word_embeddings"] = true;
  c = read_family_config(qwen2.dump());
  t = llama_tensors(c);
  CHECK(t.tensors.at("lm_head.weight").need == tensor_need::optional);
  CHECK(t.tensors.at("model.layers.0.self_attn.v_proj.bias").need == tensor_need::required);
  CHECK(t.tensors.at("model.layers.0.self_attn.o_proj.bias").need == tensor_need::optional);
  CHECK(ignored_tensor(c, "model.layers.0.self_attn.rotary_emb.inv_freq"));
  // a layer the config does not have, or not a layer's number, is no buffer to skip
  for (const char* name : {"model.layers.1.self_attn.rotary_emb.inv_freq", "model.layers.00.self_attn.rotary_emb.inv_freq",
                           "model.layers.x.self_attn.rotary_emb.inv_freq", "model.layers..self_attn.rotary_emb.inv_freq",
                           "model.layers.0.a.self_attn.rotary_emb.inv_freq"})
    CHECK_FALSE(ignored_tensor(c, name));
  CHECK_FALSE(ignored_tensor(c, "bert.pooler.dense.weight"));
}

TEST_CASE("BERT's tensors with or without its prefix, and their old names", "[folder-tensors]") {
  const family_config c = read_family_config(folder_support::small_bert().config.dump());
  const tensor_table t = bert_tensors(c, "bert.");
  CHECK(t.tensors.at("bert.embeddings.token_type_embeddings.weight").shape == std::vector<std::uint64_t>{2, 8});
  CHECK(t.tensors.at("bert.encoder.layer.0.output.dense.weight").shape == std::vector<std::uint64_t>{8, 12});
  CHECK(t.tensors.at("cls.predictions.bias").need == tensor_need::head);
  CHECK(t.tensors.at("cls.predictions.decoder.weight").need == tensor_need::optional);
  CHECK(t.aliases.at("bert.encoder.layer.0.output.LayerNorm.gamma") == "bert.encoder.layer.0.output.LayerNorm.weight");
  CHECK(t.aliases.at("cls.predictions.transform.LayerNorm.beta") == "cls.predictions.transform.LayerNorm.bias");
  CHECK(bert_tensors(c, "").tensors.count("embeddings.word_embeddings.weight") == 1);
  for (const char* name : {"bert.pooler.dense.weight", "pooler.dense.bias", "cls.seq_relationship.weight",
                           "embeddings.position_ids", "bert.embeddings.token_type_ids", "cls.predictions.decoder.bias"})
    CHECK(ignored_tensor(c, name));
  CHECK_FALSE(ignored_tensor(c, "cls.predictions.decoder.weight"));
  CHECK_FALSE(ignored_tensor(c, "model.layers.0.self_attn.rotary_emb.inv_freq"));
}
