// A header read as a GPT: the names of both schemes, the layout, every shape
// against the others, the metadata and the limits, each refusal one line
// naming the tensor or the field, all before any weight is allocated.
#include <catch2/catch.hpp>

#include "formats/limits.hpp"
#include "model_support.hpp"
#include "models/model_plan.hpp"

using namespace attention;
using model_support::file_builder;
using model_support::refusal;

namespace {

model_config config_of(const file_builder& f, const model_overrides& o = {}) {
  const std::string bytes = f.bytes();
  const std::string header = f.header().dump();
  return plan_model(read_safetensors_header(header, bytes.size()), o).config;
}

// A Hugging Face GPT (Conv1D, no prefix) of V 6, Tmax 3, d 4, 1 layer, MLP 2×, untied.
file_builder small_hf() {
  file_builder f;
  f.add("wte.weight", {6, 4});
  f.add("wpe.weight", {3, 4});
  f.add("h.0.ln_1.weight", {4});
  f.add("h.0.ln_1.bias", {4});
  f.add("h.0.attn.bias", {1, 1, 3, 3});  // a buffer: ignored
  f.add("h.0.attn.c_attn.weight", {4, 12});
  f.add("h.0.attn.c_attn.bias", {12});
  f.add("h.0.attn.c_proj.weight", {4, 4});
  f.add("h.0.attn.c_proj.bias", {4});
  f.add("h.0.ln_2.weight", {4});
  f.add("h.0.ln_2.bias", {4});
  f.add("h.0.mlp.c_fc.weight", {4, 8});
  f.add("h.0.mlp.c_fc.bias", {8});
  f.add("h.0.mlp.c_proj.weight", {8, 4});
  f.add("h.0.mlp.c_proj.bias", {4});
  f.add("ln_f.weight", {4});
  f.add("ln_f.bias", {4});
  f.add("lm_head.weight", {6, 4});
  f.metadata["n_head"] = "2";
  return f;
}

// f without the tensor called `name`
file_builder without(file_builder f, const std::string& name) {
  for (auto it = f.tensors.begin(); it != f.tensors.end(); ++it)
    if (it->name == name) {
      f.tensors.erase(it);
      return f;
    }
  FAIL("no tensor " << name);
  return f;
}

file_builder reshaped(file_builder f, const std::string& name, const std::vector<std::uint64_t>& shape) {
  f = without(f, name);
  f.add(name, shape);
  return f;
}

}  // namespace

TEST_CASE("both schemes: nanoGPT's nn.Linear and Hugging Face's Conv1D", "[model-plan]") {
  const model_config nano = config_of(model_support::small_nano());
  CHECK_FALSE(nano.conv1d);
  CHECK(nano.vocab == 5);
  CHECK(nano.length == 4);
  CHECK(nano.embed == 8);
  CHECK(nano.heads == 2);
  CHECK(nano.layers == 1);
  CHECK(nano.mlp_width == 32);
  CHECK(nano.norm);
  CHECK(nano.bias);
  CHECK(nano.tied);
  CHECK(nano.activation == activation_kind::gelu);  // nanoGPT's nn.GELU()
  CHECK(nano.parameters == 40 + 32 + 8 + 8 + 192 + 24 + 64 + 8 + 16 + 256 + 32 + 256 + 8 + 16);
  const model_config hf = config_of(small_hf());
  CHECK(hf.conv1d);
  CHECK_FALSE(hf.tied);
  CHECK(hf.activation == activation_kind::gelu_tanh);  // GPT-2's
  CHECK(hf.parameters == 24 + 12 + 8 + 48 + 12 + 16 + 4 + 8 + 32 + 8 + 32 + 4 + 8 + 24);  // not the buffer
  CHECK(hf.tokenizer == tokenizer_kind::ids);
}

