// A model's block description (model_spec): one named value per axis, as
// TransformerLens's HookedTransformerConfig names them (normalization_type,
// positional_embedding_type, attention_dir, gated_mlp, ...), no sentinel
// numbers. Every consumer (forward, cache, lenses, bindings, CLI) reads
// these, never a family's name nor which weights are present; models/ sets
// them where it reads a config (core/models/README.md's table), training
// and gpt-v1 files through gpt_block().
#pragma once

#include <cstddef>

#include "transformer/activation.hpp"

namespace attention {

// The norm's kind: none, nn.LayerNorm (GPT, BERT) or RMSNorm (the Llama
// family: a weight, no bias, no mean; transformer/rms_norm.hpp).
enum class norm_kind { none, layer, rms };
// pre: before attention and the MLP, and a final norm (ln_f); post (BERT):
// on the embeddings and after each residual add, no final norm.
enum class norm_placement { pre, post };
struct norm_spec {
  norm_kind kind = norm_kind::none;
  norm_placement placement = norm_placement::pre;
  float eps = 1e-5f;  // every norm's
};

// learned: a position table added to the embeddings (GPT, BERT); rotary: q
// and k turned after their biases by theta (tensor/rotary.hpp), no table.
enum class position_kind { learned, rotary };
struct position_spec {
  position_kind kind = position_kind::learned;
  float theta = 10000.0f;  // rotary's base; read only with rotary
};

// causal: each position attends to itself and earlier ones; bidirectional
// (BERT's encoder): every position to every position.
enum class attention_direction { causal, bidirectional };

// How scores are scaled: multiplied by hs ** -0.5 (Python's double, applied
// as a float32: GPT, the Llama family), or divided by math.sqrt(hs) as a
// float32 (BERT). The bits differ, so each family keeps its own.
enum class score_scaling { multiply_inverse_root, divide_by_root };

// none; plain: fc2(activation(fc(x))); gated: fc2(activation(fc(x)) · fc_up(x)),
// SwiGLU being gated SiLU (the Llama family's down(silu(gate(x)) · up(x))).
enum class mlp_kind { none, plain, gated };
struct mlp_spec {
  mlp_kind kind = mlp_kind::none;
  activation_kind activation = activation_kind::relu;  // gated: silu; BERT's transform reads it too
  std::size_t width = 0;                               // the hidden width I; 0 with none
};

// none (a BERT without its masked-LM head: attention only); linear: training's
// unembed, a file's lm_head or the embedding tied; bert_transform: BERT's
// LN(gelu(x @ transform + b)) then that linear.
enum class output_head { none, linear, bert_transform };

// none, or BERT's type-0 row added to every token's embedding.
enum class token_types { none, type_zero };

// Which parts add a bias after their product or norm, one flag per part,
// every layer alike: set by whoever read the model (training's gpt-v1
// options, a file's tensors, a family's config), so that no consumer asks
// whether a tensor is empty. A key bias shifts a whole row of scores, which
// softmax ignores: training never has one, a model file's c_attn does.
struct bias_spec {
  bool query = false, key = false, value = false;  // the heads' projections
  bool proj = false;                                // attention's output
  bool fc = false, fc2 = false;                     // the MLP's in (and gated up) and out
  bool norm = false;                                // every LayerNorm's β (nanoGPT's bias=False has none; RMSNorm never)
  bool transform = false;                           // BERT's masked-LM transform
  bool unembed = false;                             // the unembedding's (BERT's decoder, a file's lm_head.bias)

  bool any_linear() const { return query || key || value || proj || fc || fc2 || transform || unembed; }
};

struct model_spec {
  std::size_t vocab = 0, length = 0;   // V, T
  std::size_t embed = 0, heads = 1, layers = 1;  // d, query heads per layer, layers (0: a bigram with positions)
  std::size_t kv_heads = 1;   // key/value heads (= heads when not shared): query head j reads j / (heads / kv_heads)
  std::size_t head_size = 0;  // hs (d / heads for GPT and BERT; Llama's head_dim)
  bias_spec biases;
  norm_spec norm;
  position_spec position;
  attention_direction direction = attention_direction::causal;
  score_scaling scaling = score_scaling::multiply_inverse_root;
  mlp_spec mlp;
  output_head output = output_head::linear;
  token_types types = token_types::none;

  bool causal() const { return direction == attention_direction::causal; }
  bool pre_norm() const { return norm.kind != norm_kind::none && norm.placement == norm_placement::pre; }
  bool post_norm() const { return norm.kind != norm_kind::none && norm.placement == norm_placement::post; }
  bool rotary() const { return position.kind == position_kind::rotary; }
  // the key/value head query head j reads
  std::size_t kv_head(std::size_t j) const { return j / (heads / kv_heads); }
};

// gpt-v1's block, as training's tasks make it: hs = d / heads, every head
// its own key and value, learned positions, causal, multiplied scores,
// pre-LayerNorm (eps 1e-5) when `norm`, a plain MLP of `mlp_width` (0:
// none) with `activation`, a linear unembedding, training's biases when
// `bias` (a file's are then read off its tensors: models/model_plan.hpp).
inline model_spec gpt_block(std::size_t vocab, std::size_t length, std::size_t embed, std::size_t heads,
                            std::size_t layers, std::size_t mlp_width = 0, bool norm = false, bool bias = false,
                            activation_kind activation = activation_kind::relu) {
  model_spec s;
  s.vocab = vocab;
  s.length = length;
  s.embed = embed;
  s.heads = heads;
  s.layers = layers;
  s.kv_heads = heads;
  s.head_size = heads ? embed / heads : 0;
  // nn.Linear(bias=bias) everywhere but the heads' key; LayerNorm's β always (zeros at first)
  s.biases.query = s.biases.value = s.biases.proj = s.biases.unembed = bias;
  s.biases.fc = s.biases.fc2 = bias && mlp_width != 0;
  s.biases.norm = norm;
  if (norm) s.norm = {norm_kind::layer, norm_placement::pre, 1e-5f};
  s.position = {position_kind::learned, 10000.0f};
  s.direction = attention_direction::causal;
  s.scaling = score_scaling::multiply_inverse_root;
  s.mlp = {mlp_width ? mlp_kind::plain : mlp_kind::none, activation, mlp_width};
  s.output = output_head::linear;
  s.types = token_types::none;
  return s;
}

}  // namespace attention
