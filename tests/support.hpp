// Helpers shared by the core tests: fixture files and tensor comparison that
// reports the largest difference when it fails.
#pragma once

#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "attention/run.hpp"
#include "formats/scenario_file.hpp"
#include "formats/training_file.hpp"
#include "tensor/simd.hpp"

namespace test_support {

inline std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) FAIL("cannot open " << path);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

inline nlohmann::json read_json(const std::string& path) { return nlohmann::json::parse(read_text(path)); }

inline std::string tests_dir() { return ATTENTION_TESTS_DIR; }

// (rows, cols) -> (cols, rows), by the plain loop a test trusts
inline attention::tensor2 transposed(const attention::tensor2& m) {
  attention::tensor2 t({m.shape(1), m.shape(0)});
  for (std::size_t r = 0; r < m.shape(0); ++r)
    for (std::size_t c = 0; c < m.shape(1); ++c) t(c, r) = m(r, c);
  return t;
}

// Runs f(lanes) with the kernels at each vector width this machine has (4
// everywhere, in SSE2's encoding and, with AVX, in AVX's; 8 and 16 with
// AVX2 and AVX-512), then back at the width and encoding it found, also
// when f throws (a failed REQUIRE): the next test must not run narrower.
template <typename F>
void at_every_width(const F& f) {
  struct restore {
    int widest = attention::simd_lanes();
    bool vex = attention::simd_vex();
    ~restore() {
      attention::use_simd_lanes(widest);
      attention::use_simd_vex(vex);
    }
  } found;
  for (int lanes : {4, 8, 16}) {
    if (!attention::simd_runs(lanes)) continue;
    attention::use_simd_lanes(lanes);
    for (bool encoding : {false, true}) {
      if (encoding && (lanes != 4 || !attention::simd_runs(8))) continue;
      attention::use_simd_vex(encoding);
      INFO("vectors of " << lanes << " floats" << (encoding ? " in AVX's encoding" : ""));
      f(lanes);
    }
  }
}
inline std::string presets_dir() { return ATTENTION_PRESETS_DIR; }

// The spec's tolerance against PyTorch: 2e-5 + 1e-4·|expected|.
inline bool within_spec(double actual, double expected) {
  return std::fabs(actual - expected) <= 2e-5 + 1e-4 * std::fabs(expected);
}

// null in a trace is -inf.
inline double trace_number(const nlohmann::json& v) {
  return v.is_null() ? -std::numeric_limits<double>::infinity() : v.get<double>();
}

// A preset of web/scenarios, parsed and run.
struct loaded_preset {
  attention::scenario s;
  attention::trace t;
};

inline loaded_preset load_preset(const std::string& id) {
  loaded_preset l{attention::parse_scenario(read_text(presets_dir() + "/" + id + ".json")), {}};
  l.t = attention::run(l.s);
  return l;
}

// A training preset of tests/golden-training, through the core's own parser;
// a text task's corpus is the file beside it, as the CLI reads it.
inline attention::training_file training_preset(const std::string& id) {
  const std::string folder = tests_dir() + "/golden-training/";
  return attention::parse_training(read_text(folder + id + ".json"),
                                   [folder](const std::string& name) { return read_text(folder + name); });
}

// Each parameter of a model beside its entry in a trace's "weights" (or the
// gradients in that layout): f(tensor, entry, name). Returns how many.
template <typename F>
std::size_t for_each_weight(const attention::model_weights& got, const nlohmann::json& want, F&& f) {
  std::size_t count = 0;
  const auto one = [&](const attention::tensor2& t, const nlohmann::json& entry, const std::string& name) {
    f(t, entry, name);
    ++count;
  };
  const auto linear = [&](const nlohmann::json& parent, const char* name, const attention::tensor2& w,
                          const attention::tensor2& bias, const std::string& where) {
    one(w, parent.at(name), where + name);
    if (bias.size() != 0) one(bias, parent.at(std::string(name) + "_bias"), where + name + "_bias");
  };
  const auto norm = [&](const nlohmann::json& parent, const char* name, const attention::layer_norm_weights& ln,
                        const std::string& where) {
    if (ln.weight.size() == 0) return;
    one(ln.weight, parent.at(name).at("weight"), where + name + ".weight");
    one(ln.bias, parent.at(name).at("bias"), where + name + ".bias");
  };
  one(got.tok.floats(), want.at("tok"), "tok");
  one(got.pos, want.at("pos"), "pos");
  for (std::size_t l = 0; l < got.layers.size(); ++l) {
    const attention::model_layer& layer = got.layers[l];
    const nlohmann::json& w = want.at("layers").at(l);
    const std::string where = "layers[" + std::to_string(l) + "].";
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
      const nlohmann::json& head = w.at("heads").at(h);
      const std::string at = where + "heads[" + std::to_string(h) + "].";
      linear(head, "query", layer.heads[h].query, layer.heads[h].query_bias, at);
      linear(head, "key", layer.heads[h].key, attention::tensor2(), at);
      linear(head, "value", layer.heads[h].value, layer.heads[h].value_bias, at);
    }
    linear(w, "proj", layer.proj.floats(), layer.proj_bias, where);
    if (!layer.fc.empty()) {
      linear(w, "fc", layer.fc.floats(), layer.fc_bias, where);
      linear(w, "fc2", layer.fc2.floats(), layer.fc2_bias, where);
    }
    norm(w, "ln1", layer.ln1, where);
    norm(w, "ln2", layer.ln2, where);
  }
  norm(want, "ln_f", got.ln_f, "");
  linear(want, "unembed", got.unembed.floats(), got.unembed_bias, "");
  return count;
}

// Under ASan and UBSan, long trainings run a prefix of their golden trace.
#ifdef ATTENTION_SANITIZED
inline constexpr bool sanitized = true;
#else
inline constexpr bool sanitized = false;
#endif

// A fixture's "task" object, read by the parser inside a minimal training file.
inline attention::task_spec task_of(const nlohmann::json& task) {
  const nlohmann::json file = {{"version", 1}, {"id", "fixture"}, {"seed", 0}, {"task", task},
                               {"model", {{"embed", 1}}}, {"train", {{"steps", 1}}}};
  return attention::parse_training(file.dump()).spec.task;
}

struct comparison {
  bool same_shape = true;
  std::size_t mismatches = 0;
  double largest_difference = 0;
  std::size_t worst_index = 0;
};

// Compares {"shape", "data"} objects element by element under the spec's tolerance.
inline comparison compare_tensors(const nlohmann::json& actual, const nlohmann::json& expected) {
  comparison c;
  if (actual.at("shape") != expected.at("shape") || actual.at("data").size() != expected.at("data").size()) {
    c.same_shape = false;
    return c;
  }
  const auto& a = actual.at("data");
  const auto& e = expected.at("data");
  for (std::size_t i = 0; i < e.size(); ++i) {
    const double x = trace_number(a[i]), y = trace_number(e[i]);
    if (std::isinf(x) || std::isinf(y)) {
      if (x != y) { ++c.mismatches; c.largest_difference = std::numeric_limits<double>::infinity(); c.worst_index = i; }
      continue;
    }
    const double d = std::fabs(x - y);
    if (!within_spec(x, y)) ++c.mismatches;
    if (d > c.largest_difference) { c.largest_difference = d; c.worst_index = i; }
  }
  return c;
}

}  // namespace test_support
