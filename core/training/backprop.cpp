#include "training/backprop.hpp"

#include <cmath>

#include "tensor/gemm.hpp"
#include "tensor/vector_math.hpp"

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

// d logits of the mean cross-entropy: (softmax(logits) − onehot(target)) / count.
tensor3 logits_gradient(const tensor3& logits, const std::vector<std::int64_t>& targets) {
  const std::size_t rows = rows_of(logits), V = logits.shape(2);
  std::size_t count = 0;
  for (std::int64_t t : targets) count += t >= 0 ? 1 : 0;
  tensor3 g = xt::zeros<float>(logits.shape());
  if (count == 0) return g;
  const float share = 1.0f / static_cast<float>(count);
  std::vector<float> e(V);  // (V,): one row's exponentials
  for (std::size_t r = 0; r < rows; ++r) {
    if (targets[r] < 0) continue;
    const float* row = logits.data() + r * V;
    float max = row[0];
    for (std::size_t c = 1; c < V; ++c) max = std::max(max, row[c]);
    for (std::size_t c = 0; c < V; ++c) e[c] = row[c] - max;
    exp_each(e.data(), e.data(), V);
    float sum = 0;
    for (std::size_t c = 0; c < V; ++c) sum += e[c];
    const float log_sum = std::log(sum);
    for (std::size_t c = 0; c < V; ++c) e[c] = row[c] - max - log_sum;
    exp_each(e.data(), e.data(), V);  // exp(log_softmax), as its backward uses
    float* out = g.data() + r * V;
    for (std::size_t c = 0; c < V; ++c) out[c] = (e[c] - (static_cast<std::int64_t>(c) == targets[r] ? 1.0f : 0.0f)) * share;
  }
  return g;
}

// Σ over rows of g: a bias's gradient, (1, n); empty when there is no bias.
tensor2 row_sum(const tensor3& g, const tensor2& bias) {
  if (bias.size() == 0) return tensor2();
  const std::size_t n = g.shape(2), rows = rows_of(g);
  tensor2 out = xt::zeros<float>({std::size_t{1}, n});
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < n; ++c) out.data()[c] += g.data()[r * n + c];
  return out;
}

// One head backwards from d out, (B, T, hs): its biases' gradients into gh;
// d k, d q, d v into its three column blocks of d_kqv (B, T, 3·H·hs), whose
// product with what the heads read is every head's weight gradients at once;
// and what flows back into what it read, added to d_read (B, T, d).
void head_backward(const head_pass& hp, const model_head& hw, std::size_t h, const tensor3& d_out, float scale,
                   model_head& gh, tensor3& d_kqv, tensor3& d_read) {
  const std::size_t B = d_out.shape(0), T = d_out.shape(1), hs = d_out.shape(2);
  // Per sequence, each product a gemm whose sums run in the loops' order. A
  // masked weight (j > i) is exactly 0, so its terms add zeros that change
  // no bit; d_weights' masked cells are computed and never read.
  const auto seq = [T](const tensor3& t, std::size_t b, std::size_t cols) {
    return row_major(t.data() + b * T * cols, T, cols);
  };
  // out = weights @ v: d weights = d_out @ vᵀ, d v = weightsᵀ @ d_out
  tensor3 d_weights({B, T, T});
  tensor3 d_v({B, T, hs});
  for (std::size_t b = 0; b < B; ++b) {
    gemm(seq(d_out, b, hs), seq(hp.v, b, hs).t(), d_weights.data() + b * T * T, T);
    gemm(seq(hp.weights, b, T).t(), seq(d_out, b, hs), d_v.data() + b * T * hs, hs);
  }
  // softmax: d s_ij = w_ij (d w_ij − Σ_k w_ik d w_ik); masked cells get none.
  // Then s = (q kᵀ) · scale: d(q kᵀ) = d s · scale.
  tensor3 d_qk = xt::zeros<float>({B, T, T});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t i = 0; i < T; ++i) {
      float dot = 0;
      for (std::size_t j = 0; j <= i; ++j) dot += hp.weights(b, i, j) * d_weights(b, i, j);
      for (std::size_t j = 0; j <= i; ++j) d_qk(b, i, j) = hp.weights(b, i, j) * (d_weights(b, i, j) - dot) * scale;
    }
  // q kᵀ: d q = d(q kᵀ) @ k, d k = d(q kᵀ)ᵀ @ q
  tensor3 d_q({B, T, hs});
  tensor3 d_k({B, T, hs});
  for (std::size_t b = 0; b < B; ++b) {
    gemm(seq(d_qk, b, T), seq(hp.k, b, hs), d_q.data() + b * T * hs, hs);
    gemm(seq(d_qk, b, T).t(), seq(hp.q, b, hs), d_k.data() + b * T * hs, hs);
  }
  const std::size_t width = d_kqv.shape(2);
  for (std::size_t r = 0; r < B * T; ++r) {
    float* row = d_kqv.data() + r * width + 3 * h * hs;
    for (std::size_t c = 0; c < hs; ++c) {
      row[c] = d_k.data()[r * hs + c];
      row[hs + c] = d_q.data()[r * hs + c];
      row[2 * hs + c] = d_v.data()[r * hs + c];
    }
  }
  gh.query_bias = row_sum(d_q, hw.query_bias);
  gh.value_bias = row_sum(d_v, hw.value_bias);
  d_read += back_through(d_q, hw.query) + back_through(d_k, hw.key) + back_through(d_v, hw.value);
}

}  // namespace

