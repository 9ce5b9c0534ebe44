// A folder's tensors against its family and config.json, before any
// allocation: unused, missing and misshapen tensors named, head_dim against
// q_proj, tensors in two shards and a weight_map untrue to its shards
// refused naming both places; BERT's names in all their spellings.
#include <catch2/catch.hpp>

#include "folder_support.hpp"
#include "models/folder_plan.hpp"

using namespace attention;
using folder_support::refusal;
using folder_support::small_bert;
using folder_support::small_llama;
using folder_support::temp_dir;

TEST_CASE("a small Llama, Qwen2 and BERT of every spelling are read", "[folder-plan]") {
  CHECK(refusal(small_llama(1)) == "");
  CHECK(refusal(small_llama(2)) == "");
  CHECK(refusal(small_bert("bert.", true, false)) == "");
  CHECK(refusal(small_bert("", false, false)) == "");
  CHECK(refusal(small_bert("bert.", true, true)) == "");  // gamma and beta
  CHECK(refusal(small_bert("", true, true)) == "");
  auto qwen = small_llama(1);
  qwen.config["model_type"] = "qwen2";
  for (const char* p : {"q", "k", "v"})
    qwen.tensors.add(std::string("model.layers.0.self_attn.") + p + "_proj.bias", {p[0] == 'q' ? 8u : 4u});
  CHECK(refusal(qwen) == "");
}

TEST_CASE("a tensor the architecture does not use is named", "[folder-plan]") {
  auto f = small_llama();
  f.tensors.add("model.layers.0.self_attn.extra.weight", {8});
  CHECK(refusal(f) == "model.layers.0.self_attn.extra.weight: a tensor the llama architecture does not use "
                      "(config.num_hidden_layers is 1)");
  auto beyond = small_llama();
  beyond.tensors.add("model.layers.1.input_layernorm.weight", {8});
  CHECK(refusal(beyond) == "model.layers.1.input_layernorm.weight: a tensor the llama architecture does not use "
                           "(config.num_hidden_layers is 1)");
  auto bert = small_bert();
  bert.tensors.add("cls.predictions.extra", {8});
  CHECK(refusal(bert) == "cls.predictions.extra: a tensor the bert architecture does not use");
  // the spec's ignored tensors are read past, in any dtype
  auto ignored = small_llama();
  ignored.tensors.add("model.layers.0.self_attn.rotary_emb.inv_freq", {2});
  CHECK(refusal(ignored) == "");
  auto pooled = small_bert();
  pooled.tensors.add("bert.pooler.dense.weight", {8, 8});
  pooled.tensors.add("cls.seq_relationship.weight", {2, 8});
  pooled.tensors.add("cls.predictions.decoder.bias", {6});
  pooled.tensors.add("bert.embeddings.position_ids", {1, 8});
  pooled.tensors.tensors.back().dtype = "I64";
  pooled.tensors.tensors.back().bytes = std::string(64, '\0');
  CHECK(refusal(pooled) == "");
}

TEST_CASE("a missing tensor is named", "[folder-plan]") {
  auto f = small_llama();
  f.remove("model.layers.0.mlp.up_proj.weight");
  CHECK(refusal(f) == "model.layers.0.mlp.up_proj.weight: missing");
  auto untied = small_llama();
  untied.remove("lm_head.weight");
  CHECK(refusal(untied) == "lm_head.weight: missing");
  untied.config["tie_word_embeddings"] = true;
  CHECK(refusal(untied) == "");
  auto qwen = small_llama();
  qwen.config["model_type"] = "qwen2";
  CHECK(refusal(qwen) == "model.layers.0.self_attn.k_proj.bias: missing");
  auto bert = small_bert("bert.", true, true);
  bert.remove("cls.predictions.transform.LayerNorm.beta");
  CHECK(refusal(bert) == "cls.predictions.transform.LayerNorm.bias: missing (the masked-LM head's other tensors are "
                         "there)");
  auto plain = small_bert("");
  plain.remove("encoder.layer.0.attention.self.key.bias");
  CHECK(refusal(plain) == "encoder.layer.0.attention.self.key.bias: missing");
}

TEST_CASE("a shape that disagrees with the config names tensor, expected and found", "[folder-plan]") {
  auto f = small_llama();
  f.remove("model.norm.weight");
  f.tensors.add("model.norm.weight", {7});
  CHECK(refusal(f) == "model.norm.weight: shape [7], expected [8] (config's hidden_size)");
  auto k = small_llama(1);
  k.config["num_key_value_heads"] = 2;
  CHECK(refusal(k) == "model.layers.0.self_attn.k_proj.weight: shape [4, 8], expected [8, 8] (config's "
                      "num_key_value_heads 2 · head_dim 4, hidden_size)");
  auto bert = small_bert();
  bert.config["intermediate_size"] = 16;
  CHECK(refusal(bert) == "bert.encoder.layer.0.intermediate.dense.weight: shape [12, 8], expected [16, 8] (config's "
                         "intermediate_size, hidden_size)");
}

TEST_CASE("head_dim inconsistent with the tensors is named", "[folder-plan]") {
  auto f = small_llama();
  f.config["head_dim"] = 6;
  CHECK(refusal(f) == "model.layers.0.self_attn.q_proj.weight: shape [8, 8], expected [12, 8] (config's "
                      "num_attention_heads 2 · head_dim 6, hidden_size)");
}

TEST_CASE("dtypes other than F32, F16 and BF16 are refused for weights", "[folder-plan]") {
  auto f = small_llama();
  f.tensors.tensors[1].dtype = "I32";
  CHECK(refusal(f) == "model.layers.0.input_layernorm.weight: dtype I32, expected F32, F16 or BF16");
}

