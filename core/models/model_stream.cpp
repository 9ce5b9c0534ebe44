#include "models/model_stream.hpp"

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "models/model_loader.hpp"

namespace attention {

gpt_model read_model(std::istream& in, std::uint64_t size, const model_overrides& overrides) {
  unsigned char first[8] = {};
  in.read(reinterpret_cast<char*>(first), 8);
  const std::uint64_t n = safetensors_header_length(first, static_cast<std::size_t>(in.gcount()), size);
  std::string header(static_cast<std::size_t>(n), '\0');  // n ≤ limits::models::header_bytes
  in.read(header.data(), static_cast<std::streamsize>(n));
  ATTENTION_CHECK(static_cast<std::uint64_t>(in.gcount()) == n, "header: the file ends inside its ", n,
                  "-byte header");
  model_loader loader(plan_model(read_safetensors_header(header, size), overrides));
  std::vector<char> chunk(1u << 20);
  while (!loader.complete()) {
    const std::uint64_t left = loader.expected() - loader.received();
    in.read(chunk.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(chunk.size(), left)));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    loader.feed(reinterpret_cast<const unsigned char*>(chunk.data()), got);
  }
  ATTENTION_CHECK(!in.bad(), "model: cannot read the file");
  return loader.finish();
}

gpt_model read_model_file(const std::string& path, const model_overrides& overrides) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  ATTENTION_CHECK(file.is_open(), quote(path), ": cannot open");
  const std::streamoff size = file.tellg();
  ATTENTION_CHECK(size >= 0, quote(path), ": cannot read its size");
  file.seekg(0);
  return read_model(file, static_cast<std::uint64_t>(size), overrides);
}

}  // namespace attention
