#include "models/model_stream.hpp"

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/limits.hpp"
#include "formats/regular_file.hpp"
#include "models/model_loader.hpp"

namespace attention {

namespace {

// The data section through the loader, in 1 MiB chunks, as far as the header's tensors go.
loaded_model load_data(std::istream& in, model_plan plan) {
  model_loader loader(std::move(plan));
  std::vector<char> chunk(1u << 20);
  while (!loader.complete()) {
    const std::uint64_t left = loader.expected(0) - loader.received(0);  // a model file: one shard
    in.read(chunk.data(), static_cast<std::streamsize>(std::min<std::uint64_t>(chunk.size(), left)));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    loader.feed(0, reinterpret_cast<const unsigned char*>(chunk.data()), got);
  }
  ATTENTION_CHECK(!in.bad(), "model: cannot read the file");
  return loader.finish();
}

}  // namespace

loaded_model read_model_stream(std::istream& in, std::string_view first, std::uint64_t limit,
                            const model_overrides& overrides) {
  const std::string source = "standard input";
  unsigned char length[8] = {};
  std::size_t have = std::min<std::size_t>(first.size(), 8);
  std::copy_n(first.data(), have, length);
  ATTENTION_CHECK(first.size() <= 8, "model: more than 8 bytes taken before the header");
  if (have < 8) {
    in.read(reinterpret_cast<char*>(length) + have, static_cast<std::streamsize>(8 - have));
    have += static_cast<std::size_t>(in.gcount());
  }
  ATTENTION_CHECK(have == 8, "header: the file is shorter than the 8-byte header length");
  std::uint64_t n = 0;
  for (int byte = 7; byte >= 0; --byte) n = (n << 8) | length[byte];  // little-endian
  ATTENTION_CHECK(n >= 2 && n <= limits::models::header_bytes, "header: length ", n, " is not within [2, ",
                  limits::models::header_bytes, "] bytes, the limit of a model file's header");
  ATTENTION_CHECK(8 + n <= limit, "header: length ", n, " does not fit the limit of ", limit, " bytes of ", source);
  std::string header(static_cast<std::size_t>(n), '\0');
  in.read(header.data(), static_cast<std::streamsize>(n));
  ATTENTION_CHECK(static_cast<std::uint64_t>(in.gcount()) == n, "header: the file ends inside its ", n, "-byte header");
  loaded_model model = load_data(in, plan_model(read_safetensors_header_unsized(header, limit - 8 - n, source), overrides));
  ATTENTION_CHECK(in.peek() == std::char_traits<char>::eof(), "model: ", source,
                  " goes on after the header's last tensor (a model file ends there)");
  return model;
}

safetensors_header read_header_of(std::istream& in, std::uint64_t size) {
  unsigned char first[8] = {};
  in.read(reinterpret_cast<char*>(first), 8);
  const std::uint64_t n = safetensors_header_length(first, static_cast<std::size_t>(in.gcount()), size);
  std::string header(static_cast<std::size_t>(n), '\0');  // n ≤ limits::models::header_bytes
  in.read(header.data(), static_cast<std::streamsize>(n));
  ATTENTION_CHECK(static_cast<std::uint64_t>(in.gcount()) == n, "header: the file ends inside its ", n,
                  "-byte header");
  return read_safetensors_header(header, size);
}

loaded_model read_model(std::istream& in, std::uint64_t size, const model_overrides& overrides) {
  return load_data(in, plan_model(read_header_of(in, size), overrides));
}

loaded_model read_model_file(const std::string& path, const model_overrides& overrides) {
  regular_file_size(path, quote(path), "a model file");  // a FIFO would block the open below forever
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  ATTENTION_CHECK(file.is_open(), quote(path), ": cannot open");
  const std::streamoff size = file.tellg();
  ATTENTION_CHECK(size >= 0, quote(path), ": cannot read its size");
  file.seekg(0);
  return read_model(file, static_cast<std::uint64_t>(size), overrides);
}

}  // namespace attention
