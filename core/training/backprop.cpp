#include "training/backprop.hpp"

#include <algorithm>
#include <cmath>

#include "errors/check.hpp"
#include "tensor/gemm.hpp"
#include "tensor/sums.hpp"
#include "tensor/vector_math.hpp"
#include "training/head_through.hpp"

namespace attention {
namespace {

// a (n, k) viewed from a tensor3 (B, T, k) as n = B·T rows.
std::size_t rows_of(const tensor3& a) { return a.shape(0) * a.shape(1); }

// Σ over rows of aᵀ b: (B, T, m)ᵀ (B, T, n) -> (m, n), the gradient of a
// weight; each entry summed in order over the rows, as dW = dYᵀX is.
tensor2 outer_sum(const tensor3& a, const tensor3& b) {
  const std::size_t n = rows_of(a), m = a.shape(2), p = b.shape(2);
  tensor2 out({m, p});
  gemm(row_major(a.data(), n, m).t(), row_major(b.data(), n, p), out.data(), p);
  return out;
}

// g @ Wᵀ: (B, T, n) @ (m, n)ᵀ -> (B, T, m), the gradient flowing back through
// x @ W; each entry summed in order over n. Wᵀ is read where W lies.
tensor3 back_through(const tensor3& g, const tensor2& w) {
  const std::size_t B = g.shape(0), T = g.shape(1), n = g.shape(2), m = w.shape(0);
  tensor3 out({B, T, m});
  gemm(row_major(g.data(), B * T, n), row_major(w.data(), m, n).t(), out.data(), m);
  return out;
}

// d logits of the mean cross-entropy: (softmax(logits) − onehot(target)) / count,
// from the loss's e^(x − max) and sums (exps_of).
tensor3 logits_gradient(const tensor3& logits, const logit_exps& exps, const std::vector<std::int64_t>& targets) {
  const std::size_t rows = rows_of(logits), V = logits.shape(2);
  std::size_t count = 0;
  for (std::int64_t t : targets) count += t >= 0 ? 1 : 0;
  tensor3 g = xt::zeros<float>(logits.shape());
  if (count == 0) return g;
  const float share = 1.0f / static_cast<float>(count);
  std::vector<float> p(rows * V);  // (rows, V): log_softmax, then exp(log_softmax), as its backward uses
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = logits.data() + r * V;
    const float log_sum = std::log(exps.sums[r]);
    for (std::size_t c = 0; c < V; ++c) p[r * V + c] = row[c] - exps.maxima[r] - log_sum;
  }
  exp_each(p.data(), p.data(), p.size());
  for (std::size_t r = 0; r < rows; ++r) {
    if (targets[r] < 0) continue;
    float* out = g.data() + r * V;
    for (std::size_t c = 0; c < V; ++c)
      out[c] = (p[r * V + c] - (static_cast<std::int64_t>(c) == targets[r] ? 1.0f : 0.0f)) * share;
  }
  return g;
}

// Σ over rows of g: a bias's gradient, (1, n); empty when the part has none.
tensor2 row_sum(const tensor3& g, bool biased) {
  if (!biased) return tensor2();
  tensor2 out({std::size_t{1}, g.shape(2)});
  sum_each_column(row_major(g.data(), rows_of(g), g.shape(2)), out.data());
  return out;
}

// What every head of a layer uses in turn, allocated once per layer.
struct head_scratch {
  tensor3 d_weights, d_qk;  // (B, T, T)
};

// One head backwards from its columns of d concat (B, T, d): d k, d q, d v
// into its three column blocks of d_kqv (B, T, 3·H·hs), whose product with
// what the heads read is every head's weight gradients at once; its biases'
// gradients into gh; what flows back into what it read added to d_read.
void head_backward(const head_pass& hp, const model_head& hw, const bias_spec& biases, std::size_t h,
                   const tensor3& d_concat, float scale, model_head& gh, tensor3& d_kqv, tensor3& d_read, head_scratch& scratch) {
  const std::size_t B = d_concat.shape(0), T = d_concat.shape(1), d = d_concat.shape(2), hs = hp.q.shape(2),
                    width = d_kqv.shape(2);
  // Per sequence (one gemm call for all B of them), each product's sums in
  // the loops' order. A masked weight (j > i) is exactly 0, so its terms
  // are left out, which changes no bit (gemm.hpp's causal_part); d_weights'
  // masked cells are not all computed, and never read.
  const auto seq = [T](const tensor3& t, std::size_t cols) { return row_major(t.data(), T, cols); };
  const matrix_ref d_out = row_major(d_concat.data() + h * hs, T, hs, d);
  // d_kqv's block `part` (0 k, 1 q, 2 v) of this head
  const auto block = [&](std::size_t part) { return d_kqv.data() + (3 * h + part) * hs; };
  // one product per sequence: each operand's steps from one sequence to the next
  const auto per_sequence = [B](std::size_t a_step, std::size_t b_step, std::size_t c_step, causal_part part) {
    return gemm_batch{B, a_step, b_step, c_step, part};
  };
  // out = weights @ v: d weights = d_out @ vᵀ, d v = weightsᵀ @ d_out
  float* d_weights = scratch.d_weights.data();
  gemm(d_out, seq(hp.v, hs).t(), d_weights, T, per_sequence(T * d, T * hs, T * T, causal_part::lower_c));
  gemm(seq(hp.weights, T).t(), d_out, block(2), width, per_sequence(T * T, T * d, T * width, causal_part::upper_a));
  // softmax: d s_ij = w_ij (d w_ij − Σ_k w_ik d w_ik); masked cells get none
  // (d_qk's stay 0). Then s = (q kᵀ) · scale: d(q kᵀ) = d s · scale.
  // Each row's Σ w·d w is a chain of dependent adds: eight rows side by
  // side run eight chains at once, each still in order over j ≤ i.
  float* d_qk = scratch.d_qk.data();
  constexpr std::size_t group = 8;
  for (std::size_t r0 = 0; r0 < B * T; r0 += group) {
    const std::size_t n = std::min(group, B * T - r0);
    const float* w = hp.weights.data() + r0 * T;
    const float* dw = d_weights + r0 * T;
    float dot[group] = {};
    std::size_t count[group] = {}, most = 0;  // each row's j ≤ i
    for (std::size_t k = 0; k < n; ++k) most = std::max(most, count[k] = (r0 + k) % T + 1);
    for (std::size_t j = 0; j < most; ++j)
      for (std::size_t k = 0; k < n; ++k)
        if (j < count[k]) dot[k] += w[k * T + j] * dw[k * T + j];
    for (std::size_t k = 0; k < n; ++k)
      for (std::size_t j = 0; j < count[k]; ++j)
        d_qk[(r0 + k) * T + j] = w[k * T + j] * (dw[k * T + j] - dot[k]) * scale;
  }
  // q kᵀ: d q = d(q kᵀ) @ k, d k = d(q kᵀ)ᵀ @ q
  gemm(seq(scratch.d_qk, T), seq(hp.k, hs), block(1), width, per_sequence(T * T, T * hs, T * width, causal_part::lower_a));
  gemm(seq(scratch.d_qk, T).t(), seq(hp.q, hs), block(0), width,
       per_sequence(T * T, T * hs, T * width, causal_part::upper_a));
  const auto all_rows = [&](std::size_t part) { return row_major(block(part), B * T, hs, width); };
  if (biases.query) {
    gh.query_bias = tensor2({std::size_t{1}, hs});
    sum_each_column(all_rows(1), gh.query_bias.data());
  }
  if (biases.value) {
    gh.value_bias = tensor2({std::size_t{1}, hs});
    sum_each_column(all_rows(2), gh.value_bias.data());
  }
  // back through x @ Wq, x @ Wk, x @ Wv: d_read += (d q Wqᵀ + d k Wkᵀ) + d v Wvᵀ
  add_through_head({block(1), block(0), block(2), width, hw.query.data(), hw.key.data(), hw.value.data()}, B * T, d, hs,
                   d_read.data());
}

}  // namespace

