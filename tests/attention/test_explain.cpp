#include <catch2/catch.hpp>

#include <cmath>

#include "attention/explain.hpp"
#include "attention/run.hpp"
#include "errors/check.hpp"
#include "support.hpp"

using namespace attention;

namespace {
using loaded = test_support::loaded_preset;
loaded load(const std::string& id) { return test_support::load_preset(id); }
float sum_of(const std::vector<product_term>& terms) {
  float sum = 0;
  for (const product_term& t : terms) sum += t.product;
  return sum;
}
}  // namespace

TEST_CASE("a score is explained as the q_i · k_j terms that sum to it", "[explain]") {
  const loaded l = load("karpathy-value");
  const cell_explanation e = explain_cell(l.s, l.t, 0, "scores", 2, 5, 3);
  REQUIRE(e.terms.size() == 16);
  CHECK(e.value == l.t.layer.heads[0].scores(2, 5, 3));
  CHECK(sum_of(e.terms) == Approx(e.value).margin(1e-5));
  CHECK(e.terms[4].left == (*l.t.layer.heads[0].q)(2, 5, 4));
  CHECK(e.terms[4].right == (*l.t.layer.heads[0].k)(2, 3, 4));
  CHECK(e.formula == "scores[5, 3] = q[5] · k[3]");
}

TEST_CASE("a weight is explained by its row's exponentials", "[explain]") {
  const loaded l = load("sun-rises-causal");
  const cell_explanation e = explain_cell(l.s, l.t, 0, "weights", 0, 2, 1);
  REQUIRE(e.exps.size() == 6);
  CHECK(e.exps[3] == 0.0f);  // masked: exp(-inf) = 0
  CHECK(e.exps[1] / e.exp_sum == Approx(e.value).margin(1e-6));
  CHECK(e.value == Approx(0.0493).margin(5e-5));  // printed in the notebook
}

TEST_CASE("an output is explained as weights times values", "[explain]") {
  const loaded l = load("sun-rises");
  const cell_explanation e = explain_cell(l.s, l.t, 0, "out", 0, 1, 3);
  REQUIRE(e.terms.size() == 6);
  CHECK(sum_of(e.terms) == Approx(e.value).margin(1e-5));

  const loaded uniform = load("math-trick");  // no value: weights @ x
  const cell_explanation u = explain_cell(uniform.s, uniform.t, 0, "out", 1, 3, 1);
  CHECK(sum_of(u.terms) == Approx(u.value).margin(1e-6));
}

TEST_CASE("projections, scaling and masking are explained too", "[explain]") {
  const loaded l = load("sun-rises-cross");
  const cell_explanation k = explain_cell(l.s, l.t, 0, "k", 0, 7, 1);
  CHECK(sum_of(k.terms) == Approx(k.value).margin(1e-6));
  const cell_explanation scaled = explain_cell(l.s, l.t, 0, "scaled", 0, 2, 3);
  CHECK(scaled.factor == Approx(1 / std::sqrt(2.0f)));
  CHECK(scaled.input * scaled.factor == Approx(scaled.value));

  const loaded causal = load("sun-rises-causal");
  CHECK_FALSE(explain_cell(causal.s, causal.t, 0, "masked", 0, 1, 4).kept);
  CHECK(explain_cell(causal.s, causal.t, 0, "masked", 0, 4, 1).kept);
}

TEST_CASE("asking for a cell that does not exist is an error", "[explain]") {
  const loaded l = load("math-trick");
  CHECK_THROWS_WITH(explain_cell(l.s, l.t, 0, "q", 0, 0, 0), "explain: head 0 has no step q");
  CHECK_THROWS_WITH(explain_cell(l.s, l.t, 1, "scores", 0, 0, 0), "explain: no head 1");
  CHECK_THROWS_WITH(explain_cell(l.s, l.t, 0, "scores", 9, 0, 0), "explain: no cell (9, 0, 0) in scores");
}

TEST_CASE("explanations serialize with -inf as null", "[explain]") {
  const loaded l = load("sun-rises-causal");
  const auto j = nlohmann::json::parse(explanation_json(explain_cell(l.s, l.t, 0, "weights", 0, 0, 0)));
  CHECK(j["row"][1].is_null());
  CHECK(j["exps"][1] == 0.0);
  CHECK(j["value"] == 1.0);
}

