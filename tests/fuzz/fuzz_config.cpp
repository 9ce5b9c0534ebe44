// libFuzzer over the JSON files that sit beside a model file in a Hugging
// Face folder. Each kind is one entry of `readers` below, run on every
// input: its reader must accept the text or refuse it in one printable line
// (attention::error, nothing else), and what it accepts must then be
// applied to small GPTs, and pass through the CLI, under the CLI's contract
// (contract.hpp): config.json beside a GPT-2 file (hf_config), config.json
// of a models-v2 folder (family_config, then small Llama and BERT folders
// read and run with it) and model.safetensors.index.json (a sharded Llama
// folder validated with it). Their seeds share config/corpus.
#include <sys/stat.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "contract.hpp"
#include "errors/check.hpp"
#include "formats/safetensors_index.hpp"
#include "models/family_config.hpp"
#include "models/hf_config.hpp"
#include "models/model_plan.hpp"

namespace {

bool printable_line(const char* what) { return fuzz::one_printable_line(std::string(what) + "\n"); }

// A safetensors file of float32 tensors (each number 0.01), in the given order.
std::string model_file(const std::vector<std::pair<std::string, std::vector<std::uint64_t>>>& tensors) {
  nlohmann::ordered_json header;
  std::uint64_t offset = 0;
  for (const auto& [name, shape] : tensors) {
    std::uint64_t n = 4;
    for (std::uint64_t s : shape) n *= s;
    header[name] = {{"dtype", "F32"}, {"shape", shape}, {"data_offsets", {offset, offset + n}}};
    offset += n;
  }
  header["__metadata__"] = {{"n_head", "2"}};
  const std::string text = header.dump();
  std::string bytes(8, '\0');
  for (int b = 0; b < 8; ++b) bytes[static_cast<std::size_t>(b)] = static_cast<char>((text.size() >> (8 * b)) & 0xFF);
  bytes += text;
  const float value = 0.01f;
  for (std::uint64_t i = 0; i < offset / 4; ++i) bytes.append(reinterpret_cast<const char*>(&value), 4);
  return bytes;
}

// GPTs a config.json is applied to: Hugging Face's layout (V 5, Tmax 4, d 4,
// one block, MLP 2×, LayerNorms) and one without blocks.
const std::vector<std::string>& models() {
  static const std::vector<std::string> files = {
      model_file({{"wte.weight", {5, 4}}, {"wpe.weight", {4, 4}}, {"h.0.ln_1.weight", {4}}, {"h.0.ln_1.bias", {4}},
                  {"h.0.attn.bias", {1, 1, 4, 4}}, {"h.0.attn.c_attn.weight", {4, 12}}, {"h.0.attn.c_attn.bias", {12}},
                  {"h.0.attn.c_proj.weight", {4, 4}}, {"h.0.ln_2.weight", {4}}, {"h.0.ln_2.bias", {4}},
                  {"h.0.mlp.c_fc.weight", {4, 8}}, {"h.0.mlp.c_proj.weight", {8, 4}}, {"ln_f.weight", {4}},
                  {"ln_f.bias", {4}}}),
      model_file({{"wte.weight", {5, 4}}, {"wpe.weight", {4, 4}}})};
  return files;
}

// config.json: overrides, then each model planned with them, then the CLI on
// each model with the text as --config: validate, and model when it planned.
void config_json(const std::string& text) {
  attention::model_overrides overrides;
  try {
    overrides = attention::read_hf_config(text);
  } catch (const attention::error& e) {
    if (!printable_line(e.what())) __builtin_trap();
    return;
  }
  static const std::string path = "/tmp/fuzz-config-" + std::to_string(getpid()) + ".json";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  for (const std::string& bytes : models()) {
    bool planned = true;
    try {
      const std::uint64_t n = attention::safetensors_header_length(
          reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), bytes.size());
      attention::plan_model(attention::read_safetensors_header(bytes.substr(8, n), bytes.size()), overrides);
    } catch (const attention::error& e) {
      if (!printable_line(e.what())) __builtin_trap();
      planned = false;
    }
    const int valid = fuzz::run_cli_checked({"validate", "-", "--config", path.c_str()}, bytes);
    if ((valid == 0) != planned) __builtin_trap();  // the CLI says what the plan says
    if (planned) fuzz::run_cli_checked({"model", "-", "--tokens", "0,1,2", "--config", path.c_str()}, bytes);
  }
}

// A folder under /tmp for this process, with these files.
std::string folder_with(const std::string& kind, const std::vector<std::pair<std::string, std::string>>& files) {
  const std::string dir = "/tmp/fuzz-folder-" + std::to_string(getpid()) + "-" + kind;
  mkdir(dir.c_str(), 0700);
  for (const auto& [name, bytes] : files) std::ofstream(dir + "/" + name, std::ios::binary | std::ios::trunc) << bytes;
  return dir;
}

