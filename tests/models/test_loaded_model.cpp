// One loaded model whichever loader made it: each loader sets the facts its
// consumers ask (does it unembed, which trace it writes, how its text
// becomes ids, the folder's config.json), and the checks and writers that
// take a loaded model ask those facts, never where the weights came from.
#include <catch2/catch.hpp>

#include <sstream>

#include "folder_support.hpp"
#include "model_support.hpp"
#include "models/folder_trace.hpp"
#include "models/model_stream.hpp"
#include "models/model_trace.hpp"

using namespace attention;

TEST_CASE("a model file's loader sets a GPT's facts", "[loaded-model]") {
  const loaded_model m = read_model_file(model_support::model_path("nano-tied-bias"));
  CHECK(m.logits());
  CHECK_FALSE(m.masked_lm());
  CHECK(m.trace() == trace_format::model);
  CHECK(m.text() == text_tokenizer::core);
  CHECK_FALSE(m.family.has_value());
}

TEST_CASE("a folder's loader sets its family's facts", "[loaded-model]") {
  const loaded_model llama = folder_support::read(folder_support::golden_folder("llama-gqa"));
  CHECK(llama.logits());
  CHECK_FALSE(llama.masked_lm());
  CHECK(llama.trace() == trace_format::folder);
  CHECK(llama.text() == text_tokenizer::tokenizer_json);
  REQUIRE(llama.family.has_value());
  CHECK(llama.family->family == model_family::llama);
  const loaded_model mlm = folder_support::read(folder_support::golden_folder("bert-mlm"));
  CHECK(mlm.logits());
  CHECK(mlm.masked_lm());
  const loaded_model bare = folder_support::read(folder_support::golden_folder("bert-base-model-f16"));
  CHECK_FALSE(bare.logits());
  CHECK_FALSE(bare.masked_lm());
}

TEST_CASE("a config.json's token checks ask nothing of a model file", "[loaded-model]") {
  const loaded_model m = read_model_file(model_support::model_path("nano-tied-bias"));  // V 29, Tmax 16
  const std::vector<std::int64_t> beyond(17, 99);
  CHECK_NOTHROW(check_config_tokens(m, beyond, "tokens"));
  CHECK_NOTHROW(check_generate_context(m, beyond, 1000, "count"));
  CHECK_THROWS_WITH(check_tokens(m, beyond, "tokens"), "tokens: 17 tokens, the model's wpe.weight holds 16 positions");
}

TEST_CASE("a model writes the trace and validate line of its loader's format", "[loaded-model]") {
  const loaded_model m = read_model_file(model_support::model_path("nano-tied-bias"));
  const model_run run = run_forward(m, {1, 2, 3});
  std::ostringstream gpt, loaded;
  write_model_trace(gpt, m, run);
  write_trace(loaded, m, run, 0);  // a model file's `last` is its last position, whatever is asked
  CHECK(loaded.str() == gpt.str());
  CHECK(validate_line(m, "nano") == model_summary(m.config, "nano"));
  const loaded_model f = folder_support::read(folder_support::golden_folder("llama-gqa"));
  const model_run folder_run = run_forward(f, {1, 2, 3});
  std::ostringstream folder, as_folder;
  write_folder_trace(folder, f, folder_run, 1);
  write_trace(as_folder, f, folder_run, 1);
  CHECK(as_folder.str() == folder.str());
  CHECK(validate_line(f, "llama") == folder_summary(f, "llama"));
}
