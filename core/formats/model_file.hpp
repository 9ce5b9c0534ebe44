// A trained model as a model file (gpt-v1.md section 2): safetensors with
// nanoGPT's tensor names (c_attn fuses [q | k | v], each head in order, zeros
// for the keys' bias), nn.Linear's [out, in] layout, float32 little-endian,
// and metadata n_head, activation, source and, for a text task, vocab.
#pragma once

#include <ostream>

#include "formats/training_file.hpp"

namespace attention {

void write_model_file(std::ostream& out, const training_file& file, const training_run& run);

}  // namespace attention
