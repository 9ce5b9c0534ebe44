// The attention-only transformer of training-v1.md: token and position
// embeddings, layers of causal self-attention heads with an output
// projection on a residual stream, an unembedding; no biases, no LayerNorm,
// no MLP. Its weights are drawn in the spec's order from the PyTorch-exact
// generator, so they start where torch_train.py's do. forward() keeps every
// intermediate that backprop.cpp needs and the page shows.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "random/generator.hpp"
#include "tensor/tensor.hpp"

namespace attention {

struct model_spec {
  std::size_t vocab = 0, length = 0;   // V, T
  std::size_t embed = 0, heads = 1, layers = 1;  // d, heads per layer, layers
  std::size_t head_size() const { return embed / heads; }
};

struct model_head {
  tensor2 query, key, value;  // (d, hs) each, as [in, out]
};

struct model_layer {
  std::vector<model_head> heads;
  tensor2 proj;  // (d, d)
};

struct model_weights {
  tensor2 tok;  // (V, d)
  tensor2 pos;  // (T, d)
  std::vector<model_layer> layers;
  tensor2 unembed;  // (d, V)

  // Every tensor in PyTorch's model.parameters() order, for the optimizer.
  std::vector<tensor2*> all();
  std::vector<const tensor2*> all() const;
};

// nn.Embedding, nn.Embedding, then per layer per head key, query, value
// (nn.Linear, bias=False), then proj, then unembed.
model_weights init_weights(generator& gen, const model_spec& spec);

// What one head computed for a batch.
struct head_pass {
  tensor3 q, k, v;   // (B, T, hs)
  tensor3 weights;   // (B, T, T): softmax of the causal, scaled scores
  tensor3 out;       // (B, T, hs)
};

struct layer_pass {
  tensor3 input;  // (B, T, d): the residual stream into this layer
  std::vector<head_pass> heads;
  tensor3 concat;  // (B, T, d): the heads' outs side by side
};

struct forward_pass {
  std::size_t batch = 0, length = 0;
  std::vector<std::int64_t> tokens;  // (B, T)
  std::vector<layer_pass> layers;
  tensor3 last;    // (B, T, d): the residual stream after the last layer
  tensor3 logits;  // (B, T, V)
};

// tokens: (B, T) ids below V, T no longer than the model's length.
forward_pass forward(const model_weights& w, const model_spec& spec, const std::vector<std::int64_t>& tokens,
                     std::size_t batch);

struct loss_value {
  float loss = 0;          // mean cross-entropy over targets ≠ -100
  std::size_t counted = 0;  // how many targets
  std::size_t correct = 0;  // argmax(logits) (first on ties) == target
};

// F.cross_entropy(logits.view(-1, V), y.view(-1), ignore_index=-100), with accuracy.
loss_value cross_entropy(const tensor3& logits, const std::vector<std::int64_t>& targets);

// argmax over the last axis, the first index on ties: (B, T).
std::vector<std::int64_t> predictions(const tensor3& logits);

}  // namespace attention
