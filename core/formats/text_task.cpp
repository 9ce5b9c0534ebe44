#include "formats/text_task.hpp"

#include <cmath>
#include <limits>
#include <memory>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_fields.hpp"
#include "formats/limits.hpp"

namespace attention {
namespace {

using json = nlohmann::json;
namespace bound = limits::training;

bool corpus_name(const std::string& name) {
  if (name.size() < 5 || name.size() > 64 || name.compare(name.size() - 4, 4, ".txt") != 0) return false;
  for (std::size_t i = 0; i + 4 < name.size(); ++i) {
    const char c = name[i];
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

}  // namespace

std::string no_corpora(const std::string& name) {
  detail::fail("task.corpus: ", quote(name), " is not available here; give the text itself as task.text");
}

task_spec parse_text_task(const json& task, const corpus_reader& read) {
  only_fields(task, "task", {"name", "text", "corpus", "length", "split"}, "training");
  task_spec t;
  t.name = "text";
  ATTENTION_CHECK(task.contains("text") != task.contains("corpus"), "task: give exactly one of text and corpus");
  ATTENTION_CHECK(task.contains("length"), "task.length: required");
  t.length = size_at_most(task.at("length"), "task.length", bound::length);
  double split = 0.9;
  if (task.contains("split")) {
    const json& value = task.at("split");
    ATTENTION_CHECK(value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() > 0 &&
                        value.get<double>() < 1,
                    "task.split: ", shown(value), " is outside (0, 1)");
    split = value.get<double>();
  }
  std::string bytes;
  std::string place = "task.text";
  if (task.contains("text")) {
    bytes = string_field(task, "text", "task");
  } else {
    const std::string name = string_field(task, "corpus", "task");
    ATTENTION_CHECK(corpus_name(name), "task.corpus: ", quote(name), " is not a corpus file name ([a-z0-9-]+.txt)");
    bytes = read(name);
    ATTENTION_CHECK(bytes.size() <= bound::corpus_bytes, "task.corpus: ", name, " has ", bytes.size(),
                    " bytes, beyond the limit of ", bound::corpus_bytes);
    place = "task.corpus: " + name;
  }
  const std::vector<char32_t> text = code_points(bytes, place);
  auto corpus = std::make_shared<text_corpus>(make_corpus(text, split));
  ATTENTION_CHECK(corpus->vocab() <= bound::vocab, place, ": ", corpus->vocab(),
                  " distinct characters, beyond the limit of ", bound::vocab);
  ATTENTION_CHECK(corpus->train.size() > t.length && corpus->val.size() > t.length, "task.length: ", t.length,
                  " is not shorter than each split of the corpus (", corpus->train.size(), " and ",
                  corpus->val.size(), " characters with task.split ", split, ")");
  t.text = std::move(corpus);
  return t;
}

sample_spec parse_sample(const json& sample, const text_corpus& corpus) {
  ATTENTION_CHECK(sample.is_object(), "sample: expected an object");
  only_fields(sample, "sample", {"length", "temperature", "seed", "prompt"}, "training");
  sample_spec s;
  if (sample.contains("length")) s.length = size_at_most(sample.at("length"), "sample.length", bound::sample_length);
  if (sample.contains("temperature")) {
    const json& value = sample.at("temperature");
    const bool ok = value.is_number() && std::isfinite(value.get<double>()) && value.get<double>() > 0 &&
                    value.get<double>() <= std::numeric_limits<float>::max() &&
                    static_cast<float>(value.get<double>()) > 0;
    ATTENTION_CHECK(ok, "sample.temperature: ", shown(value), " is not a number above 0 in float32");
    ATTENTION_CHECK(value.get<double>() >= limits::sampling::temperature_floor, "sample.temperature: ", shown(value),
                    " is below the floor of ", limits::sampling::temperature_floor,
                    " (the logits divided by it could overflow float32)");
    s.temperature = value.get<double>();
  }
  if (sample.contains("seed")) s.seed = parse_seed(sample.at("seed"), "sample.seed");
  if (sample.contains("prompt")) {
    const std::string prompt = string_field(sample, "prompt", "sample");
    const std::vector<char32_t> chars = code_points(prompt, "sample.prompt");
    ATTENTION_CHECK(!chars.empty(), "sample.prompt: expected at least one character");
    ATTENTION_CHECK(chars.size() <= bound::sample_length, "sample.prompt: ", chars.size(),
                    " characters, beyond the limit of ", bound::sample_length);
    s.prompt = corpus.encode(chars, "sample.prompt");
  } else {
    s.prompt = {corpus.first};
  }
  return s;
}

}  // namespace attention