model_weights gradients(const model_weights& w, const model_spec& spec, const forward_pass& pass,
                        const std::vector<std::int64_t>& targets, const logit_exps* exps) {
  const std::size_t B = pass.batch, T = pass.length, d = spec.embed, hs = spec.head_size;
  // training's models have GPT's blocks; models-v2.md's options are for reading models, never trained here
  const bool norm = spec.norm.kind != norm_kind::none, mlp = spec.mlp.kind != mlp_kind::none;
  ATTENTION_CHECK((!norm || (spec.norm.kind == norm_kind::layer && spec.pre_norm())) && spec.kv_heads == spec.heads &&
                      hs * spec.heads == d && spec.mlp.kind != mlp_kind::gated && !spec.rotary() && spec.causal() &&
                      spec.scaling == score_scaling::multiply_inverse_root && spec.output == output_head::linear &&
                      spec.types == token_types::none && !spec.biases.key,
                  "backprop: only GPT's blocks are trained (no RMSNorm, post-norm, shared key/value heads, SwiGLU, "
                  "rotary positions, bidirectional attention or a key bias)");
  const auto scale = static_cast<float>(std::pow(static_cast<double>(hs), -0.5));
  model_weights g;
  const tensor3 d_logits = logits_gradient(pass.logits, exps != nullptr ? *exps : exps_of(pass.logits), targets);  // (B, T, V)
  g.unembed = outer_sum(pass.unembedded(), d_logits);
  g.unembed_bias = row_sum(d_logits, spec.biases.unembed);
  tensor3 dh = back_through(d_logits, w.unembed.floats());  // (B, T, d)
  if (norm) dh = layer_norm_backward(dh, pass.last, pass.ln_f, w.ln_f, g.ln_f);
  g.layers.resize(w.layers.size());

  for (std::size_t l = w.layers.size(); l-- > 0;) {
    const model_layer& layer = w.layers[l];
    const layer_pass& lp = pass.layers[l];
    model_layer& gl = g.layers[l];
    gl.heads.resize(layer.heads.size());
    if (norm && !mlp)  // ln2 without an MLP: no gradient (and AdamW leaves it alone)
      gl.ln2 = {xt::zeros<float>({std::size_t{1}, d}), xt::zeros<float>({std::size_t{1}, d})};
    if (mlp) {
      // h_out = middle + fc2(act(fc(ln2(middle) or middle)))
      const tensor3& read = norm ? lp.ln2.out : lp.middle;
      gl.fc2 = outer_sum(lp.active, dh);
      gl.fc2_bias = row_sum(dh, spec.biases.fc2);
      const tensor3 d_hidden = activation_backward(back_through(dh, layer.fc2.floats()), lp.hidden, spec.mlp.activation, &lp.gelu_erf);
      gl.fc = outer_sum(read, d_hidden);
      gl.fc_bias = row_sum(d_hidden, spec.biases.fc);
      tensor3 d_read = back_through(d_hidden, layer.fc.floats());
      if (norm) d_read = layer_norm_backward(d_read, lp.middle, lp.ln2, layer.ln2, gl.ln2);
      dh += d_read;  // the residual passes the gradient through unchanged
    }
    // middle = input + concat @ proj (+ b)
    gl.proj = outer_sum(lp.concat, dh);
    gl.proj_bias = row_sum(dh, spec.biases.proj);
    const tensor3 d_concat = back_through(dh, layer.proj.floats());  // (B, T, d)
    const tensor3& read = lp.attended();
    tensor3 d_read = xt::zeros<float>({B, T, d});
    const std::size_t H = layer.heads.size();
    tensor3 d_kqv({B, T, 3 * H * hs});
    head_scratch scratch{tensor3({B, T, T}), xt::zeros<float>({B, T, T})};
    for (std::size_t k = 0; k < H; ++k)
      head_backward(lp.heads[k], layer.heads[k], spec.biases, k, d_concat, scale, gl.heads[k], d_kqv, d_read, scratch);
    // every head's key, query and value gradient: one product, each entry its own sum over the rows
    const tensor2 d_w = outer_sum(read, d_kqv);  // (d, 3·H·hs)
    for (std::size_t k = 0; k < H; ++k) {
      model_head& gh = gl.heads[k];
      for (tensor2* t : {&gh.key, &gh.query, &gh.value}) *t = tensor2({d, hs});
      for (std::size_t i = 0; i < d; ++i)
        for (std::size_t c = 0; c < hs; ++c) {
          const float* row = d_w.data() + i * 3 * H * hs + 3 * k * hs;
          gh.key(i, c) = row[c];
          gh.query(i, c) = row[hs + c];
          gh.value(i, c) = row[2 * hs + c];
        }
    }
    if (norm) d_read = layer_norm_backward(d_read, lp.input, lp.ln1, layer.ln1, gl.ln1);
    dh += d_read;
  }
  // h0 = tok[x] + pos[t]
  tensor2 d_tok = xt::zeros<float>(w.tok.floats().shape());
  g.pos = xt::zeros<float>(w.pos.shape());
  // rows of d floats through non-aliasing pointers, so they are whole-vector adds
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t) {
      const auto id = static_cast<std::size_t>(pass.tokens[b * T + t]);
      const float* __restrict from = dh.data() + (b * T + t) * d;
      float* __restrict tok = d_tok.data() + id * d;
      float* __restrict pos = g.pos.data() + t * d;
      for (std::size_t c = 0; c < d; ++c) {
        tok[c] += from[c];
        pos[c] += from[c];
      }
    }
  g.tok = std::move(d_tok);
  return g;
}

}  // namespace attention
