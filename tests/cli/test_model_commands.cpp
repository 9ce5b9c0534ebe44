// attention-cli model, head and validate on model files: the trace, the
// scenario, the line, and every hostile file of tests/fuzz/model/regressions
// refused with its own line (tests/fuzz/model/hostile.json) by each command.
#include <catch2/catch.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <fstream>
#include <sstream>

#include "cli/cli.hpp"
#include "cli_support.hpp"
#include "cli/model_commands.hpp"
#include "models/model_run.hpp"
#include "../models/model_support.hpp"
#include "support.hpp"

using namespace attention;
using nlohmann::json;

namespace {
using cli_support::cli;
using cli_support::result;
std::string model(const std::string& name) { return test_support::tests_dir() + "/models/" + name + ".safetensors"; }
}  // namespace

TEST_CASE("model writes the model trace; head a scenario; validate one line", "[model-commands]") {
  const result trace = cli({"model", model("text-gpt"), "--text", "To be, or not to be"});
  REQUIRE(trace.code == 0);
  CHECK(trace.err.empty());
  const json t = json::parse(trace.out);
  const json want = test_support::read_json(test_support::tests_dir() + "/golden-models/text-gpt.trace.json");
  CHECK(t.at("tokens") == want.at("tokens"));
  CHECK(t.at("config") == want.at("config"));
  const result ids = cli({"model", model("hf-f32"), "--tokens", "5,1,3,26,8,25,15,24,7,2,21,26"});
  REQUIRE(ids.code == 0);
  CHECK(json::parse(ids.out).at("attention").at("shape") == json({2, 3, 12, 12}));
  const result head = cli({"head", model("nano-tied-bias"), "--tokens", "13,27,12", "--layer", "1", "--head", "3"});
  REQUIRE(head.code == 0);
  CHECK(json::parse(head.out).at("id") == "nano-tied-bias-layer-1-head-3");
  const result valid = cli({"validate", model("nano-f16-nobias")});
  CHECK(valid.code == 0);
  CHECK(valid.out ==
        "valid: nano-f16-nobias (layout=nanogpt, V=17, T=12, embed=16, heads=2, layers=2, mlp=4, parameters=7040, "
        "tokenizer=ids)\n");
}

TEST_CASE("standard input holds a model too, told from JSON by its first bytes", "[model-commands]") {
  const std::string bytes = test_support::read_text(model("nano-f16-nobias"));
  const result v = cli({"validate", "-"}, bytes);
  CHECK(v.code == 0);
  CHECK(v.out.rfind("valid: model (layout=nanogpt", 0) == 0);
  const result m = cli({"model", "-", "--tokens", "1,2"}, bytes);
  CHECK(m.code == 0);
  CHECK(looks_like_model("-", bytes.substr(0, 8)));
  CHECK_FALSE(looks_like_model("-", "{\"versi"));
  CHECK(looks_like_model("x.safetensors", "{}"));
}

TEST_CASE("bad requests on good models: one line naming the argument, exit 2", "[model-commands]") {
  const auto err = [](std::vector<std::string> words) {
    const result r = cli(std::move(words));
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    return r.err;
  };
  CHECK(err({"model", model("hf-f32"), "--tokens", "1,x"}) == "--tokens: \"1,x\" is not a comma-separated list of integers\n");
  CHECK(err({"model", model("hf-f32"), "--tokens", "1,,2"}) == "--tokens: \"1,,2\" is not a comma-separated list of integers\n");
  CHECK(err({"model", model("hf-f32"), "--tokens", "1,31"}) == "--tokens[1]: 31 is outside [0, 31)\n");
  CHECK(err({"model", model("hf-f32"), "--tokens", "99999999999999999999"}) ==
        "--tokens[0]: \"99999999999999999999\" is outside the vocabulary\n");
  CHECK(err({"model", model("hf-f32"), "--text", "hi"}) == "--text: the model has no character vocabulary (give token ids)\n");
  CHECK(err({"model", model("text-gpt"), "--text", "To bé"}) == "--text: character \"é\" at position 4 is not in the vocabulary\n");
  CHECK(err({"model", model("text-gpt"), "--text", std::string(33, 'a')}) ==
        "--text: 33 tokens, the model's wpe.weight holds 32 positions\n");
  CHECK(err({"head", model("hf-f32"), "--tokens", "1", "--layer", "2", "--head", "0"}) == "--layer: 2 is outside [0, 2)\n");
  CHECK(err({"head", model("hf-f32"), "--tokens", "1", "--layer", "0", "--head", "3"}) == "--head: 3 is outside [0, 3)\n");
  CHECK(err({"model", "/nonexistent.safetensors", "--tokens", "1"}) == "\"/nonexistent.safetensors\": missing (a model file)\n");
  CHECK(err({"validate", test_support::tests_dir() + "/golden-models/hf-f32.trace.json", "--config", "c.json"}) ==
        "--config: only a model file takes one\n");
}

