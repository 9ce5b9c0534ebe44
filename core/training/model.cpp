#include "training/model.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>
#include <utility>

#include "errors/check.hpp"
#include "random/sampling.hpp"
#include "tensor/matmul.hpp"
#include "tensor/softmax.hpp"
#include "tensor/sums.hpp"
#include "tensor/vector_math.hpp"

namespace attention {

std::vector<tensor2*> model_weights::all() {
  std::vector<tensor2*> list{&tok, &pos};
  // only the tensors the model has: a bias or a LayerNorm may be absent (empty)
  const auto add = [&list](std::initializer_list<tensor2*> tensors) {
    for (tensor2* t : tensors)
      if (t->size() != 0) list.push_back(t);
  };
  for (model_layer& layer : layers) {
    for (model_head& head : layer.heads)
      add({&head.key, &head.key_bias, &head.query, &head.query_bias, &head.value, &head.value_bias});
    add({&layer.proj, &layer.proj_bias, &layer.fc, &layer.fc_bias, &layer.fc2, &layer.fc2_bias, &layer.ln1.weight,
         &layer.ln1.bias, &layer.ln2.weight, &layer.ln2.bias});
  }
  add({&ln_f.weight, &ln_f.bias, &unembed, &unembed_bias, &lm_head});
  return list;
}

std::vector<const tensor2*> model_weights::all() const {
  std::vector<const tensor2*> list;
  for (tensor2* t : const_cast<model_weights*>(this)->all()) list.push_back(t);
  return list;
}

namespace {

tensor2 normal_table(generator& gen, std::size_t rows, std::size_t cols) {
  tensor2 table({rows, cols});
  fill_normal(gen, table.data(), table.size());
  return table;
}

}  // namespace

model_weights init_weights(generator& gen, const model_spec& spec) {
  const std::size_t d = spec.embed, hs = spec.head_size(), hidden = spec.mlp * d;
  // nn.Linear: its weight, then its bias when the model has biases
  const auto linear_of = [&](std::size_t in, std::size_t out, tensor2& weight, tensor2* bias) {
    weight = linear(gen, in, out);
    if (bias != nullptr && spec.bias) *bias = linear_bias(gen, in, out);
  };
  model_weights w;
  w.tok = normal_table(gen, spec.vocab, d);
  w.pos = normal_table(gen, spec.length, d);
  for (std::size_t l = 0; l < spec.layers; ++l) {
    model_layer layer;
    for (std::size_t h = 0; h < spec.heads; ++h) {
      model_head head;
      linear_of(d, hs, head.key, nullptr);  // key, query, value: Head.__init__'s order; no key bias
      linear_of(d, hs, head.query, &head.query_bias);
      linear_of(d, hs, head.value, &head.value_bias);
      layer.heads.push_back(std::move(head));
    }
    linear_of(d, d, layer.proj, &layer.proj_bias);
    if (spec.mlp) {
      linear_of(d, hidden, layer.fc, &layer.fc_bias);
      linear_of(hidden, d, layer.fc2, &layer.fc2_bias);
    }
    if (spec.norm) {
      layer.ln1 = layer_norm_init(d);
      layer.ln2 = layer_norm_init(d);
    }
    w.layers.push_back(std::move(layer));
  }
  if (spec.norm) w.ln_f = layer_norm_init(d);
  linear_of(d, spec.vocab, w.unembed, &w.unembed_bias);
  return w;
}

namespace {

// (+ b): a Linear's bias, added after the product
void add_bias(tensor3& out, const tensor2& bias) {
  if (bias.size() == 0) return;
  const std::size_t n = out.shape(2), rows = out.size() / n;
  // raw pointers that cannot alias: the compiler then adds whole vectors
  const float* __restrict b = bias.data();
  for (std::size_t r = 0; r < rows; ++r) {
    float* __restrict row = out.data() + r * n;
    for (std::size_t c = 0; c < n; ++c) row[c] += b[c];
  }
}

// x @ W (+ b): a Linear, its bias added after the product
tensor3 linear_of(const tensor3& x, const tensor2& w, const tensor2& bias) {
  tensor3 out = project(x, w);
  add_bias(out, bias);
  return out;
}

// The last position of each sequence: (B, T, d) -> (B, 1, d)
tensor3 last_positions(const tensor3& x) {
  const std::size_t B = x.shape(0), T = x.shape(1), d = x.shape(2);
  tensor3 last({B, 1, d});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t c = 0; c < d; ++c) last(b, 0, c) = x(b, T - 1, c);
  return last;
}

// Drops what the options do not keep of a finished layer.
void drop_unkept(layer_pass& lp, kept keep) {
  if (keep == kept::everything) return;
  for (head_pass& hp : lp.heads) {
    hp.q = hp.k = hp.v = hp.out = tensor3();
    if (keep == kept::logits) hp.weights = tensor3();
  }
  lp.concat = lp.middle = lp.hidden = lp.active = lp.gelu_erf = tensor3();
  lp.ln2 = norm_pass();
  // what the heads read stays for a model trace (a head's scenario starts from it)
  if (keep == kept::logits || lp.normed) lp.input = tensor3();
  if (keep == kept::logits) lp.ln1 = norm_pass();
}

// Every head's k, q and v of a layer as one product, (B, T, d) @ (d, 3·d):
// each output is still its own sum over d, so the bits are those of the
// heads' own products, and one wide product keeps the vectors full where a
// head's 16 columns would not.
void project_heads(const tensor3& a, const model_layer& layer, std::vector<head_pass>& heads) {
  if (layer.heads.empty()) return;
  const std::size_t B = a.shape(0), T = a.shape(1), d = a.shape(2), H = layer.heads.size(),
                    hs = layer.heads[0].key.shape(1), width = 3 * H * hs;
  // Rows of hs floats copied whole (std::copy_n on raw pointers): element by
  // element through xtensor's indexing this cost GPT-2 small ~2 ms a layer in wasm.
  tensor2 w({d, width});  // (d, 3·H·hs): per head its key, query, value
  for (std::size_t h = 0; h < H; ++h) {
    const tensor2* parts[3] = {&layer.heads[h].key, &layer.heads[h].query, &layer.heads[h].value};
    for (std::size_t part = 0; part < 3; ++part)
      for (std::size_t i = 0; i < d; ++i)
        std::copy_n(parts[part]->data() + i * hs, hs, w.data() + i * width + (3 * h + part) * hs);
  }
  const tensor3 kqv = project(a, w);  // (B, T, 3·H·hs)
  heads.resize(H);
  for (std::size_t h = 0; h < H; ++h) {
    head_pass& hp = heads[h];
    for (tensor3* t : {&hp.k, &hp.q, &hp.v}) *t = tensor3({B, T, hs});
    for (std::size_t r = 0; r < B * T; ++r) {
      const float* row = kqv.data() + r * width + 3 * h * hs;  // this head's k, q, v of position r
      std::copy_n(row, hs, hp.k.data() + r * hs);
      std::copy_n(row + hs, hs, hp.q.data() + r * hs);
      std::copy_n(row + 2 * hs, hs, hp.v.data() + r * hs);
    }
    add_bias(hp.k, layer.heads[h].key_bias);  // a model file's c_attn has one; training's heads none
    add_bias(hp.q, layer.heads[h].query_bias);
    add_bias(hp.v, layer.heads[h].value_bias);
  }
}

}  // namespace

