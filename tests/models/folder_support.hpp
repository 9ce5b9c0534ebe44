// Helpers of the folder tests: small Hugging Face folders written in a
// test (config.json and model.safetensors, or an index and its shards),
// the committed models-v2 and models-v3 folders and their golden traces.
#pragma once

#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model_support.hpp"
#include "models/family_config.hpp"
#include "models/folder_read.hpp"

namespace folder_support {

// The shared folders and their traces: models-v2's (tests/models-v2/,
// tests/golden-models-v2/) and models-v3's (tests/models-v3/, tests/golden-models-v3/).
inline const std::vector<std::string>& golden_folders() {
  static const std::vector<std::string> names = {"llama-gqa", "llama-mha-sharded", "qwen2-bias-bf16", "bert-mlm",
                                                 "bert-base-model-f16", "distilbert-mlm", "distilbert-model-f16",
                                                 "distilbert-untied-bf16"};
  return names;
}
// "v3" or "v2": the spec a shared folder belongs to, by where it is
inline std::string golden_spec(const std::string& name) {
  return std::filesystem::is_directory(test_support::tests_dir() + "/models-v3/" + name) ? "v3" : "v2";
}
inline std::string golden_folder(const std::string& name) {
  return test_support::tests_dir() + "/models-" + golden_spec(name) + "/" + name;
}
inline std::string golden_trace_path(const std::string& name) {
  return test_support::tests_dir() + "/golden-models-" + golden_spec(name) + "/" + name + ".trace.json";
}
inline nlohmann::json golden_trace(const std::string& name) { return test_support::read_json(golden_trace_path(name)); }

// A fresh directory under the system's temporary one, removed with the object.
struct temp_dir {
  std::string path;
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "folder-test-XXXXXX").string();
    path = mkdtemp(pattern.data());
  }
  ~temp_dir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  std::string operator/(const std::string& name) const { return path + "/" + name; }
};

inline void write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

struct folder_builder {
  nlohmann::ordered_json config;
  model_support::file_builder tensors;

  // config.json and model.safetensors into `dir`
  void write_to(const std::string& dir) const {
    write(dir + "/config.json", config.dump());
    write(dir + "/model.safetensors", tensors.bytes());
  }
  // config.json, `shards` files of consecutive tensors and their index
  void write_sharded(const std::string& dir, std::size_t shards) const {
    write(dir + "/config.json", config.dump());
    nlohmann::ordered_json map;
    const std::size_t per = (tensors.tensors.size() + shards - 1) / shards;
    for (std::size_t s = 0; s < shards; ++s) {
      model_support::file_builder part;
      part.metadata = tensors.metadata;  // as Hugging Face writes every shard's
      const std::string file = "model-0000" + std::to_string(s + 1) + "-of-0000" + std::to_string(shards) + ".safetensors";
      for (std::size_t i = s * per; i < std::min(tensors.tensors.size(), (s + 1) * per); ++i) {
        part.tensors.push_back(tensors.tensors[i]);
        map[tensors.tensors[i].name] = file;
      }
      write(dir + "/" + file, part.bytes());
    }
    write(dir + "/model.safetensors.index.json", nlohmann::ordered_json{{"metadata", {}}, {"weight_map", map}}.dump());
  }
  void remove(const std::string& name) {
    auto& t = tensors.tensors;
    t.erase(std::remove_if(t.begin(), t.end(), [&](const auto& x) { return x.name == name; }), t.end());
  }
};

