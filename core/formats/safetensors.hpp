// The safetensors container (https://huggingface.co/docs/safetensors): an
// 8-byte little-endian header length N, N bytes of JSON naming each tensor's
// dtype, shape and byte range, then the data. Only the header is read here,
// and all of it is checked against the file's size before anything is
// allocated: the data then streams through models/, chunk by chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attention {

struct safetensors_tensor {
  std::string name;
  std::string dtype;                 // as written: F32, F16, BF16, or another safetensors dtype
  std::size_t item_bytes = 0;        // bytes of one element of that dtype
  std::vector<std::uint64_t> shape;  // each below 2³¹
  std::uint64_t elements = 0;        // their product
  std::uint64_t begin = 0, end = 0;  // bytes in the data section, which starts after the header
};

struct safetensors_header {
  std::uint64_t header_bytes = 0;           // N
  std::uint64_t data_bytes = 0;             // the file after the header: the tensors', end to end
  std::vector<safetensors_tensor> tensors;  // in file order (by begin)
  std::map<std::string, std::string> metadata;
};

// N from the file's first 8 bytes (`available` of them given), checked against
// the file's size and limits::models::header_bytes.
std::uint64_t safetensors_header_length(const unsigned char* first, std::size_t available, std::uint64_t file_size);

// The N bytes of the header, checked: JSON with no duplicate key, every entry
// exactly dtype, shape and data_offsets, a known dtype, sizes that agree with
// the byte range, every range inside the file, and the ranges tiling the data
// with no gap and no overlap; __metadata__ maps strings to strings.
safetensors_header read_safetensors_header(std::string_view header, std::uint64_t file_size);

// The same checks for a file whose size is not known before it is read
// (standard input): its data is taken to end where its tensors' ranges do,
// which must be within `max_data_bytes` after the header; `source` names the
// stream in messages.
safetensors_header read_safetensors_header_unsized(std::string_view header, std::uint64_t max_data_bytes,
                                                   const std::string& source);

// A tensor's name as messages show it: as it is when it is made of letters,
// digits, '.', '_' and '-' (h.3.attn.c_attn.weight), quoted otherwise.
std::string tensor_place(const std::string& name);

}  // namespace attention
