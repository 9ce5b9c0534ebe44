#include "training/backprop.hpp"

#include <cmath>

namespace attention {
namespace {

// a (n, k) viewed from a tensor3 (B, T, k) as n = B·T rows.
std::size_t rows_of(const tensor3& a) { return a.shape(0) * a.shape(1); }

// Σ over rows of aᵀ b: (B, T, m)ᵀ (B, T, n) -> (m, n), the gradient of a weight.
tensor2 outer_sum(const tensor3& a, const tensor3& b) {
  const std::size_t n = rows_of(a), m = a.shape(2), p = b.shape(2);
  tensor2 out = xt::zeros<float>({m, p});
  for (std::size_t r = 0; r < n; ++r) {
    const float* ar = a.data() + r * m;
    const float* br = b.data() + r * p;
    for (std::size_t i = 0; i < m; ++i) {
      const float x = ar[i];
      float* o = out.data() + i * p;
      for (std::size_t j = 0; j < p; ++j) o[j] += x * br[j];
    }
  }
  return out;
}

// g @ Wᵀ: (B, T, n) @ (m, n)ᵀ -> (B, T, m), the gradient flowing back through x @ W.
tensor3 back_through(const tensor3& g, const tensor2& w) {
  const std::size_t B = g.shape(0), T = g.shape(1), n = g.shape(2), m = w.shape(0);
  tensor3 out = xt::zeros<float>({B, T, m});
  for (std::size_t r = 0; r < B * T; ++r) {
    const float* gr = g.data() + r * n;
    float* o = out.data() + r * m;
    for (std::size_t i = 0; i < m; ++i) {
      const float* wr = w.data() + i * n;
      float sum = 0;
      for (std::size_t j = 0; j < n; ++j) sum += gr[j] * wr[j];
      o[i] = sum;
    }
  }
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
  for (std::size_t r = 0; r < rows; ++r) {
    if (targets[r] < 0) continue;
    const float* row = logits.data() + r * V;
    float max = row[0];
    for (std::size_t c = 1; c < V; ++c) max = std::max(max, row[c]);
    float sum = 0;
    for (std::size_t c = 0; c < V; ++c) sum += std::exp(row[c] - max);
    const float log_sum = std::log(sum);
    float* out = g.data() + r * V;
    for (std::size_t c = 0; c < V; ++c) {
      const float p = std::exp(row[c] - max - log_sum);  // exp(log_softmax), as its backward uses
      out[c] = (p - (static_cast<std::int64_t>(c) == targets[r] ? 1.0f : 0.0f)) * share;
    }
  }
  return g;
}

}  // namespace

model_weights gradients(const model_weights& w, const model_spec& spec, const forward_pass& pass,
                        const std::vector<std::int64_t>& targets) {
  const std::size_t B = pass.batch, T = pass.length, d = spec.embed, hs = spec.head_size();
  const auto scale = static_cast<float>(std::pow(static_cast<double>(hs), -0.5));
  model_weights g;
  const tensor3 d_logits = logits_gradient(pass.logits, targets);  // (B, T, V)
  g.unembed = outer_sum(pass.last, d_logits);
  tensor3 dh = back_through(d_logits, w.unembed);  // (B, T, d)
  g.layers.resize(w.layers.size());

  for (std::size_t l = w.layers.size(); l-- > 0;) {
    const model_layer& layer = w.layers[l];
    const layer_pass& lp = pass.layers[l];
    model_layer& gl = g.layers[l];
    gl.heads.resize(layer.heads.size());
    // h_out = h_in + concat @ proj
    gl.proj = outer_sum(lp.concat, dh);
    const tensor3 d_concat = back_through(dh, layer.proj);  // (B, T, d)
    tensor3 d_input = dh;  // the residual passes the gradient through unchanged
    for (std::size_t k = 0; k < layer.heads.size(); ++k) {
      const head_pass& hp = lp.heads[k];
      tensor3 d_out({B, T, hs});
      for (std::size_t r = 0; r < B * T; ++r)
        for (std::size_t c = 0; c < hs; ++c) d_out.data()[r * hs + c] = d_concat.data()[r * d + k * hs + c];
      // out = weights @ v: d weights = d_out @ vᵀ, d v = weightsᵀ @ d_out
      tensor3 d_weights = xt::zeros<float>({B, T, T});
      tensor3 d_v = xt::zeros<float>({B, T, hs});
      for (std::size_t b = 0; b < B; ++b)
        for (std::size_t i = 0; i < T; ++i)
          for (std::size_t j = 0; j <= i; ++j) {
            float sum = 0;
            for (std::size_t c = 0; c < hs; ++c) sum += d_out(b, i, c) * hp.v(b, j, c);
            d_weights(b, i, j) = sum;
            const float wij = hp.weights(b, i, j);
            for (std::size_t c = 0; c < hs; ++c) d_v(b, j, c) += wij * d_out(b, i, c);
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
      tensor3 d_q = xt::zeros<float>({B, T, hs});
      tensor3 d_k = xt::zeros<float>({B, T, hs});
      for (std::size_t b = 0; b < B; ++b)
        for (std::size_t i = 0; i < T; ++i)
          for (std::size_t j = 0; j <= i; ++j) {
            const float s = d_qk(b, i, j);
            for (std::size_t c = 0; c < hs; ++c) {
              d_q(b, i, c) += s * hp.k(b, j, c);
              d_k(b, j, c) += s * hp.q(b, i, c);
            }
          }
      model_head& gh = gl.heads[k];
      const model_head& hw = layer.heads[k];
      gh.query = outer_sum(lp.input, d_q);
      gh.key = outer_sum(lp.input, d_k);
      gh.value = outer_sum(lp.input, d_v);
      d_input += back_through(d_q, hw.query) + back_through(d_k, hw.key) + back_through(d_v, hw.value);
    }
    dh = std::move(d_input);
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
