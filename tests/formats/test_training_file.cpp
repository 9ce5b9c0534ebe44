// Training files: the presets parse to their settings; every invalid file is
// refused before any work with one line naming its place, and so is the CLI's
// train and validate of it (exit 2, nothing on standard output).
#include <catch2/catch.hpp>

#include <sstream>

#include "cli/cli.hpp"
#include "errors/check.hpp"
#include "formats/training_file.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {

const std::string base = R"({"version": 1, "id": "t", "seed": 1,
  "task": {"name": "previous", "tokens": 8, "length": 8}, "model": {"embed": 8}, "train": {"steps": 3}})";

// base with one change at a JSON pointer (or removed when value is null and remove is set)
std::string with(const std::string& pointer, const json& value, bool remove = false) {
  json j = json::parse(base);
  if (remove) j.at(json::json_pointer(pointer.substr(0, pointer.rfind('/'))))
                  .erase(pointer.substr(pointer.rfind('/') + 1));
  else j[json::json_pointer(pointer)] = value;
  return j.dump();
}

std::string refusal(const std::string& text) {
  try {
    parse_training(text);
  } catch (const error& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("the presets parse, with the spec's defaults", "[training-file]") {
  const training_file f = parse_training(test_support::read_text(test_support::tests_dir() + "/golden-training/induction.json"));
  CHECK(f.id == "induction");
  CHECK(f.spec.task.name == "induction");
  CHECK(f.spec.task.period_lo == 3);
  CHECK(f.spec.task.period_hi == 8);
  CHECK(f.spec.layers == 2);
  CHECK(f.spec.batch == 32);
  CHECK(f.spec.optimizer.weight_decay == 0.01);
  CHECK(f.spec.optimizer.beta2 == 0.999);
  CHECK(f.spec.eval_every == 10);
  const training_file b = parse_training(base);
  CHECK(b.spec.eval_every == 25);
  CHECK(b.spec.eval_batch == 512);
  CHECK(b.spec.eval_seed == 10000);
  CHECK(b.spec.heads == 1);
}

TEST_CASE("invalid training files: one line naming the place", "[training-file]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {with("/colour", "red"), "colour: unknown field"},
      {with("/seed", nullptr, true), "seed: required"},
      {with("/task/name", "copy"), "task.name: unknown task \"copy\""},
      {with("/task/half", 3), "task.half: unknown field"},
      {with("/model/embed", 10).insert(0, ""), "accepted"},
      {with("/model/heads", 3), "model.embed: 8 is not a multiple of model.heads (3)"},
      {with("/model/embed", 0), "model.embed: expected a positive integer, got 0"},
      {with("/model/layers", 9), "model.layers: 9 is beyond the limit of 4"},
      {with("/train/lr", 0), "train.lr: 0 is outside (0, 10)"},
      {with("/train/lr", -1), "train.lr: -1 is outside (0, 10)"},
      {with("/train/eps", 0), "train.eps: 0 is outside (0, 1)"},
      {with("/train/steps", 0), "train.steps: expected a positive integer, got 0"},
      {with("/train/betas", json::array({0.9, 1.0})), "train.betas[1]: 1.0 is outside [0, 1)"},
      {with("/train/betas", json::array({0.9})), "train.betas: expected [beta1, beta2]"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "sort", "tokens": 4, "half": 6}, "model": {"embed": 8}, "train": {"steps": 3}})",
       "task.half: 6 is larger than task.tokens (4)"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "induction", "tokens": 8, "length": 8, "period": [3, 9]}, "model": {"embed": 8}, "train": {"steps": 3}})",
       "task.period: [3, 9] must satisfy 1 ≤ lo ≤ hi ≤ task.tokens (8)"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "induction", "tokens": 8, "length": 8, "period": [3, 8]}, "model": {"embed": 8}, "train": {"steps": 3}})",
       "task.period: hi (8) must be at most task.length − 2 (6)"},
      // a row of period length − 1 has no target: a batch of only such rows has no loss
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "induction", "tokens": 8, "length": 8, "period": [3, 7]}, "model": {"embed": 8}, "train": {"steps": 3}})",
       "task.period: hi (7) must be at most task.length − 2 (6); a row of period task.length − 1 has nothing to predict"},
      {with("/task/length", 1), "task.length: 1 leaves nothing to predict; previous needs at least 2 positions"},
      // 1e-50 is positive as a double and 0 in float32, where AdamW adds it
      {with("/train/eps", 1e-50), "train.eps: 1e-50 is 0 in float32"},
      // sizes are named as written, never as clamped to a narrower type
      {with("/model/embed", 4294967304ull), "model.embed: 4294967304 is beyond the limit of 128"},
      {with("/train/steps", 18446744073709551615ull), "train.steps: 18446744073709551615 is beyond the limit of 100000"},
      {with("/eval/every", 4294967297ull), "eval.every: 4294967297 is beyond the limit of 100000"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "induction", "tokens": 8, "length": 16, "period": [3, 4294967299]}, "model": {"embed": 8}, "train": {"steps": 3}})",
       "task.period: [3, 4294967299] must satisfy 1 ≤ lo ≤ hi ≤ task.tokens (8)"},
      // duplicate keys: the last one no longer silently wins
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "previous", "tokens": 8, "length": 8}, "model": {"embed": 8, "embed": 16}, "train": {"steps": 3}})",
       "model.embed: duplicate key; each key may appear once"},
      {R"({"version": 1, "seed": 1, "id": "t", "seed": 2})", "seed: duplicate key"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "induction", "tokens": 8, "length": 16, "period": [0, 4]}, "model": {"embed": 8}, "train": {"steps": 3}})",
       "task.period: expected [lo, hi], two positive integers"},
      {with("/id", "Not A Slug"), "id: expected a slug of a-z, 0-9 and -, got \"Not A Slug\""},
      {with("/version", 2), "version: expected 1, got 2"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "previous", "tokens": 64, "length": 64}, "model": {"embed": 128, "layers": 4}, "train": {"steps": 3, "batch": 256}})",
       "model: one training step would take"},
      {R"({"version": 1, "id": "t", "seed": 1e999})", "not valid JSON at line 1, column"},
      // the work a file asks for is bounded before any of it starts
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "previous", "tokens": 64, "length": 64}, "model": {"embed": 128, "heads": 8, "layers": 4}, "train": {"steps": 1, "batch": 1}, "eval": {"batch": 2048}})",
       "eval.batch: one evaluation of 2048 sequences would take"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "previous", "tokens": 64, "length": 64}, "model": {"embed": 128, "heads": 8, "layers": 4}, "train": {"steps": 100000, "batch": 1}, "eval": {"every": 1, "batch": 1}})",
       "eval.every: 1 keeps 100001 evaluations of 131072 attention numbers each"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "previous", "tokens": 64, "length": 64}, "model": {"embed": 128, "heads": 8, "layers": 4}, "train": {"steps": 100000, "batch": 2}, "eval": {"every": 100000, "batch": 1}})",
       "train.steps: 100000 steps and their evaluations would take"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    const std::string message = refusal(text);
    CHECK(message.find(expected) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);
  }
}