TEST_CASE("a Hugging Face config.json beside the file, given by --config", "[model-commands]") {
  namespace fs = std::filesystem;
  const std::string path = (fs::temp_directory_path() / "attention-cli-config.json").string();
  const auto config = [&](const std::string& text) {
    std::ofstream(path) << text;
    return cli({"validate", model("hf-f32"), "--config", path});
  };
  // hf-f32 says n_head 3 in its metadata; config.json may say otherwise
  CHECK(config(R"({"model_type": "gpt2", "n_head": 6, "n_embd": 24, "layer_norm_epsilon": 1e-5})").out ==
        "valid: hf-f32 (layout=hf, V=31, T=24, embed=24, heads=6, layers=2, mlp=4, parameters=16560, tokenizer=ids)\n");
  CHECK(config(R"({"n_head": 5})").err == "config.n_head: 5 does not divide embed 24\n");
  CHECK(config(R"({"n_embd": 768})").err == "config.n_embd: 768, but the file's embedding (wte.weight's columns) is 24\n");
  CHECK(config(R"({"activation_function": "gelu_new", "model_type": "gpt_neox"})").err ==
        "config.model_type: \"gpt_neox\" is not \"gpt2\"; only GPT-2's architecture is read (no rotary positions, "
        "RMSNorm or grouped queries)\n");
  fs::remove(path);
  CHECK(cli({"validate", model("hf-f32"), "--config", path}).err == "--config: \"" + path + "\": missing (a config.json)\n");
  // a FIFO is named before the open, which would wait for a writer for ever
  REQUIRE(mkfifo(path.c_str(), 0600) == 0);
  CHECK(cli({"validate", model("hf-f32"), "--config", path}).err == "--config: \"" + path + "\": a FIFO (named pipe), not a config.json\n");
  fs::remove(path);
}

TEST_CASE("every hostile model file is refused with its own line by each command", "[model-commands]") {
  namespace fs = std::filesystem;
  const std::string folder = test_support::tests_dir() + "/fuzz/model/";
  const json expected = test_support::read_json(folder + "hostile.json");
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(folder + "regressions")) {
    const std::string name = entry.path().filename().string(), path = entry.path().string();
    INFO(name);
    REQUIRE(expected.contains(name));
    const std::string line = expected.at(name).get<std::string>() + "\n";
    for (std::vector<std::string> words : std::vector<std::vector<std::string>>{
             {"validate", path}, {"model", path, "--tokens", "0"}, {"head", path, "--tokens", "0", "--layer", "0", "--head", "0"}}) {
      const result r = cli(words);
      CHECK(r.code == 2);
      CHECK(r.out.empty());
      CHECK(r.err == line);
    }
    // and from standard input (an empty input is no model: a scenario's
    // empty text is refused instead). Its size is not known before it is
    // read, and it is read only as far as the header says: a file whose
    // fault is its size is named from the header and the stream instead.
    const std::map<std::string, std::string> from_stdin = {
        {"offsets-past-the-end.safetensors", "transformer.ln_f.bias: shape [8] in F32 needs 32 bytes, data_offsets give 64"},
        {"trailing-bytes.safetensors", "model: standard input goes on after the header's last tensor (a model file ends there)"},
        {"truncated.safetensors", "model: the data ended after 632 of its 2752 bytes"},
        {"header-length-2-63.safetensors",
         "header: length 9223372036854775808 is not within [2, 8388608] bytes, the limit of a model file's header"},
        {"header-length-beyond-the-file.safetensors", "header: the file ends inside its 1000000-byte header"}};
    const std::string bytes = test_support::read_text(path);
    const auto own = from_stdin.find(name);
    if (looks_like_model("-", bytes.substr(0, 8)))
      CHECK(cli({"validate", "-"}, bytes).err == (own == from_stdin.end() ? line : own->second + "\n"));
    ++files;
  }
  CHECK(files == expected.size());
  CHECK(files >= 40);
}

