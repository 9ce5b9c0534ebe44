// Every seed preset's trace against PyTorch's (tests/golden), every step of
// every head, under the spec's tolerance 2e-5 + 1e-4·|expected|.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <set>

#include "attention/run.hpp"
#include "formats/scenario_file.hpp"
#include "formats/trace_json.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {

// Every preset with an expected trace: the fifteen seeds and any added since.
std::vector<std::string> golden_ids() {
  std::vector<std::string> ids;
  for (const auto& entry : std::filesystem::directory_iterator(test_support::tests_dir() + "/golden")) {
    const std::string name = entry.path().filename().string();
    ids.push_back(name.substr(0, name.size() - std::string(".trace.json").size()));
  }
  std::sort(ids.begin(), ids.end());
  return ids;
}

void expect_same(const json& actual, const json& expected, const std::string& where) {
  const test_support::comparison c = test_support::compare_tensors(actual, expected);
  INFO(where << ": shape " << actual.at("shape") << " vs expected " << expected.at("shape"));
  REQUIRE(c.same_shape);
  INFO(where << ": " << c.mismatches << " values outside tolerance; largest difference " << c.largest_difference
             << " at index " << c.worst_index);
  CHECK(c.mismatches == 0);
}

// The trace of a scenario's text against PyTorch's: every tensor, every step
// of every head, the layer's out.
void expect_trace(const std::string& text, const json& expected, const std::string& id) {
  const json actual = json::parse(trace_json(run_json(text)));
  CHECK(actual.at("version") == 1);
  CHECK(actual.at("id") == id);
  REQUIRE(actual.at("tensors").size() == expected.at("tensors").size());
  for (const auto& item : expected.at("tensors").items())
    expect_same(actual.at("tensors").at(item.key()), item.value(), "tensors." + item.key());

  REQUIRE(actual.at("heads").size() == expected.at("heads").size());
  for (std::size_t h = 0; h < expected.at("heads").size(); ++h) {
    const json& head = expected.at("heads")[h];
    std::set<std::string> expected_steps, actual_steps;
    for (const auto& step : head.items()) expected_steps.insert(step.key());
    for (const auto& step : actual.at("heads")[h].items()) actual_steps.insert(step.key());
    CHECK(actual_steps == expected_steps);  // q/k/v exactly when PyTorch has them
    for (const auto& step : head.items())
      expect_same(actual.at("heads")[h].at(step.key()), step.value(),
                  "heads[" + std::to_string(h) + "]." + step.key());
  }
  expect_same(actual.at("out"), expected.at("out"), "out");
}

}  // namespace

TEST_CASE("every preset's trace equals PyTorch's, every step, every head", "[run]") {
  const std::vector<std::string> ids = golden_ids();
  REQUIRE(ids.size() >= 15);
  for (const std::string& id : ids) {
    SECTION(id) {
      const std::string text = test_support::read_text(test_support::presets_dir() + "/" + id + ".json");
      expect_trace(text, test_support::read_json(test_support::tests_dir() + "/golden/" + id + ".trace.json"), id);
    }
  }
}

// gpt-v1.md section 3: a GPT's head as a scenario, with its query, key and
// value biases, made by torch_model.py head and traced by torch_trace.py.
TEST_CASE("a scenario's biases are added after their products, as PyTorch adds them", "[run]") {
  const std::string dir = test_support::tests_dir() + "/golden-models/";
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 10 && name.substr(name.size() - 10) == ".head.json") names.push_back(name.substr(0, name.size() - 10));
  }
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() >= 5);
  for (const std::string& name : names) {
    SECTION(name) {
      const std::string text = test_support::read_text(dir + name + ".head.json");
      const json scenario = json::parse(text);
      const json expected = test_support::read_json(dir + name + ".head.trace.json");
      expect_trace(text, expected, scenario.at("id").get<std::string>());
    }
  }
}