TEST_CASE("shapes are checked against each other, naming the tensor as the file does", "[model-plan]") {
  // the spec's own example: a Conv1D c_attn given in nn.Linear's shape in a Conv1D file
  file_builder f = small_hf();
  f.add("h.1.attn.c_attn.weight", {12, 4});
  f.add("h.1.attn.c_proj.weight", {4, 4});
  f.add("h.1.ln_1.weight", {4});
  f.add("h.1.ln_2.weight", {4});
  f.add("h.1.mlp.c_fc.weight", {4, 8});
  f.add("h.1.mlp.c_proj.weight", {8, 4});
  CHECK(refusal(f.bytes()) == "h.1.attn.c_attn.weight: shape [12, 4], expected [4, 12]");
  CHECK(refusal(reshaped(model_support::small_nano(), "transformer.wpe.weight", {4, 7}).bytes()) ==
        "transformer.wpe.weight: shape [4, 7], expected [4, 8]");
  CHECK(refusal(reshaped(model_support::small_nano(), "transformer.wte.weight", {40}).bytes()) ==
        "transformer.wte.weight: shape [40], expected rank 2");
  CHECK(refusal(reshaped(model_support::small_nano(), "transformer.h.0.attn.c_attn.bias", {23}).bytes()) ==
        "transformer.h.0.attn.c_attn.bias: shape [23], expected [24]");
  CHECK(refusal(reshaped(small_hf(), "lm_head.weight", {6, 5}).bytes()) == "lm_head.weight: shape [6, 5], expected [6, 4]");
}

TEST_CASE("every tensor is used, none is unknown, none missing or given twice", "[model-plan]") {
  file_builder f = model_support::small_nano();
  f.add("transformer.h.0.attn.rotary.inv_freq", {4});
  CHECK(refusal(f.bytes()) == "transformer.h.0.attn.rotary.inv_freq: unknown tensor");
  f = model_support::small_nano();
  f.add("model.layers.0.self_attn.q_proj.weight", {8, 8});  // a Llama's name
  CHECK(refusal(f.bytes()) == "model.layers.0.self_attn.q_proj.weight: unknown tensor");
  f = model_support::small_nano();
  f.add("wte.weight", {5, 8});  // the same tensor with and without the prefix
  CHECK(refusal(f.bytes()) == "wte.weight: given twice (transformer.wte.weight)");
  CHECK(refusal(without(model_support::small_nano(), "transformer.wpe.weight").bytes()) == "wpe.weight: missing");
  CHECK(refusal(without(model_support::small_nano(), "transformer.h.0.attn.c_proj.weight").bytes()) ==
        "h.0.attn.c_proj.weight: missing");
  f = model_support::small_nano();
  f.add("transformer.h.2.attn.c_attn.weight", {24, 8});
  CHECK(refusal(f.bytes()) == "h.1: missing (layers must be numbered 0, 1, 2, ...)");
  f = model_support::small_nano();
  f.add("transformer.h.01.attn.c_attn.weight", {24, 8});
  CHECK(refusal(f.bytes()) == "transformer.h.01.attn.c_attn.weight: unknown tensor");
  f = model_support::small_nano();
  f.add("transformer.h.99999999999.ln_1.weight", {8});
  CHECK(refusal(f.bytes()) == "transformer.h.99999999999.ln_1.weight: layer beyond the limit of 256 layers");
  CHECK(refusal(without(model_support::small_nano(), "transformer.h.0.mlp.c_fc.weight").bytes()) ==
        "h.0.mlp: needs both c_fc.weight and c_proj.weight, or neither");
  f = without(without(model_support::small_nano(), "transformer.h.0.mlp.c_fc.weight"), "transformer.h.0.mlp.c_proj.weight");
  CHECK(refusal(f.bytes()) == "transformer.h.0.mlp.c_fc.bias: a bias without its weight");
}

TEST_CASE("LayerNorm is the whole model's or none; biases may be absent", "[model-plan]") {
  CHECK(refusal(without(model_support::small_nano(), "transformer.h.0.ln_1.bias").bytes()).empty());  // bias=False
  CHECK(refusal(without(without(model_support::small_nano(), "transformer.h.0.ln_1.bias"),
                        "transformer.h.0.ln_1.weight").bytes()) ==
        "h.0.ln_1.weight: missing (the model has LayerNorms: every block needs ln_1, ln_2 before its MLP, and ln_f)");
  CHECK(refusal(without(without(model_support::small_nano(), "transformer.ln_f.bias"), "transformer.ln_f.weight").bytes()) ==
        "h.0.ln_1.weight: a LayerNorm in a model without ln_f (LayerNorms are the whole model's or none)");
  CHECK(refusal(without(model_support::small_nano(), "transformer.ln_f.weight").bytes()) ==
        "transformer.ln_f.bias: a bias without its weight");
}