tensor3 unembed(const tensor3& x, const model_weights& w) {
  const tensor2& rows = w.tied ? w.tok : w.lm_head;
  if (w.tied || w.lm_head.size() != 0) {
    tensor3 out = project_transposed(x, rows);
    add_bias(out, w.unembed_bias);
    return out;
  }
  return linear_of(x, w.unembed, w.unembed_bias);
}

forward_pass forward(const model_weights& w, const model_spec& spec, const std::vector<std::int64_t>& tokens,
                     std::size_t batch, const forward_options& options) {
  const std::size_t B = batch, T = tokens.size() / batch, d = spec.embed, hs = spec.head_size();
  forward_pass pass;
  pass.batch = B;
  pass.length = T;
  pass.tokens = tokens;
  // h = tok[x] + pos[0:T]
  tensor3 h({B, T, d});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t) {
      const auto id = static_cast<std::size_t>(tokens[b * T + t]);
      const float* __restrict tok = w.tok.data() + id * d;  // rows of d floats: whole-vector adds
      const float* __restrict pos = w.pos.data() + t * d;
      float* __restrict row = h.data() + (b * T + t) * d;
      for (std::size_t c = 0; c < d; ++c) row[c] = tok[c] + pos[c];
    }
  // hs ** -0.5 in Python's double, applied as a float32 scalar
  const auto scale = static_cast<float>(std::pow(static_cast<double>(hs), -0.5));
  constexpr float minus_inf = -std::numeric_limits<float>::infinity();
  for (const model_layer& layer : w.layers) {
    layer_pass lp;
    lp.input = std::exchange(h, tensor3());  // no copy: h becomes the sum below (a moved-from xtensor keeps its shape, not its data)
    lp.normed = spec.norm;
    if (spec.norm) lp.ln1 = layer_norm(lp.input, layer.ln1);
    const tensor3& a = lp.attended();
    lp.concat = tensor3({B, T, d});
    project_heads(a, layer, lp.heads);
    for (std::size_t k = 0; k < layer.heads.size(); ++k) {
      head_pass& hp = lp.heads[k];
      tensor3 scores = causal_scores_of(hp.q, hp.k);  // (B, T, T), masked below
      for (std::size_t row = 0; row < B * T; ++row) {
        float* s = scores.data() + row * T;
        const std::size_t i = row % T;
        for (std::size_t j = 0; j <= i; ++j) s[j] *= scale;
        for (std::size_t j = i + 1; j < T; ++j) s[j] = minus_inf;
      }
      try {
        hp.weights = softmax(scores);
      } catch (const error&) {  // the one softmax that can see inf: say where
        detail::fail("overflow: layer ", pass.layers.size(), ", head ", k,
                     ": an attention score is not finite in float32 (inf or nan); the weights or inputs are too large");
      }
      hp.out = causal_weighted_sum(hp.weights, hp.v);
      for (std::size_t r = 0; r < B * T; ++r)
        for (std::size_t c = 0; c < hs; ++c) lp.concat.data()[r * d + k * hs + c] = hp.out.data()[r * hs + c];
    }
    h = lp.input + linear_of(lp.concat, layer.proj, layer.proj_bias);  // the residual stream
    if (layer.fc.size() != 0) {  // the MLP
      lp.middle = std::exchange(h, tensor3());
      if (spec.norm) lp.ln2 = layer_norm(lp.middle, layer.ln2);
      lp.hidden = linear_of(spec.norm ? lp.ln2.out : lp.middle, layer.fc, layer.fc_bias);
      lp.active = activate(lp.hidden, spec.activation, &lp.gelu_erf);
      h = lp.middle + linear_of(lp.active, layer.fc2, layer.fc2_bias);
    }
    drop_unkept(lp, options.keep);
    pass.layers.push_back(std::move(lp));
  }
  pass.last = std::exchange(h, tensor3());
  pass.normed = spec.norm;
  if (spec.norm) pass.ln_f = layer_norm(pass.last, w.ln_f);
  if (!options.logits) return pass;
  pass.logits = unembed(options.last_logits_only ? last_positions(pass.unembedded()) : pass.unembedded(), w);
  if (options.keep != kept::everything) {
    pass.last = tensor3();
    pass.ln_f = norm_pass();
  }
  return pass;
}

