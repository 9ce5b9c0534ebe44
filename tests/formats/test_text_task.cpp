// Reading the text task and its samples: one line naming the field for each
// thing gpt-v1.md refuses, before any work.
#include <catch2/catch.hpp>

#include "errors/check.hpp"
#include "formats/training_file.hpp"

using namespace attention;
using nlohmann::json;

namespace {

const std::string corpus = "the cat sat on the mat; the dog sat on the log. "
                           "the cat and the dog sat on the mat and the log.";

std::string with(const std::string& pointer, const json& value, bool remove = false) {
  json j = {{"version", 1}, {"id", "t"}, {"seed", 1},
            {"task", {{"name", "text"}, {"text", corpus}, {"length", 8}}},
            {"model", {{"embed", 8}}}, {"train", {{"steps", 3}}}, {"sample", {{"length", 5}}}};
  if (remove) j.at(json::json_pointer(pointer.substr(0, pointer.rfind('/')))).erase(pointer.substr(pointer.rfind('/') + 1));
  else if (!pointer.empty()) j[json::json_pointer(pointer)] = value;
  return j.dump();
}

std::string refusal(const std::string& text) {
  try {
    parse_training(text, [](const std::string& name) -> std::string {
      if (name == "bad.txt") return "ok\xff";
      if (name == "big.txt") return std::string((4u << 20) + 1, 'a');
      return corpus;
    });
  } catch (const error& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("a text task reads its corpus, inline or by name, and its sample", "[text-task]") {
  const training_file f = parse_training(with("", nullptr));
  CHECK(f.spec.task.name == "text");
  CHECK(f.spec.task.text->vocab() == 15);  // t h e a c s o n m ; d g l . and the space
  CHECK(f.spec.sample->prompt == std::vector<std::int64_t>{f.spec.task.text->first});
  CHECK(f.spec.sample->temperature == 1.0);
  CHECK(refusal(with("/task", {{"name", "text"}, {"corpus", "cats.txt"}, {"length", 8}})) == "accepted");
  CHECK(refusal(with("/model/layers", 0)) == "accepted");  // the bigram
}

TEST_CASE("invalid text tasks and samples: one line naming the place", "[text-task]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {with("/task/corpus", "x.txt"), "task: give exactly one of text and corpus"},
      {with("/task/text", nullptr, true), "task: give exactly one of text and corpus"},
      {with("/task", {{"name", "text"}, {"corpus", "../etc/passwd"}, {"length", 8}}),
       "task.corpus: \"../etc/passwd\" is not a corpus file name ([a-z0-9-]+.txt)"},
      {with("/task", {{"name", "text"}, {"corpus", "bad.txt"}, {"length", 8}}), "task.corpus: bad.txt: not valid UTF-8 (byte 2)"},
      {with("/task", {{"name", "text"}, {"corpus", "big.txt"}, {"length", 8}}),
       "task.corpus: big.txt has 4194305 bytes, beyond the limit of 4194304"},
      {with("/task/split", 1), "task.split: 1 is outside (0, 1)"},
      {with("/task/split", 0.99), "task.length: 8 is not shorter than each split of the corpus (94 and 1 characters"},
      {with("/task/length", 65), "task.length: 65 is beyond the limit of 64"},
      {with("/task/colour", 1), "task.colour: unknown field"},
      {with("/sample/temperature", 0), "sample.temperature: 0 is not a number above 0 in float32"},
      {with("/sample/temperature", 1e-50), "sample.temperature: 1e-50 is not a number above 0 in float32"},
      // below the floor (limits::sampling): refused here, not found later as a softmax overflow
      {with("/sample/temperature", 1e-40), "sample.temperature: 1e-40 is below the floor of 0.001"},
      {with("/sample/temperature", 1e-38), "sample.temperature: 1e-38 is below the floor of 0.001"},
      {with("/sample/temperature", 0.000999), "sample.temperature: 0.000999 is below the floor of 0.001"},
      {with("/sample/prompt", "the zebra"), "sample.prompt: character 4 (\"z\") is not in the corpus's vocabulary"},
      {with("/sample/prompt", ""), "sample.prompt: expected at least one character"},
      {with("/sample/length", 0), "sample.length: expected a positive integer, got 0"},
      {with("/sample/top_k", 3), "sample.top_k: unknown field"},
      {with("/model/layers", -1), "model.layers: expected an integer from 0 to 4, got -1"},
      {R"({"version": 1, "id": "t", "seed": 1, "task": {"name": "previous", "tokens": 8, "length": 8}, "model": {"embed": 8}, "train": {"steps": 3}, "sample": {}})",
       "sample: only the text task samples"},
  };
  for (const auto& [text, expected] : cases) {
    INFO(text);
    const std::string message = refusal(text);
    CHECK(message.rfind(expected, 0) == 0);
    CHECK(message.find('\n') == std::string::npos);
  }
  // no reader (the default): a named corpus is not available
  CHECK_THROWS_WITH(parse_training(with("/task", {{"name", "text"}, {"corpus", "cats.txt"}, {"length", 8}})),
                    "task.corpus: \"cats.txt\" is not available here; give the text itself as task.text");
}