TEST_CASE("attention-cli train writes the trace PyTorch writes; validate takes a training file; bad files exit 2", "[training-file]") {
  const std::string path = test_support::tests_dir() + "/golden-training/previous-token.json";
  auto cli = [](std::vector<const char*> args, const std::string& input = "") {
    args.insert(args.begin(), "attention-cli");
    std::istringstream in(input);
    std::ostringstream out, err;
    const int code = run_cli(static_cast<int>(args.size()), args.data(), in, out, err);
    return std::make_tuple(code, out.str(), err.str());
  };
  const auto [code, out, err] = cli({"train", path.c_str()});
  REQUIRE(code == 0);
  CHECK(err.empty());
  const json trace = json::parse(out);
  const json golden = test_support::read_json(test_support::tests_dir() + "/golden-training/previous-token.trace.json");
  CHECK(trace.at("probe") == golden.at("probe"));
  CHECK(trace.at("parameters") == golden.at("parameters"));
  REQUIRE(trace.at("loss").size() == golden.at("loss").size());
  for (std::size_t i = 0; i < golden.at("loss").size(); ++i)
    CHECK(std::abs(trace.at("loss")[i].get<double>() - golden.at("loss")[i].get<double>()) <= 2e-5);
  REQUIRE(trace.at("evals").size() == golden.at("evals").size());
  CHECK(trace.at("evals").back().at("predictions") == golden.at("evals").back().at("predictions"));
  CHECK(trace.at("weights").at("layers")[0].at("heads")[0].at("query").at("shape") ==
        golden.at("weights").at("layers")[0].at("heads")[0].at("query").at("shape"));

  const auto [vcode, vout, verr] = cli({"validate", path.c_str()});
  CHECK(vcode == 0);
  CHECK(vout.rfind("valid: previous-token (task=previous", 0) == 0);
  const auto [bcode, bout, berr] = cli({"train", "-"}, with("/model/heads", 3));
  CHECK(bcode == 2);
  CHECK(bout.empty());
  CHECK(berr == "model.embed: 8 is not a multiple of model.heads (3)\n");
}

TEST_CASE("validate names the training file's own limit and problems, at any size or in any state", "[training-file]") {
  auto cli = [](const char* command, const std::string& input) {
    const char* args[] = {"attention-cli", command, "-"};
    std::istringstream in(input);
    std::ostringstream out, err;
    const int code = run_cli(3, args, in, out, err);
    CHECK(out.str().empty());
    return std::make_pair(code, err.str());
  };
  // over 64 KiB: the training limit, not "eval: unknown field" of a scenario
  json big = json::parse(base);
  big["description"] = std::string(70000, 'a');
  big["eval"] = {{"every", 1}};
  const std::string text = big.dump();
  CHECK(cli("validate", text) == std::make_pair(2, "training: " + std::to_string(text.size()) + " bytes exceed the limit of 65536\n"));
  // a training file of 16 MiB: measured against the training limit, by validate and by train
  const std::string head = R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "previous", "tokens": 8, "length": 8}, "model": {"embed": 8}, "train": {"steps": 3}, "description": ")";
  const std::string huge = head + std::string((16u << 20) - head.size() - 2, 'a') + "\"}";
  REQUIRE(huge.size() == 16u << 20);
  CHECK(cli("validate", huge) == std::make_pair(2, std::string("training: 16777216 bytes exceed the limit of 65536\n")));
  CHECK(cli("train", huge) == std::make_pair(2, std::string("training: 16777216 bytes exceed the limit of 65536\n")));
  CHECK(cli("train", huge + " ") ==
        std::make_pair(2, std::string("standard input: more than 16777216 bytes; the limit of a training file is 65536\n")));
  // malformed training JSON: named as the training file it meant to be
  const auto [code, err] = cli("validate", R"({"version": 1, "task": {"name": "previous"}, "model": {"embed": 8,}})");
  CHECK(code == 2);
  CHECK(err.rfind("training: not valid JSON at line 1, column", 0) == 0);
  // and a scenario stays a scenario
  const auto [scode, serr] = cli("validate", R"({"version": 1, "tokens": ["a"],})");
  CHECK(scode == 2);
  CHECK(serr.rfind("scenario: not valid JSON at line 1, column", 0) == 0);
}
