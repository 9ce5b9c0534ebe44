// libFuzzer over the JSON files that sit beside a model file in a Hugging
// Face folder. Each kind is one entry of `readers` below, run on every
// input: its reader must accept the text or refuse it in one printable line
// (attention::error, nothing else), and what it accepts must then be
// applied to small GPTs, and pass through the CLI, under the CLI's contract
// (contract.hpp). Today the kind is config.json; a folder's
// model.safetensors.index.json (the next issue) is one more entry, with its
// seeds beside config/corpus.
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

// Every kind of file beside a model, each run on every input.
struct reader {
  const char* file;
  void (*run)(const std::string& text);
};
const reader readers[] = {{"config.json", config_json}};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  for (const reader& r : readers) r.run(text);
  return 0;
}
