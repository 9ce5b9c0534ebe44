// A character model's tokenizer: code points looked up in __metadata__.vocab.
#include <catch2/catch.hpp>

#include "model_support.hpp"
#include "models/vocabulary.hpp"

using namespace attention;

TEST_CASE("a text becomes the golden trace's tokens, and back", "[vocabulary]") {
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  const std::vector<std::int64_t> ids = encode_text(model.config, "To be, or not to be", "--text");
  CHECK(ids == model_support::golden_tokens("text-gpt"));
  CHECK(decode_ids(model.config, ids) == "To be, or not to be");
}

TEST_CASE("a character outside the vocabulary is named with its position", "[vocabulary]") {
  const loaded_model model = read_model_file(model_support::model_path("text-gpt"));
  CHECK_THROWS_WITH(encode_text(model.config, "To bé", "--text"),
                    "--text: character \"é\" at position 4 is not in the vocabulary");
  CHECK_THROWS_WITH(encode_text(model.config, "a\x1b[2J", "--text"),
                    "--text: character \"\\u001B\" at position 1 is not in the vocabulary");
  CHECK_THROWS_WITH(encode_text(model.config, "", "--text"), "--text: empty");
  CHECK_THROWS_WITH(encode_text(model.config, "a\xff", "--text"), Catch::StartsWith("--text: "));
  CHECK_THROWS_WITH(decode_ids(model.config, {81}), "ids: 81 is outside [0, 81)");
}

TEST_CASE("a model without a character vocabulary takes ids", "[vocabulary]") {
  const loaded_model model = read_model_file(model_support::model_path("hf-f32"));
  CHECK_THROWS_WITH(encode_text(model.config, "hi", "--text"),
                    "--text: the model has no character vocabulary (give token ids)");
  model_config gpt2 = model.config;
  gpt2.tokenizer = tokenizer_kind::gpt2;
  CHECK_THROWS_WITH(encode_text(gpt2, "hi", "--text"),
                    "--text: the model has no character vocabulary (it reads GPT-2's BPE tokens: give their ids)");
}

TEST_CASE("a vocabulary string given twice means its last id, as torch_model.py's dict does", "[vocabulary]") {
  model_config c;
  c.vocab = 3;
  c.tokenizer = tokenizer_kind::characters;
  c.vocabulary = {"a", "b", "a"};
  CHECK(encode_text(c, "ab", "t") == std::vector<std::int64_t>{2, 1});
}
