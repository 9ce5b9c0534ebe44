#include "attention/attention.hpp"

#include <cmath>

#include "errors/check.hpp"
#include "tensor/mask.hpp"
#include "tensor/matmul.hpp"
#include "tensor/softmax.hpp"

namespace attention {
namespace {

// Finite inputs can still overflow float32 in a product; say where, rather
// than let inf - inf become NaN in softmax.
void require_finite(const tensor3& t, std::size_t head, const char* step, const char* what = "") {
  for (float value : t)
    ATTENTION_CHECK(std::isfinite(value), "attention.heads[", head, "].", step, ": ", what,
                    "overflows float32; the inputs are too large");
}

// t (B, T, n) + bias (n), on every row: a Linear's bias, added after its product
void add_bias(tensor3& t, const tensor1* bias) {
  if (bias == nullptr) return;
  const std::size_t n = t.shape(2), rows = t.size() / n;
  float* data = t.data();
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < n; ++c) data[r * n + c] += (*bias)(c);
}

}  // namespace

const tensor3* head_trace::step(std::string_view name) const {
  if (name == "q") return q ? &*q : nullptr;
  if (name == "k") return k ? &*k : nullptr;
  if (name == "q_rotated") return q_rotated ? &*q_rotated : nullptr;
  if (name == "k_rotated") return k_rotated ? &*k_rotated : nullptr;
  if (name == "v") return v ? &*v : nullptr;
  if (name == "scores") return &scores;
  if (name == "scaled") return &scaled;
  if (name == "masked") return &masked;
  if (name == "weights") return &weights;
  if (name == "out") return &out;
  return nullptr;
}

head_trace attend(const tensor3& x, const tensor3& context, const head_weights& weights,
                  const tensor2& keep, const layer_options& options, std::size_t head_index) {
  const std::size_t B = x.shape(0), Tq = x.shape(1), Tkv = context.shape(1);
  head_trace head;

  // 1. scores = q @ kᵀ: what each query looks for against what each key contains
  if (weights.query != nullptr) {
    head.q = project(x, *weights.query);        // (B, Tq, d_k)
    add_bias(*head.q, weights.query_bias);
    require_finite(*head.q, head_index, "query", "q = x @ W ");
    head.k = project(context, *weights.key);    // (B, Tkv, d_k)
    add_bias(*head.k, weights.key_bias);
    require_finite(*head.k, head_index, "key", "k = context @ W ");
    if (options.rotary) {
      // 1b. turn each (q, k) pair by its position's angle: q·k then depends on i − j only
      const std::size_t d_k = head.q->shape(2);
      head.q_rotated = rotate(*head.q, rotary_angles(Tq, options.rotary->offset, d_k, options.rotary->theta));
      head.k_rotated = rotate(*head.k, rotary_angles(Tkv, options.rotary->offset, d_k, options.rotary->theta));
    }
    const tensor3& q = head.q_rotated ? *head.q_rotated : *head.q;
    const tensor3& k = head.k_rotated ? *head.k_rotated : *head.k;
    head.scores = scores_of(q, k);  // (B, Tq, Tkv)
    require_finite(head.scores, head_index, "scores");
  } else {
    head.scores = tensor3({B, Tq, Tkv}, 0.0f);  // uniform affinities: the bag of words
  }

  // 2. scale by 1/sqrt(d_k), so unit-variance q and k give unit-variance scores.
  // Multiplied by d_k ** -0.5 rounded to float, as `scores * head_size**-0.5`.
  const float factor =
      options.scale && head.k ? static_cast<float>(std::pow(static_cast<double>(head.k->shape(2)), -0.5)) : 1.0f;
  head.scaled = tensor3(head.scores.shape());
  {
    const float* in = head.scores.data();
    float* out = head.scaled.data();
    for (std::size_t n = 0; n < head.scores.size(); ++n) {
      float v = in[n] * factor;  // a multiply by 1 changes nothing
      if (options.temperature != 1.0f) v /= options.temperature;
      out[n] = v;
    }
  }
  require_finite(head.scaled, head_index, "scaled");

  // 3. hide the positions the mask does not allow
  head.masked = mask_fill(head.scaled, keep);  // (B, Tq, Tkv)

  // 4. weights = softmax over the context axis: each row sums to 1
  head.weights = softmax(head.masked);

  // 5. out = weights @ v: each query aggregates what the keys it attends to offer
  if (weights.value != nullptr) {
    head.v = project(context, *weights.value);  // (B, Tkv, d_v)
    add_bias(*head.v, weights.value_bias);
    require_finite(*head.v, head_index, "value", "v = context @ W ");
    head.out = weighted_sum(head.weights, *head.v);
  } else {
    head.out = weighted_sum(head.weights, context);  // wei @ x
  }
  require_finite(head.out, head_index, "out");
  return head;
}

layer_trace attend_layer(const tensor3& x, const tensor3& context,
                         const std::vector<head_weights>& heads, const tensor2& keep,
                         const layer_options& options, const tensor2* output, const tensor1* output_bias) {
  layer_trace layer;
  std::size_t width = 0;
  for (std::size_t h = 0; h < heads.size(); ++h) {
    layer.heads.push_back(attend(x, context, heads[h], keep, options, h));
    width += layer.heads.back().out.shape(2);
  }

  // torch.cat(outs, dim=-1): (B, Tq, Σ d_v)
  const std::size_t B = x.shape(0), Tq = x.shape(1);
  tensor3 concatenated({B, Tq, width});
  for (std::size_t b = 0; b < B; ++b)
    for (std::size_t t = 0; t < Tq; ++t) {
      std::size_t column = 0;
      for (const head_trace& head : layer.heads)
        for (std::size_t c = 0; c < head.out.shape(2); ++c) concatenated(b, t, column++) = head.out(b, t, c);
    }

  if (output != nullptr) {
    layer.out = project(concatenated, *output);  // (B, Tq, C_out)
    add_bias(layer.out, output_bias);
    for (float value : layer.out)
      ATTENTION_CHECK(std::isfinite(value), "attention.output: overflows float32; the inputs are too large");
  } else {
    layer.out = std::move(concatenated);
  }
  return layer;
}

}  // namespace attention