// A small Llama: V 6, Tmax 8, d 8, 2 heads of 4, `kv` key/value heads, 1 layer, intermediate 12, untied.
inline folder_builder small_llama(std::size_t kv = 1) {
  folder_builder f;
  f.config = {{"model_type", "llama"}, {"vocab_size", 6}, {"hidden_size", 8}, {"num_attention_heads", 2},
              {"num_key_value_heads", kv}, {"num_hidden_layers", 1}, {"intermediate_size", 12},
              {"max_position_embeddings", 8}, {"rms_norm_eps", 1e-5}, {"rope_theta", 10000.0},
              {"rope_scaling", nullptr}, {"hidden_act", "silu"}, {"tie_word_embeddings", false}};
  const std::uint64_t k = 4 * kv;
  auto& t = f.tensors;
  t.add("model.embed_tokens.weight", {6, 8});
  t.add("model.layers.0.input_layernorm.weight", {8});
  t.add("model.layers.0.self_attn.q_proj.weight", {8, 8});
  t.add("model.layers.0.self_attn.k_proj.weight", {k, 8});
  t.add("model.layers.0.self_attn.v_proj.weight", {k, 8});
  t.add("model.layers.0.self_attn.o_proj.weight", {8, 8});
  t.add("model.layers.0.post_attention_layernorm.weight", {8});
  t.add("model.layers.0.mlp.gate_proj.weight", {12, 8});
  t.add("model.layers.0.mlp.up_proj.weight", {12, 8});
  t.add("model.layers.0.mlp.down_proj.weight", {8, 12});
  t.add("model.norm.weight", {8});
  t.add("lm_head.weight", {6, 8});
  return f;
}

// A small BERT: V 6, Tmax 8, d 8, 2 heads, 1 layer, intermediate 12; `prefix` "bert." or "",
// its LayerNorms' names (weight/bias or gamma/beta), and the masked-LM head or not.
inline folder_builder small_bert(const std::string& prefix = "bert.", bool head = true, bool gamma_beta = false) {
  folder_builder f;
  f.config = {{"model_type", "bert"}, {"vocab_size", 6}, {"hidden_size", 8}, {"num_attention_heads", 2},
              {"num_hidden_layers", 1}, {"intermediate_size", 12}, {"max_position_embeddings", 8},
              {"type_vocab_size", 2}, {"layer_norm_eps", 1e-12}, {"hidden_act", "gelu"},
              {"position_embedding_type", "absolute"}};
  auto& t = f.tensors;
  const std::string w = gamma_beta ? "gamma" : "weight", b = gamma_beta ? "beta" : "bias";
  const auto norm = [&](const std::string& at) {
    t.add(at + "LayerNorm." + w, {8});
    t.add(at + "LayerNorm." + b, {8});
  };
  const auto linear = [&](const std::string& at, std::uint64_t out, std::uint64_t in) {
    t.add(at + "weight", {out, in});
    t.add(at + "bias", {out});
  };
  const std::string e = prefix + "embeddings.";
  t.add(e + "word_embeddings.weight", {6, 8});
  t.add(e + "position_embeddings.weight", {8, 8});
  t.add(e + "token_type_embeddings.weight", {2, 8});
  norm(e);
  const std::string p = prefix + "encoder.layer.0.";
  for (const char* n : {"query", "key", "value"}) linear(p + "attention.self." + n + ".", 8, 8);
  linear(p + "attention.output.dense.", 8, 8);
  norm(p + "attention.output.");
  linear(p + "intermediate.dense.", 12, 8);
  linear(p + "output.dense.", 8, 12);
  norm(p + "output.");
  if (head) {
    linear("cls.predictions.transform.dense.", 8, 8);
    norm("cls.predictions.transform.");
    t.add("cls.predictions.bias", {6});
  }
  return f;
}

// The folder read as the CLI reads it.
inline attention::loaded_model read(const std::string& dir) {
  return attention::read_folder(dir, attention::read_family_config(attention::read_folder_config(dir)));
}

// The folder written to a temporary directory, then read.
inline attention::loaded_model loaded(const folder_builder& f) {
  temp_dir dir;
  f.write_to(dir.path);
  return read(dir.path);
}

// The file's value at row r, column c of a [rows, cols] tensor (file_builder's float32 values).
inline float value_at(const model_support::file_builder& b, const std::string& name, std::size_t r, std::size_t c) {
  for (const auto& t : b.tensors)
    if (t.name == name) {
      float v;
      std::memcpy(&v, t.bytes.data() + 4 * (r * (t.shape.size() > 1 ? t.shape[1] : t.shape[0]) + c), 4);
      return v;
    }
  throw std::runtime_error("no tensor " + name);
}

// The one line a folder is refused with ("" when it is read).
inline std::string refusal(const std::string& dir) {
  try {
    read(dir);
  } catch (const attention::error& e) {
    return e.what();
  }
  return "";
}

// The folder written, then read: its refusal.
inline std::string refusal(const folder_builder& f) {
  temp_dir dir;
  f.write_to(dir.path);
  return refusal(dir.path);
}

}  // namespace folder_support
