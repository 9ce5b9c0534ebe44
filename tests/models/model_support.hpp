// Helpers of the models tests: the committed model files, their golden
// traces (torch_model.py's), and safetensors files written in the test.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "models/model_stream.hpp"
#include "support.hpp"

namespace model_support {

// The five models of tests/models/ and their golden traces.
inline const std::vector<std::string>& golden_models() {
  static const std::vector<std::string> names = {"hf-bf16-3-layers", "hf-f32", "nano-f16-nobias", "nano-tied-bias",
                                                 "text-gpt"};
  return names;
}

inline std::string model_path(const std::string& name) {
  return test_support::tests_dir() + "/models/" + name + ".safetensors";
}

inline nlohmann::json golden(const std::string& file) {
  return test_support::read_json(test_support::tests_dir() + "/golden-models/" + file);
}

inline std::vector<std::int64_t> golden_tokens(const std::string& name) {
  return golden(name + ".trace.json").at("tokens").get<std::vector<std::int64_t>>();
}

// A safetensors file built in a test: tensors of float32 values, written in order.
struct file_builder {
  struct tensor {
    std::string name, dtype = "F32";
    std::vector<std::uint64_t> shape;
    std::string bytes;
  };
  std::vector<tensor> tensors;
  std::map<std::string, std::string> metadata;

  void add(const std::string& name, const std::vector<std::uint64_t>& shape, const std::vector<float>& values) {
    std::string bytes(values.size() * 4, '\0');
    std::memcpy(bytes.data(), values.data(), bytes.size());
    tensors.push_back({name, "F32", shape, bytes});
  }
  // n values 0.01·k, k = 1, 2, …: distinct, small, finite
  void add(const std::string& name, const std::vector<std::uint64_t>& shape) {
    std::uint64_t n = 1;
    for (std::uint64_t s : shape) n *= s;
    std::vector<float> values(n);
    for (std::uint64_t k = 0; k < n; ++k) values[k] = 0.01f * static_cast<float>((k * 7919) % 97) - 0.4f;
    add(name, shape, values);
  }
  nlohmann::ordered_json header() const {
    nlohmann::ordered_json h;
    std::uint64_t offset = 0;
    for (const tensor& t : tensors) {
      h[t.name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + t.bytes.size()}}};
      offset += t.bytes.size();
    }
    if (!metadata.empty()) h["__metadata__"] = metadata;
    return h;
  }
  // The file with this header text (by default the one header() makes).
  std::string bytes(const std::string& header_text) const {
    std::string out(8, '\0');
    const std::uint64_t n = header_text.size();
    for (int b = 0; b < 8; ++b) out[static_cast<std::size_t>(b)] = static_cast<char>((n >> (8 * b)) & 0xFF);
    out += header_text;
    for (const tensor& t : tensors) out += t.bytes;
    return out;
  }
  std::string bytes() const { return bytes(header().dump()); }
};

// A small nanoGPT-named GPT: V 5, Tmax 4, d 8, 2 heads, 1 layer, MLP 4×, biases, LayerNorms, tied.
inline file_builder small_nano() {
  file_builder f;
  f.add("transformer.wte.weight", {5, 8});
  f.add("transformer.wpe.weight", {4, 8});
  f.add("transformer.h.0.ln_1.weight", {8});
  f.add("transformer.h.0.ln_1.bias", {8});
  f.add("transformer.h.0.attn.c_attn.weight", {24, 8});
  f.add("transformer.h.0.attn.c_attn.bias", {24});
  f.add("transformer.h.0.attn.c_proj.weight", {8, 8});
  f.add("transformer.h.0.attn.c_proj.bias", {8});
  f.add("transformer.h.0.ln_2.weight", {8});
  f.add("transformer.h.0.ln_2.bias", {8});
  f.add("transformer.h.0.mlp.c_fc.weight", {32, 8});
  f.add("transformer.h.0.mlp.c_fc.bias", {32});
  f.add("transformer.h.0.mlp.c_proj.weight", {8, 32});
  f.add("transformer.h.0.mlp.c_proj.bias", {8});
  f.add("transformer.ln_f.weight", {8});
  f.add("transformer.ln_f.bias", {8});
  f.metadata["n_head"] = "2";
  return f;
}

inline attention::loaded_model model_of(const std::string& bytes, const attention::model_overrides& o = {}) {
  std::istringstream in(bytes);
  return attention::read_model(in, bytes.size(), o);
}

// The one line a file is refused with ("" when it is accepted).
inline std::string refusal(const std::string& bytes, const attention::model_overrides& o = {}) {
  try {
    model_of(bytes, o);
  } catch (const attention::error& e) {
    return e.what();
  }
  return "";
}

}  // namespace model_support
