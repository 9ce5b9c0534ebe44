// A plan's biases read into the block description, part by part: a GPT
// file's (c_attn's holding the key's), nanoGPT's bias=False with none, a
// family's given ones, and a part whose bias some layer lacks refused in
// one line naming the weight.
#include <catch2/catch.hpp>

#include "folder_support.hpp"
#include "model_support.hpp"
#include "models/plan_biases.hpp"

using namespace attention;
using model_support::file_builder;

namespace {

// A Hugging Face GPT (Conv1D) of V 6, Tmax 3, d 4, 2 layers, MLP 2×, untied, every bias.
file_builder two_layers() {
  file_builder f;
  f.add("wte.weight", {6, 4});
  f.add("wpe.weight", {3, 4});
  for (const std::string p : {"h.0.", "h.1."}) {
    f.add(p + "ln_1.weight", {4});
    f.add(p + "ln_1.bias", {4});
    f.add(p + "attn.c_attn.weight", {4, 12});
    f.add(p + "attn.c_attn.bias", {12});
    f.add(p + "attn.c_proj.weight", {4, 4});
    f.add(p + "attn.c_proj.bias", {4});
    f.add(p + "ln_2.weight", {4});
    f.add(p + "ln_2.bias", {4});
    f.add(p + "mlp.c_fc.weight", {4, 8});
    f.add(p + "mlp.c_fc.bias", {8});
    f.add(p + "mlp.c_proj.weight", {8, 4});
    f.add(p + "mlp.c_proj.bias", {4});
  }
  f.add("ln_f.weight", {4});
  f.add("ln_f.bias", {4});
  f.add("lm_head.weight", {6, 4});
  f.metadata["n_head"] = "2";
  return f;
}

file_builder without(file_builder f, const std::vector<std::string>& names) {
  auto& t = f.tensors;
  for (const std::string& name : names)
    t.erase(std::remove_if(t.begin(), t.end(), [&](const auto& x) { return x.name == name; }), t.end());
  return f;
}

model_spec spec_of_file(const file_builder& f) {
  return plan_model(read_safetensors_header(f.header().dump(), f.bytes().size())).spec;
}

std::string refusal(const file_builder& f) {
  try {
    spec_of_file(f);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a GPT file's biases, part by part: c_attn's holds the key's", "[plan-biases]") {
  const bias_spec b = spec_of_file(two_layers()).biases;
  CHECK(b.query);
  CHECK(b.key);  // what training never has
  CHECK(b.value);
  CHECK(b.proj);
  CHECK(b.fc);
  CHECK(b.fc2);
  CHECK(b.norm);
  CHECK_FALSE(b.transform);
  CHECK_FALSE(b.unembed);  // no lm_head.bias
  file_builder with_unembed = two_layers();
  with_unembed.add("lm_head.bias", {6});
  CHECK(spec_of_file(with_unembed).biases.unembed);
}

TEST_CASE("nanoGPT's bias=False: no part has a bias, LayerNorms a weight only", "[plan-biases]") {
  std::vector<std::string> biases;
  for (const auto& t : two_layers().tensors)
    if (t.name.size() > 5 && t.name.compare(t.name.size() - 5, 5, ".bias") == 0) biases.push_back(t.name);
  const bias_spec b = spec_of_file(without(two_layers(), biases)).biases;
  CHECK_FALSE(b.any_linear());
  CHECK_FALSE(b.norm);
  // one part without: the others keep theirs
  const bias_spec p = spec_of_file(without(two_layers(), {"h.0.attn.c_proj.bias", "h.1.attn.c_proj.bias"})).biases;
  CHECK_FALSE(p.proj);
  CHECK(p.query);
  CHECK(p.fc2);
}

TEST_CASE("a part's bias in some layers only is refused, naming the weight without it", "[plan-biases]") {
  CHECK(refusal(without(two_layers(), {"h.1.attn.c_proj.bias"})) ==
        "h.1.attn.c_proj.weight: no bias beside it, where h.0.attn.c_proj.bias is given (a part's biases are every "
        "layer's or none)");
  CHECK(refusal(without(two_layers(), {"h.0.attn.c_attn.bias"})) ==
        "h.0.attn.c_attn.weight: no bias beside it, where h.1.attn.c_attn.bias is given (a part's biases are every "
        "layer's or none)");
  CHECK(refusal(without(two_layers(), {"ln_f.bias"})) ==
        "ln_f.weight: no bias beside it, where h.0.ln_1.bias is given (a part's biases are every layer's or none)");
}

TEST_CASE("a family's biases: BERT's every part, a Llama's none, a Qwen2's q, k and v", "[plan-biases]") {
  const loaded_model bert = folder_support::loaded(folder_support::small_bert());
  const bias_spec b = bert.spec.biases;
  CHECK((b.query && b.key && b.value && b.proj && b.fc && b.fc2 && b.norm && b.transform && b.unembed));
  const bias_spec l = folder_support::loaded(folder_support::small_llama()).spec.biases;
  CHECK_FALSE(l.any_linear());
  CHECK_FALSE(l.norm);  // RMSNorm
  folder_support::folder_builder qwen = folder_support::small_llama();
  qwen.config["model_type"] = "qwen2";
  qwen.tensors.add("model.layers.0.self_attn.q_proj.bias", {8});
  qwen.tensors.add("model.layers.0.self_attn.k_proj.bias", {4});
  qwen.tensors.add("model.layers.0.self_attn.v_proj.bias", {4});
  const bias_spec q = folder_support::loaded(qwen).spec.biases;
  CHECK((q.query && q.key && q.value));
  CHECK_FALSE(q.proj);
  CHECK_FALSE(q.fc);
}