model_weights gradients(const model_weights& w, const model_spec& spec, const forward_pass& pass,
                        const std::vector<std::int64_t>& targets) {
  const std::size_t B = pass.batch, T = pass.length, d = spec.embed, hs = spec.head_size();
  const auto scale = static_cast<float>(std::pow(static_cast<double>(hs), -0.5));
  model_weights g;
  const tensor3 d_logits = logits_gradient(pass.logits, targets);  // (B, T, V)
  g.unembed = outer_sum(pass.unembedded(), d_logits);
  g.unembed_bias = row_sum(d_logits, w.unembed_bias);
  tensor3 dh = back_through(d_logits, w.unembed);  // (B, T, d)
  if (spec.norm) dh = layer_norm_backward(dh, pass.last, pass.ln_f, w.ln_f, g.ln_f);
  g.layers.resize(w.layers.size());

  for (std::size_t l = w.layers.size(); l-- > 0;) {
    const model_layer& layer = w.layers[l];
    const layer_pass& lp = pass.layers[l];
    model_layer& gl = g.layers[l];
    gl.heads.resize(layer.heads.size());
    if (spec.norm && !spec.mlp)  // ln2 without an MLP: no gradient (and AdamW leaves it alone)
      gl.ln2 = {xt::zeros<float>({std::size_t{1}, d}), xt::zeros<float>({std::size_t{1}, d})};
    if (spec.mlp) {
      // h_out = middle + fc2(act(fc(ln2(middle) or middle)))
      const tensor3& read = spec.norm ? lp.ln2.out : lp.middle;
      gl.fc2 = outer_sum(lp.active, dh);
      gl.fc2_bias = row_sum(dh, layer.fc2_bias);
      const tensor3 d_hidden = activation_backward(back_through(dh, layer.fc2), lp.hidden, spec.activation);
      gl.fc = outer_sum(read, d_hidden);
      gl.fc_bias = row_sum(d_hidden, layer.fc_bias);
      tensor3 d_read = back_through(d_hidden, layer.fc);
      if (spec.norm) d_read = layer_norm_backward(d_read, lp.middle, lp.ln2, layer.ln2, gl.ln2);
      dh += d_read;  // the residual passes the gradient through unchanged
    }
    // middle = input + concat @ proj (+ b)
    gl.proj = outer_sum(lp.concat, dh);
    gl.proj_bias = row_sum(dh, layer.proj_bias);
    const tensor3 d_concat = back_through(dh, layer.proj);  // (B, T, d)
    const tensor3& read = lp.attended();
    tensor3 d_read = xt::zeros<float>({B, T, d});
    const std::size_t H = layer.heads.size();
    tensor3 d_kqv({B, T, 3 * H * hs});
    for (std::size_t k = 0; k < H; ++k) {
      tensor3 d_out({B, T, hs});
      for (std::size_t r = 0; r < B * T; ++r)
        for (std::size_t c = 0; c < hs; ++c) d_out.data()[r * hs + c] = d_concat.data()[r * d + k * hs + c];
      head_backward(lp.heads[k], layer.heads[k], k, d_out, scale, gl.heads[k], d_kqv, d_read);
    }
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
    if (spec.norm) d_read = layer_norm_backward(d_read, lp.input, lp.ln1, layer.ln1, gl.ln1);
    dh += d_read;
  }
  // h0 = tok[x] + pos[t]
  g.tok = xt::zeros<float>(w.tok.shape());
  g.pos = xt::zeros<float>(w.pos.shape());
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < T; ++t) {
      const auto id = static_cast<std::size_t>(pass.tokens[b * T + t]);
      for (std::size_t c = 0; c < d; ++c) {
        g.tok(id, c) += dh(b, t, c);
        g.pos(t, c) += dh(b, t, c);
      }
    }
  return g;
}

}  // namespace attention
