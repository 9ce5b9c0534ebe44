// A Hugging Face folder named on the command line (models-v2.md section 5),
// read into the one loaded_model the commands run on (model_commands):
// what a request may not ask of a folder is refused before any file is
// read (--config: it has its own config.json; --text for a family whose
// tokenizer.json the core does not read). A gpt2 folder is planned as
// gpt-v1's model file: its model.safetensors with config.json as overrides.
#pragma once

#include "cli/arguments.hpp"
#include "models/loaded_model.hpp"

namespace attention {

// Throws attention::error with the one line.
loaded_model read_command_folder(const arguments& a);

}  // namespace attention