TEST_CASE("metadata: n_head, activation, vocabulary, tokenizer", "[model-plan]") {
  file_builder f = model_support::small_nano();
  f.metadata["n_head"] = "3";
  CHECK(refusal(f.bytes()) == "__metadata__.n_head: \"3\" is not a positive integer dividing embed 8");
  f.metadata["n_head"] = "02";
  CHECK(refusal(f.bytes()) == "__metadata__.n_head: \"02\" is not a positive integer dividing embed 8");
  f.metadata.erase("n_head");
  CHECK(refusal(f.bytes()) == "__metadata__.n_head: absent, and embed 8 is not a multiple of 64 (GPT-2's head size)");
  f.metadata["n_head"] = "4";
  f.metadata["activation"] = "swish";
  CHECK(refusal(f.bytes()) == "__metadata__.activation: unknown \"swish\" (relu, gelu or gelu_tanh)");
  f.metadata["activation"] = "relu";
  CHECK(config_of(f).activation == activation_kind::relu);
  f.metadata["vocab"] = R"(["a","b","c","d"])";
  CHECK(refusal(f.bytes()) == "__metadata__.vocab: expected a JSON list of 5 strings");
  f.metadata["vocab"] = R"(["a","b","c","d",5])";
  CHECK(refusal(f.bytes()) == "__metadata__.vocab: expected a JSON list of 5 strings");
  f.metadata["vocab"] = R"(["a","b","c","d")";
  CHECK_THAT(refusal(f.bytes()), Catch::StartsWith("__metadata__.vocab: not valid JSON at line 1"));
  f.metadata["vocab"] = R"(["a","b","c","d","\n"])";
  const model_config c = config_of(f);
  CHECK(c.tokenizer == tokenizer_kind::characters);
  CHECK(c.vocabulary.back() == "\n");
  f.metadata["tokenizer"] = "gpt2";
  CHECK(refusal(f.bytes()) == "__metadata__: both vocab and tokenizer; a model has one tokenizer");
  f.metadata.erase("vocab");
  CHECK(refusal(f.bytes()) ==
        "__metadata__.tokenizer: \"gpt2\" needs a vocabulary of at least 50257 tokens, the model has 5");
  f.metadata["tokenizer"] = "llama";
  CHECK(refusal(f.bytes()) == "__metadata__.tokenizer: unknown \"llama\" (gpt2)");
  f.metadata.erase("tokenizer");
  f.metadata["format"] = "pt";  // Hugging Face's: ignored
  CHECK(refusal(f.bytes()).empty());
}

TEST_CASE("config.json overrides the metadata and must agree with the file", "[model-plan]") {
  file_builder f = model_support::small_nano();
  model_overrides o;
  o.heads = 4;
  o.activation = activation_kind::gelu_tanh;
  const model_config c = config_of(f, o);
  CHECK(c.heads == 4);
  CHECK(c.activation == activation_kind::gelu_tanh);
  o.heads = 3;
  CHECK(refusal(f.bytes(), o) == "config.n_head: 3 does not divide embed 8");
  o = {};
  o.embed = 768;
  CHECK(refusal(f.bytes(), o) == "config.n_embd: 768, but the file's embedding (wte.weight's columns) is 8");
  o = {};
  o.layers = 12;
  CHECK(refusal(f.bytes(), o) == "config.n_layer: 12, but the file's number of blocks is 1");
  f.metadata.erase("n_head");  // config.json's n_head stands in for the metadata's
  o = {};
  o.heads = 2;
  CHECK(config_of(f, o).heads == 2);
}

