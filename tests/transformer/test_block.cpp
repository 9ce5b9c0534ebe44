// The block description (transformer/block.hpp) as each family's reader
// fills it from its config: a training task, a nanoGPT file, a Hugging Face
// GPT-2 file, a Llama folder, BERT folders with and without the masked-LM
// head; and the score scaling following its own axis, not the direction.
#include <catch2/catch.hpp>

#include <cmath>

#include "models/folder_support.hpp"
#include "models/model_support.hpp"
#include "support.hpp"
#include "tensor/matmul.hpp"
#include "tensor/softmax.hpp"
#include "training/training.hpp"
#include "transformer/block.hpp"
#include "transformer/self_attention.hpp"

using namespace attention;

namespace {

// GPT's block, the one gpt-v1 options vary: every axis but the sizes, the MLP and the norm
void check_gpt_axes(const model_spec& s) {
  CHECK(s.kv_heads == s.heads);
  CHECK(s.head_size * s.heads == s.embed);
  CHECK(s.position.kind == position_kind::learned);
  CHECK(s.direction == attention_direction::causal);
  CHECK(s.scaling == score_scaling::multiply_inverse_root);
  CHECK(s.output == output_head::linear);
  CHECK(s.types == token_types::none);
}

model_spec file_spec(const std::string& name) {
  return model_support::model_of(test_support::read_text(model_support::model_path(name))).spec;
}

// A gpt-v1 file's block: GPT's axes, pre-LayerNorm (eps 1e-5), a plain MLP of c_fc's width
void check_file(const std::string& name, std::size_t heads, std::size_t hs, activation_kind activation,
                std::size_t width) {
  const model_spec s = file_spec(name);
  check_gpt_axes(s);
  CHECK(s.heads == heads);
  CHECK(s.head_size == hs);
  CHECK(s.norm.kind == norm_kind::layer);
  CHECK(s.norm.placement == norm_placement::pre);
  CHECK(s.norm.eps == 1e-5f);
  CHECK(s.mlp.kind == mlp_kind::plain);
  CHECK(s.mlp.activation == activation);
  CHECK(s.mlp.width == width);
  // c_attn.bias holds the heads' key bias beside the query's and value's
  CHECK(s.biases.key == s.biases.query);
  CHECK(s.biases.value == s.biases.query);
}

}  // namespace

TEST_CASE("a training task's block: attention only, or gpt-v1's options as its file sets them", "[block]") {
  const model_spec one = training_run::model_of(test_support::training_preset("text-one-head").spec);
  check_gpt_axes(one);
  CHECK(one.norm.kind == norm_kind::none);
  CHECK(one.mlp.kind == mlp_kind::none);
  CHECK(one.mlp.width == 0);
  // text-gpt.json: embed 64, heads 4, mlp 4, norm, bias, gelu
  const model_spec gpt = training_run::model_of(test_support::training_preset("text-gpt").spec);
  check_gpt_axes(gpt);
  CHECK(gpt.head_size == 16);
  CHECK(gpt.norm.kind == norm_kind::layer);
  CHECK(gpt.norm.placement == norm_placement::pre);
  CHECK(gpt.norm.eps == 1e-5f);
  CHECK(gpt.mlp.kind == mlp_kind::plain);
  CHECK(gpt.mlp.width == 256);
  CHECK(gpt.mlp.activation == activation_kind::gelu);
  // nn.Linear(bias=True) everywhere but the heads' key; LayerNorm's β
  CHECK(gpt.biases.query);
  CHECK_FALSE(gpt.biases.key);
  CHECK(gpt.biases.value);
  CHECK(gpt.biases.proj);
  CHECK(gpt.biases.fc);
  CHECK(gpt.biases.fc2);
  CHECK(gpt.biases.norm);
  CHECK(gpt.biases.unembed);
  CHECK_FALSE(gpt.biases.transform);
}

TEST_CASE("a nanoGPT file's block and a Hugging Face GPT-2 file's: pre-LayerNorm, a plain MLP", "[block]") {
  check_file("nano-tied-bias", 4, 8, activation_kind::gelu, 128);
  check_file("hf-f32", 3, 8, activation_kind::gelu_tanh, 96);  // the Conv1D layout: GELU's tanh form
}

