#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <limits>

#include "run.hpp"
#include "support.hpp"
#include "trace.hpp"

using namespace attention;
using nlohmann::json;

TEST_CASE("floats print in the fewest digits that read back as the same float32", "[trace]") {
  for (float v : {0.1f, 1.0f / 3.0f, 0.8822692632675171f, -2.5e-38f, 3.4028235e38f, 1e-45f, 0.0f, 16.0f}) {
    const std::string text = float_text(v);
    INFO(text);
    CHECK(std::strtof(text.c_str(), nullptr) == v);
  }
  CHECK(float_text(0.1f) == "0.1");
  CHECK(float_text(1.0f) == "1");
}

TEST_CASE("the portable float text reads back the same float as to_chars does", "[trace]") {
  // the path the wasm build takes, checked against the native one
  std::uint32_t bits = 0x3f800001u;
  for (int i = 0; i < 20000; ++i) {
    bits = bits * 1664525u + 1013904223u;  // wander over all float bit patterns
    float value;
    std::memcpy(&value, &bits, sizeof value);
    if (!std::isfinite(value)) continue;
    char buffer[32];
    const std::string portable(buffer, float_text_portable(buffer, sizeof buffer, value));
    INFO(portable << " vs " << float_text(value));
    REQUIRE(std::strtof(portable.c_str(), nullptr) == value);
    REQUIRE(portable.size() <= 15);  // "-1.23456789e-38" is the longest
  }
}

TEST_CASE("a trace reads back bit for bit, with -inf as null", "[trace]") {
  const std::string text = R"({"version": 1, "id": "round-trip", "seed": 3,
    "tensors": [{"name": "x", "randn": [2, 5, 4]}, {"name": "w", "linear": [4, 3]}],
    "attention": {"x": "x", "heads": [{"query": "w", "key": "w", "value": "w"}]}})";
  const trace t = run_json(text);
  const json j = json::parse(trace_json(t));

  const auto& masked = j["heads"][0]["masked"];
  CHECK(masked["shape"] == json({2, 5, 5}));
  CHECK(masked["data"][1].is_null());  // row 0 may not see position 1
  CHECK_FALSE(masked["data"][0].is_null());

  const auto& weights = j["heads"][0]["weights"]["data"];
  for (std::size_t i = 0; i < weights.size(); ++i)
    REQUIRE(static_cast<float>(weights[i].get<double>()) == t.layer.heads[0].weights.data()[i]);
  const auto& x = j["tensors"]["x"]["data"];
  for (std::size_t i = 0; i < x.size(); ++i) REQUIRE(static_cast<float>(x[i].get<double>()) == t.tensors[0].value.data()[i]);
}

TEST_CASE("a trace has the spec's keys, in its order, and q/k/v only when named", "[trace]") {
  const std::string text = R"({"version": 1, "id": "keys",
    "tensors": [{"name": "x", "ones": [3, 2]}, {"name": "v", "ones": [2, 2]}],
    "attention": {"x": "x", "heads": [{"value": "v"}, {}]}})";
  const std::string out = trace_json(run_json(text));
  const json j = json::parse(out);
  CHECK(out.rfind("{\"version\": 1, \"id\": \"keys\", \"tensors\": {", 0) == 0);
  CHECK(j["heads"][0].contains("v"));
  CHECK_FALSE(j["heads"][0].contains("q"));
  CHECK_FALSE(j["heads"][1].contains("v"));
  // no batch axis in x: none in the steps
  CHECK(j["heads"][0]["scores"]["shape"] == json({3, 3}));
  CHECK(j["out"]["shape"] == json({3, 4}));
}

TEST_CASE("find_tensor finds named tensors and nothing else", "[trace]") {
  const trace t = run_json(R"({"version": 1, "id": "find", "tensors": [{"name": "x", "ones": [2, 2]}],
                               "attention": {"x": "x", "heads": [{}]}})");
  REQUIRE(t.find_tensor("x") != nullptr);
  CHECK(t.find_tensor("y") == nullptr);
}