// scenario-v1.md "The attention layer": rotary positions on q and k, traced
// by torch_trace.py (tests/golden-rotary/README.md): one head, a batch of three
// heads at positions 0 and 5, biases and an output projection at offset 300.
TEST_CASE("rotary scenarios' traces equal PyTorch's, q_rotated and k_rotated included", "[run][rotary]") {
  const std::string dir = test_support::tests_dir() + "/golden-rotary/";
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 5 && name.substr(name.size() - 5) == ".json" && name.find(".trace.") == std::string::npos)
      names.push_back(name.substr(0, name.size() - 5));
  }
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() >= 3);
  for (const std::string& name : names) {
    SECTION(name) {
      const json expected = test_support::read_json(dir + name + ".trace.json");
      REQUIRE(expected.at("heads")[0].contains("q_rotated"));
      expect_trace(test_support::read_text(dir + name + ".json"), expected, name);
    }
  }
}

TEST_CASE("the presets show the numbers their notebooks printed", "[run]") {
  SECTION("math-trick: x[0] starts 0.8823, 0.9150 (seed 42)") {
    const trace t = run_json(test_support::read_text(test_support::presets_dir() + "/math-trick.json"));
    const tensor& x = *t.find_tensor("x");
    CHECK(x(0, 0, 0) == Approx(0.8823).margin(5e-5));
    CHECK(x(0, 0, 1) == Approx(0.9150).margin(5e-5));
    CHECK(x(0, 7, 1) == Approx(0.4294).margin(5e-5));
    // xbow[0][1] = (0.8823 + 0.3829) / 2
    CHECK(t.layer.heads[0].out(0, 1, 0) == Approx(0.6326).margin(5e-5));
  }
  SECTION("karpathy-affinities: wei[0] row 1 is 0.16, 0.84 (seed 1337)") {
    const trace t = run_json(test_support::read_text(test_support::presets_dir() + "/karpathy-affinities.json"));
    const tensor3& w = t.layer.heads[0].weights;
    CHECK(w(0, 1, 0) == Approx(0.16).margin(0.005));
    CHECK(w(0, 1, 1) == Approx(0.84).margin(0.005));
    CHECK(w(0, 4, 4) == Approx(0.79).margin(0.005));
    CHECK(w(0, 7, 7) == Approx(0.24).margin(0.005));
  }
  SECTION("sun-rises: the embedded sentence starts 0.3374, -0.1778, -0.3035 (seed 123)") {
    const trace t = run_json(test_support::read_text(test_support::presets_dir() + "/sun-rises.json"));
    const tensor& e = *t.find_tensor("embedded");
    CHECK(e(0, 0) == Approx(0.3374).margin(5e-5));
    CHECK(e(0, 1) == Approx(-0.1778).margin(5e-5));
    CHECK(e(5, 2) == Approx(0.6603).margin(5e-5));
    CHECK(t.layer.heads[0].scores(0, 1, 1) == Approx(3.4707).margin(5e-4));
  }
  SECTION("tril-matmul: b = [[3, 7], [8, 1], [4, 1]], c = [[3, 7], [5.5, 4], [5, 3]]") {
    const trace t = run_json(test_support::read_text(test_support::presets_dir() + "/tril-matmul.json"));
    const tensor& b = *t.find_tensor("b3");
    CHECK(b(0, 1) == 7.0f);
    CHECK(b(1, 0) == 8.0f);
    CHECK(t.layer.out(0, 1, 0) == 5.5f);
    CHECK(t.layer.out(0, 2, 1) == 3.0f);
  }
}

// PyTorch seeds its default generator at random in a fresh interpreter; the
// core starts from default_rng_seed_val instead, so a link always reproduces.
TEST_CASE("a scenario without a seed starts from PyTorch's default_rng_seed_val", "[run]") {
  const std::string text = R"({"version": 1, "id": "no-seed", "tensors": [{"name": "x", "rand": [2, 3]}],
                               "attention": {"x": "x", "heads": [{}]}})";
  const trace a = run_json(text), b = run_json(text);
  CHECK((*a.find_tensor("x") == *b.find_tensor("x")));
  // torch.manual_seed(67280421310721); torch.rand(2, 3) starts 0.2673, 0.8725
  CHECK((*a.find_tensor("x"))(0, 0) == Approx(0.2673).margin(5e-5));
  CHECK((*a.find_tensor("x"))(0, 1) == Approx(0.8725).margin(5e-5));
}
