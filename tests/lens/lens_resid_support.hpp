// Helpers of the logit-lens and attribution tests: the expected outputs of
// tests/golden-lens/ (torch_lens.py's, and the Llama family's from
// tests/fixtures/make_lens_families_resid.py), the model each names, and a
// comparison of JSON within lens-v1.md's tolerances that says where it differs.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "models/folder_support.hpp"
#include "models/loaded_model.hpp"
#include "models/model_stream.hpp"
#include "support.hpp"

namespace resid_support {

struct lens_case {
  std::string model, lens, expected;  // model: from the repository's root, a file or a folder
  std::vector<std::int64_t> tokens;
  std::optional<std::int64_t> position, token;
};

inline std::string root() { return test_support::tests_dir() + "/.."; }

// Every case of both manifests whose lens is `lens`.
inline std::vector<lens_case> cases_of(const std::string& lens) {
  std::vector<lens_case> out;
  for (const char* manifest : {"resid-cases.json", "families-resid-cases.json"})
    for (const auto& c : test_support::read_json(test_support::tests_dir() + "/golden-lens/" + manifest)) {
      if (c["lens"] != lens) continue;
      lens_case k{c["model"], c["lens"], c["expected"], c["tokens"].get<std::vector<std::int64_t>>(), {}, {}};
      if (!c["position"].is_null()) k.position = c["position"].get<std::int64_t>();
      if (!c["token"].is_null()) k.token = c["token"].get<std::int64_t>();
      out.push_back(k);
    }
  return out;
}

inline attention::loaded_model model_of(const std::string& path) {
  const std::string full = root() + "/" + path;
  if (path.find(".safetensors") != std::string::npos) return attention::read_model_file(full);
  return attention::read_folder(full, attention::read_family_config(attention::read_folder_config(full)));
}

inline nlohmann::ordered_json expected_of(const lens_case& c) {
  return nlohmann::ordered_json::parse(test_support::read_text(test_support::tests_dir() + "/golden-lens/" + c.expected));
}

// lens-v1.md's tolerance for a number under `key`: a part's value 1e-4,
// the parts' sum 1e-3, probabilities and logits 1e-4 + 1e-4·|x|.
inline double tolerance(const std::string& key, double expected) {
  if (key == "sum") return 1e-3;
  if (key == "value") return 1e-4;
  return 1e-4 + 1e-4 * std::fabs(expected);
}

// "" when `ours` has exactly `expected`'s keys in its order, the same
// arrays, integers and strings, and numbers within tolerance; else where and how not.
inline std::string difference(const nlohmann::ordered_json& ours, const nlohmann::ordered_json& expected,
                              const std::string& where = "", const std::string& key = "") {
  const auto at = [&](const std::string& what) { return (where.empty() ? std::string("top level") : where) + ": " + what; };
  if (expected.is_number_float() || (expected.is_number() && ours.is_number_float())) {
    if (!ours.is_number()) return at("expected a number, got " + ours.dump());
    const double a = ours.get<double>(), b = expected.get<double>();
    if (!(std::fabs(a - b) <= tolerance(key, b))) return at(ours.dump() + " vs " + expected.dump());
    return "";
  }
  if (expected.type() != ours.type() && !(expected.is_number_integer() && ours.is_number_integer()))
    return at("type of " + ours.dump() + " vs " + expected.dump());
  if (expected.is_object()) {
    std::vector<std::string> a, b;
    for (const auto& item : ours.items()) a.push_back(item.key());
    for (const auto& item : expected.items()) b.push_back(item.key());
    if (a != b) return at("keys " + nlohmann::json(a).dump() + " vs " + nlohmann::json(b).dump());
    for (const std::string& k : b) {
      const std::string d = difference(ours[k], expected[k], where + "." + k, k);
      if (!d.empty()) return d;
    }
    return "";
  }
  if (expected.is_array()) {
    if (ours.size() != expected.size())
      return at(std::to_string(ours.size()) + " entries vs " + std::to_string(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i) {
      const std::string d = difference(ours[i], expected[i], where + "[" + std::to_string(i) + "]", key);
      if (!d.empty()) return d;
    }
    return "";
  }
  return ours == expected ? "" : at(ours.dump() + " vs " + expected.dump());
}

}  // namespace resid_support