TEST_CASE("limits are checked on the header, before any allocation", "[model-plan]") {
  // a GPT-2-sized vocabulary beyond the limit, declared but never allocated
  file_builder f;
  f.tensors.push_back({"wte.weight", "F32", {limits::models::vocab + 1, 1}, std::string((limits::models::vocab + 1) * 4, '\0')});
  f.add("wpe.weight", {1, 1});
  f.metadata["n_head"] = "1";
  CHECK(refusal(f.bytes()) == "wte.weight: a vocabulary of 262145 tokens, beyond the limit of 262144");
  // a parameter count past 2 GiB of float32: the header alone says so (the data is not even there)
  file_builder big;
  big.tensors.push_back({"wte.weight", "F16", {65536, 8192}, ""});
  big.add("wpe.weight", {1, 8192});
  const std::string header = big.header().dump();
  nlohmann::json h = nlohmann::json::parse(header);
  const std::uint64_t data = 65536ull * 8192 * 2 + 8192 * 4;
  h["wte.weight"]["data_offsets"] = {0, 65536ull * 8192 * 2};
  h["wpe.weight"]["data_offsets"] = {65536ull * 8192 * 2, data};
  const std::string text = h.dump();
  CHECK_THROWS_WITH(plan_model(read_safetensors_header(text, 8 + text.size() + data)),
                    "header: 536879104 parameters, beyond the limit of 536870912 (2 GiB as float32)");
}

TEST_CASE("the dtypes of weights are F32, F16 or BF16; a buffer may be any", "[model-plan]") {
  file_builder f = model_support::small_nano();
  f.tensors[0].dtype = "I32";
  CHECK(refusal(f.bytes()) == "transformer.wte.weight: dtype I32, expected F32, F16 or BF16");
  file_builder g = small_hf();
  for (auto& t : g.tensors)
    if (t.name == "h.0.attn.bias") t.dtype = "U32";  // same size, another dtype: skipped
  CHECK(refusal(g.bytes()).empty());
}

TEST_CASE("a skipped buffer is size-checked from the header all the same", "[model-plan]") {
  // attn.bias declared as [1, 1, 131072, 131072] F32: 64 GiB the loader would read past
  nlohmann::ordered_json h = small_hf().header();
  std::uint64_t offset = 0;
  for (auto& item : h.items()) {
    if (item.key() == "__metadata__") continue;
    nlohmann::ordered_json& t = item.value();
    std::uint64_t bytes = t["data_offsets"][1].get<std::uint64_t>() - t["data_offsets"][0].get<std::uint64_t>();
    if (item.key() == "h.0.attn.bias") {
      t["shape"] = {1, 1, 131072, 131072};
      bytes = 131072ull * 131072 * 4;
    }
    t["data_offsets"] = {offset, offset + bytes};
    offset += bytes;
  }
  const std::string text = h.dump();
  CHECK_THROWS_WITH(plan_model(read_safetensors_header(text, 8 + text.size() + offset)),
                    "h.0.attn.bias: shape [1, 1, 131072, 131072], a mask buffer of at most [1, 1, 3, 3] (wpe.weight's 3 positions)");
  // GPT-2's own: the mask at most Tmax square, masked_bias one number
  CHECK(refusal(reshaped(small_hf(), "h.0.attn.bias", {1, 1, 2, 3}).bytes()).empty());
  CHECK(refusal(reshaped(small_hf(), "h.0.attn.bias", {1, 1, 4, 3}).bytes()) ==
        "h.0.attn.bias: shape [1, 1, 4, 3], a mask buffer of at most [1, 1, 3, 3] (wpe.weight's 3 positions)");
  CHECK(refusal(reshaped(small_hf(), "h.0.attn.bias", {9}).bytes()) ==
        "h.0.attn.bias: shape [9], a mask buffer of at most [1, 1, 3, 3] (wpe.weight's 3 positions)");
  file_builder masked = small_hf();
  masked.add("h.0.attn.masked_bias", {});
  CHECK(refusal(masked.bytes()).empty());
  file_builder two = small_hf();
  two.add("h.0.attn.masked_bias", {2});
  CHECK(refusal(two.bytes()) == "h.0.attn.masked_bias: shape [2], a buffer of at most one number");
}
