// A Hugging Face folder named on the command line (models-v2.md section 5),
// read into the one loaded_model the commands run on (model_commands):
// --config is refused before any file is read (a folder has its own
// config.json), and what the model's facts rule out once it is read
// (--text for a model whose tokenizer.json the core does not read,
// --position for a GPT, whose trace is gpt-v1's).
#pragma once

#include <string>

#include "cli/arguments.hpp"
#include "models/loaded_model.hpp"

namespace attention {

// Throws attention::error with the one line.
loaded_model read_command_folder(const arguments& a);

// "models/gpt2/" as "models/gpt2": a folder's name however it was typed.
std::string without_trailing_slashes(std::string path);

}  // namespace attention
