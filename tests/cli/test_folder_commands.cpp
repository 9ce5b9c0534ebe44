// attention-cli model, head and validate on Hugging Face folders: the one
// line of validate, arguments refused before any forward, a gpt2 folder
// read as gpt-v1's file with its config.json, and (with the grown forward)
// the model trace and a head that `trace` plays as the model's attention.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "cli/cli.hpp"
#include "cli_support.hpp"
#include "../fuzz/folder_input.hpp"
#include "../models/folder_support.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {
using cli_support::cli;
using cli_support::result;
std::string folder(const std::string& name) { return folder_support::golden_folder(name); }
}  // namespace

TEST_CASE("validate FOLDER prints one line of the config", "[folder-commands]") {
  const result v = cli({"validate", folder("llama-gqa") + "/"});
  CHECK(v.code == 0);
  CHECK(v.err.empty());
  CHECK(v.out == "valid: llama-gqa (architecture=llama, vocab=64, length=32, embed=32, heads=4, kv_heads=2, head_dim=8, "
                 "layers=2, intermediate=48, parameters=17568, tied=true)\n");
  CHECK(cli({"validate", folder("bert-base-model-f16")}).out ==
        "valid: bert-base-model-f16 (architecture=bert, vocab=40, length=16, embed=24, heads=3, kv_heads=3, "
        "head_dim=8, layers=2, intermediate=48, parameters=11184, masked_lm=false)\n");
}

TEST_CASE("a folder's arguments are refused in one line before the forward", "[folder-commands]") {
  const auto refused = [](std::vector<std::string> words) {
    const result r = cli(std::move(words));
    CHECK(r.out.empty());
    return std::to_string(r.code) + ":" + r.err;
  };
  CHECK(refused({"model", folder("llama-gqa"), "--text", "hi"}) ==
        "2:--text: the core has no tokenizer for a folder (the page reads its tokenizer.json); give --tokens\n");
  CHECK(refused({"model", folder("llama-gqa"), "--tokens", "1", "--config", "x.json"}) ==
        "2:--config: a folder has its own config.json\n");
  CHECK(refused({"model", folder("llama-gqa"), "--tokens", "1,2", "--position", "2"}) ==
        "2:--position: 2 is outside [0, 2)\n");
  CHECK(refused({"head", folder("llama-gqa"), "--tokens", "1,2", "--layer", "2", "--head", "0"}) ==
        "2:--layer: 2 is outside [0, 2)\n");
  CHECK(refused({"head", folder("llama-gqa"), "--tokens", "1,2", "--layer", "0", "--head", "4"}) ==
        "2:--head: 4 is outside [0, 4)\n");
  CHECK(refused({"model", folder("bert-mlm"), "--tokens", "1,60"}) == "2:--tokens[1]: 60 is outside [0, 60)\n");
  const std::string model = test_support::tests_dir() + "/models/hf-f32.safetensors";
  CHECK(refused({"model", model, "--tokens", "1", "--position", "0"}) ==
        "2:--position: only a model folder takes one (models-v2.md)\n");
  CHECK(refused({"model", folder("llama-gqa"), "--tokens", "1", "--position", "-1"}).rfind("64:", 0) == 0);
}

TEST_CASE("a Mistral folder refuses more tokens than its sliding window", "[folder-commands]") {
  folder_support::temp_dir dir;
  auto f = folder_support::small_llama(1);
  f.config["model_type"] = "mistral";
  f.config["sliding_window"] = 2;
  f.write_to(dir.path);
  const result r = cli({"model", dir.path, "--tokens", "1,2,3"});
  CHECK(r.code == 2);
  CHECK(r.err == "--tokens: 3 tokens, but config.sliding_window is 2 (mistral would attend only to that many earlier "
                 "positions; the core attends to all)\n");
  CHECK(cli({"validate", dir.path}).code == 0);  // the window is the tokens' business
}