// A Llama (V 5, Tmax 4, d 4, 2 heads of 2 sharing one key/value head, one
// layer, intermediate 8, tied) as its tensors.
const std::vector<std::pair<std::string, std::vector<std::uint64_t>>>& llama_tensors() {
  static const std::vector<std::pair<std::string, std::vector<std::uint64_t>>> t = {
      {"model.embed_tokens.weight", {5, 4}}, {"model.layers.0.input_layernorm.weight", {4}},
      {"model.layers.0.self_attn.q_proj.weight", {4, 4}}, {"model.layers.0.self_attn.k_proj.weight", {2, 4}},
      {"model.layers.0.self_attn.v_proj.weight", {2, 4}}, {"model.layers.0.self_attn.o_proj.weight", {4, 4}},
      {"model.layers.0.post_attention_layernorm.weight", {4}}, {"model.layers.0.mlp.gate_proj.weight", {8, 4}},
      {"model.layers.0.mlp.up_proj.weight", {8, 4}}, {"model.layers.0.mlp.down_proj.weight", {4, 8}},
      {"model.norm.weight", {4}}};
  return t;
}

// Folders a models-v2 config.json is tried in: that Llama, and a BERT
// without prefix or head (V 5, Tmax 4, d 4, 2 heads, one layer, intermediate 8).
const std::vector<std::string>& family_folders() {
  static const std::vector<std::string> folders = {
      folder_with("llama", {{"model.safetensors", model_file(llama_tensors())}}),
      folder_with("bert", {{"model.safetensors",
                            model_file({{"embeddings.word_embeddings.weight", {5, 4}},
                                        {"embeddings.position_embeddings.weight", {4, 4}},
                                        {"embeddings.token_type_embeddings.weight", {2, 4}},
                                        {"embeddings.LayerNorm.weight", {4}}, {"embeddings.LayerNorm.bias", {4}},
                                        {"encoder.layer.0.attention.self.query.weight", {4, 4}},
                                        {"encoder.layer.0.attention.self.query.bias", {4}},
                                        {"encoder.layer.0.attention.self.key.weight", {4, 4}},
                                        {"encoder.layer.0.attention.self.key.bias", {4}},
                                        {"encoder.layer.0.attention.self.value.weight", {4, 4}},
                                        {"encoder.layer.0.attention.self.value.bias", {4}},
                                        {"encoder.layer.0.attention.output.dense.weight", {4, 4}},
                                        {"encoder.layer.0.attention.output.dense.bias", {4}},
                                        {"encoder.layer.0.attention.output.LayerNorm.gamma", {4}},
                                        {"encoder.layer.0.attention.output.LayerNorm.beta", {4}},
                                        {"encoder.layer.0.intermediate.dense.weight", {8, 4}},
                                        {"encoder.layer.0.intermediate.dense.bias", {8}},
                                        {"encoder.layer.0.output.dense.weight", {4, 8}},
                                        {"encoder.layer.0.output.dense.bias", {4}},
                                        {"encoder.layer.0.output.LayerNorm.weight", {4}},
                                        {"encoder.layer.0.output.LayerNorm.bias", {4}}})}})};
  return folders;
}

// config.json of a models-v2 folder: read_family_config accepts it or
// refuses it in one line; then each folder read with it by the CLI
// (validate agrees with the reader's refusal; model runs where validate passed).
void family_config_json(const std::string& text) {
  try {
    attention::read_family_config(text);
  } catch (const attention::error& e) {
    if (!printable_line(e.what())) __builtin_trap();
    for (const std::string& dir : family_folders()) {
      std::ofstream(dir + "/config.json", std::ios::binary | std::ios::trunc) << text;
      if (fuzz::run_cli_checked({"validate", dir.c_str()}, "") == 0) __builtin_trap();  // the CLI refuses it too
    }
    return;
  }
  for (const std::string& dir : family_folders()) {
    std::ofstream(dir + "/config.json", std::ios::binary | std::ios::trunc) << text;
    if (fuzz::run_cli_checked({"validate", dir.c_str()}, "") == 0)
      fuzz::run_cli_checked({"model", dir.c_str(), "--tokens", "0,1,2"}, "");
  }
}

// model.safetensors.index.json: read_safetensors_index accepts it or
// refuses it in one line; then the Llama split into a.safetensors and
// b.safetensors is validated with it as its index.
void index_json(const std::string& text) {
  bool read = true;
  try {
    attention::read_safetensors_index(text);
  } catch (const attention::error& e) {
    if (!printable_line(e.what())) __builtin_trap();
    read = false;
  }
  static const std::string dir = [] {
    const auto& t = llama_tensors();
    const std::vector<std::pair<std::string, std::vector<std::uint64_t>>> a(t.begin(), t.begin() + 6), b(t.begin() + 6, t.end());
    return folder_with("shards", {{"config.json", R"({"model_type": "llama", "vocab_size": 5, "hidden_size": 4,
        "num_attention_heads": 2, "num_key_value_heads": 1, "num_hidden_layers": 1, "intermediate_size": 8,
        "max_position_embeddings": 4, "tie_word_embeddings": true})"},
                                  {"a.safetensors", model_file(a)}, {"b.safetensors", model_file(b)}});
  }();
  std::ofstream(dir + "/model.safetensors.index.json", std::ios::binary | std::ios::trunc) << text;
  const int valid = fuzz::run_cli_checked({"validate", dir.c_str()}, "");
  if (valid == 0 && !read) __builtin_trap();  // a refused index never validates a folder
}

// Every kind of file beside a model, each run on every input.
struct reader {
  const char* file;
  void (*run)(const std::string& text);
};
const reader readers[] = {{"config.json", config_json},
                          {"config.json (models-v2)", family_config_json},
                          {"model.safetensors.index.json", index_json}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const reader& r : readers) r.run(text);
  return 0;
}
