#include "formats/model_file.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors/utf8.hpp"

namespace attention {
namespace {

// One tensor of the file: its name, shape and float32 values, row-major.
struct entry {
  std::string name;
  std::vector<std::size_t> shape;
  std::vector<float> data;
};

// [in, out] as nn.Linear stores it: [out, in].
std::vector<float> transposed(const tensor2& w) {
  const std::size_t in = w.shape(0), out = w.shape(1);
  std::vector<float> t(in * out);
  for (std::size_t i = 0; i < in; ++i)
    for (std::size_t o = 0; o < out; ++o) t[o * in + i] = w(i, o);
  return t;
}

std::vector<float> values(const tensor2& t) { return {t.data(), t.data() + t.size()}; }

void add_linear(std::vector<entry>& list, const std::string& name, const tensor2& w, const tensor2& bias, bool biased) {
  list.push_back({name + ".weight", {w.shape(1), w.shape(0)}, transposed(w)});
  if (biased) list.push_back({name + ".bias", {bias.size()}, values(bias)});
}

void add_norm(std::vector<entry>& list, const std::string& name, const layer_norm_weights& ln) {
  if (ln.weight.size() == 0) return;
  list.push_back({name + ".weight", {ln.weight.size()}, values(ln.weight)});
  list.push_back({name + ".bias", {ln.bias.size()}, values(ln.bias)});
}

std::vector<entry> tensors_of(const model_weights& w, const model_spec& m) {
  std::vector<entry> list;
  list.push_back({"transformer.wte.weight", {w.tok.floats().shape(0), w.tok.floats().shape(1)}, values(w.tok.floats())});
  list.push_back({"transformer.wpe.weight", {w.pos.shape(0), w.pos.shape(1)}, values(w.pos)});
  const std::size_t d = m.embed;
  for (std::size_t i = 0; i < w.layers.size(); ++i) {
    const model_layer& layer = w.layers[i];
    const std::string p = "transformer.h." + std::to_string(i) + ".";
    // c_attn: [3d, d], rows [q of every head | k | v]
    entry attn{p + "attn.c_attn.weight", {3 * d, d}, {}};
    entry attn_bias{p + "attn.c_attn.bias", {3 * d}, {}};
    for (int part = 0; part < 3; ++part)
      for (const model_head& head : layer.heads) {
        const tensor2& weight = part == 0 ? head.query : part == 1 ? head.key : head.value;
        const std::vector<float> rows = transposed(weight);
        attn.data.insert(attn.data.end(), rows.begin(), rows.end());
        const tensor2& bias = part == 0 ? head.query_bias : head.value_bias;
        if (part == 1) attn_bias.data.insert(attn_bias.data.end(), weight.shape(1), 0.0f);  // no key bias
        else attn_bias.data.insert(attn_bias.data.end(), bias.data(), bias.data() + bias.size());
      }
    list.push_back(std::move(attn));
    if (m.biases.query) list.push_back(std::move(attn_bias));
    add_linear(list, p + "attn.c_proj", layer.proj.floats(), layer.proj_bias, m.biases.proj);
    add_norm(list, p + "ln_1", layer.ln1);
    add_norm(list, p + "ln_2", layer.ln2);
    if (m.mlp.kind != mlp_kind::none) {  // both weights, then both biases: torch_train.py's order, so the files match byte for byte in layout
      add_linear(list, p + "mlp.c_fc", layer.fc.floats(), tensor2(), false);
      add_linear(list, p + "mlp.c_proj", layer.fc2.floats(), tensor2(), false);
      if (m.biases.fc) {
        list.push_back({p + "mlp.c_fc.bias", {layer.fc_bias.size()}, values(layer.fc_bias)});
        list.push_back({p + "mlp.c_proj.bias", {layer.fc2_bias.size()}, values(layer.fc2_bias)});
      }
    }
  }
  add_norm(list, "transformer.ln_f", w.ln_f);
  add_linear(list, "lm_head", w.unembed.floats(), w.unembed_bias, m.biases.unembed);
  return list;
}

}  // namespace

void write_model_file(std::ostream& out, const training_file& file, const training_run& run) {
  const model_spec& m = run.model();
  const std::vector<entry> list = tensors_of(run.weights(), m);
  nlohmann::ordered_json header;
  std::uint64_t offset = 0;
  for (const entry& e : list) {
    const std::uint64_t bytes = e.data.size() * sizeof(float);
    header[e.name] = {{"dtype", "F32"}, {"shape", e.shape}, {"data_offsets", {offset, offset + bytes}}};
    offset += bytes;
  }
  nlohmann::ordered_json meta = {{"n_head", std::to_string(m.heads)}, {"activation", activation_name(m.mlp.activation)},
                                 {"source", file.id}};
  if (const auto& text = file.spec.task.text) {
    std::vector<std::string> chars;
    for (char32_t c : text->chars) chars.push_back(utf8_of(c));
    meta["vocab"] = nlohmann::json(chars).dump();
  }
  header["__metadata__"] = meta;
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');  // the data starts 8-byte aligned
  const std::uint64_t n = text.size();
  for (int byte = 0; byte < 8; ++byte) out.put(static_cast<char>((n >> (8 * byte)) & 0xFF));  // little-endian
  out << text;
  for (const entry& e : list)  // float32 little-endian: the byte order of x86 and wasm alike
    out.write(reinterpret_cast<const char*>(e.data.data()), static_cast<std::streamsize>(e.data.size() * sizeof(float)));
}

}  // namespace attention
