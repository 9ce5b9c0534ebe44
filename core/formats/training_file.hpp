// Training files (training-v1.md): parsed and checked before any work, each
// problem one message naming its place ("task.period: …"), as scenarios are.
#pragma once

#include <string>
#include <string_view>

#include "formats/text_task.hpp"
#include "training/training.hpp"

namespace attention {

struct training_file {
  std::string id, title, description;
  training_spec spec;
};

// Throws attention::error with one line naming the place and the problem.
// `read` gives the bytes of a text task's task.corpus.
training_file parse_training(std::string_view json_text, const corpus_reader& read = no_corpora);

// Whether a JSON document is a training file rather than a scenario: its
// top level has a key only training files have (task, model, train, eval),
// as far as it parses, at any size (the CLI's validate takes either).
bool looks_like_training(std::string_view json_text);

}  // namespace attention
