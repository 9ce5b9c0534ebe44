#include "transformer/model.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <utility>

#include "errors/check.hpp"
#include "random/sampling.hpp"
#include "tensor/matmul.hpp"
#include "tensor/rotary.hpp"
#include "tensor/sums.hpp"
#include "tensor/vector_math.hpp"
#include "transformer/kv_cache.hpp"
#include "transformer/head_weights.hpp"
#include "transformer/norm_check.hpp"
#include "transformer/self_attention.hpp"
#include "transformer/swiglu.hpp"

namespace attention {

std::vector<tensor2*> model_weights::all() {
  std::vector<tensor2*> list{&tok.floats(), &pos};
  // only the tensors the model has: a bias or a LayerNorm may be absent (empty)
  const auto add = [&list](std::initializer_list<tensor2*> tensors) {
    for (tensor2* t : tensors)
      if (t->size() != 0) list.push_back(t);
  };
  add({&token_type, &ln_e.weight, &ln_e.bias});  // BERT's; none in training's models
  for (model_layer& layer : layers) {
    for (model_head& head : layer.heads)
      add({&head.key, &head.key_bias, &head.query, &head.query_bias, &head.value, &head.value_bias});
    add({&layer.proj.floats(), &layer.proj_bias, &layer.fc.floats(), &layer.fc_bias, &layer.fc_up.floats(),
         &layer.fc_up_bias, &layer.fc2.floats(), &layer.fc2_bias, &layer.ln1.weight, &layer.ln1.bias,
         &layer.ln2.weight, &layer.ln2.bias});
  }
  add({&ln_f.weight, &ln_f.bias, &transform.floats(), &transform_bias, &transform_ln.weight, &transform_ln.bias,
       &unembed.floats(), &unembed_bias});
  return list;
}

std::vector<const tensor2*> model_weights::all() const {
  std::vector<const tensor2*> list;
  for (tensor2* t : const_cast<model_weights*>(this)->all()) list.push_back(t);
  return list;
}

namespace {

// x @ W (+ b): a Linear, its bias added after the product when the spec gives the part one
tensor3 linear_of(const tensor3& x, const weight& w, const tensor2& bias, bool biased) {
  tensor3 out = w.product(x);
  if (biased) add_bias(out, bias);
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
  lp.concat = lp.middle = lp.hidden = lp.up = lp.active = lp.gelu_erf = tensor3();
  lp.ln2 = norm_pass();
  // what the heads read stays for a model trace (a head's scenario starts from it)
  if (keep == kept::logits || lp.normed) lp.input = tensor3();
  if (keep == kept::logits || !lp.normed) lp.ln1 = norm_pass();
}

// h = tok[x] + pos[0:T]; BERT's (tok[x] + token_type) + pos[0:T], PyTorch's
// order; rotary positions: tok[x] alone. With a cache the rows of pos start
// at `offset`, the window's positions the cache holds.  (B, T, d)
tensor3 embed(const model_weights& w, const model_spec& spec, const std::vector<std::int64_t>& tokens, std::size_t B,
              std::size_t offset) {
  const std::size_t T = tokens.size() / B, d = spec.embed;
  const bool learned = spec.position.kind == position_kind::learned, typed = spec.types == token_types::type_zero;
  ATTENTION_CHECK(!learned || w.pos.shape(0) >= offset + T, "forward: ", offset + T,
                  " positions, the position table holds ", w.pos.shape(0));
  tensor3 h({B, T, d});
  // training's float rows are read where they lie; a file's are widened into the row
  const bool narrow = w.tok.narrow() || w.tok.is_turned();
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t) {
      const auto id = static_cast<std::size_t>(tokens[b * T + t]);
      // rows of d floats: whole-vector adds (pos and type restrict; tok may be row itself,
      // a model file's narrow row widened in place first, read at the index it is written)
      float* row = h.data() + (b * T + t) * d;
      if (narrow) w.tok.row(id, row);
      const float* tok = narrow ? row : w.tok.floats().data() + id * d;
      if (!learned) {
        if (!narrow) std::copy_n(tok, d, row);
        continue;
      }
      const float* __restrict pos = w.pos.data() + (offset + t) * d;
      if (typed) {
        const float* __restrict type = w.token_type.data();
        for (std::size_t c = 0; c < d; ++c) row[c] = (tok[c] + type[c]) + pos[c];
      } else {
        for (std::size_t c = 0; c < d; ++c) row[c] = tok[c] + pos[c];
      }
    }
  return h;
}

// The MLP's input to its output, (B, T, d) -> (B, T, d): fc, the
// activation (or SwiGLU's gate with fc_up), fc2; what it made kept in lp.
tensor3 mlp(const tensor3& x, const model_layer& layer, const model_spec& spec, layer_pass& lp) {
  lp.hidden = linear_of(x, layer.fc, layer.fc_bias, spec.biases.fc);
  if (spec.mlp.kind == mlp_kind::gated) {  // SwiGLU: the one gated activation forward() computes
    ATTENTION_CHECK(spec.mlp.activation == activation_kind::silu, "forward: a gated MLP gates with SiLU (SwiGLU)");
    lp.up = linear_of(x, layer.fc_up, layer.fc_up_bias, spec.biases.fc);
    lp.active = swiglu(lp.hidden, lp.up);
  } else {
    lp.active = activate(lp.hidden, spec.mlp.activation, &lp.gelu_erf);
  }
  return linear_of(lp.active, layer.fc2, layer.fc2_bias, spec.biases.fc2);
}

}  // namespace