TEST_CASE("a Llama folder's block: RMSNorm before, rotary, causal, SwiGLU, shared key/value heads", "[block]") {
  const model_spec s = folder_support::read(folder_support::golden_folder("llama-gqa")).spec;
  CHECK(s.heads == 4);
  CHECK(s.kv_heads == 2);
  CHECK(s.head_size == 8);
  CHECK(s.norm.kind == norm_kind::rms);
  CHECK(s.norm.placement == norm_placement::pre);
  CHECK(s.norm.eps == 1e-5f);
  CHECK(s.position.kind == position_kind::rotary);
  CHECK(s.position.theta == 10000.0f);
  CHECK(s.direction == attention_direction::causal);
  CHECK(s.scaling == score_scaling::multiply_inverse_root);
  CHECK(s.mlp.kind == mlp_kind::gated);
  CHECK(s.mlp.activation == activation_kind::silu);
  CHECK(s.mlp.width == 48);
  CHECK(s.output == output_head::linear);
  CHECK(s.types == token_types::none);
}

TEST_CASE("a BERT folder's block: post-LayerNorm, learned, bidirectional, divided scores, its head or none",
          "[block]") {
  const loaded_model mlm = folder_support::read(folder_support::golden_folder("bert-mlm"));
  const model_spec& s = mlm.spec;
  CHECK(s.heads == 4);
  CHECK(s.kv_heads == 4);
  CHECK(s.head_size == 8);
  CHECK(s.norm.kind == norm_kind::layer);
  CHECK(s.norm.placement == norm_placement::post);
  CHECK(s.norm.eps == 1e-12f);
  CHECK(s.position.kind == position_kind::learned);
  CHECK(s.direction == attention_direction::bidirectional);
  CHECK(s.scaling == score_scaling::divide_by_root);
  CHECK(s.mlp.kind == mlp_kind::plain);
  CHECK(s.mlp.activation == activation_kind::gelu);
  CHECK(s.mlp.width == 64);
  CHECK(s.output == output_head::bert_transform);
  CHECK(s.types == token_types::type_zero);
  CHECK(mlm.masked_lm());
  // the same family without the head's tensors: the output head is none, the rest as the config says
  const loaded_model bare = folder_support::read(folder_support::golden_folder("bert-base-model-f16"));
  CHECK(bare.spec.output == output_head::none);
  CHECK_FALSE(has_unembedding(bare.spec));
  CHECK_FALSE(bare.logits());
  CHECK(bare.spec.direction == attention_direction::bidirectional);
  CHECK(bare.spec.types == token_types::type_zero);
}

TEST_CASE("the scores' scaling follows its own axis: bidirectional heads that multiply get the multiplied bits",
          "[block]") {
  const std::size_t d = 6, H = 2, hs = 3, T = 5;
  model_layer layer;
  layer.heads.resize(H);
  float v = 0.1f;
  for (model_head& h : layer.heads)
    for (tensor2* t : {&h.query, &h.key, &h.value}) {
      *t = tensor2({d, hs});
      for (float& x : *t) x = std::sin(v += 0.37f) * 1.9f;
    }
  tensor3 a({1, T, d});
  for (float& x : a) x = std::cos(v += 0.53f) * 1.7f;
  model_spec spec;
  spec.embed = d;
  spec.heads = spec.kv_heads = H;
  spec.head_size = hs;
  spec.direction = attention_direction::bidirectional;
  const auto run = [&](score_scaling scaling) {
    spec.scaling = scaling;
    layer_pass lp;
    self_attention(a, layer, spec, nullptr, 0, lp);
    return lp;
  };
  const layer_pass multiplied = run(score_scaling::multiply_inverse_root), divided = run(score_scaling::divide_by_root);
  const auto scale = static_cast<float>(std::pow(static_cast<double>(hs), -0.5));
  const auto root = static_cast<float>(std::sqrt(static_cast<double>(hs)));
  bool differ = false;
  for (std::size_t j = 0; j < H; ++j) {
    tensor3 times = scores_of(multiplied.heads[j].q, multiplied.heads[j].k), over = times;
    for (float& x : times) x *= scale;
    for (float& x : over) x /= root;
    CHECK((multiplied.heads[j].weights == softmax(times)));
    CHECK((divided.heads[j].weights == softmax(over)));
    differ = differ || softmax(times) != softmax(over);
  }
  REQUIRE(differ);  // the two formulas give other bits on these numbers, so the checks above tell them apart
}