logit_exps exps_of(const tensor3& logits) {
  const std::size_t rows = logits.shape(0) * logits.shape(1), V = logits.shape(2);
  const float* data = logits.data();
  // each row's max (and its first index), then every row's e^(x − max) at once
  logit_exps x{std::vector<float>(rows), std::vector<float>(rows * V), std::vector<float>(rows),
               std::vector<std::size_t>(rows)};
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = data + r * V;
    float max = row[0];
    for (std::size_t c = 1; c < V; ++c)
      if (row[c] > max) {
        max = row[c];
        x.best[r] = c;
      }
    x.maxima[r] = max;
    for (std::size_t c = 0; c < V; ++c) x.e[r * V + c] = row[c] - max;
  }
  exp_each(x.e.data(), x.e.data(), x.e.size());
  sum_each_row(x.e.data(), rows, V, x.sums.data());
  return x;
}

loss_value cross_entropy(const tensor3& logits, const std::vector<std::int64_t>& targets) {
  return cross_entropy(logits, exps_of(logits), targets);
}

loss_value cross_entropy(const tensor3& logits, const logit_exps& exps, const std::vector<std::int64_t>& targets) {
  const std::size_t rows = logits.shape(0) * logits.shape(1), V = logits.shape(2);
  const float* data = logits.data();
  const std::vector<float>&maxima = exps.maxima, &sums = exps.sums;
  const std::vector<std::size_t>& best = exps.best;
  double total = 0;
  loss_value result;
  for (std::size_t r = 0; r < rows; ++r) {
    const std::int64_t target = targets[r];
    if (target < 0) continue;
    // log_softmax: x - max - log(Σ exp(x - max))
    const float log_p = data[r * V + static_cast<std::size_t>(target)] - maxima[r] - std::log(sums[r]);
    total += -static_cast<double>(log_p);
    result.counted += 1;
    if (best[r] == static_cast<std::size_t>(target)) result.correct += 1;
  }
  result.loss = result.counted ? static_cast<float>(total / static_cast<double>(result.counted)) : 0.0f;
  return result;
}

std::vector<std::int64_t> predictions(const tensor3& logits) {
  const std::size_t rows = logits.shape(0) * logits.shape(1), V = logits.shape(2);
  std::vector<std::int64_t> out(rows);
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = logits.data() + r * V;
    std::size_t best = 0;
    for (std::size_t c = 1; c < V; ++c)
      if (row[c] > row[best]) best = c;
    out[r] = static_cast<std::int64_t>(best);
  }
  return out;
}

}  // namespace attention
