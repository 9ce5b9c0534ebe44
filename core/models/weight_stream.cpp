#include "models/weight_stream.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "errors/check.hpp"
#include "tensor/tensor.hpp"

namespace attention {
namespace {

// Little-endian numbers of the file as float32: the byte order of x86 and
// wasm alike, so F32 is a plain copy.
float f32_at(const unsigned char* p) {
  float v;
  std::memcpy(&v, p, 4);
  return v;
}

float bits_float(std::uint32_t bits) {
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

// IEEE half to float32, exactly (every half is a float32).
float f16_at(const unsigned char* p) {
  const std::uint32_t h = static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8);
  const std::uint32_t sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1Fu, mantissa = h & 0x3FFu;
  if (exponent == 0) {  // zero or subnormal: mantissa · 2⁻²⁴
    const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return bits_float(sign | 0x7F800000u | (mantissa << 13));  // inf, NaN
  return bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

// BF16: the high half of a float32.
float bf16_at(const unsigned char* p) {
  return bits_float((static_cast<std::uint32_t>(p[0]) << 16) | (static_cast<std::uint32_t>(p[1]) << 24));
}

bool finite(float v) {
  std::uint32_t bits;
  std::memcpy(&bits, &v, 4);
  return (bits & 0x7F800000u) != 0x7F800000u;
}

// F32 side by side in the file and in place: a plain copy, the exponents'
// largest kept on the way (an all-ones exponent is a NaN or an infinity). One
// loop the compiler vectorizes, since this runs over every byte of a 500 MB
// file; false if any is not finite.
bool copy_f32(const unsigned char* src, std::size_t n, float* dst) {
  std::uint32_t largest = 0;
  for (std::size_t k = 0; k < n; ++k) {
    std::uint32_t bits;
    std::memcpy(&bits, src + 4 * k, 4);
    largest = std::max(largest, bits & 0x7F800000u);
    std::memcpy(dst + k, &bits, 4);
  }
  return largest != 0x7F800000u;
}

// n numbers to dst, stride apart; false if any is not finite.
template <typename Read>
bool convert(Read read, std::size_t item, const unsigned char* src, std::size_t n, float* dst, std::size_t stride) {
  bool all_finite = true;
  for (std::size_t k = 0; k < n; ++k) {
    const float v = read(src + k * item);
    all_finite &= finite(v);
    dst[k * stride] = v;
  }
  return all_finite;
}

// "[3, 17]": the position of element e in the file's shape.
std::string element_text(std::uint64_t e, const std::vector<std::uint64_t>& shape) {
  std::vector<std::uint64_t> index(shape.size());
  for (std::size_t i = shape.size(); i-- > 0;) {
    index[i] = shape[i] ? e % shape[i] : 0;
    e = shape[i] ? e / shape[i] : 0;
  }
  return shape_text(index);
}

}  // namespace

weight_placement placed_as_is(float* target, std::size_t rows, std::size_t cols) {
  weight_placement p;
  p.rows = p.row_block = rows;
  p.cols = p.col_block = cols;
  p.row_stride = cols;
  p.targets = {target};
  return p;
}

weight_placement placed_transposed(float* target, std::size_t rows, std::size_t cols) {
  weight_placement p;
  p.rows = p.row_block = rows;
  p.cols = p.col_block = cols;
  p.row_stride = 1;
  p.col_stride = rows;
  p.targets = {target};
  return p;
}

weight_placement placed_narrow(narrow_matrix& target, std::size_t at) {
  weight_placement p;
  p.narrow = &target;
  p.narrow_at = at;
  return p;
}

weight_placement placed_narrow_transposed(narrow_matrix& target, std::size_t at) {
  weight_placement p = placed_narrow(target, at);
  p.narrow_transposed = true;
  return p;
}

weight_stream::weight_stream(std::vector<safetensors_tensor> tensors, std::vector<weight_placement> places,
                             std::uint64_t data_bytes)
    : tensors_(std::move(tensors)), places_(std::move(places)), data_bytes_(data_bytes) {}

void weight_stream::store(const safetensors_tensor& t, const weight_placement& p, const unsigned char* bytes, std::uint64_t first,
                         std::size_t count) {
  const std::size_t item = t.item_bytes, blocks_per_row = p.cols / p.col_block;
  const bool f32 = t.dtype == "F32", f16 = t.dtype == "F16";  // else BF16 (the plan allows no other)
  std::size_t done = 0;
  while (done < count) {
    const auto e = static_cast<std::size_t>(first + done);  // < 2²⁹: the parameter limit
    const std::size_t r = e / p.cols, c = e % p.cols;
    // a run inside one target's row: col_block divides cols
    const std::size_t run = std::min(count - done, p.col_block - c % p.col_block);
    float* dst = p.targets[(r / p.row_block) * blocks_per_row + c / p.col_block] + (r % p.row_block) * p.row_stride +
                 (c % p.col_block) * p.col_stride;
    const unsigned char* src = bytes + done * item;
    const bool ok = f32 ? (p.col_stride == 1 ? copy_f32(src, run, dst) : convert(f32_at, item, src, run, dst, p.col_stride))
                    : f16 ? convert(f16_at, item, src, run, dst, p.col_stride)
                          : convert(bf16_at, item, src, run, dst, p.col_stride);
    if (!ok) {
      std::size_t k = 0;
      while (finite(dst[k * p.col_stride])) ++k;
      detail::fail(tensor_place(t.name), ": holds a NaN or an infinity (element ", element_text(e + k, t.shape),
                   ")");
    }
    done += run;
  }
}

void weight_stream::feed(const unsigned char* bytes, std::size_t n) {
  ATTENTION_CHECK(!spent_, "model: this load failed or finished; open the file again");
  try {
    ATTENTION_CHECK(n <= data_bytes_ - offset_, "model: more data than the header's tensors hold (",
                    data_bytes_, " bytes)");
    while (n > 0) {
      while (offset_ >= tensors_[current_].end) ++current_;  // past empty tensors too
      const safetensors_tensor& t = tensors_[current_];
      const weight_placement& p = places_[current_];
      const std::size_t take = static_cast<std::size_t>(std::min<std::uint64_t>(n, t.end - offset_));
      if (p.narrow != nullptr) {  // the bytes as they are; fill() checks each number its bytes complete
        const std::size_t at = p.narrow_at + static_cast<std::size_t>(offset_ - t.begin);
        const std::size_t bad = p.narrow_transposed ? p.narrow->fill_transposed(at, bytes, take)
                                                    : p.narrow->fill(at, bytes, take);
        if (bad != narrow_matrix::none)
          detail::fail(tensor_place(t.name), ": holds a NaN or an infinity (element ",
                       element_text(bad - p.narrow_at / t.item_bytes, t.shape), ")");
      } else if (!p.targets.empty()) {
        const std::size_t item = t.item_bytes;
        std::uint64_t at = offset_;  // where bytes[0] sits in the data
        const unsigned char* src = bytes;
        std::size_t left = take;
        if (partial_bytes_ > 0) {  // the rest of an element the last chunk split
          const std::size_t k = std::min(item - partial_bytes_, left);
          std::memcpy(partial_ + partial_bytes_, src, k);
          partial_bytes_ += k;
          src += k;
          left -= k;
          at += k;
          if (partial_bytes_ == item) {
            store(t, p, partial_, (at - item - t.begin) / item, 1);
            partial_bytes_ = 0;
          }
        }
        const std::size_t whole = left / item;
        if (whole > 0) store(t, p, src, (at - t.begin) / item, whole);
        left -= whole * item;
        if (left > 0) {  // an element split by the chunk's end: kept for the next
          std::memcpy(partial_, src + whole * item, left);
          partial_bytes_ = left;
        }
      }
      offset_ += take;
      bytes += take;
      n -= take;
    }
  } catch (...) {
    spent_ = true;
    throw;
  }
}

std::size_t weight_stream::prepare(std::size_t bytes) {
  constexpr std::size_t page = 4096 / sizeof(float);  // floats a page (wasm's pages are 64 KB; the OS's 4 KB)
  std::size_t touched = 0;
  if (spent_ || prepared_tensor_ < current_) {  // the data overtook it
    prepared_tensor_ = current_;
    prepared_target_ = prepared_floats_ = 0;
  }
  while (touched < bytes && !spent_ && prepared_tensor_ < places_.size()) {
    const weight_placement& p = places_[prepared_tensor_];
    if (p.narrow != nullptr) {  // its bytes in order: a page a byte ahead of the data
      touched += prepare_narrow(bytes - touched);
      continue;
    }
    const std::size_t each = p.targets.empty() ? 0 : p.rows * p.cols / p.targets.size();  // every target is alike
    std::size_t from = prepared_floats_;
    if (prepared_tensor_ == current_) {
      // only a tensor kept as it is, element e at e, is safe ahead of the data inside it
      const bool in_order = p.targets.size() == 1 && p.col_stride == 1 && p.row_stride == p.cols;
      const std::uint64_t begin = tensors_[current_].begin, item = tensors_[current_].item_bytes;
      const std::size_t written = offset_ > begin ? static_cast<std::size_t>((offset_ - begin) / item) + 1 : 0;
      from = in_order ? std::max(from, written + page) : each;
    }
    if (prepared_target_ >= p.targets.size() || from >= each) {
      ++prepared_tensor_;
      prepared_target_ = prepared_floats_ = 0;
      continue;
    }
    float* target = p.targets[prepared_target_];
    std::size_t k = from;
    for (; k < each && touched < bytes; k += page, touched += page * sizeof(float)) target[k] = 0.0f;
    prepared_floats_ = std::min(k, each);
    if (prepared_floats_ == each) {
      ++prepared_target_;
      prepared_floats_ = 0;
    }
  }
  return touched;
}

std::size_t weight_stream::prepare_narrow(std::size_t bytes) {
  constexpr std::size_t page = 4096;
  const weight_placement& p = places_[prepared_tensor_];
  const safetensors_tensor& t = tensors_[prepared_tensor_];
  const auto each = static_cast<std::size_t>(t.end - t.begin);
  std::size_t from = prepared_floats_;
  // transposed or in panels, the file's order is not the memory's: once the
  // data has begun, or another tensor's data shares the matrix, it may be anywhere
  const bool scattered = p.narrow_transposed || p.narrow->panelled();
  if (scattered && each != p.narrow->byte_size()) from = each;  // shared (q, k, v): another's data may be anywhere
  if (prepared_tensor_ == current_ && offset_ > t.begin)
    from = scattered ? each : std::max(from, static_cast<std::size_t>(offset_ - t.begin) + page);
  unsigned char* at = p.narrow->bytes() + p.narrow_at;
  std::size_t touched = 0, k = from;
  for (; k < each && touched < bytes; k += page, touched += page) at[k] = 0;
  prepared_floats_ = std::min(k, each);
  if (prepared_floats_ >= each) {
    ++prepared_tensor_;
    prepared_target_ = prepared_floats_ = 0;
  }
  return touched;
}

}  // namespace attention
