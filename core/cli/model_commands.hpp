// The command line's model files (gpt-v1.md section 2): `model` writes the
// model trace, `head` one head as a scenario, `validate` checks every byte
// of the file (a NaN in the last tensor included) and prints one line.
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

// model, head or validate on a model file. `first` holds bytes already read
// from standard input (for "-"). Throws attention::error with the one line.
void run_model_command(const arguments& a, std::string_view first, std::istream& in, std::ostream& out);

// model, head or validate on a GPT already read (a file, or a gpt2 folder); `name` is the head's scenario id's.
void run_gpt_command(const arguments& a, const loaded_model& model, const std::string& name, std::ostream& out);

// --tokens 3,1,4: integers as written; one beyond int64 is named as written.
std::vector<std::int64_t> tokens_of(const std::string& text);

}  // namespace attention