TEST_CASE("a sharded folder: each tensor in one shard, as its index says", "[folder-plan]") {
  temp_dir dir;
  small_llama().write_sharded(dir.path, 3);
  CHECK(folder_support::refusal(dir.path) == "");
  // a tensor in two shards: both named
  auto twice = small_llama();
  temp_dir two;
  twice.write_sharded(two.path, 2);
  model_support::file_builder extra;
  extra.add("model.norm.weight", {8});
  extra.add("model.embed_tokens.weight", {6, 8});
  folder_support::write(two / "model-00002-of-00002.safetensors", [&] {
    model_support::file_builder b;
    for (std::size_t i = 6; i < twice.tensors.tensors.size(); ++i) b.tensors.push_back(twice.tensors.tensors[i]);
    b.tensors.push_back(extra.tensors[1]);
    return b.bytes();
  }());
  CHECK(folder_support::refusal(two.path) == "model.embed_tokens.weight: in two shards, "
                                             "\"model-00001-of-00002.safetensors\" and \"model-00002-of-00002.safetensors\"");
  // the index untrue to the shards
  temp_dir moved;
  small_llama().write_sharded(moved.path, 2);
  std::string index = test_support::read_text(moved / "model.safetensors.index.json");
  const std::string from = "\"model.norm.weight\":\"model-00002-of-00002.safetensors\"";
  REQUIRE(index.find(from) != std::string::npos);
  folder_support::write(moved / "model.safetensors.index.json",
                        index.replace(index.find(from), from.size(),
                                      "\"model.norm.weight\":\"model-00001-of-00002.safetensors\""));
  CHECK(folder_support::refusal(moved.path) == "model.norm.weight: in \"model-00002-of-00002.safetensors\", but "
                                               "model.safetensors.index.json puts it in \"model-00001-of-00002.safetensors\"");
}

TEST_CASE("Llama's attention_bias requires q, k and v biases; o_proj's is read when present", "[folder-plan]") {
  auto f = small_llama(1);
  f.config["attention_bias"] = true;
  CHECK(refusal(f) == "model.layers.0.self_attn.k_proj.bias: missing");
  for (const char* p : {"q", "k", "v"})
    f.tensors.add(std::string("model.layers.0.self_attn.") + p + "_proj.bias", {p[0] == 'q' ? 8u : 4u});
  CHECK(refusal(f) == "");  // as torch_hf.py random-llama --qkv-bias writes them
  f.tensors.add("model.layers.0.self_attn.o_proj.bias", {8});
  CHECK(refusal(f) == "");
}

TEST_CASE("a skipped tensor is bounded from the config, one number past its bound refused", "[folder-plan]") {
  // small_llama: head_dim 4; small_bert: hidden 8, max_position_embeddings 8, vocab 6
  const auto with = [](folder_support::folder_builder f, const std::string& name, std::vector<std::uint64_t> shape) {
    f.tensors.add(name, shape);
    return refusal(f);
  };
  const std::string inv_freq = "model.layers.0.self_attn.rotary_emb.inv_freq";
  CHECK(with(small_llama(), inv_freq, {4}) == "");
  CHECK(with(small_llama(), inv_freq, {5}) ==
        inv_freq + ": 5 numbers, beyond the 4 this skipped buffer may hold (config's head_dim 4)");
  CHECK(with(small_bert(), "bert.pooler.dense.weight", {8, 8}) == "");
  CHECK(with(small_bert(), "bert.pooler.dense.weight", {65}) ==
        "bert.pooler.dense.weight: 65 numbers, beyond the 64 this skipped buffer may hold (config's hidden_size 8 "
        "squared)");
  CHECK(with(small_bert(""), "embeddings.position_ids", {1, 8}) == "");
  CHECK(with(small_bert(""), "embeddings.position_ids", {1, 9}) ==
        "embeddings.position_ids: 9 numbers, beyond the 8 this skipped buffer may hold (config's "
        "max_position_embeddings 8)");
  CHECK(with(small_bert(), "cls.seq_relationship.weight", {2, 8}) == "");
  CHECK_THAT(with(small_bert(), "cls.seq_relationship.bias", {17}), Catch::Contains("beyond the 16"));
  CHECK(with(small_bert(), "cls.predictions.decoder.bias", {6}) == "");
  CHECK_THAT(with(small_bert(), "cls.predictions.decoder.bias", {7}), Catch::Contains("(config's vocab_size 6)"));
}

TEST_CASE("the skipped buffers together are bounded: many pooler-sized names are refused", "[folder-plan]") {
  // each pooler.* name within d², but 4 of them past what one pooler, one next-sentence
  // head, position_ids, token_type_ids and the decoder's bias hold together (64 + 8 + 16 + 2 + 16 + 6 = 112)
  auto f = small_bert();
  for (int i = 0; i < 4; ++i) f.tensors.add("bert.pooler.x" + std::to_string(i), {8, 8});
  CHECK(refusal(f) == "bert.pooler.x1: the skipped buffers reach 128 numbers with it, beyond the 112 the config's "
                      "buffers hold together");
  auto one = small_bert();
  one.tensors.add("bert.pooler.dense.weight", {8, 8});
  one.tensors.add("bert.pooler.dense.bias", {8});
  one.tensors.add("cls.seq_relationship.weight", {2, 8});
  one.tensors.add("cls.seq_relationship.bias", {2});
  one.tensors.add("cls.predictions.decoder.bias", {6});
  CHECK(refusal(one) == "");
}
