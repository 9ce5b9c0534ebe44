// Helpers of the lens tests: the committed cases (tests/golden-lens/cases*.json,
// written by tests/fixtures/make_lens*.py from PyTorch), the model each one
// reads (a file or a folder), and a comparison of a lens's JSON with the
// expected one: keys and their order exactly, nulls exactly, integers
// exactly, numbers within lens-v1's 1e-4 + 1e-4·|x|.
#pragma once

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lens/lens.hpp"
#include "models/family_config.hpp"
#include "models/folder_read.hpp"
#include "models/model_stream.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

namespace lens_support {

struct lens_case {
  std::string model, expected;  // the model's path from the repository's root; the expected file's name
  nlohmann::json request;       // as wasm's lens reads it
};

inline std::string root() { return test_support::tests_dir() + "/.."; }

// Every case of every manifest tests/golden-lens/cases*.json, sorted by file name.
inline std::vector<lens_case> cases() {
  std::vector<std::string> manifests;
  for (const auto& entry : std::filesystem::directory_iterator(test_support::tests_dir() + "/golden-lens")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("cases", 0) == 0 && entry.path().extension() == ".json") manifests.push_back(entry.path().string());
  }
  std::sort(manifests.begin(), manifests.end());
  std::vector<lens_case> all;
  for (const std::string& manifest : manifests)
    for (const nlohmann::json& c : test_support::read_json(manifest))
      all.push_back({c.at("model").get<std::string>(), c.at("expected").get<std::string>(), c.at("request")});
  return all;
}

inline nlohmann::ordered_json expected_of(const lens_case& c) {
  return nlohmann::ordered_json::parse(test_support::read_text(test_support::tests_dir() + "/golden-lens/" + c.expected));
}

// The request a case's JSON names (wasm's fields; the CLI's are the same).
inline attention::lens_request request_of(const nlohmann::json& r) {
  attention::lens_request request;
  request.what = r.at("what").get<std::string>();
  request.tokens = r.at("tokens").get<std::vector<std::int64_t>>();
  if (r.contains("heads"))
    for (const auto& h : r.at("heads")) request.heads.emplace_back(h.at(0).get<std::size_t>(), h.at(1).get<std::size_t>());
  request.mean = r.value("mode", std::string("zero")) == "mean";
  if (r.contains("position")) request.position = r.at("position").get<std::size_t>();
  if (r.contains("token")) request.token = r.at("token").get<std::int64_t>();
  return request;
}

// A model file or a Hugging Face folder, read once per path for the whole binary.
inline const attention::loaded_model& model_at(const std::string& path_from_root) {
  static std::map<std::string, std::shared_ptr<attention::loaded_model>> loaded;
  auto& slot = loaded[path_from_root];
  if (!slot) {
    const std::string path = root() + "/" + path_from_root;
    if (attention::is_folder(path)) {
      const attention::family_config config = attention::read_family_config(attention::read_folder_config(path));
      slot = std::make_shared<attention::loaded_model>(attention::read_folder(path, config));
    } else {
      slot = std::make_shared<attention::loaded_model>(attention::read_model_file(path));
    }
  }
  return *slot;
}

// lens-v1's tolerance: 1e-4, and 1e-4 + 1e-4·|x| for probabilities and logits (the wider of the two)
inline bool within_lens(double actual, double expected) {
  return std::fabs(actual - expected) <= 1e-4 + 1e-4 * std::fabs(expected);
}

// The places where actual and expected differ ("heads[3].induction: 0.5 against 0.25"), at most `limit`.
inline void differences(const nlohmann::ordered_json& actual, const nlohmann::ordered_json& expected,
                        const std::string& place, std::vector<std::string>& found, std::size_t limit = 8) {
  if (found.size() >= limit) return;
  const auto say = [&](const std::string& what) { found.push_back(place + ": " + what); };
  if (expected.is_object()) {
    if (!actual.is_object()) return say("not an object");
    std::vector<std::string> want, got;
    for (auto it = expected.begin(); it != expected.end(); ++it) want.push_back(it.key());
    for (auto it = actual.begin(); it != actual.end(); ++it) got.push_back(it.key());
    if (want != got) return say("keys " + nlohmann::json(got).dump() + " against " + nlohmann::json(want).dump());
    for (const std::string& key : want) differences(actual.at(key), expected.at(key), place + "." + key, found, limit);
  } else if (expected.is_array()) {
    if (!actual.is_array() || actual.size() != expected.size())
      return say("not an array of " + std::to_string(expected.size()));
    for (std::size_t i = 0; i < expected.size(); ++i)
      differences(actual[i], expected[i], place + "[" + std::to_string(i) + "]", found, limit);
  } else if (expected.is_number_integer()) {
    if (!actual.is_number_integer() || actual.get<std::int64_t>() != expected.get<std::int64_t>())
      say(actual.dump() + " against the integer " + expected.dump());
  } else if (expected.is_number()) {
    if (!actual.is_number() || !within_lens(actual.get<double>(), expected.get<double>()))
      say(actual.dump() + " against " + expected.dump());
  } else if (actual != expected) {
    say(actual.dump() + " against " + expected.dump());
  }
}

inline std::vector<std::string> differences(const nlohmann::ordered_json& actual, const nlohmann::ordered_json& expected) {
  std::vector<std::string> found;
  differences(actual, expected, "lens", found);
  return found;
}

// Runs every committed case of lens `what` and compares it with PyTorch's;
// returns how many ran (so a test can insist there are some).
inline std::size_t check_cases(const std::string& what) {
  std::size_t ran = 0;
  for (const lens_case& c : cases()) {
    if (c.request.at("what") != what) continue;
    INFO(c.model << " " << c.expected << " " << c.request.dump());
    const nlohmann::ordered_json actual = attention::run_lens(model_at(c.model), request_of(c.request));
    const std::vector<std::string> found = differences(actual, expected_of(c));
    INFO((found.empty() ? std::string() : found.front()));
    CHECK(found.empty());
    ran += 1;
  }
  return ran;
}

}  // namespace lens_support
