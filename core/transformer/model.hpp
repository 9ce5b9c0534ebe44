// The model of training-v1.md grown by gpt-v1.md's options, and by
// models-v2.md's for the Llama family and BERT: token and position
// embeddings, blocks of self-attention heads with an output projection on a
// residual stream, optionally norms (pre or post, LayerNorm or RMSNorm), an
// MLP (plain or gated) and biases, then an output head. With every axis off
// it is v1's attention-only transformer; the block description is
// model_spec (transformer/block.hpp). Training's weights are drawn in the
// spec's order from the PyTorch-exact generator, so they start where
// torch_train.py's do.
// forward() keeps every intermediate that backprop.cpp needs and the page
// shows; the attention part of a block is transformer/self_attention.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "random/generator.hpp"
#include "tensor/tensor.hpp"
#include "transformer/activation.hpp"
#include "transformer/block.hpp"
#include "transformer/layer_norm.hpp"
#include "transformer/weight.hpp"

namespace attention {

// A bias is (1, n), so that the optimizer sees every parameter as a matrix;
// empty (0, 0) when the model has none.
// With grouped-query attention (kv_heads < heads) heads[g] holds key/value
// head g in key, value and their biases for g < kv_heads, and those are
// empty in the others: query head j reads heads[j / (heads / kv_heads)]'s.
struct model_head {
  tensor2 query, key, value;        // (d, hs) each, as [in, out]
  tensor2 query_bias, value_bias;   // (1, hs): a key bias would shift whole rows of scores, which softmax ignores
  tensor2 key_bias;                 // (1, hs): never trained, but a model file's c_attn.bias holds one (models/)
};

// A layer's and a model's matrices are weights (transformer/weight.hpp):
// training's float tensors, or a model file's numbers kept as the file has
// them; forward() reads them the same way. Empty when absent.
struct model_layer {
  // Training's heads: their own query, key and value (d, hs); a model file's: only the biases
  std::vector<model_head> heads;
  // A model file's projections of every head as one Linear (d, (H + 2·KV)·hs):
  // all H queries, then the KV keys, then the KV values (c_attn as it is;
  // q_proj, k_proj and v_proj side by side). Empty in training's models.
  weight qkv;
  weight proj, fc, fc2, fc_up;      // (d, d); (d, I), (I, d) with an MLP; gated: Llama's up_proj (fc is gate_proj, fc2 down_proj)
  tensor2 proj_bias;                // (1, d)
  tensor2 fc_bias, fc2_bias;        // (1, I), (1, d) with an MLP
  tensor2 fc_up_bias;               // (1, I) gated
  layer_norm_weights ln1, ln2;      // with a norm; post: ln1 after attention's residual add, ln2 after the MLP's
};

struct model_weights {
  weight tok;  // (V, d): tok.row(x) is token x's embedding; a file's kept [d, V] (turned) for the tied logits' speed
  tensor2 pos;  // (T, d); empty with rotary positions
  tensor2 token_type;       // (1, d): BERT's type-0 row, added to tok[x] before pos; else empty
  layer_norm_weights ln_e;  // post-norm: BERT's LayerNorm on the embeddings
  std::vector<model_layer> layers;
  layer_norm_weights ln_f;      // pre-norm (RMSNorm: its weight only)
  // BERT's masked-LM head, before the unembedding: LN(gelu(x @ transform + transform_bias)); else empty
  weight transform;             // (d, d)
  tensor2 transform_bias;       // (1, d)
  layer_norm_weights transform_ln;
  // (d, V): training's unembed, or a file's lm_head (V, d) turned; empty when
  // tied, the embedding read turned, with no copy of it (GPT-2's is 154 MB)
  weight unembed;
  tensor2 unembed_bias;  // (1, V); BERT's cls.predictions.bias
  bool tied = false;

  // The one place the unembedding is chosen: x @ unembedding() are the logits.
  weight_view unembedding() const { return tied ? weight_view{tok, true} : weight_view{unembed, false}; }

  // Every tensor in PyTorch's model.parameters() order, for the optimizer.
  std::vector<tensor2*> all();
  std::vector<const tensor2*> all() const;
};

// What one head computed for a batch. With grouped-query attention k and v
// are computed once per key/value head, as the weights are stored: in
// heads[g] for g < kv_heads, empty in the others (query head j reads
// heads[spec.kv_head(j)]'s).
struct head_pass {
  tensor3 q, k, v;   // (B, T, hs); with rotary positions q and k after their turn
  tensor3 weights;   // (B, T, T): softmax of the scaled scores, causal or not
  tensor3 out;       // (B, T, hs)
};

struct layer_pass {
  tensor3 input;  // (B, T, d): the residual stream into this layer
  norm_pass ln1;  // pre-norm: ln1(input), what the heads read; post: ln1(input + attention), = middle
  std::vector<head_pass> heads;
  tensor3 concat;  // (B, T, H·hs): the heads' outs side by side
  tensor3 middle;  // (B, T, d): the stream after attention, into the MLP
  norm_pass ln2;   // pre-norm with an MLP: ln2(middle); post: ln2(middle + MLP), the layer's output
  tensor3 hidden;  // (B, T, I): fc's output, before the activation (SwiGLU's gate)
  tensor3 up;      // (B, T, I) gated: fc_up's output
  tensor3 active;  // (B, T, I): after the activation (gated: act(hidden) · up)
  tensor3 gelu_erf;  // (B, T, I) for GELU: what activate() kept for the backward (1 + erf(hidden/√2))