tensor3 unembed(const tensor3& x, const model_weights& w, const model_spec& spec) {
  tensor3 out = w.unembedding().product(x);
  if (spec.biases.unembed) add_bias(out, w.unembed_bias);
  return out;
}

forward_pass forward(const model_weights& w, const model_spec& spec, const std::vector<std::int64_t>& tokens,
                     std::size_t batch, const forward_options& options) {
  const std::size_t B = batch, T = tokens.size() / batch;
  const bool pre = spec.pre_norm(), post = spec.post_norm();  // pre: and an ln_f; post: BERT's
  forward_pass pass;
  pass.batch = B;
  pass.length = T;
  pass.tokens = tokens;
  kv_cache* cache = options.cache;
  ATTENTION_CHECK(cache == nullptr || (B == 1 && spec.causal()), "forward: a key/value cache holds one causal sequence");
  const std::size_t offset = cache ? cache->length() : 0;  // the window's positions before these tokens
  ATTENTION_CHECK(cache == nullptr || offset + T <= cache->capacity(), "forward: ", offset + T,
                  " positions, the key/value cache holds ", cache ? cache->capacity() : 0);
  tensor3 h = embed(w, spec, tokens, B, offset);
  if (post) h = norm_of(h, w.ln_e, spec, no_layer, "embeddings.LayerNorm").out;  // BERT's
  // rotary positions: cos and sin of positions offset..offset+T−1, once for every head of every layer
  std::optional<rotary_table> rotary;
  if (spec.rotary()) rotary = rotary_table_of(rotary_angles(T, offset, spec.head_size, spec.position.theta));
  for (const model_layer& layer : w.layers) {
    layer_pass lp;
    lp.input = std::exchange(h, tensor3());  // no copy: h becomes the sum below (a moved-from xtensor keeps its shape, not its data)
    lp.normed = pre;
    const std::size_t index = pass.layers.size();
    if (pre) lp.ln1 = norm_of(lp.input, layer.ln1, spec, index, "ln_1");
    self_attention(lp.attended(), layer, spec, rotary ? &*rotary : nullptr, pass.layers.size(), lp, cache, options.ablation);
    h = lp.input + linear_of(lp.concat, layer.proj, layer.proj_bias, spec.biases.proj);  // the residual stream
    if (post) {  // BERT: LN(attention + h)
      lp.ln1 = norm_of(h, layer.ln1, spec, index, "ln_1");
      h = lp.ln1.out;
    }
    if (spec.mlp.kind != mlp_kind::none) {
      lp.middle = std::exchange(h, tensor3());
      if (pre) lp.ln2 = norm_of(lp.middle, layer.ln2, spec, index, "ln_2");
      h = lp.middle + mlp(pre ? lp.ln2.out : lp.middle, layer, spec, lp);
      if (post) {  // BERT: LN(MLP + h)
        lp.ln2 = norm_of(h, layer.ln2, spec, index, "ln_2");
        h = lp.ln2.out;
      }
    }
    if (options.on_layer) options.on_layer(pass.layers.size(), lp);
    drop_unkept(lp, options.keep);
    pass.layers.push_back(std::move(lp));
  }
  if (cache) cache->hold(tokens);  // every layer's keys and values of these positions are in
  pass.last = std::exchange(h, tensor3());
  pass.normed = pre;
  if (pre) pass.ln_f = norm_of(pass.last, w.ln_f, spec, no_layer, "ln_f");
  if (spec.output == output_head::bert_transform) {  // BERT's masked-LM transform: LN(gelu(x @ transform + b))
    const norm_pass transform_ln = layer_norm(
        activate(linear_of(pass.last, w.transform, w.transform_bias, spec.biases.transform), spec.mlp.activation),
        w.transform_ln, spec.norm.eps, spec.biases.norm);
    check_norm_rows(transform_ln, false, no_layer, "cls.predictions.transform.LayerNorm");
    pass.transformed = transform_ln.out;
    pass.transform = true;
  }
  if (!options.logits || !has_unembedding(spec)) return pass;
  pass.logits = unembed(options.last_logits_only ? last_positions(pass.unembedded()) : pass.unembedded(), w, spec);
  if (options.keep != kept::everything) {
    pass.last = pass.transformed = tensor3();
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

}  // namespace attention
