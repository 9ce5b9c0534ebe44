// Reading gpt-v1.md's text task and its samples from a training file: the
// corpus (inline, or a file the caller reads), its UTF-8, its vocabulary and
// splits within the limits, and the sample's prompt within the vocabulary.
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "transformer/samples.hpp"
#include "training/tasks.hpp"

namespace attention {

// The bytes of a corpus file named in task.corpus: the CLI reads it beside
// the training file, the page from its corpora. Throws attention::error.
using corpus_reader = std::function<std::string(const std::string& name)>;

// A reader that has no files: "task.corpus: … is not available here".
std::string no_corpora(const std::string& name);

// task: {"name": "text", "text" | "corpus", "length", "split"}.
task_spec parse_text_task(const nlohmann::json& task, const corpus_reader& read);

// sample: {"length", "temperature", "seed", "prompt"}, each optional.
sample_spec parse_sample(const nlohmann::json& sample, const text_corpus& corpus);

}  // namespace attention