TEST_CASE("keys and values come from x in self-attention, from the context in cross-attention", "[explain]") {
  const loaded self = load("karpathy-value");
  CHECK(explain_cell(self.s, self.t, 0, "k", 0, 2, 1).formula == "k[2, 1] = x[2] · W_key[:, 1]");
  CHECK(explain_cell(self.s, self.t, 0, "v", 0, 2, 1).formula == "v[2, 1] = x[2] · W_value[:, 1]");
  const loaded cross = load("sun-rises-cross");
  CHECK_THAT(explain_cell(cross.s, cross.t, 0, "k", 0, 1, 0).formula, Catch::StartsWith("k[1, 0] = context[1] · W_key"));
  const loaded uniform = load("math-trick");  // no value: out averages x itself
  CHECK_THAT(explain_cell(uniform.s, uniform.t, 0, "out", 0, 1, 0).formula, Catch::EndsWith("· x[k, 0]"));
}

TEST_CASE("a projection with a bias is explained as its terms plus the bias", "[explain]") {
  const std::string dir = test_support::tests_dir() + "/golden-models/";
  const scenario s = parse_scenario(test_support::read_text(dir + "text-gpt.head.json"));
  const trace t = run(s);
  for (const char* step : {"q", "k", "v"}) {
    const cell_explanation e = explain_cell(s, t, 0, step, 0, 4, 3);
    REQUIRE(e.bias.has_value());
    CHECK(sum_of(e.terms) + *e.bias == Approx(e.value).margin(1e-5));
    CHECK(e.formula == std::string(step) + "[4, 3] = x[4] · W_" +
                           (step[0] == 'q' ? "query" : step[0] == 'k' ? "key" : "value") + "[:, 3] + b_" +
                           (step[0] == 'q' ? "query" : step[0] == 'k' ? "key" : "value") + "[3]");
  }
  CHECK(explanation_json(explain_cell(s, t, 0, "q", 0, 4, 3)).find("\"bias\":") != std::string::npos);
  const loaded unbiased = load("karpathy-value");
  CHECK(!explain_cell(unbiased.s, unbiased.t, 0, "q", 0, 1, 1).bias.has_value());
}

TEST_CASE("a turned q is explained as q · cos + its pair · sin, at the pair's angle; scores use the turned rows", "[explain][rotary]") {
  const loaded l = load("rotary-sun-rises");  // d_k 4, θ 10000, offset 0
  const head_trace& h = l.t.layer.heads[1];
  SECTION("first half: q[i, j] · cos − q[i, j + 2] · sin") {
    const cell_explanation e = explain_cell(l.s, l.t, 1, "q_rotated", 0, 3, 0);
    REQUIRE(e.terms.size() == 2);
    REQUIRE(e.angle.has_value());
    CHECK(*e.angle == 3.0f);  // pair 0 turns one radian per position
    CHECK(e.terms[0].left == (*h.q)(0, 3, 0));
    CHECK(e.terms[1].left == -(*h.q)(0, 3, 2));
    CHECK(e.terms[0].right == Approx(std::cos(3.0)).margin(1e-7));
    CHECK(e.terms[1].right == Approx(std::sin(3.0)).margin(1e-7));
    CHECK(e.terms[0].product + e.terms[1].product == e.value);
    CHECK(e.formula == "q_rotated[3, 0] = q[3, 0] · cos(angle) − q[3, 2] · sin(angle)");
  }
  SECTION("second half: k[i, j] · cos + k[i, j − 2] · sin") {
    const cell_explanation e = explain_cell(l.s, l.t, 1, "k_rotated", 0, 5, 3);
    CHECK(*e.angle == rotary_angles_of(l.s, l.t, 1)(5, 1));
    CHECK(e.terms[1].left == (*h.k)(0, 5, 1));
    CHECK(e.formula == "k_rotated[5, 3] = k[5, 3] · cos(angle) + k[5, 1] · sin(angle)");
    CHECK(e.terms[0].product + e.terms[1].product == e.value);
  }
  SECTION("scores") {
    const cell_explanation e = explain_cell(l.s, l.t, 1, "scores", 0, 4, 2);
    CHECK(e.formula == "scores[4, 2] = q_rotated[4] · k_rotated[2]");
    CHECK(e.terms[1].left == (*h.q_rotated)(0, 4, 1));
    CHECK(sum_of(e.terms) == Approx(e.value).margin(1e-6));
  }
  SECTION("angles of a scenario without rotary are refused in words") {
    const loaded plain = load("sun-rises-causal");
    CHECK_THROWS_WITH(rotary_angles_of(plain.s, plain.t, 0), "angles: this scenario has no rotary positions");
  }
}
