// The command line's Hugging Face folders (models-v2.md section 5): `model
// FOLDER --tokens … [--position P]` writes the model trace, `head FOLDER
// --tokens … --layer l --head j` one head as a scenario (rotated for the
// Llama family, unmasked for BERT, a grouped head's own query and shared
// key/value), `validate FOLDER` reads every byte and prints one line. A
// gpt2 folder is gpt-v1's: its model.safetensors with config.json as overrides.
#pragma once

#include <ostream>

#include "cli/arguments.hpp"

namespace attention {

// Throws attention::error with the one line.
void run_folder_command(const arguments& a, std::ostream& out);

}  // namespace attention