TEST_CASE("a gpt2 folder is gpt-v1's model file with its config.json", "[folder-commands]") {
  folder_support::temp_dir dir;
  const std::string model = test_support::tests_dir() + "/models/hf-f32.safetensors";
  std::filesystem::copy_file(model, dir / "model.safetensors");
  folder_support::write(dir / "config.json", R"({"model_type": "gpt2", "n_head": 3})");
  const result from_folder = cli({"model", dir.path, "--tokens", "5,1,3"});
  const result from_file = cli({"model", model, "--tokens", "5,1,3", "--config", dir / "config.json"});
  REQUIRE(from_folder.code == 0);
  CHECK(from_folder.out == from_file.out);
  folder_support::write(dir / "config.json", R"({"model_type": "gpt2", "n_head": 5})");
  CHECK(cli({"validate", dir.path}).err == "config.n_head: 5 does not divide embed 24\n");
}

TEST_CASE("model FOLDER writes the trace; a head written by head plays it in trace", "[folder-commands][folder-golden]") {
  folder_support::temp_dir dir;
  for (const auto& [name, layer, head] : std::vector<std::tuple<std::string, int, int>>{{"llama-gqa", 1, 2},
                                                                                       {"bert-mlm", 0, 3},
                                                                                       {"distilbert-mlm", 1, 1}}) {
    INFO(name);
    const json want = folder_support::golden_trace(name);
    std::string tokens;
    for (const json& t : want.at("tokens")) tokens += (tokens.empty() ? "" : ",") + t.dump();
    const result m = cli({"model", folder(name), "--tokens", tokens, "--position", want["last"]["position"].dump()});
    REQUIRE(m.code == 0);
    const json got = json::parse(m.out);
    CHECK(got.at("config") == want.at("config"));
    CHECK(test_support::compare_tensors(got.at("attention"), want.at("attention")).largest_difference <= 1e-4);
    const result h = cli({"head", folder(name), "--tokens", tokens, "--layer", std::to_string(layer), "--head",
                          std::to_string(head)});
    REQUIRE(h.code == 0);
    CHECK(json::parse(h.out).at("id") == name + "-layer-" + std::to_string(layer) + "-head-" + std::to_string(head));
    folder_support::write(dir / "head.json", h.out);
    const result t = cli({"trace", dir / "head.json"});
    REQUIRE(t.code == 0);
    const json played = json::parse(t.out);
    const json& weights = played.at("heads")[0].at("weights").at("data");
    const std::size_t T = want.at("tokens").size(), H = want["config"]["heads"];
    double largest = 0;
    for (std::size_t i = 0; i < T * T; ++i)
      largest = std::max(largest, std::fabs(weights[i].get<double>() -
                                            want["attention"]["data"][(layer * H + head) * T * T + i].get<double>()));
    CHECK(largest <= 1e-4);
  }
}

TEST_CASE("every seed of fuzz_folder: the corpus validates, each regression is one line", "[folder-commands]") {
  namespace fs = std::filesystem;
  folder_support::temp_dir dir;
  const auto input = [](const fs::path& path) {
    std::ifstream file(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(file), {});
  };
  std::size_t seeds = 0;
  for (const auto& entry : fs::directory_iterator(test_support::tests_dir() + "/fuzz/folder/corpus")) {
    INFO(entry.path().filename().string());
    REQUIRE(fuzz::write_folder(dir.path, input(entry.path())));
    const result r = cli({"validate", dir.path});
    // the corpus' one over-declared shard is refused from its header; the others are read
    const bool over = entry.path().filename() == "over-declared.folder";
    CHECK(r.code == (over ? 2 : 0));
    if (over) CHECK_THAT(r.err, Catch::Contains("run past the end of the file"));
    ++seeds;
  }
  CHECK(seeds >= 4);
  std::size_t regressions = 0;
  for (const auto& entry : fs::directory_iterator(test_support::tests_dir() + "/fuzz/folder/regressions")) {
    INFO(entry.path().filename().string());
    REQUIRE(fuzz::write_folder(dir.path, input(entry.path())));
    const result r = cli({"validate", dir.path});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    ++regressions;
  }
  CHECK(regressions >= 1);
}
