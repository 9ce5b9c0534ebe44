#include <catch2/catch.hpp>

#include <limits>

#include "attention/run.hpp"
#include "errors/check.hpp"
#include "formats/scenario_file.hpp"
#include "lessons/lessons.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("the averaging lesson reproduces notebook 003: x, agreement and the a @ b demos", "[lessons]") {
  const json j = json::parse(averaging_lesson_json(42, 4, 8, 2));
  CHECK(j["x"]["data"][0].get<float>() == Approx(0.8823).margin(5e-5));
  CHECK(j["tril_agrees"] == true);
  CHECK(j["softmax_agrees"] == true);
  CHECK(j["loop"]["data"][2].get<float>() == Approx(0.6326).margin(5e-5));  // xbow[0, 1, 0]
  REQUIRE(j["demos"].size() == 3);
  // the notebook printed b = [[0, 1], [3, 0], [1, 1]], c = [[4, 2], …] for ones
  CHECK(j["demos"][0]["b"]["data"] == json({0, 1, 3, 0, 1, 1}));
  CHECK(j["demos"][0]["c"]["data"] == json({4, 2, 4, 2, 4, 2}));
  CHECK(j["demos"][1]["c"]["data"] == json({7, 9, 11, 12, 19, 21}));
  CHECK(j["demos"][2]["c"]["data"] == json({3, 7, 5.5, 4, 5, 3}));
  CHECK(j["softmax_weights"]["data"][8 + 1].get<float>() == Approx(0.5f));
}

TEST_CASE("the scaling lesson: variance grows with head size unscaled, stays near 1 scaled", "[lessons]") {
  const json j = json::parse(scaling_lesson_json(1337, 4, 64, {1, 16, 256}, {0.1f, -0.2f, 0.3f, -0.2f, 0.5f}, {1, 8}));
  REQUIRE(j["variances"].size() == 3);
  CHECK(j["variances"][2]["scores"].get<double>() > 150);
  CHECK(j["variances"][2]["scaled"].get<double>() == Approx(1.0).margin(0.2));
  CHECK(j["softmax"][1]["weights"][4].get<float>() == Approx(0.8000).margin(5e-5));
  CHECK(j["softmax"][1]["variance"].get<double>() == Approx(6.08).margin(1e-3));
}

TEST_CASE("the lessons refuse sizes beyond what a page needs", "[lessons]") {
  CHECK_THROWS_WITH(averaging_lesson_json(1, 9, 8, 2), "averaging lesson: B, T, C must be 1-8, 1-64, 1-16");
  CHECK_THROWS_WITH(scaling_lesson_json(1, 4, 8, {0}, {1.0f}, {1.0f}), "scaling lesson: head sizes must be 1-1024");
}

TEST_CASE("the scaling lesson's sizes cannot wrap or ask for minutes of work", "[lessons]") {
  const std::string positions = "scaling lesson: at most 4096 positions (B · T) and 16 head sizes";
  // 4096 · 1048577 wraps to 4096 in 32 bits: each factor is checked first
  CHECK_THROWS_WITH(scaling_lesson_json(1, 4096, 1048577, {16}, {1.0f}, {1.0f}), positions);
  CHECK_THROWS_WITH(scaling_lesson_json(1, 2, (std::size_t{1} << 31) + 1, {16}, {1.0f}, {1.0f}), positions);
  CHECK_THROWS_WITH(scaling_lesson_json(1, 1, 4096, {1024}, {1.0f}, {1.0f}),
                    "scaling lesson: B · T · T · head sizes = 17179869184 multiply-adds; the limit is 268435456");
  const float inf = std::numeric_limits<float>::infinity();
  const std::string finite = "scaling lesson: values and factors must be finite, and so must their products";
  CHECK_THROWS_WITH(scaling_lesson_json(1, 4, 8, {4}, {1.0f, inf}, {1.0f}), finite);
  CHECK_THROWS_WITH(scaling_lesson_json(1, 4, 8, {4}, {3e38f}, {16.0f}), finite);
  CHECK_THROWS_WITH(scaling_lesson_json(1, 4, 8, {4}, std::vector<float>(65, 1.0f), {1.0f}),
                    "scaling lesson: 1 to 64 values and at most 16 factors");
}

TEST_CASE("the space lesson as JSON says whether the outputs only permuted", "[lessons]") {
  const scenario s = parse_scenario(test_support::read_text(test_support::presets_dir() + "/sun-rises.json"));
  const trace t = run(s);
  CHECK(json::parse(space_lesson_json(s, t, {1, 0, 2, 3, 4, 5}, false))["equivariant"] == true);
  CHECK(json::parse(space_lesson_json(s, t, {1, 0, 2, 3, 4, 5}, true))["equivariant"] == false);
}

TEST_CASE("the renormalize lesson answers each step of masking after softmax, and whether it agrees", "[lessons]") {
  const auto l = test_support::load_preset("sun-rises-causal");
  const json j = json::parse(renormalize_lesson_json(l.t, 0, keep_matrix(l.s.attention.mask, 6, 6)));
  CHECK(j["unmasked"]["shape"] == json({1, 6, 6}));
  CHECK(j["row_sums"]["shape"] == json({1, 6}));  // one sum a row
  CHECK(j["row_sums"]["data"].size() == 6);
  CHECK(j["zeroed"]["data"][1].get<float>() == 0.0f);  // row 0 hides column 1
  CHECK(j["renormalized"]["data"][0].get<float>() == Approx(1.0f));
  CHECK(j["agrees"] == true);
}