namespace {
// A GPT of `positions` positions, d 1, one head, one block without LayerNorm:
// tiny, yet long sequences ask for large traces and scenarios.
std::string long_model(std::uint64_t positions, std::uint64_t d = 1) {
  model_support::file_builder f;
  f.add("wte.weight", {3, d});
  f.add("wpe.weight", {positions, d});
  f.add("h.0.attn.c_attn.weight", {3 * d, d});
  f.add("h.0.attn.c_proj.weight", {d, d});
  f.metadata["n_head"] = "1";
  return f.bytes();
}
std::string zeros(std::size_t n) {
  std::string ids;
  for (std::size_t i = 0; i < n; ++i) ids += i ? ",0" : "0";
  return ids;
}
}  // namespace

TEST_CASE("the printed model trace is limited as a scenario's trace is, before the forward", "[model-commands]") {
  const std::string bytes = long_model(4097);
  // 1 · 1 · 4097² = 16,785,409 attention weights, past 16,777,216
  const result attention = cli({"model", "-", "--tokens", zeros(4097)}, bytes);
  CHECK(attention.code == 2);
  CHECK(attention.out.empty());
  CHECK(attention.err == "--tokens: 4097 tokens would print 16785409 attention weights (layers · heads · T²), beyond "
                         "the limit of 16777216 numbers in a trace\n");
  // 4096² is the limit itself: with the tokens, the logits and the guesses it is past it
  const result logits = cli({"model", "-", "--tokens", zeros(4096)}, bytes);
  CHECK(logits.err == "--tokens: 4096 tokens would print 16777216 attention weights and 3 logits, 16781335 numbers, "
                      "beyond the limit of 16777216 numbers in a trace\n");
  // a page's run prints nothing: the same tokens run (core/models/model_run.hpp's own limits)
  const attention::loaded_model gpt = model_support::model_of(bytes);
  CHECK(run_model(gpt, std::vector<std::int64_t>(4097, 0)).length() == 4097);
}

TEST_CASE("head never writes a scenario that trace would refuse", "[model-commands]") {
  // 2,100 tokens: past a scenario's 2,048 positions, refused before the forward
  const result positions =
      cli({"head", "-", "--tokens", zeros(2100), "--layer", "0", "--head", "0"}, long_model(2100));
  CHECK(positions.code == 2);
  CHECK(positions.out.empty());
  CHECK(positions.err ==
        "--tokens: 2100 tokens, beyond the limit of 2048 positions in a scenario (a head is written as one)\n");
  // 2,048 tokens of d 256: within the positions, past the multiply-adds of a scenario's layer
  const result work = cli({"head", "-", "--tokens", zeros(2048), "--layer", "0", "--head", "0"}, long_model(2048, 256));
  CHECK(work.code == 2);
  CHECK(work.out.empty());
  CHECK_THAT(work.err, Catch::StartsWith("--tokens: 2048 tokens make a scenario beyond a scenario's limits: "
                                         "attention.heads[0]: the layer so far needs "));
  CHECK_THAT(work.err, Catch::EndsWith(" multiply-adds; the limit is 268435456\n"));
  // a head within every limit is written, and traces
  const result fine = cli({"head", "-", "--tokens", zeros(300), "--layer", "0", "--head", "0"}, long_model(300, 8));
  REQUIRE(fine.code == 0);
  const result traced = cli({"trace", "-"}, fine.out);
  CHECK(traced.code == 0);
}

TEST_CASE("every hostile config.json of the fuzz seeds is refused in one line starting config", "[model-commands]") {
  namespace fs = std::filesystem;
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(test_support::tests_dir() + "/fuzz/config/regressions")) {
    INFO(entry.path().filename().string());
    const result r = cli({"validate", model("hf-f32"), "--config", entry.path().string()});
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.rfind("config", 0) == 0);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    ++files;
  }
  CHECK(files >= 7);
  // and each seed of the corpus that agrees with hf-f32's sizes is read
  CHECK(cli({"validate", model("hf-f32"), "--config", test_support::tests_dir() + "/fuzz/config/corpus/empty.json"}).code == 0);
}
