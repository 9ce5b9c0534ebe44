// A model file read from a stream of known size (the command line, the
// tests, the fuzzer): the header first, checked, then the data in 1 MiB
// chunks through model_loader, as the page feeds it from a File in a worker.
#pragma once

#include <cstdint>
#include <istream>
#include <string>

#include "models/gpt_model.hpp"

namespace attention {

gpt_model read_model(std::istream& in, std::uint64_t size, const model_overrides& overrides = {});

// A model file by its path, streamed from its size on disk.
gpt_model read_model_file(const std::string& path, const model_overrides& overrides = {});

}  // namespace attention
