// A model file read from a stream of known size (the command line, the
// tests, the fuzzer): the header first, checked, then the data in 1 MiB
// chunks through model_loader, as the page feeds it from a File in a worker.
#pragma once

#include <cstdint>
#include <istream>
#include <string>
#include <string_view>

#include "models/loaded_model.hpp"

namespace attention {

// A safetensors file's header from a stream of known size, checked against
// it (the 8-byte length first); the stream is left at the data.
safetensors_header read_header_of(std::istream& in, std::uint64_t size);

loaded_model read_model(std::istream& in, std::uint64_t size, const model_overrides& overrides = {});

// A model file from a stream whose size is not known (standard input), read
// in a bounded way: the 8-byte header length is checked before the header is
// read, the header's tensors say how far the data goes (at most `limit`
// bytes in all), and a byte after them is refused. `first`: bytes already
// taken from the stream. Memory stays the header and one chunk beside the weights.
loaded_model read_model_stream(std::istream& in, std::string_view first, std::uint64_t limit,
                            const model_overrides& overrides = {});

// A model file by its path, streamed from its size on disk; a directory is
// named as one.
loaded_model read_model_file(const std::string& path, const model_overrides& overrides = {});

}  // namespace attention
