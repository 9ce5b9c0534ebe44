#include "formats/safetensors.hpp"

#include <algorithm>
#include <cctype>

#include <nlohmann/json.hpp>

#include "errors/check.hpp"
#include "errors/quote.hpp"
#include "formats/json_text.hpp"
#include "formats/limits.hpp"
#include "tensor/tensor.hpp"

namespace attention {
namespace {

using json = nlohmann::json;

// safetensors' dtypes and their sizes; only F32, F16 and BF16 hold weights
// (models/), but a buffer the model ignores may be of any of them.
std::size_t item_bytes_of(const std::string& dtype) {
  static const std::map<std::string, std::size_t> sizes = {
      {"BOOL", 1}, {"U8", 1},  {"I8", 1},  {"F8_E5M2", 1}, {"F8_E4M3", 1}, {"I16", 2}, {"U16", 2}, {"F16", 2},
      {"BF16", 2}, {"I32", 4}, {"U32", 4}, {"F32", 4},     {"F64", 8},     {"I64", 8}, {"U64", 8}};
  const auto found = sizes.find(dtype);
  return found == sizes.end() ? 0 : found->second;
}

std::vector<std::uint64_t> sizes_of(const json& shape, const std::string& where) {
  const auto not_sizes = [&] { detail::fail(where, ": shape ", quote(shape.dump(), 40), " is not a list of sizes"); };
  if (!shape.is_array()) not_sizes();
  ATTENTION_CHECK(shape.size() <= limits::models::rank, where, ": shape has ", shape.size(),
                  " dimensions, beyond the limit of ", limits::models::rank);
  std::vector<std::uint64_t> sizes;
  for (const json& s : shape) {
    // 0 ≤ s < 2³¹, as torch_model.py reads them; negative and fractional sizes are not sizes
    if (!s.is_number_unsigned() || s.get<std::uint64_t>() >= (std::uint64_t{1} << 31)) not_sizes();
    sizes.push_back(s.get<std::uint64_t>());
  }
  return sizes;
}

// data_bytes: the file's data, or at most so much; `past` ends the message of a range beyond it
safetensors_tensor tensor_of(const std::string& name, const json& info, std::uint64_t data_bytes, const std::string& past) {
  const std::string where = tensor_place(name);
  ATTENTION_CHECK(info.is_object() && info.size() == 3 && info.contains("dtype") && info.contains("shape") &&
                      info.contains("data_offsets"),
                  where, ": needs exactly dtype, shape and data_offsets");
  safetensors_tensor t;
  t.name = name;
  const json& dtype = info.at("dtype");
  t.item_bytes = dtype.is_string() ? item_bytes_of(dtype.get<std::string>()) : 0;
  ATTENTION_CHECK(t.item_bytes != 0, where, ": dtype ", dtype.is_string() ? quote(dtype.get<std::string>()) : dtype.dump(),
                  ", expected F32, F16 or BF16");
  t.dtype = dtype.get<std::string>();
  t.shape = sizes_of(info.at("shape"), where);
  const json& offsets = info.at("data_offsets");
  const bool pair = offsets.is_array() && offsets.size() == 2 && offsets[0].is_number_unsigned() &&
                    offsets[1].is_number_unsigned() && offsets[0].get<std::uint64_t>() <= offsets[1].get<std::uint64_t>();
  ATTENTION_CHECK(pair, where, ": data_offsets ", quote(offsets.dump(), 40), " is not [begin, end]");
  t.begin = offsets[0].get<std::uint64_t>();
  t.end = offsets[1].get<std::uint64_t>();
  ATTENTION_CHECK(t.end <= data_bytes, "header: data_offsets of ", where, " run past ", past);
  // counted in 64 bits, saturating: a product past 2⁶⁴ is never wrapped into a small one
  std::uint64_t n = 1;
  for (std::uint64_t s : t.shape) n = saturating_times(n, s);
  t.elements = n;
  const std::uint64_t bytes = saturating_times(n, t.item_bytes);
  ATTENTION_CHECK(bytes != UINT64_MAX, where, ": shape ", shape_text(t.shape), " holds more numbers than any file can");
  ATTENTION_CHECK(bytes == t.end - t.begin, where, ": shape ", shape_text(t.shape), " in ", t.dtype, " needs ", bytes,
                  " bytes, data_offsets give ", t.end - t.begin);
  return t;
}

}  // namespace

std::string tensor_place(const std::string& name) {
  bool plain = !name.empty() && name.size() <= 100;
  for (char c : name) plain = plain && (std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-');
  return plain ? name : quote(name);
}

std::uint64_t safetensors_header_length(const unsigned char* first, std::size_t available, std::uint64_t file_size) {
  ATTENTION_CHECK(file_size >= 8 && available >= 8, "header: the file is shorter than the 8-byte header length");
  std::uint64_t n = 0;
  for (int byte = 7; byte >= 0; --byte) n = (n << 8) | first[byte];  // little-endian
  ATTENTION_CHECK(n >= 2 && n <= file_size - 8, "header: length ", n, " does not fit a file of ", file_size, " bytes");
  ATTENTION_CHECK(n <= limits::models::header_bytes, "header: length ", n, " is beyond the limit of ",
                  limits::models::header_bytes, " bytes");
  return n;
}

namespace {

// The header against data of exactly `data_bytes` (sized) or at most that many.
safetensors_header read_header(std::string_view text, std::uint64_t data_bytes, bool sized, const std::string& past) {
  safetensors_header h;
  h.header_bytes = text.size();
  h.data_bytes = data_bytes;
  const json header = read_json(text, "header", limits::models::header_bytes, limits::models::header_depth);
  ATTENTION_CHECK(header.is_object(), "header: not a JSON object");
  ATTENTION_CHECK(header.size() <= limits::models::tensors + 1, "header: ", header.size(),
                  " entries, beyond the limit of ", limits::models::tensors, " tensors");
  for (const auto& item : header.items()) {
    if (item.key() == "__metadata__") {
      ATTENTION_CHECK(item.value().is_object(), "__metadata__: must map strings to strings");
      for (const auto& entry : item.value().items()) {
        ATTENTION_CHECK(entry.value().is_string(), "__metadata__.", tensor_place(entry.key()),
                        ": expected a string (metadata maps strings to strings)");
        h.metadata[entry.key()] = entry.value().get<std::string>();
      }
      continue;
    }
    h.tensors.push_back(tensor_of(item.key(), item.value(), h.data_bytes, past));
  }
  // file order; then the ranges must tile the data: no overlap, no gap, nothing after
  std::sort(h.tensors.begin(), h.tensors.end(), [](const safetensors_tensor& a, const safetensors_tensor& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  std::uint64_t covered = 0;
  const safetensors_tensor* previous = nullptr;
  for (const safetensors_tensor& t : h.tensors) {
    ATTENTION_CHECK(t.begin >= covered, "header: data_offsets of ", tensor_place(t.name), " overlap those of ",
                    tensor_place(previous ? previous->name : ""));
    ATTENTION_CHECK(t.begin == covered, "header: bytes ", covered, " to ", t.begin,
                    " of the data belong to no tensor (a gap before ", tensor_place(t.name), ")");
    covered = t.end;
    previous = &t;
  }
  if (!sized) h.data_bytes = covered;  // the data ends where the tensors do
  ATTENTION_CHECK(covered == h.data_bytes, "header: the last ", h.data_bytes - covered,
                  " bytes of the file belong to no tensor");
  return h;
}

}  // namespace

safetensors_header read_safetensors_header(std::string_view text, std::uint64_t file_size) {
  ATTENTION_CHECK(file_size >= 8 + text.size(), "header: length ", text.size(), " does not fit a file of ", file_size,
                  " bytes");
  return read_header(text, file_size - 8 - text.size(), true, "the end of the file");
}

safetensors_header read_safetensors_header_unsized(std::string_view text, std::uint64_t max_data_bytes,
                                                   const std::string& source) {
  return read_header(text, max_data_bytes, false,
                     "the limit of " + std::to_string(max_data_bytes) + " data bytes of " + source);
}

}  // namespace attention
