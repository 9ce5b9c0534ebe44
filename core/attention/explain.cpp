#include "attention/explain.hpp"

#include <cmath>
#include <limits>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "tensor/vector_math.hpp"

namespace attention {
namespace {

// x[b, i, :] · W[:, j], term by term
std::vector<product_term> projection_terms(const tensor& x, bool batched, std::size_t b, std::size_t i,
                                           const tensor& w, std::size_t j) {
  std::vector<product_term> terms;
  const std::size_t C = w.shape()[0];
  const float* row = x.data() + ((batched ? b * x.shape()[1] : 0) + i) * C;
  for (std::size_t c = 0; c < C; ++c) {
    const float weight = w.data()[c * w.shape()[1] + j];
    terms.push_back({row[c], weight, row[c] * weight});
  }
  return terms;
}

// a[b, i, :] · b_[b, j, :] over the last axis
std::vector<product_term> row_terms(const tensor3& a, const tensor3& other, std::size_t b, std::size_t i,
                                    std::size_t j) {
  std::vector<product_term> terms;
  for (std::size_t c = 0; c < a.shape(2); ++c) terms.push_back({a(b, i, c), other(b, j, c), a(b, i, c) * other(b, j, c)});
  return terms;
}

const tensor& named(const trace& t, const std::string& name) {
  const tensor* found = t.find_tensor(name);
  ATTENTION_CHECK(found != nullptr, "explain: no tensor named ", name);
  return *found;
}

}  // namespace

cell_explanation explain_cell(const scenario& s, const trace& t, std::size_t head, std::string_view step,
                              std::size_t batch, std::size_t row, std::size_t column) {
  ATTENTION_CHECK(head < t.layer.heads.size(), "explain: no head ", head);
  const head_trace& h = t.layer.heads[head];
  const head_spec& spec = s.attention.heads[head];
  const tensor3* values = h.step(step);
  ATTENTION_CHECK(values != nullptr, "explain: head ", head, " has no step ", std::string(step));
  ATTENTION_CHECK(batch < values->shape(0) && row < values->shape(1) && column < values->shape(2),
                  "explain: no cell (", batch, ", ", row, ", ", column, ") in ", std::string(step));

  cell_explanation e;
  e.step = std::string(step);
  e.head = head;
  e.batch = batch;
  e.row = row;
  e.column = column;
  e.value = (*values)(batch, row, column);

  const std::string i = std::to_string(row), j = std::to_string(column);
  const tensor& x = named(t, s.attention.x);
  const tensor& context = named(t, s.attention.context);
  if (step == "q" || step == "k" || step == "v") {
    // keys and values come from the context only in cross-attention
    const bool from_x = step == "q" || !s.is_cross();
    const std::string& weight = step == "q" ? spec.query : step == "k" ? spec.key : spec.value;
    const std::string& bias = step == "q" ? spec.query_bias : step == "k" ? spec.key_bias : spec.value_bias;
    const char* role = step == "q" ? "query" : step == "k" ? "key" : "value";
    e.formula = std::string(step) + "[" + i + ", " + j + "] = " + (from_x ? "x[" : "context[") + i + "] · W_" + role +
                "[:, " + j + "]" + (bias.empty() ? "" : std::string(" + b_") + role + "[" + j + "]");
    e.terms = projection_terms(from_x ? x : context, s.batched, batch, row, named(t, weight), column);
    if (!bias.empty()) e.bias = named(t, bias).data()[column];
  } else if (step == "q_rotated" || step == "k_rotated") {
    // x' = x · cos(angle) + rotate_half(x) · sin(angle): column c pairs with c ± d/2
    const bool query = step == "q_rotated";
    const tensor3& before = query ? *h.q : *h.k;
    const std::size_t d = before.shape(2), half = d / 2, pair = column < half ? column : column - half;
    const float angle = rotary_angles_of(s, t, head)(row, pair);
    const float own = before(batch, row, column);
    const float other = column < half ? -before(batch, row, column + half) : before(batch, row, column - half);
    const float cosine = static_cast<float>(std::cos(static_cast<double>(angle)));
    const float sine = static_cast<float>(std::sin(static_cast<double>(angle)));
    e.terms = {{own, cosine, own * cosine}, {other, sine, other * sine}};
    e.angle = angle;
    // the formula names the pair's other column: c + d/2 in the first half, c − d/2 in the second
    const std::string name(1, step[0]), cell = "[" + i + ", ";  // q or k, and the row
    e.formula = std::string(step) + cell + j + "] = " + name + cell + j + "] · cos(angle) " + (column < half ? "− " : "+ ") +
                name + cell + std::to_string(column < half ? column + half : column - half) + "] · sin(angle)";
  } else if (step == "scores") {
    if (h.q_rotated) {
      e.formula = "scores[" + i + ", " + j + "] = q_rotated[" + i + "] · k_rotated[" + j + "]";
      e.terms = row_terms(*h.q_rotated, *h.k_rotated, batch, row, column);
    } else if (h.q) {
      e.formula = "scores[" + i + ", " + j + "] = q[" + i + "] · k[" + j + "]";
      e.terms = row_terms(*h.q, *h.k, batch, row, column);
    } else {
      e.formula = "scores[" + i + ", " + j + "] = 0 (no query or key: uniform affinities)";
    }
  } else if (step == "scaled") {
    e.input = h.scores(batch, row, column);
    e.factor = s.attention.options.scale && h.k ? static_cast<float>(std::pow(double(h.k->shape(2)), -0.5)) : 1.0f;
    e.temperature = s.attention.options.temperature;
    e.formula = "scaled[" + i + ", " + j + "] = scores[" + i + ", " + j + "] · head_size^-0.5 / temperature";
  } else if (step == "masked") {
    e.input = h.scaled(batch, row, column);
    e.kept = std::isfinite(e.value);
    e.formula = "masked[" + i + ", " + j + "] = " +
                (e.kept ? "scaled[" + i + ", " + j + "] (the mask allows " + j + ")" : "−∞ (the mask hides " + j + ")");  // as the heatmap shows it
  } else if (step == "weights") {
    e.formula = "weights[" + i + ", " + j + "] = exp(masked[" + i + ", " + j + "] - max) / Σ_k exp(masked[" + i + ", k] - max)";
    const std::size_t n = h.masked.shape(2);
    e.row_max = -std::numeric_limits<float>::infinity();
    for (std::size_t k = 0; k < n; ++k) e.row_max = std::fmax(e.row_max, h.masked(batch, row, k));
    for (std::size_t k = 0; k < n; ++k) {
      const float m = h.masked(batch, row, k);
      e.masked_row.push_back(m);
      e.exps.push_back(exp_one(m - e.row_max));  // the exp softmax uses
      e.exp_sum += e.exps.back();
    }
  } else if (step == "out") {
    e.formula = "out[" + i + ", " + j + "] = Σ_k weights[" + i + ", k] · " + (h.v ? "v" : s.is_cross() ? "context" : "x") + "[k, " + j + "]";
    const std::size_t n = h.weights.shape(2);
    for (std::size_t j = 0; j < n; ++j) {
      const float w = h.weights(batch, row, j);
      float v;
      if (h.v) v = (*h.v)(batch, j, column);
      else v = context.data()[((s.batched ? batch * s.context_length : 0) + j) * context.shape().back() + column];
      e.terms.push_back({w, v, w * v});
    }
  }
  return e;
}

tensor2 rotary_angles_of(const scenario& s, const trace& t, std::size_t head) {
  ATTENTION_CHECK(s.attention.options.rotary.has_value(), "angles: this scenario has no rotary positions");
  ATTENTION_CHECK(head < t.layer.heads.size() && t.layer.heads[head].q, "angles: no head ", head, " with a query");
  const rotary_options& r = *s.attention.options.rotary;
  return rotary_angles(s.query_length, r.offset, t.layer.heads[head].q->shape(2), r.theta);
}

std::string explanation_json(const cell_explanation& e) {
  using nlohmann::json;
  auto number = [](float v) -> json { return std::isfinite(v) ? json(v) : json(nullptr); };
  json j = {{"step", e.step}, {"head", e.head}, {"batch", e.batch}, {"row", e.row}, {"column", e.column},
            {"value", number(e.value)}, {"formula", e.formula}};
  if (!e.terms.empty()) {
    json terms = json::array();
    for (const product_term& t : e.terms) terms.push_back({t.left, t.right, t.product});
    j["terms"] = terms;
  }
  if (e.bias) j["bias"] = *e.bias;
  if (e.angle) j["angle"] = *e.angle;
  if (e.step == "scaled") j.update({{"input", e.input}, {"factor", e.factor}, {"temperature", e.temperature}});
  if (e.step == "masked") j.update({{"input", e.input}, {"kept", e.kept}});
  if (e.step == "weights") {
    json row = json::array();
    for (float v : e.masked_row) row.push_back(number(v));
    j.update({{"row_max", e.row_max}, {"exp_sum", e.exp_sum}, {"row", row}, {"exps", e.exps}});
  }
  return j.dump();
}

}  // namespace attention