  bool normed = false;  // pre-norm blocks: the heads read ln1's output

  // What the heads read: ln1's output (pre-norm), or the stream itself.
  const tensor3& attended() const { return normed ? ln1.out : input; }
};

struct forward_pass {
  std::size_t batch = 0, length = 0;
  std::vector<std::int64_t> tokens;  // (B, T)
  std::vector<layer_pass> layers;
  tensor3 last;    // (B, T, d): the residual stream after the last layer
  norm_pass ln_f;  // pre-norm: ln_f(last), what the unembedding reads
  tensor3 transformed;  // (B, T, d) with BERT's masked-LM transform: LN(gelu(x @ transform + b)) of last
  tensor3 logits;  // (B, T, V); empty with output head none (a BERT without its head)

  bool normed = false;  // there is an ln_f

  bool transform = false;  // output head bert_transform: the unembedding reads `transformed`

  // What the unembedding reads: the transform's output, ln_f's, or the stream itself.
  const tensor3& unembedded() const {
    if (transform) return transformed;
    return normed ? ln_f.out : last;
  }
};

// What forward() keeps. Training's backward pass needs every intermediate; a
// model trace only each head's weights and what the heads read; a sample only
// the logits. Dropping the rest as each layer ends keeps GPT-2 small on 1,024
// tokens at 0.6 GB of attention instead of 1.2 GB of intermediates.
enum class kept { everything, attention, logits };

class kv_cache;  // transformer/kv_cache.hpp

// Heads whose output (weights · v, before the output projection) is replaced,
// every other number computed as usual: lens-v1.md section 2's ablation.
struct head_ablation {
  std::vector<std::pair<std::size_t, std::size_t>> heads;  // (layer, query head)
  bool mean = false;  // true: each head's out replaced by its mean over positions; false: by zeros

  bool ablates(std::size_t layer, std::size_t head) const {
    for (const auto& h : heads)
      if (h.first == layer && h.second == head) return true;
    return false;
  }
};

struct forward_options {
  kept keep = kept::everything;
  bool last_logits_only = false;  // logits of the last position only, (B, 1, V): what sampling reads
  // false: no logits at all, and what the unembedding reads is kept instead
  // (ln_f's output or the stream), so a caller makes the (T, V) logits a block of rows at a time
  bool logits = true;
  // Generation with a key/value cache (transformer/kv_cache.hpp, one sequence,
  // causal): tokens are the window's positions cache->length() onward, each
  // layer's earlier keys and values read from the cache and the new ones
  // written to it. Null: tokens are the whole window.
  kv_cache* cache = nullptr;
  const head_ablation* ablation = nullptr;  // the lens's ablated heads; none when null
  // Called as each layer ends, before what `keep` drops of it goes: a caller
  // that reads a few numbers of every layer (the lenses) keeps only those.
  std::function<void(std::size_t layer, const layer_pass&)> on_layer = nullptr;
};

// tokens: (B, T) ids below V, T no longer than the model's length. Scores
// that overflow float32 are an error naming the layer and the head. The
// options of model_spec pick each step; GPT's defaults run exactly the
// arithmetic they ran before the options grew.
forward_pass forward(const model_weights& w, const model_spec& spec, const std::vector<std::int64_t>& tokens,
                     std::size_t batch, const forward_options& options = {});

// The logits of x, (B, T, d) -> (B, T, V): x @ w.unembedding(), + its bias
// when spec.biases.unembed.
tensor3 unembed(const tensor3& x, const model_weights& w, const model_spec& spec);

// Whether the model has an unembedding at all: its output head is not none
// (a BERT file without its masked-LM head has none).
inline bool has_unembedding(const model_spec& spec) { return spec.output != output_head::none; }

// What the loss and its gradient both start from, computed once a step:
// each row of the logits' max (and its first index) and e^(x − max), and
// each row's sum of those.
struct logit_exps {
  std::vector<float> maxima, e, sums;  // (rows,), (rows, V), (rows,)
  std::vector<std::size_t> best;       // (rows,)
};
logit_exps exps_of(const tensor3& logits);

}  // namespace attention
