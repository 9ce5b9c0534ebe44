// The command line's models (gpt-v1.md section 2, models-v2.md section 5):
// a model file or a folder read into one loaded_model, then one path for
// every command: `model` writes the model's trace, `head` one head as a
// scenario, `validate` checks every byte (a NaN in the last tensor
// included) and prints one line, `lens` runs lens-v1's request.
#pragma once

#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/arguments.hpp"
#include "models/loaded_model.hpp"

namespace attention {

// Whether a file is a model file: its name ends in .safetensors, or its first
// bytes hold a NUL (a safetensors header length has NULs; JSON never has one).
bool looks_like_model(const std::string& path, std::string_view first);

// model, head, validate or lens on a model file, standard input ("-") or a
// Hugging Face folder: read into one loaded_model, then run on it. `first`
// holds bytes already read from standard input. Throws attention::error
// with the one line.
void run_model_command(const arguments& a, std::string_view first, std::istream& in, std::ostream& out);

// The model a command names, read: a folder (folder_commands), else a
// model file or standard input with --config's overrides; --position,
// which only a folder's trace takes, refused before a file is read.
loaded_model read_command_model(const arguments& a, std::string_view first, std::istream& in);

// model, head, validate or lens on a model already read, each written in
// the format its loader set; `name` is the head's scenario id's.
void run_loaded_command(const arguments& a, const loaded_model& model, const std::string& name, std::ostream& out);

// --tokens 3,1,4: integers as written; one beyond int64 is named as written.
std::vector<std::int64_t> tokens_of(const std::string& text);

}  // namespace attention
